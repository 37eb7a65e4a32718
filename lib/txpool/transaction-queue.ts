/**
 * The order in which a tick takes pooled transactions (geth's TransactionsByPriceAndNonce):
 * each sender's transactions in nonce order from its pending nonce, senders by their next
 * transaction's effective tip (highest first), arrival order on ties. A sender whose next
 * transaction's fee cap is below the base fee waits, and with it the rest of its nonces.
 */
import type { Address } from '../types.ts'
import { effectiveTip } from '../transactions/transaction.ts'
import type { PoolEntries, PoolEntry } from './pool-entries.ts'

interface Head {
  readonly entry: PoolEntry
  readonly tip: bigint
}

function before(a: Head, b: Head): boolean {
  return a.tip === b.tip ? a.entry.arrival < b.entry.arrival : a.tip > b.tip
}

/** A priority queue over the executable head transaction of every sender. */
export class TransactionQueue {
  private readonly heap: Head[] = []

  constructor(
    private readonly pool: PoolEntries,
    private readonly baseFee: bigint,
    nonceOf: (sender: Address) => bigint,
  ) {
    for (const sender of pool.senders()) this.pushHead(sender, nonceOf(sender))
  }

  /** The next transaction to try, or undefined when none is executable. */
  peek(): PoolEntry | undefined {
    return this.heap[0]?.entry
  }

  /** The head was included: its sender's next nonce becomes the sender's head. */
  shift(): void {
    const { transaction } = this.heap[0].entry
    this.removeTop()
    this.pushHead(transaction.sender, transaction.nonce + 1n)
  }

  /** The head cannot be included in this block: drop its sender for the rest of the tick. */
  pop(): void {
    this.removeTop()
  }

  private pushHead(sender: Address, nonce: bigint): void {
    const entry = this.pool.atNonce(sender, nonce)
    if (entry === undefined) return
    const tip = effectiveTip(entry.transaction, this.baseFee)
    if (tip < 0n) return
    this.heap.push({ entry, tip })
    this.siftUp(this.heap.length - 1)
  }

  private removeTop(): void {
    const last = this.heap.pop()!
    if (this.heap.length > 0) {
      this.heap[0] = last
      this.siftDown(0)
    }
  }

  private siftUp(index: number): void {
    const { heap } = this
    while (index > 0) {
      const parent = (index - 1) >> 1
      if (!before(heap[index], heap[parent])) break
      ;[heap[index], heap[parent]] = [heap[parent], heap[index]]
      index = parent
    }
  }

  private siftDown(index: number): void {
    const { heap } = this
    for (;;) {
      const left = 2 * index + 1
      const right = left + 1
      let best = index
      if (left < heap.length && before(heap[left], heap[best])) best = left
      if (right < heap.length && before(heap[right], heap[best])) best = right
      if (best === index) return
      ;[heap[index], heap[best]] = [heap[best], heap[index]]
      index = best
    }
  }
}
