/**
 * Otterscan's JSON (its custom-jsonrpc.md, as Anvil answers it): a transaction's internal
 * operations and call tree from its Parity traces, a block's details and a page of its
 * transactions, and a transaction with its receipt and block timestamp. Field order is Anvil's.
 */
import type { IncludedTransaction } from '../blocks/block.ts'
import type { ParityTrace } from '../execution/tracers/parity-tracer.ts'
import { formatIncluded, formatReceipt, type BlockRef } from './format-transaction.ts'
import { toData, toQuantity } from './hex.ts'
import type { NamedBlock } from './named-block.ts'

/** `0x` and a 4-byte selector. */
const SELECTOR_HEX_LENGTH = 10

/** Otterscan's kinds of internal operation. */
const OPERATION = { transfer: 0, selfDestruct: 1, create: 2, create2: 3 } as const

interface InternalOperation {
  readonly type: number
  readonly from: string
  readonly to: string | undefined
  readonly value: string
}

/** The operation a frame is, if any (Anvil's `ots_internal_operations`): a CALL moving value, or a creation. */
function operationOf(trace: ParityTrace): InternalOperation | undefined {
  const type =
    trace.type === 'create'
      ? trace.creationMethod === 'create2'
        ? OPERATION.create2
        : OPERATION.create
      : trace.callType === 'call' && trace.value !== 0n
        ? OPERATION.transfer
        : undefined
  return type === undefined ? undefined : { type, from: trace.from, to: trace.to, value: toQuantity(trace.value) }
}

/**
 * A transaction's value transfers, creations and self-destructs, in the order their frames
 * opened, the top frame's included (Anvil's rule). A frame that self-destructed is listed as
 * the self-destruct (destroyed account, beneficiary, balance moved), not as its own kind.
 */
export function formatInternalOperations(traces: readonly ParityTrace[]): InternalOperation[] {
  const operations: (InternalOperation | undefined)[] = []
  const positionByPath = new Map<string, number>()
  for (const trace of traces) {
    if (trace.type === 'suicide') {
      const frame = positionByPath.get(trace.traceAddress.slice(0, -1).join())
      if (frame !== undefined) operations[frame] = { type: OPERATION.selfDestruct, from: trace.from, to: trace.to, value: toQuantity(trace.value) }
      continue
    }
    positionByPath.set(trace.traceAddress.join(), operations.length)
    operations.push(operationOf(trace))
  }
  return operations.filter((operation) => operation !== undefined)
}

/** A transaction's call tree, calls only (creations and self-destructs are left out, as Anvil leaves them), with each call's depth. */
export function formatTraceEntries(traces: readonly ParityTrace[]): Record<string, unknown>[] {
  return traces
    .filter((trace) => trace.type === 'call')
    .map((trace) => ({
      type: trace.callType!.toUpperCase(),
      depth: trace.traceAddress.length,
      from: trace.from,
      to: trace.to,
      value: toQuantity(trace.value),
      input: toData(trace.input),
      output: trace.hasResult ? toData(trace.output) : '0x',
    }))
}

/** `ots_getBlockDetails`: the block without its transactions but with their count, what they paid, and no issuance (none after the merge). */
export function formatBlockDetails(found: NamedBlock): Record<string, unknown> {
  const { transactions, ...block } = found.json(false)
  let totalFees = 0n
  for (const { receipt } of found.transactions) totalFees += receipt.gasUsed * receipt.effectiveGasPrice
  return {
    block: { ...block, transactionCount: found.transactions.length },
    issuance: { blockReward: '0x0', uncleReward: '0x0', issuance: '0x0' },
    totalFees: toQuantity(totalFees),
  }
}

/** A receipt as Otterscan lists it: with its block's timestamp. */
export function formatTimedReceipt(included: IncludedTransaction, block: BlockRef): Record<string, unknown> {
  return { ...formatReceipt(included, block), timestamp: toQuantity(block.timestamp) }
}

/**
 * `ots_getBlockTransactions`: page `page` of the block's transactions (`pageSize` each), in full
 * in the block's JSON but each input cut to its selector (the spec's saving, as Anvil cuts it;
 * the block's `transactionCount` counts the page, as Anvil's does), with their receipts.
 */
export function formatBlockTransactions(found: NamedBlock, page: number, pageSize: number): Record<string, unknown> {
  const start = page * pageSize
  const paged = found.transactions.slice(start, start + pageSize)
  const fullblock = found.json(false)
  fullblock.transactions = paged.map((included) => {
    const json = formatIncluded(included, found.ref)
    return { ...json, input: (json.input as string).slice(0, SELECTOR_HEX_LENGTH) }
  })
  return {
    fullblock: { ...fullblock, transactionCount: paged.length },
    receipts: paged.map((included) => formatTimedReceipt(included, found.ref)),
  }
}
