/**
 * Sealed history: every account and storage word keeps the list of blocks where it changed,
 * so a read at the head is one map lookup and a read at block N one binary search, whatever
 * the number of blocks; sealing a block costs only the keys it touched. Keys the chain never
 * wrote fall through to the state source (nothing for a fresh chain; the fork point for a fork).
 */
import type { UndoLog } from '../snapshots/undo-log.ts'
import type { Address } from '../types.ts'
import type { AccountState } from './account.ts'
import type { StateChanges, StateSource, StateView, Unloaded } from './state-view.ts'

/** The values one key took, by the block that wrote them (ascending; never empty). */
export interface KeyVersions<T> {
  readonly blocks: readonly number[]
  readonly values: readonly T[]
}

/** One address's history: its account's versions, and its storage words' with the blocks that wiped them all. */
export interface HistoryEntry {
  readonly address: Address
  readonly account: KeyVersions<AccountState | undefined> | undefined
  readonly storage: { readonly wipes: readonly number[] | undefined; readonly slots: ReadonlyMap<bigint, KeyVersions<bigint>> } | undefined
}

/** The values one key took, by the block that wrote them (ascending). */
class Versions<T> implements KeyVersions<T> {
  readonly blocks: number[]
  readonly values: T[]

  constructor(block: number, value: T) {
    this.blocks = [block]
    this.values = [value]
  }

  get latest(): T {
    return this.values[this.values.length - 1]
  }

  get latestBlock(): number {
    return this.blocks[this.blocks.length - 1]
  }

