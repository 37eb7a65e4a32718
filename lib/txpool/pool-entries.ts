/**
 * The mempool's transactions, by hash and by sender and nonce, with the slots they take and
 * each sender's executable run. A sender's transactions above a nonce gap stay here (queued)
 * until the gap fills. Every change is undone with the world on `evm_revert`.
 */
import type { UndoLog } from '../snapshots/undo-log.ts'
import type { Address, Hash } from '../types.ts'
import type { UserTransaction } from '../transactions/transaction.ts'

/** geth's txSlotSize: a transaction takes one slot per 32 KiB of its encoding (legacypool.go). */
const SLOT_SIZE = 32 * 1024

/** The slots a transaction takes (geth's legacypool `numSlots`: its size over 32 KiB, rounded up). */
export function numSlots(transaction: UserTransaction): number {
  return Math.ceil(transaction.raw.length / SLOT_SIZE)
}

/** A pooled transaction, when it arrived (ties in fee order go to the earlier one) and its slots. */
export interface PoolEntry {
  readonly transaction: UserTransaction
  /** Arrival sequence number. */
  readonly arrival: number
  readonly slots: number
}

/**
 * A sender's executable run: the pooled nonces from `start` (its pending nonce) up to `end`
 * without a gap, and what they cost in total.
 */
export interface ExecutableRun {
  readonly start: bigint
  readonly end: bigint
  readonly cost: bigint
}

/**
 * What changed in a pool while it was watched: the entries that arrived, the transactions that
 * left (taken, replaced, evicted, expired or undone), and whether an undo or a take-back from a
 * block put an earlier entry back (an arrival out of order).
 */
class PoolChanges {
  readonly arrived: PoolEntry[] = []
  readonly left = new Set<UserTransaction>()
  restored = false
}

/** Transactions waiting for pre-confirmation. */
export class PoolEntries {
  private readonly byHash = new Map<Hash, PoolEntry>()
  private readonly bySender = new Map<Address, Map<bigint, PoolEntry>>()
  /** Runs by sender, kept up to date as transactions come and go (admission reads one per transaction). */
  private readonly runs = new Map<Address, { start: bigint; end: bigint; cost: bigint }>()
  /** Senders whose transactions changed since {@link drainTouched} last ran. */
  private readonly touched = new Set<Address>()
  private arrivals = 0
  /** When each transaction that left the pool had arrived: one taken back from a block (requeued) keeps its place in arrival order. */
  private readonly leftArrivals = new WeakMap<UserTransaction, number>()
  private slotCount = 0
  /** The changes being recorded for watchers (see {@link watch}). */
  private readonly watchers = new Set<PoolChanges>()

  constructor(private readonly undoLog?: UndoLog) {}

  /** The pooled transaction with this hash. */
  get(hash: Hash): UserTransaction | undefined {
    return this.byHash.get(hash)?.transaction
  }

  /** Whether `entry` is still pooled (not removed or replaced). */
  holds(entry: PoolEntry): boolean {
    return this.byHash.get(entry.transaction.hash) === entry
  }

  /** The sender's pooled transaction at `nonce`. */
  atNonce(sender: Address, nonce: bigint): PoolEntry | undefined {
    return this.bySender.get(sender)?.get(nonce)
  }

  /** The senders with pooled transactions. */
  senders(): IterableIterator<Address> {
    return this.bySender.keys()
  }

  /** The sender's pooled transactions, in no particular order. */
  fromSender(sender: Address): Iterable<PoolEntry> {
    return this.bySender.get(sender)?.values() ?? []
  }

  /** How many transactions the sender has pooled. */
  countOf(sender: Address): number {
    return this.bySender.get(sender)?.size ?? 0
  }

  /** Every pooled transaction, in no particular order. */
  entries(): IterableIterator<PoolEntry> {
    return this.byHash.values()
  }

  /** How many transactions are pooled. */
  get size(): number {
    return this.byHash.size
  }

  /** The slots the pooled transactions take (geth's `all.Slots()`). */
  get slots(): number {
    return this.slotCount
  }

  /** Visits, once, each sender whose transactions changed since the last call. */
  drainTouched(visit: (sender: Address) => void): void {
    if (this.touched.size === 0) return
    for (const sender of this.touched) visit(sender)
    this.touched.clear()
  }

  /** Starts recording the pool's changes; {@link unwatch} stops it. */
  watch(): PoolChanges {
    const changes = new PoolChanges()
    this.watchers.add(changes)
    return changes
  }

  /** Stops recording `changes`. */
  unwatch(changes: PoolChanges): void {
    this.watchers.delete(changes)
  }

