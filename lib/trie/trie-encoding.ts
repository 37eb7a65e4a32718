/**
 * The trie's RLP: node encodings (children shorter than 32 bytes embedded, the others by hash),
 * each node's cached reference, and the root hash. Nodes are encoded by the hundred thousand
 * when a large state is loaded, so each encoding is written into one buffer.
 */
import { KECCAK256_RLP } from '@ethereumjs/util'
import { keccak256 } from '../crypto/keccak.ts'
import { BranchNode, LeafNode, type TrieNode } from './trie-nodes.ts'

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

/** RLP of a byte string. */
export function rlpBytes(bytes: Uint8Array): Uint8Array {
  if (bytes.length === 1 && bytes[0] < 0x80) return bytes
  const out = new Uint8Array(stringLength(bytes))
  writeString(out, 0, bytes)
  return out
}

/** RLP of a list whose items are already RLP-encoded, after a one-byte `prefix` if given (an EIP-2718 type). */
export function rlpList(items: readonly Uint8Array[], prefix?: number): Uint8Array {
  let payload = 0
  for (const item of items) payload += item.length
  const start = prefix === undefined ? 0 : 1
  const out = new Uint8Array(start + headerLength(payload) + payload)
  if (prefix !== undefined) out[0] = prefix
  let at = writeHeader(out, start, payload, 0xc0)
  for (const item of items) {
    out.set(item, at)
    at += item.length
  }
  return out
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
