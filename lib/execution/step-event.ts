/**
 * The step event tracers hear before each opcode runs (the library's InterpreterStep, which
 * evm-hooks.ts and the transfer tracer read), made by the devnet's interpreter
 * (interpreter-loop.ts): its memory is copied only when first read, and listeners that answer at
 * once cost no promise.
 */

/** What the event reads of the interpreter's run state. */
interface SteppedRunState {
  readonly programCounter: number
  readonly gasRefund: bigint
  readonly stack: { getStack(): bigint[] }
  readonly memory: { _store: Uint8Array }
  readonly stateManager: unknown
}

/** What the event reads of the frame running. */
interface SteppedFrame {
  readonly depth: number
  readonly address: unknown
  readonly contract: unknown
  readonly codeAddress: unknown
}

/** What the event reads of the opcode's table entry. */
interface OpcodeFacts {
  readonly code: number
  readonly fee: number
  readonly fullName: string
  readonly isAsync: boolean
}

/** A `step` listener: one that takes a callback is awaited until it calls it (the library's `_emit`). */
export type StepListener = (event: StepEvent, done?: () => void) => void

/** Calls `listeners` from `from` in turn with `event`, as the library's `_emit`; a promise only if one answers later. */
export function notify(listeners: readonly StepListener[], event: StepEvent, from: number): Promise<void> | undefined {
  for (let i = from; i < listeners.length; i++) {
    const listener = listeners[i]
    if (listener.length !== 2) {
      listener(event)
      continue
    }
    let answered = false
    let resume: (() => void) | undefined
    listener(event, () => {
      answered = true
      resume?.()
    })
    if (!answered) return new Promise<void>((resolve) => (resume = resolve)).then(() => notify(listeners, event, i + 1))
  }
  return undefined
}

/** The library's step event (InterpreterStep) for legacy code, its memory copied when first read; without REVERT's data and EOF's fields, which no tracer here reads. */
export class StepEvent {
  readonly pc: number
  readonly gasRefund: bigint
  readonly opcode: { name: string; fee: number; dynamicFee: bigint; isAsync: boolean; code: number }
  readonly stack: bigint[]
  readonly depth: number
  readonly address: unknown
  readonly account: unknown
  readonly codeAddress: unknown
  readonly stateManager: unknown
  private copy: Uint8Array | undefined

  constructor(
    private readonly runState: SteppedRunState,
    env: SteppedFrame,
    info: OpcodeFacts,
    dynamicFee: bigint,
    readonly gasLeft: bigint,
    readonly memoryWordCount: bigint,
  ) {
    this.pc = runState.programCounter
    this.gasRefund = runState.gasRefund
    this.opcode = { name: info.fullName, fee: info.fee, dynamicFee, isAsync: info.isAsync, code: info.code }
    this.stack = runState.stack.getStack()
    this.depth = env.depth
    this.address = env.address
    this.account = env.contract
    this.codeAddress = env.codeAddress
    this.stateManager = runState.stateManager
  }

  /** Memory before the opcode runs (read it before the step's listeners return). */
  get memory(): Uint8Array {
    return (this.copy ??= this.runState.memory._store.slice(0, Number(this.memoryWordCount) * 32))
  }
}
