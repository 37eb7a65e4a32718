/**
 * Where the builder takes transactions from, in order: system sources first (an OP-stack
 * chain's deposits), then the mempool. Each tick asks every source for an ordering of its
 * candidates and tells it which it included and which it dropped.
 */
import type { BlockContext } from '../execution/block-context.ts'
import { heldAccount } from '../state/state-source.ts'
import type { StateView } from '../state/state-view.ts'
import { effectiveTip, type Transaction, type UserTransaction } from '../transactions/transaction.ts'
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
  /** The head is done with (included, or dropped because the state's nonce has passed it): what follows it (the sender's next nonce) may come next. */
  next(): void
  /** The head cannot go in this tick: skip it, and what depends on it, for the rest of the tick. */
  skipped(): void
}

/**
 * Whether the choices of a tick worked out ahead (a draft) still stand: the tick run now would
 * try the same transactions first, in the same order, before anything else.
 */
export interface ChoiceWatch {
  /** Whether a tick now would try `tried` (the draft's transactions from this source, in the order it tried them) first. */
  holds(tried: readonly Transaction[]): boolean
  /** Stops watching. */
  end(): void
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
  /** Whether the source still holds `transaction` (one without it tries each transaction once). */
  holds?(transaction: Transaction): boolean
  /** Watches the source for changes that would overturn a tick's choices in `context`; a source without it is never drafted from. */
  watch?(context: BlockContext): ChoiceWatch
  /** Whether the source makes `transaction` afresh for each block, from its context (an OP-stack chain's L1-attributes deposit): a block holding only such may open anew. */
  remakes?(transaction: Transaction): boolean
  /** Takes back, ahead of what waits, those of `transactions` it gave to a pending block that is opened anew (the queued deposits of its opening pre-confirmation). */
  restore?(transactions: readonly Transaction[]): void
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
      return { peek: () => queue.peek()?.transaction, next: () => queue.shift(), skipped: () => queue.pop() }
    },
    remove: (transaction) => pool.remove(transaction as UserTransaction),
    holds: (transaction) => pool.get(transaction.hash) === transaction,
    watch(context) {
      const changes = pool.watch()
      return {
        // The draft tried heads best first; a transaction that arrived since comes after all of
        // them (ties go to the earlier arrival) unless its tip beats the lowest tried: then, or
        // if one of them left the pool, or an undo put back an earlier entry, the order may differ.
        holds(tried) {
          if (changes.restored) return false
          if (tried.length === 0) return true
          let lowest: bigint | undefined
          for (const transaction of tried) {
            if (changes.left.has(transaction as UserTransaction)) return false
            const tip = effectiveTip(transaction as UserTransaction, context.baseFeePerGas)
            if (lowest === undefined || tip < lowest) lowest = tip
          }
          return changes.arrived.every(({ transaction }) => effectiveTip(transaction, context.baseFeePerGas) <= lowest!)
        },
        end: () => pool.unwatch(changes),
      }
    },
  }
}

/**
 * A fixed list as the user source, tried once each in its order: a block holding only these
 * transactions (`anvil_reorg`'s replacement blocks). One that cannot go in is passed over.
 */
export function listSource(transactions: readonly UserTransaction[]): TransactionSource {
  let next = 0
  const advance = (): void => {
    next++
  }
  return {
    kind: 'user',
    prune: () => [],
    candidates: () => ({ peek: () => transactions[next], next: advance, skipped: advance }),
    remove: () => {},
  }
}
