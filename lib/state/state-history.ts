/**
 * Sealed history: every account and storage word keeps the list of blocks where it changed,
 * so a read at the head is one map lookup and a read at block N one binary search, whatever
 * the number of blocks; sealing a block costs only the keys it touched (a write of the value a
 * key already holds adds no version). Keys the chain never wrote fall through to the state
 * source (nothing for a fresh chain; the fork point for a fork). With `--prune-history N` only
 * the head's state and the N blocks' before it are kept (history-pruning.ts).
 */
import type { UndoLog } from '../snapshots/undo-log.ts'
import type { Address } from '../types.ts'
import type { AccountState } from './account.ts'
import { HistoryPruner } from './history-pruning.ts'
import { sameAccount, StorageHistory, Versions, type KeyVersions } from './key-versions.ts'
import type { StateChanges, StateSource, StateView, Unloaded } from './state-view.ts'

export type { KeyVersions } from './key-versions.ts'

/** One address's history: its account's versions, and its storage words' with the blocks that wiped them all. */
export interface HistoryEntry {
  readonly address: Address
  readonly account: KeyVersions<AccountState | undefined> | undefined
  readonly storage: { readonly wipes: readonly number[] | undefined; readonly slots: ReadonlyMap<bigint, KeyVersions<bigint>> } | undefined
}

/** The state of every sealed block, readable at the head or at any earlier block. */
export class StateHistory {
  private readonly accounts = new Map<Address, Versions<AccountState | undefined>>()
  private readonly storage = new Map<Address, StorageHistory>()
  /** What drops the versions of blocks no longer kept and refuses reads of them (undefined: every block's state is kept). */
  private pruner: HistoryPruner | undefined
  /** The view at the newest sealed block. */
  readonly latest: StateView

  /**
   * @param pruneHistory keep the state of the head and of this many blocks before it only
   *   (`--prune-history`; 0: the head's alone); undefined keeps every block's
   */
  constructor(
    readonly source: StateSource,
    private readonly undoLog?: UndoLog,
    pruneHistory?: number,
  ) {
    this.pruner = pruneHistory === undefined ? undefined : new HistoryPruner(pruneHistory, undoLog)
    this.latest = new HeadView(source, this.accounts, this.storage)
  }

  /**
   * The view at the end of block `blockNumber`. Where that block's state is pruned, -32602
   * `BlockOutOfRangeError` (Anvil's) now, and from every read of a view made before it was.
   */
  at(blockNumber: number): StateView {
    this.pruner?.check(blockNumber)
    return new BlockView(this, blockNumber)
  }

  /** The oldest block whose state is kept, if pruning dropped older ones' (what a state dump records). */
  get keptFrom(): number | undefined {
    const floor = this.pruner?.oldestKept ?? -1
    return floor < 0 ? undefined : floor
  }

  /** Refuses reads before `block` from now on, as a pruned chain does (a loaded dump's history starts there); `head` is the newest sealed block. */
  keepFrom(block: number, head: number): void {
    this.pruner ??= new HistoryPruner(Infinity, this.undoLog)
    this.pruner.raiseFloor(block, head)
  }

  /** Every key's versions, by address: what a state dump holds of the chain's own writes. */
  *entries(): Iterable<HistoryEntry> {
    for (const [address, versions] of this.accounts) yield { address, account: versions, storage: this.storage.get(address) }
    for (const [address, storage] of this.storage) if (!this.accounts.has(address)) yield { address, account: undefined, storage }
  }

  /** Every address the history holds, with the storage slots it holds of each (the keys a state root is built from). */
  *keys(): Iterable<readonly [Address, Iterable<bigint>]> {
    for (const { address, storage } of this.entries()) yield [address, storage?.slots.keys() ?? []] as const
  }

  /** Writes the versions of a dumped entry into a history that holds nothing for its address yet (a state load). */
  restore(entry: HistoryEntry): void {
    const { address, account, storage } = entry
    if (account !== undefined) {
      this.accounts.set(address, this.restoredVersions(account))
    }
    if (storage !== undefined) {
      const history = new StorageHistory()
      history.wipes = storage.wipes === undefined ? undefined : [...storage.wipes]
      for (const block of history.wipes ?? []) this.pruner?.noteWrite(block, history)
      for (const [slot, words] of storage.slots) history.slots.set(slot, this.restoredVersions(words))
      this.storage.set(address, history)
    }
  }

