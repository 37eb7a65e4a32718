/**
 * The root of an ordered list (transactions, receipts, withdrawals): a trie keyed by
 * rlp(index), as block headers commit to them.
 */
import { bigIntToUnpaddedBytes } from '@ethereumjs/util'
import { trieFromEntries, trieInsert } from './merkle-patricia-trie.ts'
import { rlpBytes, trieRoot } from './trie-encoding.ts'
import { keyToNibbles, type TrieNode } from './trie-nodes.ts'

/** The trie of `items` from `start` on inserted into `root` (which holds those before), each at key rlp(index). */
function insertFrom(root: TrieNode | undefined, items: readonly Uint8Array[], start: number): TrieNode | undefined {
  for (let i = start; i < items.length; i++) {
    root = trieInsert(root, keyToNibbles(rlpBytes(bigIntToUnpaddedBytes(BigInt(i)))), 0, items[i])
  }
  return root
}

/** The trie of `items`, each at key rlp(index), built in one pass (rlp keys are prefix-free, as the bulk build needs). */
function buildTrie(items: readonly Uint8Array[]): TrieNode | undefined {
  return trieFromEntries(items.map((item, i) => [keyToNibbles(rlpBytes(bigIntToUnpaddedBytes(BigInt(i)))), item] as const))
}

/** The trie root of `items`, each stored at key rlp(index). */
export function orderedTrieRoot(items: readonly Uint8Array[]): Uint8Array {
  return trieRoot(buildTrie(items))
}

/**
 * The ordered trie of a list that grows between calls (the pending block's transactions and
 * receipts, tick after tick): each root costs the items added since the last call, as the trie
 * keeps its nodes and their hashes. A list that is not the last one plus new items (a drop, a
 * revert) is rebuilt.
 */
export class GrowingOrderedTrie {
  private root: TrieNode | undefined
  private items: readonly Uint8Array[] = []

  /** The trie root of `items`. */
  rootOf(items: readonly Uint8Array[]): Uint8Array {
    const known = this.items.length
    this.root = known > 0 && this.extends(items) ? insertFrom(this.root, items, known) : buildTrie(items)
    this.items = items
    return trieRoot(this.root)
  }

  /** Whether `items` starts with the very items of the last call (compared by identity: a pointer check each, no hashing). */
  private extends(items: readonly Uint8Array[]): boolean {
    const known = this.items
    if (items.length < known.length) return false
    for (let i = 0; i < known.length; i++) if (items[i] !== known[i]) return false
    return true
  }
}
