/**
 * The pool's transactions cheapest first, for eviction when the pool is full (geth's
 * core/txpool/legacypool/list.go, `pricedList` and `priceHeap.cmp`): by effective tip at the
 * pending block's base fee, then fee cap, then tip; among equals the higher nonce, then (ours,
 * for determinism) the later arrival goes first. geth splits the order into an "urgent" heap
 * (this order) and a "floating" one (by fee cap) holding a fifth of the pool; one heap in the
 * urgent order is kept here, so "cheapest" means the lowest effective tip at the next block.
 *
 * Built when first needed (a full pool), kept up to date as transactions arrive, rebuilt when
 * the base fee changes (geth's `SetBaseFee` re-heaps on every new head) or when more than a
 * quarter of its items are stale (removed from the pool: geth's `Removed` threshold).
 */
import { effectiveTip, type UserTransaction } from '../transactions/transaction.ts'
import { BinaryHeap } from './binary-heap.ts'
import type { PoolEntries, PoolEntry } from './pool-entries.ts'

interface Priced {
  readonly entry: PoolEntry
  /** The effective tip at the heap's base fee. */
  readonly tip: bigint
}

/** geth's `priceHeap.cmp` (effective tip, fee cap, tip): negative when `a` is cheaper. */
function compare(a: UserTransaction, aTip: bigint, b: UserTransaction, bTip: bigint): number {
  if (aTip !== bTip) return aTip < bTip ? -1 : 1
  if (a.maxFeePerGas !== b.maxFeePerGas) return a.maxFeePerGas < b.maxFeePerGas ? -1 : 1
  if (a.maxPriorityFeePerGas !== b.maxPriorityFeePerGas) return a.maxPriorityFeePerGas < b.maxPriorityFeePerGas ? -1 : 1
  return 0
}

/** geth's `priceHeap.Less`: the cheaper first; among equals the higher nonce, then the later arrival. */
function cheaper(a: Priced, b: Priced): boolean {
  const order = compare(a.entry.transaction, a.tip, b.entry.transaction, b.tip)
  if (order !== 0) return order < 0
  const { nonce: aNonce } = a.entry.transaction
  const { nonce: bNonce } = b.entry.transaction
  return aNonce !== bNonce ? aNonce > bNonce : a.entry.arrival > b.entry.arrival
}

/** The pool cheapest first. */
export class PriceHeap {
  private heap: BinaryHeap<Priced> | undefined
  private baseFee = 0n

  constructor(private readonly pool: PoolEntries) {}

  /** A transaction entered the pool. */
  added(entry: PoolEntry): void {
    this.heap?.push({ entry, tip: effectiveTip(entry.transaction, this.baseFee) })
  }

  /**
   * Whether `transaction` is no better than the cheapest pooled one, so a full pool does not
   * take it (geth's `pricedList.Underpriced`: cheaper than or as cheap as the cheapest).
   */
  underpriced(transaction: UserTransaction, baseFee: bigint): boolean {
    const heap = this.current(baseFee)
    const cheapest = this.cheapest(heap)
    return cheapest !== undefined && compare(cheapest.entry.transaction, cheapest.tip, transaction, effectiveTip(transaction, baseFee)) >= 0
  }

  /**
   * Takes out the cheapest transactions until they free `slots` (geth's `pricedList.Discard`);
   * undefined, and nothing taken, if the whole pool would not free them.
   */
  discard(slots: number, baseFee: bigint): PoolEntry[] | undefined {
    const heap = this.current(baseFee)
    const taken: PoolEntry[] = []
    while (slots > 0) {
      const cheapest = this.cheapest(heap)
      if (cheapest === undefined) {
        this.restore(taken)
        return undefined
      }
      heap.pop()
      taken.push(cheapest.entry)
      slots -= cheapest.entry.slots
    }
    return taken
  }

  /** Puts back transactions {@link discard} took that stay in the pool after all. */
  restore(entries: readonly PoolEntry[]): void {
    for (const entry of entries) this.added(entry)
  }

  /** The first item still pooled (stale ones at the top are dropped on the way). */
  private cheapest(heap: BinaryHeap<Priced>): Priced | undefined {
    for (let top = heap.peek(); top !== undefined; top = heap.peek()) {
      if (this.pool.holds(top.entry)) return top
      heap.pop()
    }
    return undefined
  }

  /** The heap at `baseFee`, (re)built if it is missing, at another base fee, or over a quarter stale. */
  private current(baseFee: bigint): BinaryHeap<Priced> {
    if (this.heap === undefined || baseFee !== this.baseFee || this.heap.size > this.pool.size + (this.pool.size >> 2)) {
      this.baseFee = baseFee
      const items: Priced[] = []
      for (const entry of this.pool.entries()) items.push({ entry, tip: effectiveTip(entry.transaction, baseFee) })
      this.heap = new BinaryHeap(cheaper, items)
    }
    return this.heap
  }
}
