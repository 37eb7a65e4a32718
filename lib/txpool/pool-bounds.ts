/**
 * The pool's limits, kept as geth's legacypool keeps them (core/txpool/legacypool/legacypool.go),
 * with its texts: a full pool (`all.Slots()` over GlobalSlots + GlobalQueue) refuses a
 * transaction no better than its cheapest (`transaction underpriced`), or evicts the cheapest
 * to make room (`LegacyPool.add`); then, as its reorg does (`promoteExecutables`,
 * `truncatePending`, `truncateQueue`), an account's queue is capped at AccountQueue, executable
 * transactions beyond GlobalSlots are trimmed from the accounts holding over AccountSlots, and
 * queued ones beyond GlobalQueue from the accounts idle longest; an account idle longer than the
 * lifetime loses its queue (`loop`'s eviction ticker).
 *
 * geth runs that reorg on a goroutine after the call returns; here it runs before the
 * admission returns, so the limits hold at every moment and the same calls always evict the same
 * transactions. What geth's asynchrony bounds (`changesSinceReorg`: at most GlobalSlots / 4
 * executable transactions evicted between two reorgs, then `txpool is full`) is bounded here per
 * pre-confirmation tick, the devnet's reset of the pool on a new pending state. geth's eviction
 * ticker runs once a minute on the wall clock; here expiry runs on the chain's clock at each
 * admission and whenever the engine calls {@link PoolBounds.expire}. Every transaction can be
 * evicted: geth (1.15+) exempts none in the pool, and the devnet has no local-transaction
 * tracker to resubmit them, so the texts reach the caller as they do with `--txpool.nolocals`.
 * "Pending" is the pre-confirmed state's: an account's executable run starts at its nonce there.
 */
import { TransactionRejectedError, TransactionRejection } from '../errors.ts'
import type { UndoLog } from '../snapshots/undo-log.ts'
import type { UserTransaction } from '../transactions/transaction.ts'
import type { Address } from '../types.ts'
import { checkReplacement } from './admission.ts'
import { Heartbeats } from './heartbeats.ts'
import { numSlots, type PoolEntries, type PoolEntry } from './pool-entries.ts'
import type { TxPoolLimits } from './pool-options.ts'
import { PriceHeap } from './price-heap.ts'

/** What the limits read of the chain when they are applied. */
export interface PoolView {
  /** An account's nonce in the pending (pre-confirmed) state: its executable run starts there. */
  readonly nonceOf: (sender: Address) => bigint
  /** The chain's clock (ms). */
  readonly now: number
}

/** What an admission reads of the chain besides. */
export interface AdmissionView extends PoolView {
  /** The pending block's base fee: the price order's (geth's urgent heap at the next block's base fee). */
  readonly baseFee: bigint
  /** The pending block and its tick count: the eviction budget renews when they change. */
  readonly round: { readonly block: bigint; readonly tick: number }
}

/** An account's executable (pending) and queued transactions, as last counted. */
interface Standing {
  readonly pending: number
  readonly queued: number
}

/** The limits of one pool. */
export class PoolBounds {
  private readonly standings = new Map<Address, Standing>()
  private pendingTotal = 0
  private queuedTotal = 0
  /** Accounts with more executable transactions than AccountSlots (geth's `spammers`). */
  private readonly offenders = new Set<Address>()
  private readonly heartbeats = new Heartbeats()
  private readonly prices: PriceHeap
  /** Executable transactions evicted in `round` (geth's `changesSinceReorg`). */
  private changes = 0
  private round = { block: -1n, tick: -1 }

  constructor(
    private readonly pool: PoolEntries,
    private readonly limits: TxPoolLimits,
    private readonly undoLog: UndoLog | undefined,
  ) {
    this.prices = new PriceHeap(pool)
  }

  /** A transaction entered the pool (by any door: admission, a requeue, an undo). */
  added(entry: PoolEntry): void {
    this.prices.added(entry)
  }

