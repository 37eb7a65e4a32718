/**
 * When each account with queued (gapped) transactions was last active, on the chain's clock
 * (geth's legacypool `beats`): set when its queue starts, renewed when it sends an executable
 * transaction, forgotten when its queue empties. The oldest come first: expiry drops an
 * account's queue once its heartbeat is older than the lifetime, and a global queue over its
 * limit is trimmed from the accounts idle longest (geth's `truncateQueue`).
 */
import type { Address } from '../types.ts'
import { BinaryHeap } from './binary-heap.ts'

interface Beat {
  readonly sender: Address
  /** The chain's clock (ms). */
  readonly at: number
  /** Order of setting: equal times go oldest-set first (deterministic where geth's sort is not). */
  readonly sequence: number
}

const older = (a: Beat, b: Beat): boolean => (a.at !== b.at ? a.at < b.at : a.sequence < b.sequence)

/** The heartbeats of the accounts with queued transactions, oldest first. */
export class Heartbeats {
  private readonly beats = new Map<Address, Beat>()
  /** Every beat set, current or superseded (a superseded one is skipped when it comes up). */
  private order = new BinaryHeap<Beat>(older)
  private sequence = 0

  /** Whether `sender` has a heartbeat. */
  has(sender: Address): boolean {
    return this.beats.has(sender)
  }

  /** The heartbeat of `sender` (ms), if it has one. */
  at(sender: Address): number | undefined {
    return this.beats.get(sender)?.at
  }

  /** Sets the heartbeat of `sender` to `now`. */
  beat(sender: Address, now: number): void {
    const beat = { sender, at: now, sequence: this.sequence++ }
    this.beats.set(sender, beat)
    this.order.push(beat)
    // Superseded beats pile up behind an old one: rebuild once they outnumber the current ones.
    if (this.order.size > 2 * this.beats.size + 64) this.order = new BinaryHeap(older, [...this.beats.values()])
  }

  /** Forgets the heartbeat of `sender` (its queue is empty). */
  forget(sender: Address): void {
    this.beats.delete(sender)
  }

  /** The account idle longest, if any. */
  oldest(): Address | undefined {
    for (let top = this.order.peek(); top !== undefined; top = this.order.peek()) {
      if (this.beats.get(top.sender) === top) return top.sender
      this.order.pop()
    }
    return undefined
  }
}
