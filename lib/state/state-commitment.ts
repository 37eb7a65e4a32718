/**
 * The state root of sealed blocks, behind one interface so it can be switched off where it
 * cannot be computed (a forked chain does not hold the upstream's tries). The trie commitment
 * keeps the state trie (and one storage trie per account) in step with sealed state: writes
 * only mark keys dirty, and {@link TrieStateCommitment.compute} folds them into the tries when a
 * block seals, at a cost of the keys touched; test-control edits are folded as they go, in
 * steps, so a large one does not stall the next seal. The same tries answer proofs at the head
 * (`eth_getProof`, `eth_getAccount`), and {@link triesOf} builds an older block's on request; a
 * fixed root has none to give.
 */
import { hexBytes } from '../bytes.ts'
import { keccak256 } from '../crypto/keccak.ts'
import { ResourceNotFoundError } from '../errors.ts'
import { trieDelete, trieInsert } from '../trie/merkle-patricia-trie.ts'
import { trieRoot } from '../trie/trie-encoding.ts'
import { keyToNibbles, type TrieNode } from '../trie/trie-nodes.ts'
import type { UndoLog } from '../snapshots/undo-log.ts'
import type { Address } from '../types.ts'
import { FoldedEdits } from './folded-edits.ts'
import { accountLeaf, triesOf, writeStorageWord, type StateTries } from './state-tries.ts'
import { UNLOADED, type StateChanges, type StateView } from './state-view.ts'

/** What computes the state roots of sealed blocks. */
export interface StateCommitment {
  /** Notes every key written in `changes` (a sealed block's). */
  markChanges(changes: StateChanges): void
  /** Notes a write to an account's fields or code (a test-control edit, a genesis account). */
  markAccount(address: Address): void
  /** Notes a write to one storage word (a test-control edit, a genesis word). */
  markSlot(address: Address, slot: bigint): void
  /** The state root of `state`, the head as it is now (everything marked since the last call folded in). */
  compute(state: StateView): Uint8Array
  /**
   * The tries of `head` (the sealed head's state) as it is now, everything marked since the last
   * root folded in (test-control edits included): what proofs walk. -32000 where the commitment
   * holds no tries.
   */
  tries(head: StateView): StateTries
  /** The storage root of `address` in `head` as the last root folded it (an Isthmus withdrawalsRoot); undefined where the commitment holds no tries. */
  storageRoot(head: StateView, address: Address): Uint8Array | undefined
  /**
   * Takes `keys` (addresses with their storage slots) as the whole state (a state load): the
   * tries are built from them in one pass when a root or a proof is next asked for, read from
   * the head as it is then.
   */
  rebuild(keys: () => Iterable<readonly [Address, Iterable<bigint>]>): void
}

/** A commitment that computes nothing: every block carries `root` (a fork's blocks carry the fork block's). */
export function fixedStateCommitment(root: Uint8Array): StateCommitment {
  return {
    markChanges() {},
    markAccount() {},
    markSlot() {},
    compute: () => root,
    rebuild() {},
    tries() {
      throw new ResourceNotFoundError("state proofs are not available on a forked chain: it does not hold the upstream's state trie")
    },
    storageRoot: () => undefined,
  }
}

/**
 * Keys marked by test-control edits past which they are folded into the tries (and hashed) at
 * once: a large edit (100k `anvil_setStorageAt`) pays for its keys as it goes, in steps of this
 * many, instead of in one stall at the next seal. A seal's own keys are folded at the seal.
 */
const EDITED_KEYS_PER_FOLD = 16_384

