/**
 * The order in which a tick takes pooled transactions (geth's TransactionsByPriceAndNonce):
 * each sender's transactions in nonce order from its pending nonce, senders by their next
 * transaction's effective tip (highest first), arrival order on ties. A sender whose next
 * transaction's fee cap is below the base fee waits, and with it the rest of its nonces.
 */
import type { Address } from '../types.ts'
import { effectiveTip } from '../transactions/transaction.ts'
import { BinaryHeap } from './binary-heap.ts'
import type { PoolEntries, PoolEntry } from './pool-entries.ts'

interface Head {
  readonly entry: PoolEntry
  readonly tip: bigint
}

/** geth's order: the higher effective tip first, the earlier arrival on a tie. */
function before(a: Head, b: Head): boolean {
  return a.tip === b.tip ? a.entry.arrival < b.entry.arrival : a.tip > b.tip
}

/** A priority queue over the executable head transaction of every sender. */
export class TransactionQueue {
  private readonly heads = new BinaryHeap<Head>(before)

  constructor(
    private readonly pool: PoolEntries,
    private readonly baseFee: bigint,
    nonceOf: (sender: Address) => bigint,
  ) {
    for (const sender of pool.senders()) this.pushHead(sender, nonceOf(sender))
  }

  /** The next transaction to try, or undefined when none is executable. */
  peek(): PoolEntry | undefined {
    return this.heads.peek()?.entry
  }

  /** The head was included: its sender's next nonce becomes the sender's head. */
  shift(): void {
    const { transaction } = this.heads.pop()!.entry
    this.pushHead(transaction.sender, transaction.nonce + 1n)
  }

  /** The head cannot be included in this block: drop its sender for the rest of the tick. */
  pop(): void {
    this.heads.pop()
  }

  private pushHead(sender: Address, nonce: bigint): void {
    const entry = this.pool.atNonce(sender, nonce)
    if (entry === undefined) return
    const tip = effectiveTip(entry.transaction, this.baseFee)
    if (tip < 0n) return
    this.heads.push({ entry, tip })
  }
}
