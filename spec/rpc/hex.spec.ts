import { expect } from 'chai'
import { parseQuantity, toQuantity, toWord } from '../../lib/rpc/hex.ts'

// Quantities and words go by number up to 2^53 and by bigint above: the boundary values are
// where a number's precision would show.
const EDGES = [0n, 1n, 0xfn, 0x10n, 2n ** 52n - 1n, 2n ** 52n, 2n ** 53n - 1n, 2n ** 53n, 2n ** 53n + 1n, 2n ** 64n - 1n, 2n ** 255n + 7n, 2n ** 256n - 1n]

describe('rpc/hex', () => {
  it('parseQuantity reads every width exactly, the 13-digit number path and the longer bigint path alike', () => {
    for (const value of EDGES) expect(parseQuantity(`0x${value.toString(16)}`, 'x')).to.equal(value)
    expect(parseQuantity('0xFfFfFfFfFfFfF', 'x')).to.equal(0xfffffffffffffn)
    expect(parseQuantity('0x00000000000000000001', 'x')).to.equal(1n)
    expect(parseQuantity('0x000000000000000000000000000000000000000000000000000000000000002a', 'x')).to.equal(42n)
  })

  it('parseQuantity refuses what is not 0x-prefixed hex of 1 to 64 digits, naming the argument', () => {
    for (const bad of ['0x', '2', '0x2g', '0x-1', ' 0x1', '0x1 ', `0x${'1'.repeat(65)}`, 2, null]) {
      expect(() => parseQuantity(bad, 'slot'), String(bad)).to.throw('invalid argument slot: expected a hex quantity of at most 256 bits')
    }
  })

  it('toQuantity gives minimal hex across the number/bigint boundary, for bigints and numbers', () => {
    for (const value of EDGES) expect(toQuantity(value)).to.equal(`0x${value.toString(16)}`)
    expect(toQuantity(0)).to.equal('0x0')
    expect(toQuantity(255)).to.equal('0xff')
  })

  it('toWord pads every width to 32 bytes', () => {
    for (const value of EDGES) {
      const word = toWord(value)
      expect(word).to.have.length(66)
      expect(BigInt(word)).to.equal(value)
    }
    expect(toWord(0n)).to.equal(`0x${'0'.repeat(64)}`)
    expect(toWord(2n ** 53n + 1n)).to.equal(`0x${'0'.repeat(50)}20000000000001`)
  })
})
