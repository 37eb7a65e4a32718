/**
 * Connects a tracer to @ethereumjs/evm for one run: `beforeMessage` / `afterMessage` become
 * frames entered and left, `step` becomes opcodes with geth's gas cost, logs, faults and the
 * frames geth opens without a message (SELFDESTRUCT, a call refused for balance or depth).
 * Listeners exist only while a traced run lasts: untraced runs emit nothing (the interpreter
 * skips its step hook when no one listens).
 */
import type { EVMResult, InterpreterStep, Message } from '@ethereumjs/evm'
import { bigIntToBytes, bytesToBigInt, setLengthLeft } from '@ethereumjs/util'
import { addressOfWord } from '../../bytes.ts'
import type { Address } from '../../types.ts'
import type { DevnetEVM } from '../devnet-evm.ts'
import { evmErrorText } from '../evm-errors.ts'
import { CALL, CALLCODE, CREATE, CREATE2, DELEGATECALL, EXTCODECOPY, INVALID, LOG0, LOG4, PREVRANDAO, SELFDESTRUCT, SLOAD, SSTORE, STATICCALL } from '../opcode-bytes.ts'
import { calleeGas, frameOf, memorySlice } from './frame-opening.ts'
import { isRefusedCharge, isStepError } from './step-errors.ts'
import type { FrameStart, FrameType, OpcodeStep, TracerHooks } from './tracer.ts'

/** The opcodes that open a frame, by code. */
const FRAME_OPCODES: Readonly<Record<number, FrameType>> = { [CREATE]: 'CREATE', [CALL]: 'CALL', [CALLCODE]: 'CALLCODE', [DELEGATECALL]: 'DELEGATECALL', [CREATE2]: 'CREATE2', [STATICCALL]: 'STATICCALL' }
/** How many stack words each of them reads (with fewer it fails with a stack underflow before doing anything). */
const FRAME_OPERANDS: Readonly<Record<number, number>> = { [CREATE]: 3, [CALL]: 7, [CALLCODE]: 7, [DELEGATECALL]: 6, [CREATE2]: 4, [STATICCALL]: 6 }
/** The opcodes whose gas charge can be refused and whose warm access (EIP-2929) geth counts as fixed cost, where the library prices it with the rest. */
const WARM_FIXED_COST = new Set([CALL, CALLCODE, DELEGATECALL, STATICCALL, EXTCODECOPY])
/** EIP-150's call depth limit: a frame at this depth cannot call or create. */
const MAX_DEPTH = 1024

/** A frame being run. */
interface OpenFrame {
  readonly depth: number
  readonly type: FrameType
  /** Init code of a creation (its code is not in state while it runs). */
  readonly initCode: Uint8Array | undefined
  /** The frame's call value (a DELEGATECALL passes it on). */
  readonly value: bigint
  /** The log index when the frame opened (restored if it fails). */
  readonly logMark: number
  /** Return data of the frame's last call. */
  returnData: Uint8Array
  /** geth's name of the frame's last opcode. */
  lastOp: string | undefined
  /** A call or creation opcode whose frame has not opened yet. */
  opening: FrameStart | undefined
  /** The SELFDESTRUCT the frame ran, as its frame opens. */
  selfdestruct: FrameStart | undefined
  /** Whether the frame's last opcode had the gas for its own cost (a creation's RETURN that had, yet ran out of gas, ran out storing the code). */
  lastPaid: boolean
  /** geth's fixed cost of the last opcode, all it counts when the opcode's gas charge is refused: the library's fee, and a warm access ({@link WARM_FIXED_COST}). */
  lastFixedCost: bigint
  /** The refund counter when the frame opened (what it returns to if the frame fails). */
  readonly refundAtEntry: bigint
}

/** A step as tracers see it ({@link OpcodeStep}), its memory copied only if one reads it. */
class ReportedStep implements OpcodeStep {
  readonly pc: number
  readonly gas: bigint
  readonly stack: readonly bigint[]
  readonly address: Address

  constructor(
    private readonly step: InterpreterStep,
    readonly op: string,
    readonly cost: bigint,
    readonly depth: number,
    readonly returnData: Uint8Array,
    readonly refund: bigint,
    readonly loaded: bigint | undefined,
  ) {
    this.pc = step.pc
    this.gas = step.gasLeft
    this.stack = step.stack
    this.address = step.address.toString() as Address
  }

  get memory(): Uint8Array {
    return this.step.memory
  }
}

