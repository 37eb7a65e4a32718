/**
 * Ordered tries (transactions and receipts roots): the growing trie the pending block keeps from
 * tick to tick gives the root a fresh build gives, whether its list grew, shrank or changed.
 */
import { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { RLP } from '@ethereumjs/rlp'
import { expect } from 'chai'
import { keccak256 } from '../../lib/crypto/keccak.ts'
import { GrowingOrderedTrie, orderedTrieRoot } from '../../lib/trie/ordered-trie.ts'

/** `count` distinct items of varied sizes (some under 32 bytes, so embedded in their parents). */
function items(count: number, salt = 0): Uint8Array[] {
  return Array.from({ length: count }, (_, i) => new Uint8Array(1 + ((i * 37 + salt) % 90)).fill((i + salt) % 251))
}

describe('ordered trie', () => {
  it('the empty list has the empty trie root (keccak256 of rlp(""))', () => {
    expect(Buffer.from(orderedTrieRoot([])).toString('hex')).to.equal(Buffer.from(keccak256(Uint8Array.of(0x80))).toString('hex'))
  })

  // Keys rlp(i) sort as 1 … 127, 0, 128 …: the bulk build lays them out in that order unsorted.
  it('the root of lists across the key lengths (keys 0x80, 0x01–0x7f, 0x81 xx, 0x82 xx xx) equals @ethereumjs/mpt\'s', async () => {
    for (const count of [1, 2, 127, 128, 129, 255, 256, 257, 300]) {
      const list = items(count, count)
      const reference = new MerklePatriciaTrie()
      for (const [i, item] of list.entries()) await reference.put(RLP.encode(i), item)
      expect(orderedTrieRoot(list), `${count} items`).to.deep.equal(reference.root())
    }
  })

  it('past 65,536 items (keys 0x83 xx xx xx) the bulk build equals inserting the items one by one', () => {
    const list = items(66_000)
    const oneByOne = new GrowingOrderedTrie()
    // Built from one item, then every other item inserted, the last 66,000 − 65,536 with 0x83 keys.
    oneByOne.rootOf(list.slice(0, 1))
    expect(orderedTrieRoot(list)).to.deep.equal(oneByOne.rootOf(list))
  })

  it('a growing trie fed a list tick after tick gives the roots of fresh builds', () => {
    const all = items(300)
    const trie = new GrowingOrderedTrie()
    for (const size of [0, 1, 2, 17, 128, 129, 300]) {
      const prefix = all.slice(0, size)
      expect(trie.rootOf(prefix)).to.deep.equal(orderedTrieRoot(prefix))
    }
  })

  it('a list that dropped items, or changed one in the middle, is rebuilt: the root is still exact', () => {
    const all = items(50)
    const trie = new GrowingOrderedTrie()
    trie.rootOf(all)
    // A drop of the last 5 (a flashblock reorg) …
    expect(trie.rootOf(all.slice(0, 45))).to.deep.equal(orderedTrieRoot(all.slice(0, 45)))
    // … then other items at the same indexes, one equal to a dropped one (requeued and re-included).
    const changed = [...all.slice(0, 40), ...items(9, 7), all[49]]
    expect(trie.rootOf(changed)).to.deep.equal(orderedTrieRoot(changed))
    // One item replaced in the middle, the length kept.
    const replaced = [...changed]
    replaced[10] = Uint8Array.of(1, 2, 3)
    expect(trie.rootOf(replaced)).to.deep.equal(orderedTrieRoot(replaced))
  })
})