  /** The index of the value in force at the end of `block`, or -1 if the key was not yet written. */
  indexAt(block: number): number {
    const { blocks } = this
    let high = blocks.length - 1
    if (blocks[high] <= block) return high
    if (blocks[0] > block) return -1
    let low = 0
    while (low < high) {
      const middle = (low + high + 1) >> 1
      if (blocks[middle] <= block) low = middle
      else high = middle - 1
    }
    return low
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

/** One account's storage history: each word's versions, and the blocks that wiped them all. */
class StorageHistory {
  readonly slots = new Map<bigint, Versions<bigint>>()
  /** Blocks in which the storage was wiped (before that block's own writes), ascending. */
  wipes: number[] | undefined

  /** The latest wipe at or before `block`, or -1. */
  wipeAt(block: number): number {
    const wipes = this.wipes
    if (wipes === undefined) return -1
    for (let i = wipes.length - 1; i >= 0; i--) if (wipes[i] <= block) return wipes[i]
    return -1
  }
}

/** The state of every sealed block, readable at the head or at any earlier block. */
export class StateHistory {
  private readonly accounts = new Map<Address, Versions<AccountState | undefined>>()
  private readonly storage = new Map<Address, StorageHistory>()
  /** The view at the newest sealed block. */
  readonly latest: StateView

  constructor(
    readonly source: StateSource,
    private readonly undoLog?: UndoLog,
  ) {
    const { accounts, storage } = this
    this.latest = {
      source,
      getAccount: (address) => {
        const versions = accounts.get(address)
        return versions === undefined ? source.account(address) : versions.latest
      },
      getStorage: (address, slot) => {
        const history = storage.get(address)
        if (history === undefined) return source.storage(address, slot)
        const versions = history.slots.get(slot)
        if (history.wipes === undefined) return versions === undefined ? source.storage(address, slot) : versions.latest
        const wipe = history.wipes[history.wipes.length - 1]
        return versions !== undefined && versions.latestBlock >= wipe ? versions.latest : 0n
      },
    }
  }

  /** The view at the end of block `blockNumber`. */
  at(blockNumber: number): StateView {
    const { source } = this
    return {
      source,
      getAccount: (address) => this.accountAt(address, blockNumber),
      getStorage: (address, slot) => this.storageAt(address, slot, blockNumber),
    }
  }

  /** Every key's versions, by address: what a state dump holds of the chain's own writes. */
  *entries(): Iterable<HistoryEntry> {
    for (const [address, versions] of this.accounts) yield { address, account: versions, storage: this.storage.get(address) }
    for (const [address, storage] of this.storage) if (!this.accounts.has(address)) yield { address, account: undefined, storage }
  }

  /** Writes the versions of a dumped entry into a history that holds nothing for its address yet (a state load). */
  restore(entry: HistoryEntry): void {
    const { address, account, storage } = entry
    if (account !== undefined) {
      const versions = new Versions(account.blocks[0], account.values[0])
      versions.blocks.push(...account.blocks.slice(1))
      versions.values.push(...account.values.slice(1))
      this.accounts.set(address, versions)
    }
    if (storage !== undefined) {
      const history = new StorageHistory()
      history.wipes = storage.wipes === undefined ? undefined : [...storage.wipes]
      for (const [slot, words] of storage.slots) {
        const versions = new Versions(words.blocks[0], words.values[0])
        versions.blocks.push(...words.blocks.slice(1))
        versions.values.push(...words.values.slice(1))
        history.slots.set(slot, versions)
      }
      this.storage.set(address, history)
    }
  }

  /** The non-zero storage words of `address` the history holds at the end of block `blockNumber` (the source's are not enumerated). */
  *storageWordsAt(address: Address, blockNumber: number): Iterable<[bigint, bigint]> {
    const history = this.storage.get(address)
    if (history === undefined) return
    const wipe = history.wipeAt(blockNumber)
    for (const [slot, versions] of history.slots) {
      const index = versions.indexAt(blockNumber)
      if (index !== -1 && versions.blocks[index] >= wipe && versions.values[index] !== 0n) yield [slot, versions.values[index]]
    }
  }


  /** Records `changes` as the state at the end of block `blockNumber`. */
  apply(blockNumber: number, changes: StateChanges): void {
    for (const [address, account] of changes.accounts) this.putAccount(blockNumber, address, account ?? undefined)
    for (const [address, slots] of changes.storage) {
      if (slots.cleared) this.wipeStorage(blockNumber, address)
      for (const [slot, value] of slots) this.putStorage(blockNumber, address, slot, value)
    }
  }

  /** Writes one account as of `blockNumber` (undefined: deleted). */
  putAccount(blockNumber: number, address: Address, account: AccountState | undefined): void {
    this.writeVersion(this.accounts, address, blockNumber, account)
  }

  /** Writes one storage word as of `blockNumber`. */
  putStorage(blockNumber: number, address: Address, slot: bigint, value: bigint): void {
    this.writeVersion(this.storageOf(address).slots, slot, blockNumber, value)
  }

  /** Wipes the storage of `address` as of `blockNumber` (before that block's own writes). */
  wipeStorage(blockNumber: number, address: Address): void {
    const history = this.storageOf(address)
    const previous = history.wipes
    if (previous !== undefined && previous[previous.length - 1] === blockNumber) return
    history.wipes = previous === undefined ? [blockNumber] : [...previous, blockNumber]
    if (this.undoLog?.recording) this.undoLog.record(() => (history.wipes = previous))
  }

  /** Records `value` for `key` as of `blockNumber`, with its undo while a snapshot is open. */
  private writeVersion<K, T>(versionsByKey: Map<K, Versions<T>>, key: K, blockNumber: number, value: T): void {
    const versions = versionsByKey.get(key)
    const recording = this.undoLog?.recording === true
    if (versions === undefined) {
      versionsByKey.set(key, new Versions(blockNumber, value))
      if (recording) this.undoLog!.record(() => versionsByKey.delete(key))
    } else {
      const undo = versions.write(blockNumber, value, recording)
      if (undo !== undefined) this.undoLog!.record(undo)
    }
  }

  private storageOf(address: Address): StorageHistory {
    let history = this.storage.get(address)
    if (history === undefined) {
      history = new StorageHistory()
      this.storage.set(address, history)
      if (this.undoLog?.recording) this.undoLog.record(() => this.storage.delete(address))
    }
    return history
  }

  private accountAt(address: Address, block: number): AccountState | undefined | Unloaded {
    const versions = this.accounts.get(address)
    if (versions === undefined) return this.source.account(address)
    const index = versions.indexAt(block)
    return index === -1 ? this.source.account(address) : versions.values[index]
  }

  private storageAt(address: Address, slot: bigint, block: number): bigint | Unloaded {
    const history = this.storage.get(address)
    if (history === undefined) return this.source.storage(address, slot)
    const wipe = history.wipeAt(block)
    const versions = history.slots.get(slot)
    const index = versions === undefined ? -1 : versions.indexAt(block)
    if (index !== -1 && versions!.blocks[index] >= wipe) return versions!.values[index]
    return wipe === -1 ? this.source.storage(address, slot) : 0n
  }
}
