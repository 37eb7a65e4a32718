/**
 * The pre-confirmed block: the block being built on top of the head, its state overlay and the
 * transactions pre-confirmed so far. Its context (number, timestamp, base fee) is fixed when it
 * opens, so what a transaction saw when pre-confirmed is what the sealed block records.
 */
import type { IncludedTransaction } from './blocks/block.ts'
import type { BlockContext } from './execution/block-context.ts'
import { StateLayer } from './state/state-layer.ts'
import type { StateView } from './state/state-view.ts'
import type { UndoLog } from './snapshots/undo-log.ts'
import type { Hash } from './types.ts'

/** The block under construction. */
export class PendingBlock {
  /** The overlay: every write of the pre-confirmed transactions, over the head state. */
  readonly state: StateLayer
  /** The transactions pre-confirmed so far, in order. */
  readonly transactions: IncludedTransaction[] = []
  /** The pre-confirmed transactions by hash. */
  readonly transactionsByHash = new Map<Hash, IncludedTransaction>()
  /** Gas used by the pre-confirmed transactions. */
  gasUsed = 0n
  /** Logs emitted by the pre-confirmed transactions (the next log's index). */
  logCount = 0
  /** Pre-confirmation ticks run so far; the next one gets this flashblock index. */
  ticks = 0
  private blockContext: BlockContext

  constructor(
    context: BlockContext,
    /** The head it builds on. */
    readonly parentHash: Hash,
    head: StateView,
    private readonly undoLog?: UndoLog,
  ) {
    this.blockContext = context
    this.state = new StateLayer(head, undoLog)
  }

  /** Number, timestamp, base fee, … of the block: what its transactions execute in. */
  get context(): BlockContext {
    return this.blockContext
  }

  /** Gives the block a new timestamp; only while it has pre-confirmed nothing (time controls). */
  restamp(timestamp: bigint): void {
    if (this.transactions.length > 0) throw new Error('a block with pre-confirmed transactions keeps its timestamp')
    const previous = this.blockContext
    this.blockContext = { ...previous, timestamp }
    if (this.undoLog?.recording) this.undoLog.record(() => (this.blockContext = previous))
  }

  /** Appends one tick's transactions and block totals. */
  append(included: readonly IncludedTransaction[], gasUsed: bigint, logCount: number): void {
    if (this.undoLog?.recording) {
      const { gasUsed: previousGas, logCount: previousLogs, ticks: previousTicks } = this
      const length = this.transactions.length
      this.undoLog.record(() => {
        for (const { transaction } of this.transactions.splice(length)) this.transactionsByHash.delete(transaction.hash)
        this.gasUsed = previousGas
        this.logCount = previousLogs
        this.ticks = previousTicks
      })
    }
    for (const transaction of included) {
      this.transactions.push(transaction)
      this.transactionsByHash.set(transaction.transaction.hash, transaction)
    }
    this.gasUsed = gasUsed
    this.logCount = logCount
    this.ticks++
  }
}
