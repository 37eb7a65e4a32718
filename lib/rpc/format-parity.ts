/**
 * Parity's flat traces in JSON, as Anvil (and Erigon) answer `trace_*`: each frame's action and
 * result by its type, and its place in the chain (block, transaction); and a replayed
 * transaction's output, traces and state diff. Field order is Anvil's.
 */
import type { ParityTrace } from '../execution/tracers/parity-tracer.ts'
import type { ReplayResult } from '../execution/tracers/replay-tracer.ts'
import type { Delta, StateDiff } from '../execution/tracers/state-diff.ts'
import type { Hash } from '../types.ts'
import { toData, toQuantity, toWord } from './hex.ts'

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

/** A delta as Parity writes it: `=` unchanged, `{"+": value}` born, `{"*": {from, to}}` changed. */
function formatDelta<T>(delta: Delta<T>, format: (value: T) => string): unknown {
  switch (delta.kind) {
    case 'same':
      return '='
    case 'born':
      return { '+': format(delta.value) }
    case 'changed':
      return { '*': { from: format(delta.from), to: format(delta.to) } }
  }
}

function formatStateDiff(diff: StateDiff): Record<string, unknown> {
  const accounts: Record<string, unknown> = {}
  for (const [address, account] of diff) {
    const storage: Record<string, unknown> = {}
    for (const [slot, delta] of account.storage) storage[toWord(slot)] = formatDelta(delta, toWord)
    accounts[address] = { balance: formatDelta(account.balance, toQuantity), code: formatDelta(account.code, toData), nonce: formatDelta(account.nonce, toQuantity), storage }
  }
  return accounts
}

/** One transaction of `trace_replayBlockTransactions`: what was not asked for is null (`[]` for the traces), as Anvil answers. */
export function formatReplay(replay: ReplayResult, transactionHash: Hash): Record<string, unknown> {
  return {
    output: toData(replay.output),
    stateDiff: replay.stateDiff === undefined ? null : formatStateDiff(replay.stateDiff),
    trace: (replay.trace ?? []).map((trace) => ({
      type: trace.type,
      action: actionOf(trace),
      ...(trace.error === undefined ? {} : { error: trace.error }),
      result: resultOf(trace),
      subtraces: trace.subtraces,
      traceAddress: trace.traceAddress,
    })),
    vmTrace: null,
    transactionHash,
  }
}
