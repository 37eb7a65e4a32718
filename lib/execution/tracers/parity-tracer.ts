/**
 * Parity's flat traces (the `trace_*` methods, as Anvil and Erigon serve them): every frame a
 * run opened, in the order it opened, with its path in the call tree (`traceAddress`) and how
 * many frames it opened itself (`subtraces`). Unlike geth's callTracer, the top frame's gas is
 * what the code was handed (the gas limit less the intrinsic gas) and its gas used what the code
 * spent, before refunds; errors are in Parity's words (geth's mapping in its flatCallTracer).
 */
import type { Address } from '../../types.ts'
import type { FrameEnd, FrameStart, FrameType, Tracer } from './tracer.ts'

/** One frame as Parity lists it, before its place in the chain (block, transaction) is added. */
export interface ParityTrace {
  readonly type: 'call' | 'create' | 'suicide'
  /** A call's opcode, lowercase (`call`, `staticcall`, `delegatecall`, `callcode`); undefined otherwise. */
  readonly callType: string | undefined
  /** A creation's opcode, lowercase (`create`, `create2`); undefined otherwise. */
  readonly creationMethod: string | undefined
  /** The caller (for a self-destruct: the account destroyed). */
  readonly from: Address
  /** The callee, the created address (also a failed creation's), or a self-destruct's beneficiary. */
  to: Address | undefined
  readonly gas: bigint
  /** The call's input, or a creation's init code. */
  readonly input: Uint8Array
  readonly value: bigint
  gasUsed: bigint
  /** The return data (a revert's data), or a creation's deployed code. */
  output: Uint8Array
  /** Parity's words for how the frame failed; undefined on success. */
  error: string | undefined
  /** Whether the frame has a result: not after a failure other than a revert, nor for a self-destruct. */
  hasResult: boolean
  readonly traceAddress: readonly number[]
  subtraces: number
}

/** geth's errors in Parity's words (eth/tracers/native/call_flat.go), and Anvil's for a refused transfer. */
const PARITY_ERRORS: Readonly<Record<string, string>> = {
  'contract creation code storage out of gas': 'Out of gas',
  'code store out of gas': 'Out of gas',
  'out of gas': 'Out of gas',
  'gas uint64 overflow': 'Out of gas',
  'max code size exceeded': 'Out of gas',
  'invalid jump destination': 'Bad jump destination',
  'execution reverted': 'Reverted',
  'return data out of bounds': 'Out of bounds',
  'stack limit reached 1024 (1023)': 'Out of stack',
  'precompiled failed': 'Built-in failed',
  'invalid input length': 'Built-in failed',
  'insufficient balance for transfer': 'Insufficient balance for transfer',
}
const PARITY_ERROR_PREFIXES: readonly (readonly [string, string])[] = [
  ['out of gas:', 'Out of gas'],
  ['invalid opcode:', 'Bad instruction'],
  ['stack underflow', 'Stack underflow'],
]

/** The frames a call opens. */
const CALL_TYPES: ReadonlySet<FrameType> = new Set(['CALL', 'STATICCALL', 'DELEGATECALL', 'CALLCODE'])

/** geth's text for a revert. */
const REVERTED = 'execution reverted'

/** `error` (geth's words) in Parity's. */
export function parityError(error: string): string {
  return PARITY_ERRORS[error] ?? PARITY_ERROR_PREFIXES.find(([prefix]) => error.startsWith(prefix))?.[1] ?? error
}

/** Lists the frames of a run as Parity does. */
export class ParityTracer implements Tracer<ParityTrace[]> {
  private readonly traces: ParityTrace[] = []
  /** The frames open now, innermost last; undefined for a frame left out. */
  private readonly open: (ParityTrace | undefined)[] = []

  /** @param leftOut addresses whose calls moving no value are not listed below the top frame (a replay's precompiles) */
  constructor(private readonly leftOut: ReadonlySet<Address> = new Set()) {}

  onEnter(frame: FrameStart): void {
    // Never the transaction's own frame (revm-inspectors' is_precompile_call).
    if (frame.depth > 0 && frame.to !== undefined && !frame.value && this.leftOut.has(frame.to) && CALL_TYPES.has(frame.type)) {
      this.open.push(undefined)
      return
    }
    const parent = this.open.at(-1)
    const traceAddress = parent === undefined ? [] : [...parent.traceAddress, parent.subtraces]
    if (parent !== undefined) parent.subtraces++
    const creates = frame.type === 'CREATE' || frame.type === 'CREATE2'
    const destructs = frame.type === 'SELFDESTRUCT'
    const trace: ParityTrace = {
      type: creates ? 'create' : destructs ? 'suicide' : 'call',
      callType: creates || destructs ? undefined : frame.type.toLowerCase(),
      creationMethod: creates ? frame.type.toLowerCase() : undefined,
      from: frame.from,
      to: frame.to,
      gas: frame.gas,
      input: frame.input,
      // A STATICCALL moves no value: Parity lists 0.
      value: frame.value ?? 0n,
      gasUsed: 0n,
      output: new Uint8Array(0),
      error: undefined,
      hasResult: !destructs,
      traceAddress,
      subtraces: 0,
    }
    this.traces.push(trace)
    this.open.push(trace)
  }

  onExit(end: FrameEnd): void {
    const trace = this.open.pop()
    if (trace === undefined) return
    trace.gasUsed = end.gasUsed
    if (end.createdAddress !== undefined) trace.to = end.createdAddress
    if (end.error !== undefined) {
      trace.error = parityError(end.error)
      // Only a revert keeps its result (its data); geth's flatCallTracer drops the others'.
      trace.hasResult &&= end.error === REVERTED
    }
    // The return data, a revert's data, or a creation's deployed code (a reverted creation's revert data, as Anvil and geth list it).
    trace.output = end.output
  }

  result(): ParityTrace[] {
    return this.traces
  }
}
