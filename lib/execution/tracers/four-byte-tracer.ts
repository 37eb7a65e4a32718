/**
 * geth's 4byteTracer (eth/tracers/native/4byte.go): how often each 4-byte selector was called
 * with each size of arguments, over the calls a run made (CALL, CALLCODE, DELEGATECALL,
 * STATICCALL, the transaction's own included; no creation, no precompile, no input under 4
 * bytes), keyed `0x<selector>-<argument bytes>`.
 */
import { toHex } from '../../bytes.ts'
import type { Address } from '../../types.ts'
import type { FrameStart, FrameType, Tracer } from './tracer.ts'

/** The frames whose input names a function. */
const CALLS: ReadonlySet<FrameType> = new Set(['CALL', 'CALLCODE', 'DELEGATECALL', 'STATICCALL'])

/** Counts selector-and-size pairs; its result is keyed as geth's, in geth's (sorted) order. */
export class FourByteTracer implements Tracer<Map<string, number>> {
  private readonly counts = new Map<string, number>()

  constructor(private readonly precompiles: ReadonlySet<Address>) {}

  onEnter(frame: FrameStart): void {
    if (frame.input.length < 4 || !CALLS.has(frame.type) || (frame.to !== undefined && this.precompiles.has(frame.to))) return
    const key = `${toHex(frame.input.subarray(0, 4))}-${frame.input.length - 4}`
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1)
  }

  result(): Map<string, number> {
    return new Map([...this.counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
  }
}
