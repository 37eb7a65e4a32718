/**
 * Transactions a tick passed over because a fork's upstream failed to give a key of state they
 * read. Each sits out the ticks until that key is loaded (by a read, or by the fetch made again
 * here in the background, a pause after each failure, while its source still holds it): a tick
 * waits on a failing upstream once per transaction, not at every tick, and the other senders'
 * transactions go on meanwhile.
 */
import type { StateLoadError } from '../state/state-source.ts'
import type { Transaction } from '../transactions/transaction.ts'

/** The pause between a failed fetch of a waiting transaction's key and the next (ms). */
const REFETCH_PAUSE_MS = 1_000

/** The transactions waiting for their upstream's state, each with the failure it waits out. */
export class UpstreamWaits {
  private readonly waiting = new Map<Transaction, StateLoadError>()
  private closed = false

  /** `ready` is told when a waiting transaction's key has loaded in the background (automine then mines it). */
  constructor(private readonly ready: () => void) {}

  /** `transaction` met `failure`: it waits, and its key is fetched again until it loads or `held()` is false. */
  add(transaction: Transaction, failure: StateLoadError, held: () => boolean): void {
    this.waiting.set(transaction, failure)
    const fetch = (): void => {
      failure.loadAgain().then(
        () => {
          if (this.closed || this.waiting.get(transaction) !== failure) return
          if (held()) this.ready()
          else this.waiting.delete(transaction)
        },
        () => {
          if (this.closed || this.waiting.get(transaction) !== failure) return
          if (held()) setTimeout(fetch, REFETCH_PAUSE_MS).unref()
          else this.waiting.delete(transaction)
        },
      )
    }
    fetch()
  }

  /** Whether `transaction` sits out this tick: its key has not loaded yet (once it has, it waits no more). */
  holds(transaction: Transaction): boolean {
    const failure = this.waiting.get(transaction)
    if (failure === undefined) return false
    if (!failure.loaded()) return true
    this.waiting.delete(transaction)
    return false
  }

  /** Stops every background fetch (the chain closes). */
  close(): void {
    this.closed = true
    this.waiting.clear()
  }
}
