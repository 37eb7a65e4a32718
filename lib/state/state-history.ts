/**
 * Sealed history: every account and storage word keeps the list of blocks where it changed,
 * so a read at the head is one map lookup and a read at block N one binary search, whatever
 * the number of blocks; sealing a block costs only the keys it touched.
 */
import type { UndoLog } from '../snapshots/undo-log.ts'
import type { Address } from '../types.ts'
import type { AccountState } from './account.ts'
import type { StateChanges, StateView } from './state-view.ts'

/** The values one key took, by the block that wrote them (ascending). */
class Versions<T> {
  readonly blocks: number[]
  readonly values: T[]

  constructor(block: number, value: T) {
    this.blocks = [block]
    this.values = [value]
  }

  get latest(): T {
    return this.values[this.values.length - 1]
  }

  /** The value at the end of `block`, or `missing` if the key was not yet written. */
  at<M>(block: number, missing: M): T | M {
    const { blocks } = this
    if (blocks[blocks.length - 1] <= block) return this.latest
    let low = 0
    let high = blocks.length - 1
    if (blocks[0] > block) return missing
    while (low < high) {
      const middle = (low + high + 1) >> 1
      if (blocks[middle] <= block) low = middle
      else high = middle - 1
    }
    return this.values[low]
  }

  /**
   * Records `value` as of `block` (overwriting a value already written in that block); with
   * `undoable`, returns how to take the write back.
   */
  write(block: number, value: T, undoable: boolean): (() => void) | undefined {
    const last = this.blocks.length - 1
    if (this.blocks[last] === block) {
      const previous = this.values[last]
      this.values[last] = value
      return undoable ? () => (this.values[last] = previous) : undefined
    }
    this.blocks.push(block)
    this.values.push(value)
    return undoable
      ? () => {
          this.blocks.pop()
          this.values.pop()
        }
      : undefined
  }
}

/** The state of every sealed block, readable at the head or at any earlier block. */
export class StateHistory {
  private readonly accounts = new Map<Address, Versions<AccountState | undefined>>()
  private readonly storage = new Map<Address, Map<bigint, Versions<bigint>>>()
  /** The view at the newest sealed block. */
  readonly latest: StateView

  constructor(private readonly undoLog?: UndoLog) {
    const history = this
    this.latest = {
      getAccount: (address) => history.accounts.get(address)?.latest,
      getStorage: (address, slot) => history.storage.get(address)?.get(slot)?.latest ?? 0n,
      storageSlots: (address) => history.storage.get(address)?.keys() ?? [],
    }
  }

  /** The view at the end of block `blockNumber`. */
  at(blockNumber: number): StateView {
    return {
      getAccount: (address) => this.accounts.get(address)?.at(blockNumber, undefined),
      getStorage: (address, slot) => this.storage.get(address)?.get(slot)?.at(blockNumber, 0n) ?? 0n,
      storageSlots: (address) => this.storage.get(address)?.keys() ?? [],
    }
  }

  /** Records `changes` as the state at the end of block `blockNumber`. */
  apply(blockNumber: number, changes: StateChanges): void {
    for (const [address, account] of changes.accounts) this.putAccount(blockNumber, address, account ?? undefined)
    for (const [address, slots] of changes.storage) {
      for (const [slot, value] of slots) this.putStorage(blockNumber, address, slot, value)
    }
  }

  /** Writes one account as of `blockNumber` (undefined: deleted). */
  putAccount(blockNumber: number, address: Address, account: AccountState | undefined): void {
    const versions = this.accounts.get(address)
    const recording = this.undoLog?.recording === true
    if (versions === undefined) {
      this.accounts.set(address, new Versions(blockNumber, account))
      if (recording) this.undoLog!.record(() => this.accounts.delete(address))
    } else {
      const undo = versions.write(blockNumber, account, recording)
      if (undo !== undefined) this.undoLog!.record(undo)
    }
  }

  /** Writes one storage word as of `blockNumber`. */
  putStorage(blockNumber: number, address: Address, slot: bigint, value: bigint): void {
    let slots = this.storage.get(address)
    if (slots === undefined) {
      slots = new Map()
      this.storage.set(address, slots)
    }
    const versions = slots.get(slot)
    const recording = this.undoLog?.recording === true
    if (versions === undefined) {
      slots.set(slot, new Versions(blockNumber, value))
      if (recording) this.undoLog!.record(() => slots.delete(slot))
    } else {
      const undo = versions.write(blockNumber, value, recording)
      if (undo !== undefined) this.undoLog!.record(undo)
    }
  }
}
