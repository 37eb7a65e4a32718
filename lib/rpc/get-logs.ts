/**
 * `eth_getLogs`: the logs of sealed blocks in range (a block's bloom skips it when it cannot
 * match) and, when the range reaches the pending block on an endpoint that serves it, those
 * of the pre-confirmed block, each once.
 */
import type { IncludedTransaction } from '../blocks/block.ts'
import type { BlockResolver } from '../engine/block-resolver.ts'
import { ResourceNotFoundError, ExecutionFailedError } from '../errors.ts'
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

/** The logs `query` selects, formatted as `eth_getLogs` returns them. */
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
  if (from > to) throw new ExecutionFailedError('invalid block range params')
  const head = blocks.headNumber
  for (let number = from; number <= to && number <= head; number++) {
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
