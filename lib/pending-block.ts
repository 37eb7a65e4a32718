/**
 * The pre-confirmed block: the block being built on top of the head, its state overlay and the
 * transactions pre-confirmed so far. Its context (number, timestamp, base fee) is fixed when it
 * opens, so what a transaction saw when pre-confirmed is what the sealed block records.
 */
import type { IncludedTransaction } from './blocks/block.ts'
import type { BlockContext } from './execution/block-context.ts'
import { StateLayer } from './state/state-layer.ts'
import type { StateView } from './state/state-view.ts'
import type { Hash } from './types.ts'

/** The block under construction. */
export class PendingBlock {
  /** The overlay: every write of the pre-confirmed transactions, over the head state. */
  readonly state: StateLayer
  readonly transactions: IncludedTransaction[] = []
  /** The pre-confirmed transactions by hash. */
  readonly transactionsByHash = new Map<Hash, IncludedTransaction>()
  gasUsed = 0n
  logCount = 0
  /** Pre-confirmation ticks run so far; the next one gets this flashblock index. */
  ticks = 0

  constructor(
    readonly context: BlockContext,
    readonly parentHash: Hash,
    head: StateView,
  ) {
    this.state = new StateLayer(head)
  }

  /** Appends one tick's transactions and block totals. */
  append(included: readonly IncludedTransaction[], gasUsed: bigint, logCount: number): void {
    for (const transaction of included) {
      this.transactions.push(transaction)
      this.transactionsByHash.set(transaction.transaction.hash, transaction)
    }
    this.gasUsed = gasUsed
    this.logCount = logCount
    this.ticks++
  }
}