/** The state trie of the sealed head, updated incrementally. */
export class TrieStateCommitment implements StateCommitment {
  private accountTrie: TrieNode | undefined
  private readonly storageTries = new Map<Address, TrieNode | undefined>()
  private readonly dirtyAccounts = new Set<Address>()
  private readonly dirtySlots = new Map<Address, Set<bigint>>()
  /** Accounts whose storage was wiped since the last root: their storage tries start over. */
  private readonly wiped = new Set<Address>()
  /** The keys of a loaded state, whose tries are still to be built. */
  private deferred: (() => Iterable<readonly [Address, Iterable<bigint>]>) | undefined
  /** keccak256(address) as trie path, per address seen (addresses recur block after block). */
  private readonly accountPaths = new Map<Address, Uint8Array>()
  /** The view of the sealed head that roots and proofs are folded from (known from the first of them on). */
  private head: StateView | undefined
  /** Keys edited since the last fold (a trigger only: a revert does not count them back). */
  private editedKeys = 0
  /** Edits folded since the last seal, with their values: the seal repeats them. */
  private readonly foldedEdits: FoldedEdits

  constructor(private readonly undoLog?: UndoLog) {
    this.foldedEdits = new FoldedEdits(undoLog)
  }

  /**
   * Notes every key written in `changes` (a sealed block's: folded by the seal's root), but for
   * edits the tries took in before it with the values the block seals (a wiped account's words
   * all count).
   */
  markChanges(changes: StateChanges): void {
    const folded = this.foldedEdits
    for (const [address, account] of changes.accounts) if (!folded.holdsAccount(address, account)) this.noteAccount(address)
    for (const [address, slots] of changes.storage) {
      if (slots.cleared) this.noteWipe(address)
      for (const [slot, value] of slots) if (slots.cleared || !folded.holdsWord(address, slot, value)) this.noteSlot(address, slot)
    }
    folded.clear()
  }

  /** Notes a write to an account's fields or code (a test-control edit). */
  markAccount(address: Address): void {
    if (this.noteAccount(address)) this.edited()
  }

  /** Notes a write to one storage word (a test-control edit). */
  markSlot(address: Address, slot: bigint): void {
    if (this.noteSlot(address, slot)) this.edited()
  }

  /** One more key edited: past {@link EDITED_KEYS_PER_FOLD}, the marked keys are folded and hashed now. */
  private edited(): void {
    if (++this.editedKeys < EDITED_KEYS_PER_FOLD || this.head === undefined) return
    this.foldedEdits.folding(this.head, this.dirtyAccounts, this.dirtySlots)
    this.compute(this.head)
  }

  /** Notes a wipe of an account's storage. */
  private noteWipe(address: Address): void {
    this.noteAccount(address)
    if (this.wiped.has(address)) return
    this.wiped.add(address)
    if (this.undoLog?.recording) this.undoLog.record(() => this.wiped.delete(address))
  }

  /** Marks an account dirty; true if it was not yet. */
  private noteAccount(address: Address): boolean {
    if (this.dirtyAccounts.has(address)) return false
    this.dirtyAccounts.add(address)
    if (this.undoLog?.recording) this.undoLog.record(() => this.dirtyAccounts.delete(address))
    return true
  }

  /** Marks a storage word (and its account) dirty; true if the word was not yet. */
  private noteSlot(address: Address, slot: bigint): boolean {
    this.noteAccount(address)
    let slots = this.dirtySlots.get(address)
    if (slots === undefined) {
      slots = new Set()
      this.dirtySlots.set(address, slots)
    }
    if (slots.has(slot)) return false
    slots.add(slot)
    if (this.undoLog?.recording) this.undoLog.record(() => slots.delete(slot))
    return true
  }

  /** Folds every dirty key, read from `state`, into the tries and returns the state root. */
  compute(state: StateView): Uint8Array {
    this.head = state
    this.fold(state)
    return trieRoot(this.accountTrie)
  }

  /** Folds every dirty key, read from `head`, into the tries and hands them out. */
  tries(head: StateView): StateTries {
    this.head = head
    this.fold(head)
    return {
      accounts: this.accountTrie,
      storage: (address) => this.storageTries.get(address),
    }
  }

  storageRoot(head: StateView, address: Address): Uint8Array {
    return trieRoot(this.tries(head).storage(address))
  }

