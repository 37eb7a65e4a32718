/**
 * The mempool: its transactions (`pool-entries.ts`) within geth's limits (`pool-bounds.ts`).
 * Admission goes through {@link TxPool.add}; the builder, the test controls and a requeued
 * pre-confirmation use the plain `insert` and `remove`, and the limits catch up with them at
 * the next admission or expiry.
 */
import type { UndoLog } from '../snapshots/undo-log.ts'
import type { UserTransaction } from '../transactions/transaction.ts'
import { PoolBounds, type AdmissionView, type PoolView } from './pool-bounds.ts'
import { PoolEntries, type PoolEntry } from './pool-entries.ts'
import type { TxPoolLimits } from './pool-options.ts'

/** Transactions waiting for pre-confirmation, within limits. */
export class TxPool extends PoolEntries {
  private readonly bounds: PoolBounds

  constructor(undoLog: UndoLog | undefined, limits: TxPoolLimits) {
    super(undoLog)
    this.bounds = new PoolBounds(this, limits, undoLog)
  }

  /**
   * Pools a transaction that passed the nonce and funds checks, evicting the cheapest if the
   * pool is full (see {@link PoolBounds.admit}); returns whether it is still pooled.
   */
  add(transaction: UserTransaction, view: AdmissionView): boolean {
    return this.bounds.admit(transaction, view)
  }

  /** Drops the queued transactions of accounts idle longer than the lifetime (at the chain's clock `view.now`). */
  expire(view: PoolView): void {
    this.bounds.expire(view)
  }

  protected override added(entry: PoolEntry): void {
    this.bounds.added(entry)
  }
}
