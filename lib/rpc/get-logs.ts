/**
 * `eth_getLogs`: the logs of sealed blocks in range (a block's bloom skips it when it cannot
 * match) and, when `toBlock` is `pending`, those of the pre-confirmed block, each once.
 */
import type { IncludedTransaction } from '../blocks/block.ts'
import type { BlockResolver } from '../engine/block-resolver.ts'
import { ResourceNotFoundError, ExecutionFailedError } from '../errors.ts'
import type { Hash } from '../types.ts'
import { formatLog, PENDING_BLOCK_HASH } from './format.ts'
import { bloomMayMatch, matchesLog, type LogFilter, type LogQuery } from './log-filter.ts'

function collect(filter: LogFilter, transactions: readonly IncludedTransaction[], blockHash: Hash, blockNumber: bigint, into: unknown[]): void {
  for (const included of transactions) {
    const { receipt } = included
    receipt.logs.forEach((log, i) => {
      if (matchesLog(filter, log)) into.push(formatLog(log, receipt.firstLogIndex + i, included, blockHash, blockNumber))
    })
  }
}

/** The logs `query` selects, formatted as `eth_getLogs` returns them. */
export function getLogs(blocks: BlockResolver, query: LogQuery): unknown[] {
  const logs: unknown[] = []
  if (query.blockHash !== undefined) {
    const block = blocks.byHash(query.blockHash)
    if (block === undefined) throw new ResourceNotFoundError('unknown block')
    collect(query, block.transactions, block.hash, block.header.number, logs)
    return logs
  }
  const from = blocks.numberOf(query.fromBlock)
  const to = blocks.numberOf(query.toBlock)
  if (from > to) throw new ExecutionFailedError('invalid block range params')
  const head = blocks.headNumber
  for (let number = from; number <= to && number <= head; number++) {
    const block = blocks.byNumber(number)!
    if (block.transactions.length > 0 && bloomMayMatch(query, block.header.logsBloom)) {
      collect(query, block.transactions, block.hash, number, logs)
    }
  }
  const pendingNumber = head + 1n
  if (from <= pendingNumber && pendingNumber <= to) {
    const { pending } = blocks
    collect(query, pending.transactions, PENDING_BLOCK_HASH, pending.context.number, logs)
  }
  return logs
}
