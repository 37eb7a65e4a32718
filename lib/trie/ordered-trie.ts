/**
 * The root of an ordered list (transactions, receipts, withdrawals): a trie keyed by
 * rlp(index), as block headers commit to them.
 */
import { bigIntToUnpaddedBytes } from '@ethereumjs/util'
import { trieInsert } from './merkle-patricia-trie.ts'
import { rlpBytes, trieRoot } from './trie-encoding.ts'
import { keyToNibbles, type TrieNode } from './trie-nodes.ts'

/** The trie root of `items`, each stored at key rlp(index). */
export function orderedTrieRoot(items: readonly Uint8Array[]): Uint8Array {
  let root: TrieNode | undefined
  for (let i = 0; i < items.length; i++) {
    root = trieInsert(root, keyToNibbles(rlpBytes(bigIntToUnpaddedBytes(BigInt(i)))), 0, items[i])
  }
  return trieRoot(root)
}
