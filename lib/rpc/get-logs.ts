/**
 * `eth_getLogs`: the logs of sealed blocks in range (a block's bloom skips it when it cannot
 * match) and, when the range reaches the pending block on an endpoint that serves it, those
 * of the pre-confirmed block, each once.
 */
import { toHex } from '../bytes.ts'
import type { IncludedTransaction } from '../blocks/block.ts'
import type { BlockResolver } from '../engine/block-resolver.ts'
import type { UpstreamChain } from '../engine/upstream-chain.ts'
import { InvalidParamsError, ResourceNotFoundError, UpstreamError } from '../errors.ts'
import { toQuantity } from './hex.ts'
import { formatLog, pendingRef, sealedRef, type BlockRef } from './format-transaction.ts'
import { bloomMayMatch, matchesLog, type LogFilter, type LogQuery } from './log-filter.ts'

function collect(filter: LogFilter, transactions: readonly IncludedTransaction[], block: BlockRef, into: unknown[]): void {
  for (const included of transactions) {
    const { receipt } = included
    receipt.logs.forEach((log, i) => {
      if (matchesLog(filter, log)) into.push(formatLog(log, receipt.firstLogIndex + i, included, block))
    })
  }
}

/**
 * The logs `query` selects on a forked chain: the upstream's for the blocks up to the fork
 * block (asked of it with the block numbers this chain's tags name), then this chain's, in order.
 */
export async function getLogsAcrossFork(blocks: BlockResolver, upstream: UpstreamChain, query: LogQuery): Promise<unknown[]> {
  const filter = {
    address: query.addresses,
    topics: query.topics.map((choices) => (choices === null ? null : choices.map((topic) => toHex(topic)))),
  }
  if (query.blockHash !== undefined) {
    const local = blocks.byHash(query.blockHash)
    if (local !== undefined && local.header.number > upstream.forkNumber) return getLogs(blocks, query)
    const number = local?.header.number ?? (await upstream.numberOf(query.blockHash))
    if (number === undefined || number > upstream.forkNumber) throw new ResourceNotFoundError('unknown block')
    return (await upstream.forward('eth_getLogs', [{ ...filter, blockHash: query.blockHash }])) as unknown[]
  }
  const from = blocks.numberOf(query.fromBlock)
  const to = blocks.numberOf(query.toBlock)
  if (from > to || from > upstream.forkNumber) return getLogs(blocks, query)
  const last = to < upstream.forkNumber ? to : upstream.forkNumber
  const upstreamLogs = (await upstream.forward('eth_getLogs', [{ ...filter, fromBlock: toQuantity(from), toBlock: toQuantity(last) }])) as unknown[]
  if (!Array.isArray(upstreamLogs)) throw new UpstreamError(`upstream answered eth_getLogs with ${typeof upstreamLogs} where a list of logs was expected`)
  return to <= upstream.forkNumber ? upstreamLogs : [...upstreamLogs, ...getLogs(blocks, { ...query, fromBlock: { number: upstream.forkNumber + 1n } })]
}

/** The logs `query` selects of the blocks the chain holds, formatted as `eth_getLogs` returns them. */
export function getLogs(blocks: BlockResolver, query: LogQuery): unknown[] {
  const logs: unknown[] = []
  if (query.blockHash !== undefined) {
    const block = blocks.byHash(query.blockHash)
    if (block === undefined) throw new ResourceNotFoundError('unknown block')
    collect(query, block.transactions, sealedRef(block), logs)
    return logs
  }
  const from = blocks.numberOf(query.fromBlock)
  const to = blocks.numberOf(query.toBlock)
  // geth's filter rules (eth/filters): -32602 for a reversed range and for one wholly past the
  // blocks there are (Anvil refuses the latter too); one that runs past them ends at the last.
  if (from > to) throw new InvalidParamsError('invalid block range params')
  const head = blocks.headNumber
  if (from > (blocks.servesPending ? head + 1n : head)) throw new InvalidParamsError('block range extends beyond current head block')
  for (let number = from > blocks.firstLocalNumber ? from : blocks.firstLocalNumber; number <= to && number <= head; number++) {
    const block = blocks.byNumber(number)!
    if (block.transactions.length > 0 && bloomMayMatch(query, block.header.logsBloom)) {
      collect(query, block.transactions, sealedRef(block), logs)
    }
  }
  const pendingNumber = head + 1n
  if (blocks.servesPending && from <= pendingNumber && pendingNumber <= to) {
    const { view } = blocks.pending
    collect(query, view.transactions, pendingRef(view), logs)
  }
  return logs
}