  /**
   * Pools `transaction` within the limits (geth's `LegacyPool.add`, then its reorg for the
   * sender); the nonce and funds checks have passed. Throws, leaving the pool as it was (but
   * for the expiry of idle queues, which is the clock's doing), `transaction underpriced`,
   * `txpool is full`, `future transaction tries to replace pending` or `replacement transaction
   * underpriced`. Returns whether the transaction is still pooled: a
   * gapped one past its account's queue limit is accepted and dropped at once, as geth's reorg
   * drops it after the call returned.
   */
  admit(transaction: UserTransaction, view: AdmissionView): boolean {
    this.expire(view)
    const evicted = this.roomFor(transaction, view)
    const current = this.pool.atNonce(transaction.sender, transaction.nonce)
    if (current !== undefined && !evicted.includes(current)) {
      try {
        checkReplacement(current.transaction, transaction)
      } catch (error) {
        this.prices.restore(evicted)
        throw error
      }
    }
    if (evicted.length > 0) this.evict(evicted, view)
    this.pool.insert(transaction)
    this.settle(view)
    const standing = this.standings.get(transaction.sender)
    // geth's promoteTx and pending replacement renew the heartbeat of an account that sent an executable transaction.
    if (standing !== undefined && standing.queued > 0 && this.isPending(transaction, view)) this.heartbeats.beat(transaction.sender, view.now)
    this.capQueue(transaction.sender, view)
    this.truncatePending(view)
    this.truncateQueue(view)
    return this.pool.get(transaction.hash) === transaction
  }

  /** Drops the queues of accounts idle for longer than the lifetime on the chain's clock (geth's eviction ticker). */
  expire(view: PoolView): void {
    this.settle(view)
    for (let sender = this.heartbeats.oldest(); sender !== undefined; sender = this.heartbeats.oldest()) {
      if (view.now - this.heartbeats.at(sender)! <= this.limits.lifetimeMs) return
      for (const entry of this.queuedOf(sender, view)) this.pool.remove(entry.transaction)
      this.heartbeats.forget(sender)
      this.settle(view)
    }
  }

  /**
   * The transactions to evict for `transaction` to fit (none if it fits), taken out of the
   * price order; throws, with them put back, if it may not have them (geth's `add`, "if the
   * transaction pool is full, discard underpriced transactions").
   */
  private roomFor(transaction: UserTransaction, view: AdmissionView): PoolEntry[] {
    const { globalSlots, globalQueue } = this.limits
    const needed = numSlots(transaction)
    if (this.pool.slots + needed <= globalSlots + globalQueue) return []
    if (this.prices.underpriced(transaction, view.baseFee)) throw new TransactionRejectedError(TransactionRejection.underpriced)
    if (this.changesIn(view.round) > Math.floor(globalSlots / 4)) throw new TransactionRejectedError(TransactionRejection.txPoolFull)
    const evicted = this.prices.discard(this.pool.slots - (globalSlots + globalQueue) + needed, view.baseFee)
    if (evicted === undefined) throw new TransactionRejectedError(TransactionRejection.txPoolFull)
    // A future (gapped) transaction never churns executable ones.
    if (this.isGapped(transaction, view) && evicted.some(({ transaction: other }) => this.isPending(other, view))) {
      this.prices.restore(evicted)
      throw new TransactionRejectedError(TransactionRejection.futureReplacePending)
    }
    return evicted
  }

  /** The evictions counted so far in `round`, from zero in a new one. */
  private changesIn(round: AdmissionView['round']): number {
    if (round.block !== this.round.block || round.tick !== this.round.tick) {
      this.round = round
      this.changes = 0
    }
    return this.changes
  }

  /**
   * Evicts `evicted`, counting (geth's `removeTx`) each executable one and those it demotes
   * behind it, a queued one nothing; a revert restores the count with the pool.
   */
  private evict(evicted: readonly PoolEntry[], view: PoolView): void {
    const { changes, round } = this
    if (this.undoLog?.recording) {
      this.undoLog.record(() => {
        this.changes = changes
        this.round = round
      })
    }
    for (const { transaction } of evicted) {
      const { start, end } = this.pool.executableRun(transaction.sender, view.nonceOf(transaction.sender))
      if (transaction.nonce >= start && transaction.nonce < end) this.changes += Number(end - transaction.nonce)
      this.pool.remove(transaction)
    }
  }

  /** Whether `transaction` is in its sender's executable run (geth's pending list). */
  private isPending(transaction: UserTransaction, view: PoolView): boolean {
    const { start, end } = this.pool.executableRun(transaction.sender, view.nonceOf(transaction.sender))
    return transaction.nonce >= start && transaction.nonce < end
  }

  /** Whether `transaction` leaves a nonce gap before it (geth's `isGapped`). */
  private isGapped(transaction: UserTransaction, view: PoolView): boolean {
    return transaction.nonce > this.pool.executableRun(transaction.sender, view.nonceOf(transaction.sender)).end
  }

