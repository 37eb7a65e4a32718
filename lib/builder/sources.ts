/**
 * Where the builder takes transactions from, in order: system sources first (an OP-stack
 * chain's deposits), then the mempool. Each tick asks every source for an ordering of its
 * candidates and tells it which it included and which it dropped.
 */
import type { BlockContext } from '../execution/block-context.ts'
import { heldAccount } from '../state/state-source.ts'
import type { StateView } from '../state/state-view.ts'
import type { Transaction, UserTransaction } from '../transactions/transaction.ts'
import { TransactionQueue } from '../txpool/transaction-queue.ts'
import type { TxPool } from '../txpool/txpool.ts'
import type { SourceKind } from './policy.ts'

/** A transaction the builder took out of its source without including it, and why. */
export interface DroppedTransaction {
  readonly transaction: Transaction
  /** e.g. `insufficient funds for gas * price + value`, `nonce below the state's`. */
  readonly reason: string
}

/** The candidates of one source for one tick, best first. */
export interface CandidateQueue {
  /** The next transaction to try, or undefined when the source has no more for this tick. */
  peek(): Transaction | undefined
  /** The head was included; what follows it (the sender's next nonce) may come next. */
  included(): void
  /** The head cannot go in this tick: skip it, and what depends on it, for the rest of the tick. */
  skipped(): void
}

/** A supplier of transactions to the builder. */
export interface TransactionSource {
  readonly kind: SourceKind
  /** Takes out, with reasons, transactions that can never execute on `state` any more. */
  prune(state: StateView): DroppedTransaction[]
  /** This tick's candidates, for the block in `context` on `state` (once read, on a fork whose state loads lazily). */
  candidates(context: BlockContext, state: StateView): CandidateQueue | Promise<CandidateQueue>
  /** `transaction` was included, or dropped: it leaves the source. */
  remove(transaction: Transaction): void
}

function nonceIn(state: StateView): (sender: UserTransaction['sender']) => bigint {
  return (sender) => heldAccount(state, sender)?.nonce ?? 0n
}

/** The mempool as a source: each sender in nonce order, best effective tip first (geth's order). */
export function poolSource(pool: TxPool): TransactionSource {
  return {
    kind: 'user',
    prune(state) {
      const nonceOf = nonceIn(state)
      const stale: DroppedTransaction[] = []
      for (const sender of pool.senders()) {
        const nonce = nonceOf(sender)
        for (const { transaction } of pool.fromSender(sender)) {
          if (transaction.nonce < nonce) stale.push({ transaction, reason: `nonce ${transaction.nonce} below the state's ${nonce}` })
        }
      }
      return stale
    },
    candidates(context, state) {
      const queue = new TransactionQueue(pool, context.baseFeePerGas, nonceIn(state))
      return { peek: () => queue.peek()?.transaction, included: () => queue.shift(), skipped: () => queue.pop() }
    },
    remove: (transaction) => pool.remove(transaction as UserTransaction),
  }
}
