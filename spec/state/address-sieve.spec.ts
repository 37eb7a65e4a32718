/**
 * The address sieve of the pre-confirmed block's layer: an address never written is certainly
 * absent (its reads skip the layer's maps), and a sieved layer reads exactly as a plain one
 * without — written, deleted, wiped and reverted keys, and addresses that share a sieve bit.
 */
import { expect } from 'chai'
import type { AccountState } from '../../lib/state/account.ts'
import { AddressSieve } from '../../lib/state/address-sieve.ts'
import { SievedLayer, StateLayer } from '../../lib/state/state-layer.ts'
import type { StateView } from '../../lib/state/state-view.ts'
import type { Address } from '../../lib/types.ts'

const address = (hex: string) => `0x${hex.padEnd(40, '0')}` as Address
const account = (balance: bigint) => ({ balance, nonce: 0n }) as AccountState

/** A parent where every account holds 1 wei and every word reads 7. */
const parent: StateView = {
  getAccount: () => account(1n),
  getStorage: () => 7n,
  source: undefined as never,
}

describe('AddressSieve', () => {
  it('holds what was added, in either case, and nothing else', () => {
    const sieve = new AddressSieve()
    sieve.add(address('abcd'))
    expect(sieve.mayHold(address('abcd'))).to.equal(true)
    expect(sieve.mayHold(address('ABCD'))).to.equal(true)
    expect(sieve.mayHold(address('abce'))).to.equal(false)
    expect(sieve.mayHold(address('0bcd'))).to.equal(false)
  })

  it('keys on the first four hex digits: a different address with the same digits may be held', () => {
    const sieve = new AddressSieve()
    sieve.add(address('1234aa'))
    expect(sieve.mayHold(address('1234bb'))).to.equal(true)
  })

  it('distinguishes every digit value in each of the four places', () => {
    const digits = '0123456789abcdef'
    for (let place = 0; place < 4; place++) {
      for (const written of digits) {
        const sieve = new AddressSieve()
        sieve.add(address('0000'.slice(0, place) + written + '0000'.slice(place + 1)))
        const held = [...digits].filter((read) => sieve.mayHold(address('0000'.slice(0, place) + read + '0000'.slice(place + 1))))
        expect(held).to.deep.equal([written])
      }
    }
  })
})

describe('SievedLayer', () => {
  it('reads as the parent for addresses it never wrote, and its own writes for the rest', () => {
    const layer = new SievedLayer(parent)
    const written = address('aa')
    const twin = address('aa00ff')
    layer.putAccount(written, account(5n))
    layer.putStorage(written, 1n, 9n)
    expect(layer.getAccount(written)).to.deep.equal(account(5n))
    expect(layer.getStorage(written, 1n)).to.equal(9n)
    expect(layer.getStorage(written, 2n)).to.equal(7n)
    // Same sieve bit, never written: falls through the maps to the parent.
    expect(layer.getAccount(twin)).to.deep.equal(account(1n))
    expect(layer.getStorage(twin, 1n)).to.equal(7n)
    expect(layer.getAccount(address('bb'))).to.deep.equal(account(1n))
  })

  it('sees a deletion, a storage-only write and a wipe', () => {
    const layer = new SievedLayer(parent)
    layer.putAccount(address('01'), undefined)
    layer.putStorage(address('02'), 3n, 4n)
    layer.clearStorage(address('03'))
    expect(layer.getAccount(address('01'))).to.equal(undefined)
    expect(layer.getStorage(address('01'), 5n)).to.equal(0n)
    expect(layer.getStorage(address('02'), 3n)).to.equal(4n)
    expect(layer.getStorage(address('03'), 3n)).to.equal(0n)
  })

  it('sees the writes of a layer applied to it (a tick into the block)', () => {
    const tick = new StateLayer(parent)
    tick.putAccount(address('dd'), account(8n))
    tick.putStorage(address('ee'), 1n, 6n)
    tick.clearStorage(address('ff'))
    const layer = new SievedLayer(parent)
    layer.apply(tick)
    expect(layer.getAccount(address('dd'))).to.deep.equal(account(8n))
    expect(layer.getStorage(address('ee'), 1n)).to.equal(6n)
    expect(layer.getStorage(address('ff'), 1n)).to.equal(0n)
  })

  it('reads the parent again after a reverted write', () => {
    const layer = new SievedLayer(parent)
    layer.checkpoint()
    layer.putAccount(address('cc'), account(3n))
    layer.putStorage(address('cc'), 1n, 2n)
    layer.revert()
    expect(layer.getAccount(address('cc'))).to.deep.equal(account(1n))
    expect(layer.getStorage(address('cc'), 1n)).to.equal(7n)
  })
})
