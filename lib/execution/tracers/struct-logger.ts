/**
 * geth's default tracer, the struct logger: one entry per opcode with its gas, cost, depth and,
 * by option, stack, memory, return data and the storage the contract touched so far (on SLOAD
 * and SSTORE steps only); then the run's gas used, failure and return value.
 */
import type { Address } from '../../types.ts'
import type { FrameEnd, OpcodeStep, StructLoggerConfig, Tracer } from './tracer.ts'

const SSTORE = 'SSTORE'
const SLOAD = 'SLOAD'

/** One opcode as the struct logger records it. */
export interface StructLog {
  readonly pc: number
  readonly op: string
  readonly gas: bigint
  gasCost: bigint
  /** 1 for the transaction's own frame. */
  readonly depth: number
  /** geth's error text when the opcode failed before it ran (out of gas, stack). */
  error?: string
  /** Bottom first; absent with `disableStack`. */
  readonly stack?: readonly bigint[]
  /** Only with `enableReturnData`. */
  readonly returnData?: Uint8Array
  /** Only with `enableMemory`. */
  readonly memory?: Uint8Array
  /** On SLOAD and SSTORE steps (unless `disableStorage`): every slot of the contract the run touched so far. */
  readonly storage?: ReadonlyMap<bigint, bigint>
  readonly refund: bigint
}

/** The struct logger's result: geth's ExecutionResult. */
export interface StructLoggerResult {
  /** Gas used, as the receipt has it. */
  readonly gas: bigint
  readonly failed: boolean
  /** The output, or the revert data of a revert; empty after any other failure. */
  readonly returnValue: Uint8Array
  readonly structLogs: readonly StructLog[]
}

/** Records every opcode of a run. */
export class StructLogger implements Tracer<StructLoggerResult> {
  private readonly logs: StructLog[] = []
  /** Per contract, the slots read or written so far and their values. */
  private readonly storage = new Map<Address, Map<bigint, bigint>>()
  private outcome: FrameEnd | undefined
  private gasUsed = 0n

  constructor(private readonly config: StructLoggerConfig) {}

  onOpcode(step: OpcodeStep): void {
    const { config } = this
    this.logs.push({
      pc: step.pc,
      op: step.op,
      gas: step.gas,
      gasCost: step.cost,
      depth: step.depth,
      stack: config.disableStack ? undefined : step.stack,
      returnData: config.enableReturnData ? step.returnData : undefined,
      memory: config.enableMemory ? step.memory : undefined,
      storage: config.disableStorage ? undefined : this.touch(step),
      refund: step.refund,
    })
  }

  onOpcodeFault(error: string, cost?: bigint): void {
    const last = this.logs.at(-1)
    if (last === undefined) return
    last.error = error
    if (cost !== undefined) last.gasCost = cost
  }

  onExit(frame: FrameEnd): void {
    if (frame.depth === 0) this.outcome = frame
  }

  onTxEnd(gasUsed: bigint): void {
    this.gasUsed = gasUsed
  }

  result(): StructLoggerResult {
    const outcome = this.outcome
    const failed = outcome?.error !== undefined
    return {
      gas: this.gasUsed,
      failed,
      returnValue: outcome === undefined || (failed && !outcome.reverted) ? new Uint8Array(0) : outcome.output,
      structLogs: this.logs,
    }
  }

  /** The contract's touched storage after an SLOAD or SSTORE step records its slot; undefined on other steps. */
  private touch(step: OpcodeStep): ReadonlyMap<bigint, bigint> | undefined {
    const { stack } = step
    const top = stack.length - 1
    let value: bigint
    if (step.op === SLOAD && top >= 0) value = step.loaded ?? 0n
    else if (step.op === SSTORE && top >= 1) value = stack[top - 1]
    else return undefined
    let slots = this.storage.get(step.address)
    if (slots === undefined) {
      slots = new Map()
      this.storage.set(step.address, slots)
    }
    slots.set(stack[top], value)
    return new Map(slots)
  }
}
