/**
 * The tries of a state, as the state commitment and proofs share them: the trie key of a storage
 * word, one word written into a storage trie, an account's leaf, and whole tries built in one pass
 * from a state and its keys (a state load builds the head's so, a proof at an older block that
 * block's).
 */
import { hexBytes, uintBytes, unpaddedBytes } from '../bytes.ts'
import { keccak256 } from '../crypto/keccak.ts'
import { trieDelete, trieFromEntries, trieInsert } from '../trie/merkle-patricia-trie.ts'
import { rlpBytes, rlpStringList, trieRoot } from '../trie/trie-encoding.ts'
import { keyToNibbles, type TrieNode } from '../trie/trie-nodes.ts'
import type { Address } from '../types.ts'
import type { AccountState } from './account.ts'
import { UNLOADED, type StateView } from './state-view.ts'

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
  return value === 0n ? trieDelete(trie, path, 0) : trieInsert(trie, path, 0, rlpBytes(unpaddedBytes(value)))
}

/** An account's leaf in the state trie: rlp([nonce, balance, storageRoot, codeHash]). */
export function accountLeaf(account: AccountState, storage: TrieNode | undefined): Uint8Array {
  return rlpStringList([unpaddedBytes(account.nonce), unpaddedBytes(account.balance), trieRoot(storage), account.codeHash])
}

/** Tries built in one pass: the account trie and each account's storage trie. */
export interface BuiltTries {
  readonly accounts: TrieNode | undefined
  readonly storageTries: ReadonlyMap<Address, TrieNode | undefined>
}

/**
 * The tries of `state` over `keys` (addresses with their storage slots: every key it may hold),
 * built in one pass; `pathOf` gives an address's path in the account trie (keccak256 of it, as
 * nibbles). A state load builds the head's so, and a proof at an older block that block's.
 */
export function triesOf(
  state: StateView,
  keys: Iterable<readonly [Address, Iterable<bigint>]>,
  pathOf = (address: Address): Uint8Array => keyToNibbles(keccak256(hexBytes(address))),
): BuiltTries {
  const storageTries = new Map<Address, TrieNode | undefined>()
  const leaves: Array<readonly [Uint8Array, Uint8Array]> = []
  for (const [address, slots] of keys) {
    const account = state.getAccount(address)
    if (account === UNLOADED) throw new Error(`state root: account ${address} is not loaded`)
    if (account === undefined) continue
    const words: Array<readonly [Uint8Array, Uint8Array]> = []
    for (const slot of slots) {
      const value = state.getStorage(address, slot)
      if (value === UNLOADED) throw new Error(`state root: slot ${slot} of ${address} is not loaded`)
      if (value !== 0n) words.push([keyToNibbles(storageKey(slot)), rlpBytes(unpaddedBytes(value))])
    }
    const storage = trieFromEntries(words)
    storageTries.set(address, storage)
    leaves.push([pathOf(address), accountLeaf(account, storage)])
  }
  return { accounts: trieFromEntries(leaves), storageTries }
}
