/**
 * A copy-on-write layer of state writes over a parent view: the pre-confirmed overlay, one
 * tick's block under construction, one transaction, or a call's throwaway journal. Nested
 * checkpoints (the EVM's call frames) undo only what they wrote.
 */
import type { UndoLog } from '../snapshots/undo-log.ts'
import type { Address } from '../types.ts'
import type { AccountState } from './account.ts'
import type { StateChanges, StateView } from './state-view.ts'

/** Marks "this layer had no entry" in the undo log. */
const ABSENT = Symbol('absent')

type UndoEntry =
  | { readonly address: Address; readonly slot: undefined; readonly previous: AccountState | null | typeof ABSENT }
  | { readonly address: Address; readonly slot: bigint; readonly previous: bigint | typeof ABSENT }

/** Writes over a parent view; reads fall through to the parent for keys this layer never wrote. */
export class StateLayer implements StateView, StateChanges {
  /** Accounts written here; null marks a deleted account. */
  readonly accounts = new Map<Address, AccountState | null>()
  /** Storage words written here, per address. */
  readonly storage = new Map<Address, Map<bigint, bigint>>()
  /** Undo entries of the open checkpoints (the EVM's call frames). */
  private readonly checkpointLog: UndoEntry[] = []
  private readonly checkpoints: number[] = []

  /**
   * @param parent the view this layer writes over
   * @param undoLog set for layers that outlive a call (the pre-confirmed overlay): their writes
   *   are undone when a snapshot is reverted
   */
  constructor(
    readonly parent: StateView,
    private readonly undoLog?: UndoLog,
  ) {}

  getAccount(address: Address): AccountState | undefined {
    const own = this.accounts.get(address)
    if (own !== undefined) return own ?? undefined
    return this.parent.getAccount(address)
  }

  getStorage(address: Address, slot: bigint): bigint {
    const own = this.storage.get(address)?.get(slot)
    return own !== undefined ? own : this.parent.getStorage(address, slot)
  }

  *storageSlots(address: Address): Iterable<bigint> {
    const own = this.storage.get(address)
    if (own !== undefined) yield* own.keys()
    yield* this.parent.storageSlots(address)
  }

  /** Writes `account` at `address`; `undefined` deletes the account and its storage. */
  putAccount(address: Address, account: AccountState | undefined): void {
    if (account === undefined) {
      this.clearStorage(address)
      this.setAccountEntry(address, null)
    } else {
      this.setAccountEntry(address, account)
    }
  }

  /** Writes one storage word. */
  putStorage(address: Address, slot: bigint, value: bigint): void {
    let slots = this.storage.get(address)
    if (slots === undefined) {
      slots = new Map()
      this.storage.set(address, slots)
    }
    const previous = slots.get(slot)
    if (this.checkpoints.length > 0) this.checkpointLog.push({ address, slot, previous: previous === undefined ? ABSENT : previous })
    if (this.undoLog?.recording) {
      const written = slots
      this.undoLog.record(() => (previous === undefined ? written.delete(slot) : written.set(slot, previous)))
    }
    slots.set(slot, value)
  }

  /** Zeroes every storage word of `address` that may be non-zero. */
  clearStorage(address: Address): void {
    for (const slot of new Set(this.storageSlots(address))) {
      if (this.getStorage(address, slot) !== 0n) this.putStorage(address, slot, 0n)
    }
  }

  /** Opens a checkpoint: writes from here on can be undone by {@link revert}. */
  checkpoint(): void {
    this.checkpoints.push(this.checkpointLog.length)
  }

  /** Keeps the writes since the last checkpoint (an enclosing checkpoint may still undo them). */
  commit(): void {
    this.checkpoints.pop()
    if (this.checkpoints.length === 0) this.checkpointLog.length = 0
  }

  /** Undoes every write since the last checkpoint. */
  revert(): void {
    const mark = this.checkpoints.pop()
    if (mark === undefined) throw new Error('StateLayer.revert without a checkpoint')
    for (let i = this.checkpointLog.length - 1; i >= mark; i--) {
      const entry = this.checkpointLog[i]
      if (entry.slot === undefined) {
        if (entry.previous === ABSENT) this.accounts.delete(entry.address)
        else this.accounts.set(entry.address, entry.previous)
      } else {
        const slots = this.storage.get(entry.address)!
        if (entry.previous === ABSENT) slots.delete(entry.slot)
        else slots.set(entry.slot, entry.previous)
      }
    }
    this.checkpointLog.length = mark
  }

  /** Copies this layer's writes into `target` (a transaction into its block, a tick into the overlay). */
  mergeInto(target: StateLayer): void {
    for (const [address, account] of this.accounts) target.setAccountEntry(address, account)
    for (const [address, slots] of this.storage) {
      for (const [slot, value] of slots) target.putStorage(address, slot, value)
    }
  }

  private setAccountEntry(address: Address, account: AccountState | null): void {
    const previous = this.accounts.get(address)
    if (this.checkpoints.length > 0) this.checkpointLog.push({ address, slot: undefined, previous: previous === undefined ? ABSENT : previous })
    if (this.undoLog?.recording) {
      this.undoLog.record(() => (previous === undefined ? this.accounts.delete(address) : this.accounts.set(address, previous)))
    }
    this.accounts.set(address, account)
  }
}
