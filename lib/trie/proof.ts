/**
 * Merkle proofs (EIP-1186) over the persistent trie: the nodes on the path from the root to a
 * key, listed as geth's `Trie.Prove` lists them, so `eth_getProof` answers what geth and Anvil do.
 */
import { trieStep } from './merkle-patricia-trie.ts'
import { encodeTrieNode } from './trie-encoding.ts'
import { keyToNibbles, type TrieNode } from './trie-nodes.ts'

/** The proof of the empty trie: the RLP of the empty string, whose hash is the empty root (as Anvil answers). */
const EMPTY_TRIE_PROOF: readonly Uint8Array[] = [Uint8Array.of(0x80)]

/**
 * The proof of `key` (the trie key itself: keccak256 of an address or a slot) in the trie under
 * `root`: the RLP of each node on its path, root first, down to the key's leaf or to where the
 * path leaves the trie (a proof of absence). A node shorter than 32 bytes is left out, save the
 * root: its parent holds it whole.
 */
export function trieProof(root: TrieNode | undefined, key: Uint8Array): Uint8Array[] {
  if (root === undefined) return [...EMPTY_TRIE_PROOF]
  const path = keyToNibbles(key)
  const proof: Uint8Array[] = []
  let step: [TrieNode, number] | undefined = [root, 0]
  while (step !== undefined) {
    const [node, offset] = step
    const encoded = encodeTrieNode(node)
    if (node === root || encoded.length >= 32) proof.push(encoded)
    step = trieStep(node, path, offset)
  }
  return proof
}