  /** A copy of dumped versions, each after the first queued for pruning. */
  private restoredVersions<T>(dumped: KeyVersions<T>): Versions<T> {
    const versions = new Versions(dumped.blocks[0], dumped.values[0])
    for (let i = 1; i < dumped.blocks.length; i++) {
      versions.blocks.push(dumped.blocks[i])
      versions.values.push(dumped.values[i])
      this.pruner?.noteWrite(dumped.blocks[i], versions)
    }
    return versions
  }

  /**
   * The sealed blocks where the code of `address` arrived, newest first: each block whose
   * version of the account has code where the version before had none (or there was none before:
   * a fork's upstream may already have had it). Pruned versions are gone.
   */
  codeArrivals(address: Address): number[] {
    const versions = this.accounts.get(address)
    if (versions === undefined) return []
    const arrivals: number[] = []
    for (let i = versions.values.length - 1; i >= 0; i--) {
      const hasCode = (versions.values[i]?.code.length ?? 0) > 0
      const hadCode = i > 0 && (versions.values[i - 1]?.code.length ?? 0) > 0
      if (hasCode && !hadCode) arrivals.push(versions.blocks[i])
    }
    return arrivals
  }

  /** The non-zero storage words of `address` the history holds at the end of block `blockNumber` (the source's are not enumerated). */
  *storageWordsAt(address: Address, blockNumber: number): Iterable<[bigint, bigint]> {
    this.pruner?.check(blockNumber)
    const history = this.storage.get(address)
    if (history === undefined) return
    const wipe = history.wipeAt(blockNumber)
    for (const [slot, versions] of history.slots) {
      const index = versions.indexAt(blockNumber)
      if (index !== -1 && versions.blocks[index] >= wipe && versions.values[index] !== 0n) yield [slot, versions.values[index]]
    }
  }

  /** Whether the chain wrote a storage word of `address`, or wiped its storage, by the end of block `blockNumber`. */
  wroteStorage(address: Address, blockNumber: number): boolean {
    const history = this.storage.get(address)
    if (history === undefined) return false
    if (history.wipeAt(blockNumber) !== -1) return true
    for (const versions of history.slots.values()) if (versions.indexAt(blockNumber) !== -1) return true
    return false
  }

  /** Drops every version written after block `blockNumber`, which becomes the head again (`anvil_rollback`); undone with a snapshot's revert. */
  dropAfter(blockNumber: number): void {
    const dropEmpty = <K, V extends { dropAfter(block: number, undoLog: UndoLog | undefined): boolean }>(byKey: Map<K, V>): void => {
      for (const [key, versions] of byKey) {
        if (versions.dropAfter(blockNumber, this.undoLog)) continue
        byKey.delete(key)
        if (this.undoLog?.recording) this.undoLog.record(() => byKey.set(key, versions))
      }
    }
    dropEmpty(this.accounts)
    dropEmpty(this.storage)
  }

  /** Records `changes` as the state at the end of block `blockNumber`, the new head (with pruning, older blocks' state falls away). */
  apply(blockNumber: number, changes: StateChanges): void {
    for (const [address, account] of changes.accounts) this.putAccount(blockNumber, address, account ?? undefined)
    for (const [address, slots] of changes.storage) {
      if (slots.cleared) this.wipeStorage(blockNumber, address)
      for (const [slot, value] of slots) this.putStorage(blockNumber, address, slot, value)
    }
    this.pruner?.sealed(blockNumber)
  }

  /** Writes one account as of `blockNumber` (undefined: deleted); nothing if it already reads so. */
  putAccount(blockNumber: number, address: Address, account: AccountState | undefined): void {
    const versions = this.accounts.get(address)
    if (versions !== undefined && sameAccount(versions.latest, account)) return
    this.writeVersion(this.accounts, address, blockNumber, account)
  }

  /** Writes one storage word as of `blockNumber`; nothing if it already reads so (no wipe since its last write). */
  putStorage(blockNumber: number, address: Address, slot: bigint, value: bigint): void {
    const history = this.storageOf(address)
    const versions = history.slots.get(slot)
    if (versions !== undefined && versions.latest === value && versions.latestBlock >= history.lastWipe) return
    this.writeVersion(history.slots, slot, blockNumber, value)
  }

