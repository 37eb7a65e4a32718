/**
 * A persistent Merkle Patricia trie held in memory: updates copy only the path they touch and
 * leave earlier roots intact (a snapshot is a root reference), and each node caches its hash,
 * so a root costs one hash per node changed since the last one.
 *
 * Why not @ethereumjs/mpt: it hashes and stores every node on every put through an async
 * database; measured here at 220 µs per put and 600 ms to update 2000 accounts of a 10k-account
 * trie. This one does the same 2000 updates in a few tens of milliseconds.
 */
import { BranchNode, ExtensionNode, LeafNode, type TrieNode } from './trie-nodes.ts'

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
  entries.sort(([a], [b]) => compareNibbles(a, b))
  return trieFromSortedEntries(entries)
}

/** The trie of `entries` already in path order, their paths prefix-free: {@link trieFromEntries} without its sort. */
export function trieFromSortedEntries(entries: ReadonlyArray<readonly [path: Uint8Array, value: Uint8Array]>): TrieNode | undefined {
  return entries.length === 0 ? undefined : buildRange(entries, 0, entries.length, 0)
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