  /** Takes `keys` as the whole state, to build the tries from when next folding (edits folded before count for nothing then). */
  rebuild(keys: () => Iterable<readonly [Address, Iterable<bigint>]>): void {
    this.foldedEdits.clear()
    this.deferred = keys
  }

  /** Builds the tries from the deferred keys read in `head`, in one pass; a revert goes back to before it. */
  private buildDeferred(head: StateView, keys: () => Iterable<readonly [Address, Iterable<bigint>]>): void {
    if (this.undoLog?.recording) {
      const [accountTrie, storageTries] = [this.accountTrie, new Map(this.storageTries)]
      this.undoLog.record(() => {
        this.deferred = keys
        this.accountTrie = accountTrie
        this.storageTries.clear()
        for (const [address, trie] of storageTries) this.storageTries.set(address, trie)
      })
    }
    this.deferred = undefined
    const built = triesOf(head, keys(), (address) => this.accountPath(address))
    for (const [address, trie] of built.storageTries) this.storageTries.set(address, trie)
    this.accountTrie = built.accounts
  }

  /** Folds every dirty key, read from `state`, into the tries (nothing to do, and nothing recorded, when none is). */
  private fold(state: StateView): void {
    this.editedKeys = 0
    if (this.deferred !== undefined) this.buildDeferred(state, this.deferred)
    if (this.dirtyAccounts.size === 0 && this.dirtySlots.size === 0 && this.wiped.size === 0) return
    if (this.undoLog?.recording) this.recordRestorePoint()
    for (const address of this.wiped) this.storageTries.set(address, undefined)
    for (const [address, slots] of this.dirtySlots) {
      let trie = this.storageTries.get(address)
      for (const slot of slots) {
        const value = state.getStorage(address, slot)
        if (value === UNLOADED) throw new Error(`state root: slot ${slot} of ${address} is not loaded`)
        trie = writeStorageWord(trie, slot, value)
      }
      this.storageTries.set(address, trie)
    }
    for (const address of this.dirtyAccounts) {
      const account = state.getAccount(address)
      if (account === UNLOADED) throw new Error(`state root: account ${address} is not loaded`)
      const path = this.accountPath(address)
      if (account === undefined) {
        this.storageTries.delete(address)
        this.accountTrie = trieDelete(this.accountTrie, path, 0)
        continue
      }
      this.accountTrie = trieInsert(this.accountTrie, path, 0, accountLeaf(account, this.storageTries.get(address)))
    }
    this.dirtyAccounts.clear()
    this.dirtySlots.clear()
    this.wiped.clear()
  }

  /** Records how to return to the tries and dirty marks as they are now (nodes are immutable). */
  private recordRestorePoint(): void {
    const accountTrie = this.accountTrie
    const storageTries = new Map([...this.dirtyAccounts].map((address) => [address, this.storageTries.get(address)]))
    const dirtyAccounts = [...this.dirtyAccounts]
    const wiped = [...this.wiped]
    // The same Set objects go back (older undo entries refer to them), refilled.
    const dirtySlots = [...this.dirtySlots].map(([address, slots]) => [address, slots, [...slots]] as const)
    this.undoLog!.record(() => {
      this.accountTrie = accountTrie
      for (const [address, trie] of storageTries) {
        if (trie === undefined) this.storageTries.delete(address)
        else this.storageTries.set(address, trie)
      }
      for (const address of dirtyAccounts) this.dirtyAccounts.add(address)
      for (const address of wiped) this.wiped.add(address)
      for (const [address, set, slots] of dirtySlots) {
        for (const slot of slots) set.add(slot)
        this.dirtySlots.set(address, set)
      }
    })
  }

  private accountPath(address: Address): Uint8Array {
    let path = this.accountPaths.get(address)
    if (path === undefined) {
      path = keyToNibbles(keccak256(hexBytes(address)))
      this.accountPaths.set(address, path)
    }
    return path
  }
}
