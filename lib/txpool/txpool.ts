/**
 * The mempool: transactions waiting to be pre-confirmed, by hash and by sender and nonce.
 * A sender's transactions above a nonce gap stay here (queued) until the gap fills.
 */
import type { UndoLog } from '../snapshots/undo-log.ts'
import type { Address, Hash } from '../types.ts'
import type { UserTransaction } from '../transactions/transaction.ts'

/** A pooled transaction and when it arrived (ties in fee order go to the earlier one). */
export interface PoolEntry {
  readonly transaction: UserTransaction
  /** Arrival sequence number. */
  readonly arrival: number
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

/** Transactions waiting for pre-confirmation. */
export class TxPool {
  private readonly byHash = new Map<Hash, PoolEntry>()
  private readonly bySender = new Map<Address, Map<bigint, PoolEntry>>()
  /** Runs by sender, kept up to date as transactions come and go (admission reads one per transaction). */
  private readonly runs = new Map<Address, { start: bigint; end: bigint; cost: bigint }>()
  private arrivals = 0

  constructor(private readonly undoLog?: UndoLog) {}

  /** The pooled transaction with this hash. */
  get(hash: Hash): UserTransaction | undefined {
    return this.byHash.get(hash)?.transaction
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

  /** Adds a transaction, replacing the sender's one at the same nonce. */
  insert(transaction: UserTransaction): void {
    let nonces = this.bySender.get(transaction.sender)
    if (nonces === undefined) {
      nonces = new Map()
      this.bySender.set(transaction.sender, nonces)
    }
    const replaced = nonces.get(transaction.nonce)
    if (replaced !== undefined) this.byHash.delete(replaced.transaction.hash)
    const run = this.runs.get(transaction.sender)
    if (replaced !== undefined && run !== undefined && transaction.nonce >= run.start && transaction.nonce < run.end) {
      run.cost += transaction.cost - replaced.transaction.cost
    }
    const entry = { transaction, arrival: this.arrivals++ }
    nonces.set(transaction.nonce, entry)
    this.byHash.set(transaction.hash, entry)
    if (this.undoLog?.recording) {
      this.undoLog.record(() => {
        this.arrivals--
        this.detach(entry)
        if (replaced !== undefined) this.attach(replaced)
      })
    }
  }

  /** Removes a transaction (pre-confirmed, or dropped as unpayable). */
  remove(transaction: UserTransaction): void {
    const entry = this.byHash.get(transaction.hash)
    if (entry === undefined) return
    this.byHash.delete(transaction.hash)
    const nonces = this.bySender.get(transaction.sender)!
    nonces.delete(transaction.nonce)
    if (nonces.size === 0) this.bySender.delete(transaction.sender)
    if (this.undoLog?.recording) this.undoLog.record(() => this.attach(entry))
    const run = this.runs.get(transaction.sender)
    if (run === undefined || transaction.nonce < run.start || transaction.nonce >= run.end) return
    if (transaction.nonce === run.start) {
      run.start++
      run.cost -= transaction.cost
    } else {
      this.runs.delete(transaction.sender)
    }
  }

  /** Puts an entry back (undo of a removal). */
  private attach(entry: PoolEntry): void {
    const { transaction } = entry
    let nonces = this.bySender.get(transaction.sender)
    if (nonces === undefined) {
      nonces = new Map()
      this.bySender.set(transaction.sender, nonces)
    }
    nonces.set(transaction.nonce, entry)
    this.byHash.set(transaction.hash, entry)
    this.runs.delete(transaction.sender)
  }

  /** Takes an entry out (undo of an insertion). */
  private detach(entry: PoolEntry): void {
    const { transaction } = entry
    this.byHash.delete(transaction.hash)
    const nonces = this.bySender.get(transaction.sender)!
    nonces.delete(transaction.nonce)
    if (nonces.size === 0) this.bySender.delete(transaction.sender)
    this.runs.delete(transaction.sender)
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