  /** Adds a transaction, replacing the sender's one at the same nonce. */
  insert(transaction: UserTransaction): void {
    const nonces = this.noncesOf(transaction.sender)
    const replaced = nonces.get(transaction.nonce)
    if (replaced !== undefined) {
      this.byHash.delete(replaced.transaction.hash)
      this.slotCount -= replaced.slots
      for (const changes of this.watchers) changes.left.add(replaced.transaction)
    }
    const run = this.runs.get(transaction.sender)
    if (replaced !== undefined && run !== undefined && transaction.nonce >= run.start && transaction.nonce < run.end) {
      run.cost += transaction.cost - replaced.transaction.cost
    }
    const returning = this.leftArrivals.get(transaction)
    const entry = { transaction, arrival: returning ?? this.arrivals++, slots: numSlots(transaction) }
    nonces.set(transaction.nonce, entry)
    this.byHash.set(transaction.hash, entry)
    this.slotCount += entry.slots
    this.touched.add(transaction.sender)
    for (const changes of this.watchers) {
      changes.arrived.push(entry)
      // An earlier arrival back: it may go before what a watcher already tried.
      if (returning !== undefined) changes.restored = true
    }
    this.added(entry)
    if (this.undoLog?.recording) {
      this.undoLog.record(() => {
        if (returning === undefined) this.arrivals--
        this.detach(entry)
        if (replaced !== undefined) this.attach(replaced)
      })
    }
  }

  /** Removes a transaction (pre-confirmed, dropped as unpayable, evicted or expired). */
  remove(transaction: UserTransaction): void {
    const entry = this.byHash.get(transaction.hash)
    if (entry === undefined) return
    this.detachEntry(entry)
    this.leftArrivals.set(transaction, entry.arrival)
    if (this.undoLog?.recording) this.undoLog.record(() => this.attach(entry))
    const run = this.runs.get(transaction.sender)
    if (run === undefined || transaction.nonce < run.start || transaction.nonce >= run.end) return
    if (transaction.nonce === run.start) {
      run.start++
      run.cost -= transaction.cost
    } else if (transaction.nonce === run.end - 1n) {
      run.end--
      run.cost -= transaction.cost
    } else {
      this.runs.delete(transaction.sender)
    }
  }

  /** A transaction entered the pool (a subclass keeps its own orders of the pool). */
  protected added(_entry: PoolEntry): void {}

  private noncesOf(sender: Address): Map<bigint, PoolEntry> {
    let nonces = this.bySender.get(sender)
    if (nonces === undefined) {
      nonces = new Map()
      this.bySender.set(sender, nonces)
    }
    return nonces
  }

  /** Puts an entry back (undo of a removal). */
  private attach(entry: PoolEntry): void {
    const { transaction } = entry
    this.noncesOf(transaction.sender).set(transaction.nonce, entry)
    this.byHash.set(transaction.hash, entry)
    this.slotCount += entry.slots
    this.runs.delete(transaction.sender)
    this.touched.add(transaction.sender)
    for (const changes of this.watchers) changes.restored = true
    this.added(entry)
  }

  /** Takes an entry out (undo of an insertion). */
  private detach(entry: PoolEntry): void {
    this.detachEntry(entry)
    this.runs.delete(entry.transaction.sender)
  }

  private detachEntry(entry: PoolEntry): void {
    const { transaction } = entry
    this.byHash.delete(transaction.hash)
    const nonces = this.bySender.get(transaction.sender)!
    nonces.delete(transaction.nonce)
    if (nonces.size === 0) this.bySender.delete(transaction.sender)
    this.slotCount -= entry.slots
    this.touched.add(transaction.sender)
    for (const changes of this.watchers) changes.left.add(transaction)
  }

  /** The sender's executable run from `stateNonce` (geth's pending list). */
  executableRun(sender: Address, stateNonce: bigint): ExecutableRun {
    let run = this.runs.get(sender)
    if (run === undefined || run.start !== stateNonce) {
      run = { start: stateNonce, end: stateNonce, cost: 0n }
      this.runs.set(sender, run)
    }
    const nonces = this.bySender.get(sender)
    for (let entry = nonces?.get(run.end); entry !== undefined; entry = nonces!.get(run.end)) {
      run.cost += entry.transaction.cost
      run.end++
    }
    return run
  }

  /**
   * geth's pending nonce: the first nonce at or after `stateNonce` with no pooled transaction,
   * so wallets can send back to back.
   */
  pendingNonce(sender: Address, stateNonce: bigint): bigint {
    return this.executableRun(sender, stateNonce).end
  }
}