/** One traced run's connection to the EVM; {@link detach} it when the run ends, however it ends. */
export class TraceSession {
  private readonly frames: OpenFrame[] = []
  private logIndex: number
  /**
   * The refund counter before the next opcode. The EVM reports an SSTORE's step with its
   * refund already applied; geth logs the counter before the opcode runs.
   */
  private refund = 0n
  /** A failure inside a listener (reported after the run: a listener must always let the EVM go on). */
  private failure: unknown
  /** Whether the run opened a frame at all (a plain transfer runs no EVM). */
  entered = false
  /** A warm access (EIP-2929), where the chain's rules have it (see {@link WARM_FIXED_COST}). */
  private readonly warmAccessCost: bigint

  private readonly onBefore = (message: Message): void => this.enter(message)
  private readonly onAfter = (result: EVMResult): void => this.exit(result)
  /** Takes `resolve` (two parameters), so the EVM awaits it: storage and balance reads are asynchronous. */
  private readonly onStep = (step: InterpreterStep, resolve?: () => void): void => {
    let pending: Promise<void> | undefined
    try {
      pending = this.step(step)
    } catch (error) {
      this.failure ??= error
    }
    if (pending === undefined) resolve?.()
    else
      pending.then(resolve, (error: unknown) => {
        this.failure ??= error
        resolve?.()
      })
  }

  /**
   * @param firstLogIndex the block index of the run's first log
   */
  constructor(
    private readonly evm: DevnetEVM,
    private readonly tracer: TracerHooks,
    firstLogIndex: number,
  ) {
    this.logIndex = firstLogIndex
    this.warmAccessCost = evm.common.isActivatedEIP(2929) ? evm.common.param('warmstoragereadGas') : 0n
    evm.events.on('beforeMessage', this.onBefore)
    evm.events.on('afterMessage', this.onAfter)
    evm.events.on('step', this.onStep)
  }

  /** Removes the listeners; throws what a listener failed with, if anything did. */
  detach(): void {
    this.evm.events.off('beforeMessage', this.onBefore)
    this.evm.events.off('afterMessage', this.onAfter)
    this.evm.events.off('step', this.onStep)
    if (this.failure !== undefined) throw this.failure
  }

  private enter(message: Message): void {
    this.entered = true
    const { depth } = message
    const parent = this.frames.at(-1)
    const opened = parent?.opening
    if (parent !== undefined) parent.opening = undefined
    const type: FrameType = opened?.type ?? (message.to === undefined ? 'CREATE' : 'CALL')
    const isCreate = type === 'CREATE' || type === 'CREATE2'
    const caller = message.caller.toString() as Address
    const self = message.to?.toString() as Address | undefined
    // The code's address is set (and readable) only when it is not the callee's.
    const code = type === 'DELEGATECALL' || type === 'CALLCODE' ? (message.codeAddress.toString() as Address) : undefined
    // The EVM hands a callee a view of its caller's memory, which later opcodes overwrite: keep a copy.
    const input = message.data.slice()
    const frame: FrameStart = {
      depth,
      type,
      from: type === 'DELEGATECALL' ? self! : caller,
      to: isCreate ? undefined : type === 'DELEGATECALL' || type === 'CALLCODE' ? code : self,
      input,
      gas: message.gasLimit,
      value: type === 'STATICCALL' ? undefined : message.value,
    }
    this.frames.push({
      depth,
      type,
      initCode: isCreate ? input : undefined,
      value: message.value,
      logMark: this.logIndex,
      returnData: new Uint8Array(0),
      lastOp: undefined,
      opening: undefined,
      selfdestruct: undefined,
      lastPaid: true,
      lastFixedCost: 0n,
      refundAtEntry: message.gasRefund,
    })
    this.refund = message.gasRefund
    this.tracer.onEnter?.(frame)
  }

  private exit(result: EVMResult): void {
    const frame = this.frames.pop()!
    const execution = result.execResult
    const failure = execution.exceptionError
    const isCreate = frame.type === 'CREATE' || frame.type === 'CREATE2'
    // A creation whose RETURN could pay for itself ran out of gas storing its code: geth's step carries no error.
    const storingCode = isCreate && frame.lastOp === 'RETURN' && frame.lastPaid
    if (failure !== undefined && isStepError(failure) && frame.lastOp !== undefined && !storingCode) {
      this.tracer.onOpcodeFault?.(evmErrorText(failure, frame.lastOp), isRefusedCharge(failure) ? frame.lastFixedCost : undefined)
    }
    this.refund = failure === undefined ? (execution.gasRefund ?? frame.refundAtEntry) : frame.refundAtEntry
    if (failure === undefined && frame.opening !== undefined) this.refuse(frame)
    if (failure === undefined && frame.selfdestruct !== undefined) this.openClosedFrame(frame.selfdestruct, undefined)
    if (failure !== undefined) this.logIndex = frame.logMark
    const reverted = failure?.error === 'revert'
    const parent = this.frames.at(-1)
    if (parent !== undefined) parent.returnData = reverted || (failure === undefined && !isCreate) ? execution.returnValue : new Uint8Array(0)
    this.tracer.onExit?.({
      depth: frame.depth,
      output: execution.returnValue,
      gasUsed: execution.executionGasUsed,
      error: failure === undefined ? undefined : evmErrorText(failure, frame.lastOp),
      reverted,
      createdAddress: result.createdAddress?.toString() as Address | undefined,
    })
  }

