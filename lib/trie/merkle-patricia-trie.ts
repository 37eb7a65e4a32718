/**
 * A persistent Merkle Patricia trie held in memory: updates copy only the path they touch and
 * leave earlier roots intact (a snapshot is a root reference), and each node caches its hash,
 * so a root costs one hash per node changed since the last one.
 *
 * Why not @ethereumjs/mpt: it hashes and stores every node on every put through an async
 * database; measured here at 220 µs per put and 600 ms to update 2000 accounts of a 10k-account
 * trie. This one does the same 2000 updates in a few tens of milliseconds.
 */
import { KECCAK256_RLP } from '@ethereumjs/util'
import { keccak256 } from '../crypto/keccak.ts'

/** A node of the trie; never mutated once built (only its cached reference is filled in). */
export type TrieNode = LeafNode | ExtensionNode | BranchNode

class LeafNode {
  /** RLP of the node if shorter than 32 bytes, else its hash (filled on first use). */
  reference: Uint8Array | undefined
  constructor(
    readonly path: Uint8Array,
    readonly value: Uint8Array,
  ) {}
}

class ExtensionNode {
  reference: Uint8Array | undefined
  constructor(
    readonly path: Uint8Array,
    readonly child: TrieNode,
  ) {}
}

class BranchNode {
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

function commonPrefixLength(a: Uint8Array, b: Uint8Array, bOffset: number): number {
  const limit = Math.min(a.length, b.length - bOffset)
  let i = 0
  while (i < limit && a[i] === b[bOffset + i]) i++
  return i
}

function concatNibbles(head: Uint8Array | number, tail: Uint8Array): Uint8Array {
  const prefix = typeof head === 'number' ? Uint8Array.of(head) : head
  const joined = new Uint8Array(prefix.length + tail.length)
  joined.set(prefix)
  joined.set(tail, prefix.length)
  return joined
}

/** A branch holding exactly two entries: the old node's remainder and the new leaf. */
function splitAt(
  existingPath: Uint8Array,
  common: number,
  placeExisting: (children: Array<TrieNode | undefined>) => Uint8Array | undefined,
  path: Uint8Array,
  offset: number,
  value: Uint8Array,
): TrieNode {
  const children = new Array<TrieNode | undefined>(16).fill(undefined)
  let branchValue = placeExisting(children)
  const rest = offset + common
  if (rest === path.length) branchValue = value
  else children[path[rest]] = new LeafNode(path.subarray(rest + 1), value)
  const branch = new BranchNode(children, branchValue)
  return common > 0 ? new ExtensionNode(existingPath.subarray(0, common), branch) : branch
}

/** The trie with `path` (nibbles, read from `offset`) set to `value`. */
export function trieInsert(node: TrieNode | undefined, path: Uint8Array, offset: number, value: Uint8Array): TrieNode {
  if (node === undefined) return new LeafNode(path.subarray(offset), value)
  if (node instanceof LeafNode) {
    const common = commonPrefixLength(node.path, path, offset)
    if (common === node.path.length && offset + common === path.length) return new LeafNode(node.path, value)
    return splitAt(
      node.path,
      common,
      (children) => {
        if (common === node.path.length) return node.value
        children[node.path[common]] = new LeafNode(node.path.subarray(common + 1), node.value)
        return undefined
      },
      path,
      offset,
      value,
    )
  }
  if (node instanceof ExtensionNode) {
    const common = commonPrefixLength(node.path, path, offset)
    if (common === node.path.length) {
      return new ExtensionNode(node.path, trieInsert(node.child, path, offset + common, value))
    }
    return splitAt(
      node.path,
      common,
      (children) => {
        children[node.path[common]] =
          common + 1 === node.path.length ? node.child : new ExtensionNode(node.path.subarray(common + 1), node.child)
        return undefined
      },
      path,
      offset,
      value,
    )
  }
  if (offset === path.length) return new BranchNode(node.children, value)
  const children = node.children.slice()
  children[path[offset]] = trieInsert(children[path[offset]], path, offset + 1, value)
  return new BranchNode(children, node.value)
}

/** `child` under an extension of `path`, merged into it when it is a leaf or an extension. */
function joinPath(path: Uint8Array, child: TrieNode | undefined): TrieNode | undefined {
  if (child === undefined || path.length === 0) return child
  if (child instanceof LeafNode) return new LeafNode(concatNibbles(path, child.path), child.value)
  if (child instanceof ExtensionNode) return new ExtensionNode(concatNibbles(path, child.path), child.child)
  return new ExtensionNode(path, child)
}

/** A branch with these entries, collapsed if it no longer branches. */
function normalizeBranch(children: ReadonlyArray<TrieNode | undefined>, value: Uint8Array | undefined): TrieNode | undefined {
  let count = 0
  let only = -1
  for (let i = 0; i < 16; i++) {
    if (children[i] !== undefined) {
      count++
      only = i
    }
  }
  if (count > 1 || (count === 1 && value !== undefined)) return new BranchNode(children, value)
  if (count === 0) return value === undefined ? undefined : new LeafNode(new Uint8Array(0), value)
  return joinPath(Uint8Array.of(only), children[only])
}

/** The trie without `path`; the same node if the path was absent. */
export function trieDelete(node: TrieNode | undefined, path: Uint8Array, offset: number): TrieNode | undefined {
  if (node === undefined) return undefined
  if (node instanceof LeafNode) {
    const matches = node.path.length === path.length - offset && commonPrefixLength(node.path, path, offset) === node.path.length
    return matches ? undefined : node
  }
  if (node instanceof ExtensionNode) {
    if (commonPrefixLength(node.path, path, offset) !== node.path.length) return node
    const child = trieDelete(node.child, path, offset + node.path.length)
    return child === node.child ? node : joinPath(node.path, child)
  }
  if (offset === path.length) return node.value === undefined ? node : normalizeBranch(node.children, undefined)
  const index = path[offset]
  const child = trieDelete(node.children[index], path, offset + 1)
  if (child === node.children[index]) return node
  const children = node.children.slice()
  children[index] = child
  return normalizeBranch(children, node.value)
}

/**
 * The node that `path` (nibbles, read from `offset`) leads to below `node`, with the offset
 * reached there; undefined where the path ends at `node` or leaves the trie (a leaf, a
 * diverging extension, an empty branch slot).
 */
export function trieStep(node: TrieNode, path: Uint8Array, offset: number): [TrieNode, number] | undefined {
  if (node instanceof LeafNode) return undefined
  if (node instanceof ExtensionNode) {
    const matches = commonPrefixLength(node.path, path, offset) === node.path.length
    return matches ? [node.child, offset + node.path.length] : undefined
  }
  const child = offset < path.length ? node.children[path[offset]] : undefined
  return child === undefined ? undefined : [child, offset + 1]
}

// RLP for trie nodes: child references shorter than 32 bytes are embedded as already-encoded
// lists, which a generic RLP encoder cannot express.

function lengthPrefix(length: number, shortBase: number): Uint8Array {
  if (length < 56) return Uint8Array.of(shortBase + length)
  const bytes: number[] = []
  for (let rest = length; rest > 0; rest = Math.floor(rest / 256)) bytes.unshift(rest % 256)
  return Uint8Array.of(shortBase + 55 + bytes.length, ...bytes)
}

function concat(parts: Uint8Array[], total: number, prefix: Uint8Array): Uint8Array {
  const out = new Uint8Array(prefix.length + total)
  out.set(prefix)
  let at = prefix.length
  for (const part of parts) {
    out.set(part, at)
    at += part.length
  }
  return out
}

/** RLP of a byte string. */
export function rlpBytes(bytes: Uint8Array): Uint8Array {
  if (bytes.length === 1 && bytes[0] < 0x80) return bytes
  return concat([bytes], bytes.length, lengthPrefix(bytes.length, 0x80))
}

/** RLP of a list whose items are already RLP-encoded. */
export function rlpList(items: Uint8Array[]): Uint8Array {
  let total = 0
  for (const item of items) total += item.length
  return concat(items, total, lengthPrefix(total, 0xc0))
}

const RLP_EMPTY = Uint8Array.of(0x80)

function hexPrefix(path: Uint8Array, leaf: boolean): Uint8Array {
  const odd = path.length % 2
  const out = new Uint8Array(1 + (path.length >> 1))
  out[0] = ((leaf ? 2 : 0) + odd) << 4
  let i = 0
  if (odd === 1) {
    out[0] |= path[0]
    i = 1
  }
  for (let at = 1; i < path.length; i += 2, at++) out[at] = (path[i] << 4) | path[i + 1]
  return out
}

/** The RLP encoding of `node`, children shorter than 32 bytes embedded and the others by hash (what a proof lists). */
export function encodeTrieNode(node: TrieNode): Uint8Array {
  if (node instanceof LeafNode) return rlpList([rlpBytes(hexPrefix(node.path, true)), rlpBytes(node.value)])
  if (node instanceof ExtensionNode) return rlpList([rlpBytes(hexPrefix(node.path, false)), childReference(node.child)])
  const items = new Array<Uint8Array>(17)
  for (let i = 0; i < 16; i++) {
    const child = node.children[i]
    items[i] = child === undefined ? RLP_EMPTY : childReference(child)
  }
  items[16] = node.value === undefined ? RLP_EMPTY : rlpBytes(node.value)
  return rlpList(items)
}

/** How a parent refers to `node`: its RLP if under 32 bytes, else the RLP of its hash. */
function childReference(node: TrieNode): Uint8Array {
  if (node.reference === undefined) {
    const encoded = encodeTrieNode(node)
    node.reference = encoded.length < 32 ? encoded : rlpBytes(keccak256(encoded))
  }
  return node.reference
}

/** The root hash of a trie (the empty trie's is keccak256(rlp(""))). */
export function trieRoot(node: TrieNode | undefined): Uint8Array {
  if (node === undefined) return KECCAK256_RLP
  const reference = childReference(node)
  return reference.length === 33 && reference[0] === 0xa0 ? reference.subarray(1) : keccak256(reference)
}
