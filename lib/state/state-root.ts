/**
 * Keeps the state trie (and one storage trie per account) in step with sealed state, so each
 * sealed block gets its real state root. Writes only mark keys dirty; {@link StateRoot.compute}
 * folds the dirty keys into the tries when a block seals, at a cost of the keys touched.
 */
import { bigIntToUnpaddedBytes, hexToBytes, setLengthLeft, bigIntToBytes } from '@ethereumjs/util'
import { keccak256 } from '../crypto/keccak.ts'
import { keyToNibbles, rlpBytes, rlpList, trieDelete, trieInsert, trieRoot, type TrieNode } from '../trie/merkle-patricia-trie.ts'
import type { UndoLog } from '../snapshots/undo-log.ts'
import type { Address } from '../types.ts'
import type { StateChanges, StateView } from './state-view.ts'

/** The state trie of the sealed head, updated incrementally. */
export class StateRoot {
  private accountTrie: TrieNode | undefined
  private readonly storageTries = new Map<Address, TrieNode | undefined>()
  private readonly dirtyAccounts = new Set<Address>()
  private readonly dirtySlots = new Map<Address, Set<bigint>>()
  /** keccak256(address) as trie path, per address seen (addresses recur block after block). */
  private readonly accountPaths = new Map<Address, Uint8Array>()

  constructor(private readonly undoLog?: UndoLog) {}

  /** Notes every key written in `changes`. */
  markChanges(changes: StateChanges): void {
    for (const address of changes.accounts.keys()) this.markAccount(address)
    for (const [address, slots] of changes.storage) {
      for (const slot of slots.keys()) this.markSlot(address, slot)
    }
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
    if (this.undoLog?.recording) this.recordRestorePoint()
    for (const [address, slots] of this.dirtySlots) {
      let trie = this.storageTries.get(address)
      for (const slot of slots) {
        const path = keyToNibbles(keccak256(setLengthLeft(bigIntToBytes(slot), 32)))
        const value = state.getStorage(address, slot)
        trie = value === 0n ? trieDelete(trie, path, 0) : trieInsert(trie, path, 0, rlpBytes(bigIntToUnpaddedBytes(value)))
      }
      this.storageTries.set(address, trie)
    }
    for (const address of this.dirtyAccounts) {
      const account = state.getAccount(address)
      const path = this.accountPath(address)
      if (account === undefined) {
        this.storageTries.delete(address)
        this.accountTrie = trieDelete(this.accountTrie, path, 0)
        continue
      }
      const leaf = rlpList([
        rlpBytes(bigIntToUnpaddedBytes(account.nonce)),
        rlpBytes(bigIntToUnpaddedBytes(account.balance)),
        rlpBytes(trieRoot(this.storageTries.get(address))),
        rlpBytes(account.codeHash),
      ])
      this.accountTrie = trieInsert(this.accountTrie, path, 0, leaf)
    }
    this.dirtyAccounts.clear()
    this.dirtySlots.clear()
    return trieRoot(this.accountTrie)
  }

  /** Records how to return to the tries and dirty marks as they are now (nodes are immutable). */
  private recordRestorePoint(): void {
    const accountTrie = this.accountTrie
    const storageTries = new Map([...this.dirtyAccounts].map((address) => [address, this.storageTries.get(address)]))
    const dirtyAccounts = [...this.dirtyAccounts]
    // The same Set objects go back (older undo entries refer to them), refilled.
    const dirtySlots = [...this.dirtySlots].map(([address, slots]) => [address, slots, [...slots]] as const)
    this.undoLog!.record(() => {
      this.accountTrie = accountTrie
      for (const [address, trie] of storageTries) {
        if (trie === undefined) this.storageTries.delete(address)
        else this.storageTries.set(address, trie)
      }
      for (const address of dirtyAccounts) this.dirtyAccounts.add(address)
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
