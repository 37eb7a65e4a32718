/**
 * geth's callTracer: the tree of call frames a run opened (calls, creations, self-destructs),
 * each with its gas, gas used, input, output, error and revert reason, and with `withLog` the
 * logs each frame emitted and where among its sub-calls. The top frame's gas is the whole gas
 * limit and its gas used the receipt's, as geth reports them.
 */
import type { Address } from '../../types.ts'
import { revertReason } from '../revert-reason.ts'
import type { CallTracerConfig, FrameEnd, FrameStart, FrameType, TraceStart, TracedLog, Tracer } from './tracer.ts'

/** A log as the callTracer records it. */
export interface CallLog extends TracedLog {
  /** How many sub-calls of its frame came before it. */
  readonly position: number
}

/** One call frame. */
export interface CallFrame {
  readonly type: FrameType
  readonly from: Address
  gas: bigint
  gasUsed: bigint
  /** Absent for a creation that failed. */
  to: Address | undefined
  readonly input: Uint8Array
  /** Absent when empty, and after a failure other than a revert. */
  output: Uint8Array | undefined
  error: string | undefined
  revertReason: string | undefined
  readonly calls: CallFrame[]
  logs: CallLog[]
  readonly value: bigint | undefined
}

/** Builds the call tree of a run. */
export class CallTracer implements Tracer<CallFrame> {
  private readonly stack: CallFrame[] = []
  private top: CallFrame | undefined
  private gasLimit = 0n
  /** The depth of the frame running now. */
  private depth = 0

  constructor(private readonly config: CallTracerConfig) {}

  onTxStart(start: TraceStart): void {
    this.gasLimit = start.gasLimit
  }

  onEnter(frame: FrameStart): void {
    this.depth = frame.depth
    if (this.config.onlyTopCall && frame.depth > 0) return
    const call: CallFrame = {
      type: frame.type,
      from: frame.from,
      gas: frame.depth === 0 ? this.gasLimit : frame.gas,
      gasUsed: 0n,
      to: frame.to,
      input: frame.input,
      output: undefined,
      error: undefined,
      revertReason: undefined,
      calls: [],
      logs: [],
      value: frame.value,
    }
    this.stack.push(call)
  }

  onExit(end: FrameEnd): void {
    this.depth = end.depth - 1
    if (this.config.onlyTopCall && end.depth > 0) return
    const call = this.stack.pop()
    if (call === undefined) return
    call.gasUsed = end.gasUsed
    if (end.createdAddress !== undefined) call.to = end.createdAddress
    if (end.error === undefined) {
      call.output = end.output.length > 0 ? end.output : undefined
    } else {
      call.error = end.error
      if (call.type === 'CREATE' || call.type === 'CREATE2') call.to = undefined
      if (end.reverted && end.output.length > 0) {
        call.output = end.output
        call.revertReason = revertReason(end.output)
      }
    }
    const parent = this.stack.at(-1)
    if (parent === undefined) this.top = call
    else parent.calls.push(call)
  }

  onLog(log: TracedLog): void {
    if (!this.config.withLog || (this.config.onlyTopCall && this.depth > 0)) return
    const frame = this.stack.at(-1)
    if (frame !== undefined) frame.logs.push({ ...log, position: frame.calls.length })
  }

  onTxEnd(gasUsed: bigint): void {
    if (this.top === undefined) return
    this.top.gasUsed = gasUsed
    if (this.config.withLog) clearFailedLogs(this.top, false)
  }

  result(): CallFrame {
    if (this.top === undefined) throw new Error('the traced run opened no frame')
    return this.top
  }
}

/** Logs of failed frames (and of everything under them) never happened: geth drops them. */
function clearFailedLogs(frame: CallFrame, parentFailed: boolean): void {
  const failed = parentFailed || frame.error !== undefined
  if (failed) frame.logs = []
  for (const call of frame.calls) clearFailedLogs(call, failed)
}
