/**
 * The nodes of the in-memory Merkle Patricia trie: leaves, extensions and branches, immutable
 * once built (only each one's cached reference is filled in), and keys as nibble paths.
 */

/** A node of the trie; never mutated once built (only its cached reference is filled in). */
export type TrieNode = LeafNode | ExtensionNode | BranchNode

/** A leaf: the rest of its key's path, and the value. */
export class LeafNode {
  /** RLP of the node if shorter than 32 bytes, else its hash (filled on first use). */
  reference: Uint8Array | undefined
  constructor(
    readonly path: Uint8Array,
    readonly value: Uint8Array,
  ) {}
}

/** An extension: a path shared by everything below, and the one child. */
export class ExtensionNode {
  reference: Uint8Array | undefined
  constructor(
    readonly path: Uint8Array,
    readonly child: TrieNode,
  ) {}
}

/** A branch: a child per next nibble, and the value of a key ending here. */
export class BranchNode {
  reference: Uint8Array | undefined
  constructor(
    readonly children: ReadonlyArray<TrieNode | undefined>,
    readonly value: Uint8Array | undefined,
  ) {}
}

/** The nibbles (half-bytes) of a key, the trie's path alphabet. */
export function keyToNibbles(key: Uint8Array): Uint8Array {
  const nibbles = new Uint8Array(key.length * 2)
  for (let i = 0; i < key.length; i++) {
    nibbles[2 * i] = key[i] >> 4
    nibbles[2 * i + 1] = key[i] & 15
  }
  return nibbles
}
