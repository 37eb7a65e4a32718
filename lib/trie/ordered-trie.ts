/**
 * The root of an ordered list (transactions, receipts, withdrawals): a trie keyed by
 * rlp(index), as block headers commit to them.
 */
import { unpaddedBytes } from '../bytes.ts'
import { trieFromSortedEntries, trieInsert } from './merkle-patricia-trie.ts'
import { rlpBytes, trieRoot } from './trie-encoding.ts'
import { keyToNibbles, type TrieNode } from './trie-nodes.ts'

/** The nibbles of rlp(index). */
function makeKey(index: number): Uint8Array {
  return keyToNibbles(rlpBytes(unpaddedBytes(BigInt(index))))
}

/** Keys made so far, for the indexes 0 … length − 1: every block's lists key their items so (keys are never written to). */
const keys: Uint8Array[] = []
/** From this index on, keys are made afresh each time rather than kept. */
const KEPT_KEYS = 1 << 16

/** The key of item `index`: the nibbles of rlp(index). */
function keyOf(index: number): Uint8Array {
  if (index >= KEPT_KEYS) return makeKey(index)
  while (keys.length <= index) keys.push(makeKey(keys.length))
  return keys[index]
}

/** The trie of `items` from `start` on inserted into `root` (which holds those before), each at key rlp(index). */
function insertFrom(root: TrieNode | undefined, items: readonly Uint8Array[], start: number): TrieNode | undefined {
  for (let i = start; i < items.length; i++) {
    root = trieInsert(root, keyOf(i), 0, items[i])
  }
  return root
}

/**
 * The indexes 0 … count − 1 in the order of their keys, so the bulk build needs no sort (a
 * comparator that, cold, took 5.5 ms of a full block's first tick): 1 … 127 (keys 0x01 … 0x7f), then
 * 0 (0x80), then 128 on (0x81 xx, 0x82 xx xx, …: a longer encoding starts with a greater byte,
 * and encodings of one length sort as their numbers do).
 */
function indexesInKeyOrder(count: number): number[] {
  const order = new Array<number>(count)
  const small = Math.min(count, 128)
  for (let i = 1; i < small; i++) order[i - 1] = i
  if (count > 0) order[small - 1] = 0
  for (let i = small; i < count; i++) order[i] = i
  return order
}

/** The trie of `items`, each at key rlp(index), built in one pass (rlp keys are prefix-free, as the bulk build needs). */
function buildTrie(items: readonly Uint8Array[]): TrieNode | undefined {
  return trieFromSortedEntries(indexesInKeyOrder(items.length).map((index) => [keyOf(index), items[index]] as const))
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
