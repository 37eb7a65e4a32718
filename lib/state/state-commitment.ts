/**
 * The state root of sealed blocks, behind one interface so it can be switched off where it
 * cannot be computed (a forked chain does not hold the upstream's tries). The trie commitment
 * keeps the state trie (and one storage trie per account) in step with sealed state: writes
 * only mark keys dirty, and {@link TrieStateCommitment.compute} folds them into the tries when a
 * block seals, at a cost of the keys touched. The same tries answer proofs at the head
 * (`eth_getProof`, `eth_getAccount`); a fixed root has none to give.
 */
import { bigIntToUnpaddedBytes, hexToBytes } from '@ethereumjs/util'
import { uintBytes } from '../bytes.ts'
import { keccak256 } from '../crypto/keccak.ts'
import { ResourceNotFoundError } from '../errors.ts'
import { trieDelete, trieFromEntries, trieInsert } from '../trie/merkle-patricia-trie.ts'
import { rlpBytes, rlpStringList, trieRoot } from '../trie/trie-encoding.ts'
import { keyToNibbles, type TrieNode } from '../trie/trie-nodes.ts'
import type { UndoLog } from '../snapshots/undo-log.ts'
import type { Address } from '../types.ts'
import type { AccountState } from './account.ts'
import { UNLOADED, type StateChanges, type StateView } from './state-view.ts'

/** What computes the state roots of sealed blocks. */
export interface StateCommitment {
  /** Notes every key written in `changes` (a sealed block's, or a test control's edit). */
  markChanges(changes: StateChanges): void
  /** Notes a write to an account's fields or code. */
  markAccount(address: Address): void
  /** Notes a write to one storage word. */
  markSlot(address: Address, slot: bigint): void
  /** The state root of `state`, the head as it is now (everything marked since the last call folded in). */
  compute(state: StateView): Uint8Array
  /**
   * The tries of `head` (the sealed head's state) as it is now, everything marked since the last
   * root folded in (test-control edits included): what proofs walk. -32000 where the commitment
   * holds no tries.
   */
  tries(head: StateView): StateTries
  /**
   * Takes `keys` (addresses with their storage slots) as the whole state (a state load): the
   * tries are built from them in one pass when a root or a proof is next asked for, read from
   * the head as it is then.
   */
  rebuild(keys: () => Iterable<readonly [Address, Iterable<bigint>]>): void
}

/** The tries of the sealed head. */
export interface StateTries {
  /** The account trie, keyed by keccak256(address). */
  readonly accounts: TrieNode | undefined
  /** The storage trie of `address`, keyed by keccak256(slot); undefined while it holds no word. */
  storage(address: Address): TrieNode | undefined
}

/** The trie key of a storage slot: keccak256 of the slot as a 32-byte word. */
export function storageKey(slot: bigint): Uint8Array {
  return keccak256(uintBytes(slot))
}

/** `trie` (a storage trie) with `slot` set to `value`; 0n removes the word. */
export function writeStorageWord(trie: TrieNode | undefined, slot: bigint, value: bigint): TrieNode | undefined {
  const path = keyToNibbles(storageKey(slot))
  return value === 0n ? trieDelete(trie, path, 0) : trieInsert(trie, path, 0, rlpBytes(bigIntToUnpaddedBytes(value)))
}

/** An account's leaf in the state trie: rlp([nonce, balance, storageRoot, codeHash]). */
function accountLeaf(account: AccountState, storage: TrieNode | undefined): Uint8Array {
  return rlpStringList([bigIntToUnpaddedBytes(account.nonce), bigIntToUnpaddedBytes(account.balance), trieRoot(storage), account.codeHash])
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
  }
}

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

  constructor(private readonly undoLog?: UndoLog) {}

  /** Notes every key written in `changes`. */
  markChanges(changes: StateChanges): void {
    for (const address of changes.accounts.keys()) this.markAccount(address)
    for (const [address, slots] of changes.storage) {
      if (slots.cleared) this.markWipe(address)
      for (const slot of slots.keys()) this.markSlot(address, slot)
    }
  }

  /** Notes a wipe of an account's storage. */
  private markWipe(address: Address): void {
    this.markAccount(address)
    if (this.wiped.has(address)) return
    this.wiped.add(address)
    if (this.undoLog?.recording) this.undoLog.record(() => this.wiped.delete(address))
  }

  /** Notes a write to an account's fields or code. */
  markAccount(address: Address): void {
    if (this.dirtyAccounts.has(address)) return
    this.dirtyAccounts.add(address)
    if (this.undoLog?.recording) this.undoLog.record(() => this.dirtyAccounts.delete(address))
  }

  /** Notes a write to one storage word. */
  markSlot(address: Address, slot: bigint): void {
    let slots = this.dirtySlots.get(address)
    if (slots === undefined) {
      slots = new Set()
      this.dirtySlots.set(address, slots)
    }
    if (!slots.has(slot)) {
      slots.add(slot)
      const marked = slots
      if (this.undoLog?.recording) this.undoLog.record(() => marked.delete(slot))
    }
    this.markAccount(address)
  }

  /** Folds every dirty key, read from `state`, into the tries and returns the state root. */
  compute(state: StateView): Uint8Array {
    this.fold(state)
    return trieRoot(this.accountTrie)
  }

  /** Folds every dirty key, read from `head`, into the tries and hands them out. */
  tries(head: StateView): StateTries {
    this.fold(head)
    return {
      accounts: this.accountTrie,
      storage: (address) => this.storageTries.get(address),
    }
  }

  /** Takes `keys` as the whole state, to build the tries from when next folding. */
  rebuild(keys: () => Iterable<readonly [Address, Iterable<bigint>]>): void {
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
    const leaves: Array<readonly [Uint8Array, Uint8Array]> = []
    for (const [address, slots] of keys()) {
      const account = head.getAccount(address)
      if (account === UNLOADED) throw new Error(`state root: account ${address} is not loaded`)
      if (account === undefined) continue
      const words: Array<readonly [Uint8Array, Uint8Array]> = []
      for (const slot of slots) {
        const value = head.getStorage(address, slot)
        if (value === UNLOADED) throw new Error(`state root: slot ${slot} of ${address} is not loaded`)
        if (value !== 0n) words.push([keyToNibbles(storageKey(slot)), rlpBytes(bigIntToUnpaddedBytes(value))])
      }
      const storage = trieFromEntries(words)
      this.storageTries.set(address, storage)
      leaves.push([this.accountPath(address), accountLeaf(account, storage)])
    }
    this.accountTrie = trieFromEntries(leaves)
  }

  /** Folds every dirty key, read from `state`, into the tries (nothing to do, and nothing recorded, when none is). */
  private fold(state: StateView): void {
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
      path = keyToNibbles(keccak256(hexToBytes(address)))
      this.accountPaths.set(address, path)
    }
    return path
  }
}
