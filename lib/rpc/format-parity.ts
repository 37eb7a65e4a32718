/**
 * Parity's flat traces in JSON, as Anvil (and Erigon) answer `trace_*`: each frame's action and
 * result by its type, and its place in the chain (block, transaction). Field order is Anvil's.
 */
import type { ParityTrace } from '../execution/tracers/parity-tracer.ts'
import type { Hash } from '../types.ts'
import { toData, toQuantity } from './hex.ts'

/** Where a traced transaction is: its block (the pre-confirmed block's hash is zero) and its index there. */
export interface TracePlace {
  readonly blockHash: Hash
  readonly blockNumber: bigint
  readonly transactionHash: Hash
  readonly transactionPosition: number
}

function actionOf(trace: ParityTrace): Record<string, unknown> {
  switch (trace.type) {
    case 'call':
      return { from: trace.from, callType: trace.callType, gas: toQuantity(trace.gas), input: toData(trace.input), to: trace.to, value: toQuantity(trace.value) }
    case 'create':
      return { from: trace.from, gas: toQuantity(trace.gas), init: toData(trace.input), value: toQuantity(trace.value), creationMethod: trace.creationMethod }
    case 'suicide':
      return { address: trace.from, balance: toQuantity(trace.value), refundAddress: trace.to }
  }
}

function resultOf(trace: ParityTrace): Record<string, unknown> | null {
  if (!trace.hasResult) return null
  if (trace.type === 'create') return { address: trace.to, code: toData(trace.output), gasUsed: toQuantity(trace.gasUsed) }
  return { gasUsed: toQuantity(trace.gasUsed), output: toData(trace.output) }
}

/** One transaction's traces at `place`. */
export function formatParityTraces(traces: readonly ParityTrace[], place: TracePlace): Record<string, unknown>[] {
  return traces.map((trace) => ({
    action: actionOf(trace),
    blockHash: place.blockHash,
    blockNumber: Number(place.blockNumber),
    ...(trace.error === undefined ? {} : { error: trace.error }),
    result: resultOf(trace),
    subtraces: trace.subtraces,
    traceAddress: trace.traceAddress,
    transactionHash: place.transactionHash,
    transactionPosition: place.transactionPosition,
    type: trace.type,
  }))
}
