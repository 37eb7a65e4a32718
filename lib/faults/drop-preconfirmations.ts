/**
 * A dropped pre-confirmation (a "flashblock reorg"): the last pre-confirmations of the pending
 * block are taken back, so their transactions are not in the block when it seals. Their
 * receipts go back to null and balances and nonces at `pending` step back; the transactions go
 * back to the mempool (to land in a later pre-confirmation) or are discarded. As on Base, no
 * subscription retracts what it announced.
 */
import type { PendingBlock, PreconfirmationRecord } from '../builder/pending-block.ts'
import { InvalidInputError } from '../errors.ts'
import type { Transaction, UserTransaction } from '../transactions/transaction.ts'
import type { Hash } from '../types.ts'
import type { DropMode } from './fault-options.ts'

/** What to drop: the last `count` pre-confirmations, or those from the first one holding any of `transactions` on. */
export interface DropRequest {
  readonly count?: number
  /** Transactions to drop: every pre-confirmation from the first holding one of them is taken back. */
  readonly transactions?: readonly Hash[]
  /** What becomes of the dropped transactions; with `transactions`, the others taken back are always requeued. */
  readonly mode: DropMode
}

/** What a drop took back. */
export interface DroppedPreconfirmations {
  /** The pending block's number. */
  readonly blockNumber: bigint
  /** The pre-confirmations taken back, in order. */
  readonly preconfirmations: readonly PreconfirmationRecord[]
  /** Transactions gone for good. */
  readonly discarded: readonly Transaction[]
  /** Transactions back in the mempool. */
  readonly requeued: readonly Transaction[]
}

/** Where the drop starts: the index of the first pre-confirmation it takes back. */
function firstDropped(pending: PendingBlock, request: DropRequest, firstDroppable: number): number {
  const { preconfirmations } = pending
  if (request.transactions === undefined) return Math.max(firstDroppable, preconfirmations.length - (request.count ?? 1))
  let first = preconfirmations.length
  for (const hash of request.transactions) {
    const at = preconfirmations.findIndex((preconfirmation) => preconfirmation.transactions.some(({ transaction }) => transaction.hash === hash))
    if (at === -1) throw new InvalidInputError(`transaction ${hash} is not pre-confirmed in the pending block`)
    if (at < firstDroppable) throw new InvalidInputError(`transaction ${hash} is a system transaction of the block's opening pre-confirmation, which is never dropped`)
    first = Math.min(first, at)
  }
  return first
}

/**
 * Takes back pre-confirmations of `pending` per `request` (never those before
 * `firstDroppable`: an OP-stack block's opening one, which holds its system transactions), and
 * hands each transaction to `requeue` or drops it.
 */
export function dropPreconfirmations(pending: PendingBlock, request: DropRequest, firstDroppable: number, requeue: (transaction: UserTransaction) => void): DroppedPreconfirmations {
  const named = request.transactions === undefined ? undefined : new Set(request.transactions)
  const withdrawn = pending.truncate(firstDropped(pending, request, firstDroppable))
  const discarded: Transaction[] = []
  const requeued: Transaction[] = []
  for (const { transactions } of withdrawn) {
    for (const { transaction } of transactions) {
      const dropped = named === undefined || named.has(transaction.hash)
      if ((dropped && request.mode === 'discard') || transaction.kind === 'deposit') {
        discarded.push(transaction)
      } else {
        requeue(transaction)
        requeued.push(transaction)
      }
    }
  }
  return { blockNumber: pending.context.number, preconfirmations: withdrawn, discarded, requeued }
}
