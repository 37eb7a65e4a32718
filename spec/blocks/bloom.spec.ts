/**
 * The logs bloom (lib/blocks/bloom.ts), against the yellow paper's rule (§4.3.1) worked out here
 * with @noble's keccak: each emitter address and topic sets the three bits its hash's first six
 * bytes select, byte 255 holding bits 0–7. The bits of recent values are remembered; a bloom made
 * from them again, and from an address spelled in capitals, is the same.
 */
import { expect } from 'chai'
import { hexToBytes } from '@ethereumjs/util'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { BLOOM_BYTES, bloomMayContain, logsBloom } from '../../lib/blocks/bloom.ts'
import type { Log } from '../../lib/blocks/receipt.ts'
import type { Address } from '../../lib/types.ts'

/** The bloom of `values` by the yellow paper's rule. */
function referenceBloom(values: readonly Uint8Array[]): Uint8Array {
  const bloom = new Uint8Array(BLOOM_BYTES)
  for (const value of values) {
    const hash = keccak_256(value)
    for (let i = 0; i < 6; i += 2) {
      const bit = ((hash[i] << 8) | hash[i + 1]) & 2047
      bloom[BLOOM_BYTES - 1 - Math.floor(bit / 8)] |= 1 << bit % 8
    }
  }
  return bloom
}

const TOKEN = '0x5fbdb2315678afecb367f032d93f642f64180aa3' as Address
const TRANSFER = hexToBytes('0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef')
const word = (byte: number) => new Uint8Array(32).fill(byte)

/** A Transfer log from `from` to `to`. */
function transferLog(address: string, from: number, to: number): Log {
  return { address: address as Address, topics: [TRANSFER, word(from), word(to)], data: new Uint8Array(32) } as unknown as Log
}

describe('blocks/bloom: the logs bloom', () => {
  it('sets the bits the yellow paper selects for each emitter and topic, the same again from remembered bits and from a capitalised address', () => {
    const logs = [transferLog(TOKEN, 1, 2), transferLog(TOKEN, 1, 3), { address: '0x00000000000000000000000000000000000000aa', topics: [], data: new Uint8Array(0) } as unknown as Log]
    const expected = referenceBloom([hexToBytes(TOKEN), TRANSFER, word(1), word(2), hexToBytes(TOKEN), TRANSFER, word(1), word(3), hexToBytes('0x00000000000000000000000000000000000000aa')])
    expect(Buffer.from(logsBloom(logs)).toString('hex')).to.equal(Buffer.from(expected).toString('hex'))
    expect(Buffer.from(logsBloom(logs)).toString('hex')).to.equal(Buffer.from(expected).toString('hex'))
    const capitalised = [transferLog(TOKEN.toUpperCase().replace('0X', '0x'), 1, 2)]
    expect(Buffer.from(logsBloom(capitalised)).toString('hex')).to.equal(Buffer.from(referenceBloom([hexToBytes(TOKEN), TRANSFER, word(1), word(2)])).toString('hex'))
  })

  it('shares one empty bloom among receipts without logs, and answers whether a value may be in a bloom', () => {
    expect(logsBloom([])).to.equal(logsBloom([]))
    expect([...logsBloom([])].every((byte) => byte === 0)).to.equal(true)
    const bloom = logsBloom([transferLog(TOKEN, 4, 5)])
    expect(bloomMayContain(bloom, hexToBytes(TOKEN))).to.equal(true)
    expect(bloomMayContain(bloom, word(5))).to.equal(true)
    expect(bloomMayContain(bloom, word(6))).to.equal(false)
  })
})