  /** The sender's transactions outside its executable run, highest nonce first. */
  private queuedOf(sender: Address, view: PoolView): PoolEntry[] {
    const { start, end } = this.pool.executableRun(sender, view.nonceOf(sender))
    const queued = [...this.pool.fromSender(sender)].filter(({ transaction }) => transaction.nonce < start || transaction.nonce >= end)
    return queued.sort((a, b) => (a.transaction.nonce > b.transaction.nonce ? -1 : 1))
  }

  /** geth's `promoteExecutables` cap: an account's queue beyond AccountQueue loses its highest nonces. */
  private capQueue(sender: Address, view: PoolView): void {
    const queued = this.standings.get(sender)?.queued ?? 0
    if (queued <= this.limits.accountQueue) return
    for (const entry of this.queuedOf(sender, view).slice(0, queued - this.limits.accountQueue)) this.pool.remove(entry.transaction)
    this.settle(view)
  }

  /**
   * geth's `truncatePending`: while executable transactions exceed GlobalSlots, the accounts
   * holding over AccountSlots (the largest first; equal ones by address, for determinism) lose
   * their highest nonces, evened out down to the next one's count, then down to AccountSlots.
   */
  private truncatePending(view: PoolView): void {
    const { globalSlots, accountSlots } = this.limits
    if (this.pendingTotal <= globalSlots) return
    let pending = this.pendingTotal
    const lengths = new Map([...this.offenders].map((sender) => [sender, this.standings.get(sender)!.pending]))
    const spammers = [...lengths.keys()].sort((a, b) => lengths.get(b)! - lengths.get(a)! || (a < b ? -1 : 1))
    const dropLast = (sender: Address): void => {
      const { end } = this.pool.executableRun(sender, view.nonceOf(sender))
      this.pool.remove(this.pool.atNonce(sender, end - 1n)!.transaction)
      lengths.set(sender, lengths.get(sender)! - 1)
      pending--
    }
    const chosen: Address[] = []
    for (const offender of spammers) {
      if (pending <= globalSlots) break
      chosen.push(offender)
      if (chosen.length < 2) continue
      const threshold = lengths.get(offender)!
      while (pending > globalSlots && lengths.get(chosen[chosen.length - 2])! > threshold) {
        for (const sender of chosen.slice(0, -1)) dropLast(sender)
      }
    }
    while (pending > globalSlots && chosen.length > 0 && lengths.get(chosen[chosen.length - 1])! > accountSlots) {
      for (const sender of chosen) dropLast(sender)
    }
    this.settle(view)
  }

  /** geth's `truncateQueue`: queued transactions beyond GlobalQueue go, the highest nonces of the accounts idle longest first. */
  private truncateQueue(view: PoolView): void {
    while (this.queuedTotal > this.limits.globalQueue) {
      const sender = this.heartbeats.oldest()
      if (sender === undefined) return
      const victims = this.queuedOf(sender, view).slice(0, this.queuedTotal - this.limits.globalQueue)
      if (victims.length === 0) this.heartbeats.forget(sender)
      for (const entry of victims) this.pool.remove(entry.transaction)
      this.settle(view)
    }
  }

  /** Recounts the accounts whose transactions changed since the last count. */
  private settle(view: PoolView): void {
    this.pool.drainTouched((sender) => this.recount(sender, view))
  }

  /** Counts the sender's executable and queued transactions; its heartbeat starts with its queue and ends with it. */
  private recount(sender: Address, view: PoolView): void {
    const count = this.pool.countOf(sender)
    const before = this.standings.get(sender)
    const run = count === 0 ? undefined : this.pool.executableRun(sender, view.nonceOf(sender))
    const pending = run === undefined ? 0 : Number(run.end - run.start)
    const queued = count - pending
    this.pendingTotal += pending - (before?.pending ?? 0)
    this.queuedTotal += queued - (before?.queued ?? 0)
    if (count === 0) this.standings.delete(sender)
    else this.standings.set(sender, { pending, queued })
    if (pending > this.limits.accountSlots) this.offenders.add(sender)
    else this.offenders.delete(sender)
    if (queued === 0) this.heartbeats.forget(sender)
    else if (!this.heartbeats.has(sender)) this.heartbeats.beat(sender, view.now)
  }
}
