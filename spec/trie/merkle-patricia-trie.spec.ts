import { expect } from 'chai'
import { createMPT } from '@ethereumjs/mpt'
import { bytesToHex, KECCAK256_RLP } from '@ethereumjs/util'
import { keccak256 } from '../../lib/crypto/keccak.ts'
import { trieDelete, trieInsert } from '../../lib/trie/merkle-patricia-trie.ts'
import { trieRoot } from '../../lib/trie/trie-encoding.ts'
import { keyToNibbles, type TrieNode } from '../../lib/trie/trie-nodes.ts'
import { orderedTrieRoot } from '../../lib/trie/ordered-trie.ts'

/** A deterministic pseudo-random byte source (xorshift), so failures reproduce. */
function random(seed: number) {
  let state = seed
  const next = () => {
    state ^= state << 13
    state ^= state >>> 17
    state ^= state << 5
    return state >>> 0
  }
  return (length: number) => Uint8Array.from({ length }, () => next() & 255)
}

describe('trie/merkle-patricia-trie', () => {
  it('the empty trie has the root keccak256(rlp(""))', () => {
    expect(bytesToHex(trieRoot(undefined))).to.equal(bytesToHex(KECCAK256_RLP))
  })

  it('matches @ethereumjs/mpt on random inserts, overwrites and deletes (hashed 32-byte keys)', async () => {
    const bytes = random(7)
    const reference = await createMPT()
    let trie: TrieNode | undefined
    const keys: Uint8Array[] = []
    for (let i = 0; i < 400; i++) {
      const key = i % 5 === 4 ? keys[(i * 7) % keys.length] : keccak256(bytes(8))
      if (i % 5 !== 4) keys.push(key)
      const value = bytes(1 + (i % 40))
      await reference.put(key, value)
      trie = trieInsert(trie, keyToNibbles(key), 0, value)
      if (i % 50 === 0) expect(bytesToHex(trieRoot(trie))).to.equal(bytesToHex(reference.root()))
    }
    for (let i = 0; i < keys.length; i += 3) {
      await reference.del(keys[i])
      trie = trieDelete(trie, keyToNibbles(keys[i]), 0)
    }
    expect(bytesToHex(trieRoot(trie))).to.equal(bytesToHex(reference.root()))
  })

  it('matches @ethereumjs/mpt with short keys that embed nodes under 32 bytes and share prefixes', async () => {
    const reference = await createMPT()
    let trie: TrieNode | undefined
    const entries: Array<[number[], number[]]> = [
      [[0x01], [0x01]],
      [[0x01, 0x02], [0x02]],
      [[0x01, 0x02, 0x03], [0x03]],
      [[0x10], [0x04, 0x05]],
      [[0x11], [0x06]],
      [[0xab, 0xcd], [0x07]],
      [[0xab, 0xce], [0x08]],
    ]
    for (const [key, value] of entries) {
      await reference.put(Uint8Array.from(key), Uint8Array.from(value))
      trie = trieInsert(trie, keyToNibbles(Uint8Array.from(key)), 0, Uint8Array.from(value))
      expect(bytesToHex(trieRoot(trie))).to.equal(bytesToHex(reference.root()))
    }
    for (const [key] of entries.slice(0, 4)) {
      await reference.del(Uint8Array.from(key))
      trie = trieDelete(trie, keyToNibbles(Uint8Array.from(key)), 0)
      expect(bytesToHex(trieRoot(trie))).to.equal(bytesToHex(reference.root()))
    }
  })

  it('is persistent: an update leaves earlier roots (snapshots) intact', () => {
    const key = keyToNibbles(keccak256(Uint8Array.of(1)))
    const before = trieInsert(undefined, key, 0, Uint8Array.of(1))
    const rootBefore = bytesToHex(trieRoot(before))
    const after = trieInsert(before, keyToNibbles(keccak256(Uint8Array.of(2))), 0, Uint8Array.of(2))
    expect(bytesToHex(trieRoot(after))).to.not.equal(rootBefore)
    expect(bytesToHex(trieRoot(before))).to.equal(rootBefore)
  })

  it('deleting an absent key returns the same node', () => {
    const trie = trieInsert(undefined, keyToNibbles(keccak256(Uint8Array.of(1))), 0, Uint8Array.of(1))
    expect(trieDelete(trie, keyToNibbles(keccak256(Uint8Array.of(2))), 0)).to.equal(trie)
  })

  it('ordered roots match @ethereumjs/mpt keyed by rlp(index), for 0, 1, 128 and 300 items', async () => {
    for (const count of [0, 1, 128, 300]) {
      const items = Array.from({ length: count }, (_, i) => Uint8Array.of(i & 255, (i >> 8) & 255, 7))
      const reference = await createMPT()
      const { RLP } = await import('@ethereumjs/rlp')
      for (let i = 0; i < count; i++) await reference.put(RLP.encode(i), items[i])
      expect(bytesToHex(orderedTrieRoot(items))).to.equal(bytesToHex(reference.root()))
    }
  })
})
