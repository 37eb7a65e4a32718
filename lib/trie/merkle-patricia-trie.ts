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
 * The trie of `entries` (nibble paths of equal length, with their values), built in one pass:
 * sorted, each node made once and no path copied, where inserting them one by one would copy
 * every path it walks. What a state load builds its tries with.
 */
export function trieFromEntries(entries: Array<readonly [path: Uint8Array, value: Uint8Array]>): TrieNode | undefined {
  if (entries.length === 0) return undefined
  entries.sort(([a], [b]) => compareNibbles(a, b))
  return buildRange(entries, 0, entries.length, 0)
}

function compareNibbles(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < a.length && i < b.length; i++) if (a[i] !== b[i]) return a[i] - b[i]
  return a.length - b.length
}

/** The node holding sorted `entries[low..high)`, whose paths agree up to `offset`. */
function buildRange(entries: ReadonlyArray<readonly [Uint8Array, Uint8Array]>, low: number, high: number, offset: number): TrieNode {
  const [firstPath, firstValue] = entries[low]
  if (high - low === 1) return new LeafNode(firstPath.subarray(offset), firstValue)
  // Sorted: what the first and the last path share, every path in between shares.
  const common = commonPrefixLength(entries[high - 1][0].subarray(offset), firstPath, offset)
  if (common > 0) return new ExtensionNode(firstPath.subarray(offset, offset + common), buildRange(entries, low, high, offset + common))
  const children = new Array<TrieNode | undefined>(16).fill(undefined)
  let value: Uint8Array | undefined
  let start = low
  if (firstPath.length === offset) {
    value = firstValue
    start++
  }
  while (start < high) {
    const nibble = entries[start][0][offset]
    let end = start + 1
    while (end < high && entries[end][0][offset] === nibble) end++
    children[nibble] = buildRange(entries, start, end, offset + 1)
    start = end
  }
  return new BranchNode(children, value)
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

/** Bytes an RLP header takes before a payload of `length` bytes. */
function headerLength(length: number): number {
  if (length < 56) return 1
  let bytes = 1
  for (let rest = length; rest > 255; rest = Math.floor(rest / 256)) bytes++
  return 1 + bytes
}

/** Writes the RLP header of a `length`-byte payload at `at` (`base` 0x80 for a string, 0xc0 for a list); returns where the payload starts. */
function writeHeader(out: Uint8Array, at: number, length: number, base: number): number {
  if (length < 56) {
    out[at] = base + length
    return at + 1
  }
  const bytes = headerLength(length) - 1
  out[at] = base + 55 + bytes
  for (let i = bytes, rest = length; i > 0; i--, rest = Math.floor(rest / 256)) out[at + i] = rest % 256
  return at + 1 + bytes
}

/** Bytes the RLP string of `bytes` takes. */
function stringLength(bytes: Uint8Array): number {
  return bytes.length === 1 && bytes[0] < 0x80 ? 1 : headerLength(bytes.length) + bytes.length
}

/** Writes the RLP string of `bytes` at `at`; returns the end. */
function writeString(out: Uint8Array, at: number, bytes: Uint8Array): number {
  if (bytes.length === 1 && bytes[0] < 0x80) {
    out[at] = bytes[0]
    return at + 1
  }
  const start = writeHeader(out, at, bytes.length, 0x80)
  out.set(bytes, start)
  return start + bytes.length
}

/** RLP of a list of byte strings, written into one buffer. */
export function rlpStringList(items: readonly Uint8Array[]): Uint8Array {
  let payload = 0
  for (const item of items) payload += stringLength(item)
  const out = new Uint8Array(headerLength(payload) + payload)
  let at = writeHeader(out, 0, payload, 0xc0)
  for (const item of items) at = writeString(out, at, item)
  return out
}

/**
 * The RLP encoding of `node`, children shorter than 32 bytes embedded and the others by hash
 * (what a proof lists), written into one buffer: nodes are encoded by the hundred thousand when
 * a large state is loaded, and small allocations are what it would cost.
 */
export function encodeTrieNode(node: TrieNode): Uint8Array {
  if (node instanceof BranchNode) {
    const references = new Array<Uint8Array>(16)
    let payload = node.value === undefined ? 1 : stringLength(node.value)
    for (let i = 0; i < 16; i++) {
      const child = node.children[i]
      references[i] = child === undefined ? RLP_EMPTY : childReference(child)
      payload += references[i].length
    }
    const out = new Uint8Array(headerLength(payload) + payload)
    let at = writeHeader(out, 0, payload, 0xc0)
    for (const reference of references) {
      out.set(reference, at)
      at += reference.length
    }
    if (node.value === undefined) out[at] = 0x80
    else writeString(out, at, node.value)
    return out
  }
  // A leaf or an extension: [hex-prefixed path, value or child reference].
  const { path } = node
  const leaf = node instanceof LeafNode
  const odd = path.length & 1
  const keyLength = 1 + (path.length >> 1)
  const second = leaf ? node.value : childReference(node.child)
  const secondLength = leaf ? stringLength(second) : second.length
  // The key's first byte is at most 0x3f: alone, it is its own RLP string.
  const keyItemLength = keyLength === 1 ? 1 : headerLength(keyLength) + keyLength
  const payload = keyItemLength + secondLength
  const out = new Uint8Array(headerLength(payload) + payload)
  let at = writeHeader(out, 0, payload, 0xc0)
  if (keyLength > 1) at = writeHeader(out, at, keyLength, 0x80)
  out[at++] = (((leaf ? 2 : 0) + odd) << 4) | (odd === 1 ? path[0] : 0)
  for (let i = odd; i < path.length; i += 2) out[at++] = (path[i] << 4) | path[i + 1]
  if (leaf) writeString(out, at, second)
  else out.set(second, at)
  return out
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