  /** The frame's last call or creation never opened its frame: the EVM refused it for depth or balance, as geth's frame says. */
  private refuse(frame: OpenFrame): void {
    this.openClosedFrame(frame.opening!, frame.depth >= MAX_DEPTH ? 'max call depth exceeded' : 'insufficient balance for transfer')
    frame.opening = undefined
    frame.returnData = new Uint8Array(0)
  }

  /** A frame geth opens and closes at once: a SELFDESTRUCT, or a call refused before it ran. */
  private openClosedFrame(frame: FrameStart, error: string | undefined): void {
    this.tracer.onEnter?.(frame)
    this.tracer.onExit?.({ depth: frame.depth, output: new Uint8Array(0), gasUsed: 0n, error, reverted: error !== undefined, createdAddress: undefined })
  }

  private step(step: InterpreterStep): Promise<void> | undefined {
    const frame = this.frames.at(-1)!
    if (frame.opening !== undefined) this.refuse(frame)
    const code = step.opcode.code
    // geth still calls 0x44 DIFFICULTY.
    const name = code === PREVRANDAO ? 'DIFFICULTY' : step.opcode.name
    const top = step.stack.at(-1)
    if (code === INVALID) return this.nameUndefined(step, frame).then((op) => this.report(step, frame, op, undefined))
    // Short of operands, SLOAD and SELFDESTRUCT fail with a stack underflow before they read anything.
    if (code === SLOAD && top !== undefined) {
      return step.stateManager.getStorage(step.address, setLengthLeft(bigIntToBytes(top), 32)).then((word) => this.report(step, frame, name, word))
    }
    if (code === SELFDESTRUCT && top !== undefined) {
      return step.stateManager.getAccount(step.address).then((account) => {
        const from = step.address.toString() as Address
        frame.selfdestruct = { depth: frame.depth + 1, type: 'SELFDESTRUCT', from, to: addressOfWord(top), input: new Uint8Array(0), gas: 0n, value: account?.balance ?? 0n }
        this.report(step, frame, name, undefined)
      })
    }
    this.report(step, frame, name, undefined)
    return undefined
  }

  /** geth's name of an opcode the EVM runs as INVALID: INVALID itself, or `opcode 0x.. not defined`. */
  private async nameUndefined(step: InterpreterStep, frame: OpenFrame): Promise<string> {
    const code = frame.initCode ?? (await step.stateManager.getCode(step.codeAddress))
    const byte = code[step.pc] ?? INVALID
    return byte === INVALID ? 'INVALID' : `opcode 0x${byte.toString(16)} not defined`
  }

  private report(step: InterpreterStep, frame: OpenFrame, op: string, loaded: Uint8Array | undefined): void {
    const code = step.opcode.code
    let cost = step.opcode.dynamicFee ?? BigInt(step.opcode.fee)
    const opens = FRAME_OPCODES[code]
    frame.lastFixedCost = BigInt(step.opcode.fee) + (WARM_FIXED_COST.has(code) ? this.warmAccessCost : 0n)
    if (opens !== undefined && step.stack.length >= FRAME_OPERANDS[code]) {
      frame.opening = frameOf(opens, step, frame.depth + 1, cost, frame.value)
      // geth counts the gas a call hands its callee (not the stipend) in the call's cost; a creation's is not.
      if (opens !== 'CREATE' && opens !== 'CREATE2') cost += calleeGas(step.stack[step.stack.length - 1], step.gasLeft, cost)
    }
    frame.lastOp = op
    frame.lastPaid = step.gasLeft >= cost
    const refund = code === SSTORE ? this.refund : step.gasRefund
    this.refund = step.gasRefund
    const { tracer } = this
    tracer.onOpcode?.(new ReportedStep(step, op, cost, frame.depth + 1, frame.returnData, refund, loaded === undefined ? undefined : bytesToBigInt(loaded)))
    if (code >= LOG0 && code <= LOG4 && step.stack.length >= 2 + code - LOG0) this.log(step)
  }

  private log(step: InterpreterStep): void {
    const stack = step.stack
    const top = stack.length - 1
    const topics: Uint8Array[] = []
    for (let i = 0; i < step.opcode.code - LOG0; i++) topics.push(setLengthLeft(bigIntToBytes(stack[top - 2 - i]), 32))
    this.tracer.onLog?.({ address: step.address.toString() as Address, topics, data: memorySlice(step.memory, stack[top], stack[top - 1]), index: this.logIndex++ })
  }
}