  /** Wipes the storage of `address` as of `blockNumber` (before that block's own writes). */
  wipeStorage(blockNumber: number, address: Address): void {
    const history = this.storageOf(address)
    const previous = history.wipes
    if (previous !== undefined && previous[previous.length - 1] === blockNumber) return
    history.wipes = previous === undefined ? [blockNumber] : [...previous, blockNumber]
    if (this.undoLog?.recording) this.undoLog.record(() => (history.wipes = previous))
    this.pruner?.noteWrite(blockNumber, history)
  }

  /** Records `value` for `key` as of `blockNumber`, with its undo while a snapshot is open. */
  private writeVersion<K, T>(versionsByKey: Map<K, Versions<T>>, key: K, blockNumber: number, value: T): void {
    const versions = versionsByKey.get(key)
    const recording = this.undoLog?.recording === true
    if (versions === undefined) {
      versionsByKey.set(key, new Versions(blockNumber, value))
      if (recording) this.undoLog!.record(() => versionsByKey.delete(key))
    } else {
      const added = versions.latestBlock !== blockNumber
      const undo = versions.write(blockNumber, value, recording)
      if (undo !== undefined) this.undoLog!.record(undo)
      if (added) this.pruner?.noteWrite(blockNumber, versions)
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

  /** The account at `address` at the end of `block` (a {@link BlockView}'s read). */
  accountAt(address: Address, block: number): AccountState | undefined | Unloaded {
    this.pruner?.check(block)
    const versions = this.accounts.get(address)
    if (versions === undefined) return this.source.account(address)
    const index = versions.indexAt(block)
    return index === -1 ? this.source.account(address) : versions.values[index]
  }

  /** The storage word at `slot` of `address` at the end of `block` (a {@link BlockView}'s read). */
  storageAt(address: Address, slot: bigint, block: number): bigint | Unloaded {
    this.pruner?.check(block)
    const history = this.storage.get(address)
    if (history === undefined) return this.source.storage(address, slot)
    const wipe = history.wipeAt(block)
    const versions = history.slots.get(slot)
    const index = versions === undefined ? -1 : versions.indexAt(block)
    if (index !== -1 && versions!.blocks[index] >= wipe) return versions!.values[index]
    return wipe === -1 ? this.source.storage(address, slot) : 0n
  }
}

/**
 * The state at the head: one map lookup per read. A class, not an object of closures: every
 * chain's head view then has the same methods, so the call sites that read through it (the
 * pending block's layer falls through to it on every `pending` read) stay monomorphic and inline it.
 */
class HeadView implements StateView {
  constructor(
    readonly source: StateSource,
    private readonly accounts: ReadonlyMap<Address, Versions<AccountState | undefined>>,
    private readonly storage: ReadonlyMap<Address, StorageHistory>,
  ) {}

  getAccount(address: Address): AccountState | undefined | Unloaded {
    const versions = this.accounts.get(address)
    return versions === undefined ? this.source.account(address) : versions.latest
  }

  getStorage(address: Address, slot: bigint): bigint | Unloaded {
    const history = this.storage.get(address)
    if (history === undefined) return this.source.storage(address, slot)
    const versions = history.slots.get(slot)
    if (history.wipes === undefined) return versions === undefined ? this.source.storage(address, slot) : versions.latest
    const wipe = history.wipes[history.wipes.length - 1]
    return versions !== undefined && versions.latestBlock >= wipe ? versions.latest : 0n
  }
}

/** The state at the end of an older block: a binary search per read; -32602 from every read once that block's state is pruned. */
class BlockView implements StateView {
  constructor(
    private readonly history: StateHistory,
    private readonly blockNumber: number,
  ) {}

  get source(): StateSource {
    return this.history.source
  }

  getAccount(address: Address): AccountState | undefined | Unloaded {
    return this.history.accountAt(address, this.blockNumber)
  }

  getStorage(address: Address, slot: bigint): bigint | Unloaded {
    return this.history.storageAt(address, slot, this.blockNumber)
  }
}
