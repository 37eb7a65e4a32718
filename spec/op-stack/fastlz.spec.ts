/**
 * The FastLZ length of the Fjord L1-cost function: short inputs worked by hand, base/base's
 * published case, the input where solady.js's float hash goes wrong, and a differential fuzz
 * against the independent implementation in the research notes (exact 32-bit hash).
 */
import { expect } from 'chai'
import fc from 'fast-check'
import { flzCompressLength } from '../../lib/op-stack/fastlz.ts'
import { flzCompressLength as referenceLength } from '../support/flz-reference.ts'

const bytes = (hex: string): Uint8Array => Uint8Array.from(Buffer.from(hex, 'hex'))
const ascending = (from: number, count: number): Uint8Array => Uint8Array.from({ length: count }, (_, i) => (from + i) & 0xff)

/** base/base crates/alloy/flz `test_flz_compress_len`: sample_contract_call (345 bytes) → 202. */
const SAMPLE_CONTRACT_CALL = bytes('02f901550a758302df1483be21b88304743f94f80e51afb613d764fa61751affd3313c190a86bb870151bd62fd12adb8e41ef24f3f000000000000000000000000000000000000000000000000000000000000006e000000000000000000000000af88d065e77c8cc2239327c5edb3a432268e5831000000000000000000000000000000000000000000000000000000000003c1e5000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000a000000000000000000000000000000000000000000000000000000000000000148c89ed219d02f1a5be012c689b4f5b731827bebe000000000000000000000000c001a033fd89cb37c31b2cba46b6466e040c61fc9b2a3675a7f5f493ebd5ad77c497f8a07cdf65680e238392693019b4092f610222e71b7cec06449cb922b93b6a12744e')

/** Bytes 2–4 (0x3b4377) recur at 16–18; bytes 9–11 (0x000132) share their hash in solady.js only. */
const GOTCHA = bytes('f0f177433be0e1e2e3320100d0d1d2d377433bc0c1c2c3c4c5c6c7c8c9cacbcccd')

describe('op-stack/fastlz', () => {
  describe('short inputs (worked by hand from the FastLZ-1 token rules)', () => {
    it('is 0 for empty input (base/base)', () => {
      expect(flzCompressLength(new Uint8Array(0))).to.equal(0)
    })

    it('counts inputs under 13 bytes as one literal run: the bytes plus a header (FACADE → 4, base/base)', () => {
      expect(flzCompressLength(new Uint8Array([0]))).to.equal(2)
      expect(flzCompressLength(bytes('facade'))).to.equal(4)
      expect(flzCompressLength(ascending(1, 12))).to.equal(13)
    })

    it('does not search for matches in 13 bytes either: 13 zero bytes stay literal (14)', () => {
      expect(flzCompressLength(new Uint8Array(13))).to.equal(14)
    })

    it('splits literal runs into 32-byte chunks with a header each (33 → 35, 256 distinct → 8·33 = 264)', () => {
      expect(flzCompressLength(ascending(0, 33))).to.equal(35)
      expect(flzCompressLength(ascending(0, 256))).to.equal(264)
    })

    it('codes 32 zero bytes as 2 literals (3) + a 23-byte match (3) + 5 trailing literals (6) = 12', () => {
      expect(flzCompressLength(new Uint8Array(32))).to.equal(12)
    })

    it('splits a 991-byte match into 262-byte pieces: 1000 equal bytes → 3 + 3·3 + 3 + 6 = 21 (base/base)', () => {
      expect(flzCompressLength(new Uint8Array(1000))).to.equal(21)
      expect(flzCompressLength(new Uint8Array(1000).fill(0x2a))).to.equal(21)
    })
  })

  it('gives base/base\'s published length for its sample contract call (345 bytes → 202)', () => {
    expect(SAMPLE_CONTRACT_CALL.length).to.equal(345)
    expect(flzCompressLength(SAMPLE_CONTRACT_CALL)).to.equal(202)
  })

  it('hashes exactly where solady.js rounds: 16 literals (17) + a match (2) + 14 literals (15) = 34, not 35', () => {
    expect(flzCompressLength(GOTCHA)).to.equal(34)
  })

  it('agrees with the on-chain LibZip in the GasPriceOracle on the padded gotcha input (173 bytes → 178)', () => {
    const padded = new Uint8Array([...GOTCHA, ...ascending(0x10, 140)])
    expect(flzCompressLength(padded)).to.equal(178)
  })

  it('answers independently of the calls before it (the shared hash table carries nothing over)', () => {
    const first = flzCompressLength(SAMPLE_CONTRACT_CALL)
    flzCompressLength(new Uint8Array(20_000).fill(7))
    flzCompressLength(ascending(0, 5000))
    expect(flzCompressLength(SAMPLE_CONTRACT_CALL)).to.equal(first)
    expect(flzCompressLength(GOTCHA)).to.equal(34)
  })

  describe('differential fuzz against an independent implementation (spec/support/flz-reference.ts)', () => {
    const agrees = (data: Uint8Array): void => {
      expect(flzCompressLength(data), `input 0x${Buffer.from(data).toString('hex')}`).to.equal(referenceLength(data))
    }

    it('random bytes of any length up to 3000', () => {
      fc.assert(fc.property(fc.uint8Array({ maxLength: 3000 }), agrees), { seed: 10, numRuns: 300 })
    })

    it('bytes over small alphabets (many short matches)', () => {
      const alphabet = fc.constantFrom([0], [0, 1], [0, 0xff, 1, 2], [0, 0, 0, 0x42])
      const input = alphabet.chain((symbols) => fc.array(fc.constantFrom(...symbols), { maxLength: 3000 }))
      fc.assert(fc.property(input, (values) => agrees(Uint8Array.from(values))), { seed: 11, numRuns: 300 })
    })

    it('repetitive inputs: segments of random bytes, zero runs and copies of earlier segments', () => {
      const segment = fc.oneof(
        fc.uint8Array({ minLength: 1, maxLength: 80 }),
        fc.integer({ min: 1, max: 700 }).map((length) => new Uint8Array(length)),
        fc.tuple(fc.uint8Array({ minLength: 1, maxLength: 12 }), fc.integer({ min: 1, max: 100 })).map(([unit, times]) => {
          const out = new Uint8Array(unit.length * times)
          for (let i = 0; i < times; i++) out.set(unit, i * unit.length)
          return out
        }),
      )
      const input = fc.array(fc.tuple(segment, fc.nat()), { maxLength: 30 }).map((parts) => {
        const out: number[] = []
        for (const [part, pick] of parts) {
          if (pick % 3 === 0 && out.length > 4) {
            const start = pick % out.length
            out.push(...out.slice(start, start + 1 + (pick % 300)))
          } else out.push(...part)
        }
        return Uint8Array.from(out)
      })
      fc.assert(fc.property(input, agrees), { seed: 12, numRuns: 300 })
    })

    it('repeats near the 8191-byte match distance limit', () => {
      const input = fc
        .tuple(fc.uint8Array({ minLength: 3, maxLength: 40 }), fc.integer({ min: 8170, max: 8210 }), fc.integer({ min: 0, max: 255 }))
        .map(([chunk, gap, seed]) => {
          const filler = Uint8Array.from({ length: gap }, (_, i) => (Math.imul(i + seed, 0x9e3779b1) >>> 24) & 0xff)
          return new Uint8Array([...chunk, ...filler.subarray(chunk.length), ...chunk, ...ascending(seed, 20)])
        })
      fc.assert(fc.property(input, agrees), { seed: 13, numRuns: 60 })
    })
  })
})
