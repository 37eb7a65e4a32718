/**
 * The byte helpers of the hot paths, each without the hex strings and intermediate arrays of
 * @ethereumjs/util's: unsigned integers as fixed-width big-endian bytes written in place (util's
 * `setLengthLeft(bigIntToBytes(x), n)` was a fifth of a block's sealing on an OP-stack chain,
 * where every block writes L1Block's storage) and as minimal bytes, flat hex both ways, and the
 * address a stack word names.
 */
import type { Address, Hex } from './types.ts'

/** 2^48: below it, a bigint's bytes are worked out in doubles, which hold 53 bits exactly. */
const DOUBLE_LIMIT = 2n ** 48n

const wordScratch = new Uint8Array(32)
const wordView = new DataView(wordScratch.buffer)

/** A 256-bit word as 32 big-endian bytes in a scratch buffer (valid until the next call), written 64 bits at a time. */
export function wordBytes(value: bigint): Uint8Array {
  wordView.setBigUint64(0, BigInt.asUintN(64, value >> 192n))
  wordView.setBigUint64(8, BigInt.asUintN(64, value >> 128n))
  wordView.setBigUint64(16, BigInt.asUintN(64, value >> 64n))
  wordView.setBigUint64(24, BigInt.asUintN(64, value))
  return wordScratch
}

/**
 * Writes `value` big-endian into the `width` (at most 32) bytes of `out` from `offset` (the bytes
 * must be zero; higher bits are dropped). A bigint operation per byte made storage keys 7% of
 * sealing ERC-20 transfers; small values are written in doubles, the rest 64 bits at a time.
 */
export function putUint(out: Uint8Array, offset: number, width: number, value: bigint): void {
  if (value < DOUBLE_LIMIT) {
    let rest = Number(value)
    for (let i = offset + width - 1; i >= offset && rest > 0; i--, rest = Math.floor(rest / 256)) out[i] = rest % 256
    return
  }
  const word = wordBytes(value)
  for (let i = 1; i <= width; i++) out[offset + width - i] = word[32 - i]
}

/** `value` as `width` big-endian bytes (32: an EVM word). */
export function uintBytes(value: bigint, width = 32): Uint8Array {
  const out = new Uint8Array(width)
  putUint(out, 0, width, value)
  return out
}

/** The ASCII codes of the hex digits. */
const HEX_DIGITS = Uint8Array.from('0123456789abcdef', (digit) => digit.charCodeAt(0))
/** Up to this many bytes, digits written here beat a call into Node's encoder (keys, hashes, addresses). */
const SHORT_BYTES = 64

/**
 * `bytes` as 0x-prefixed lowercase hex, one flat string. @ethereumjs/util's `bytesToHex` appends
 * a character pair per byte, which leaves a rope of one string node per byte: ~900 bytes of
 * heap for each 32-byte hash kept (transaction hashes and addresses, formatted JSON), against
 * ~70. Short inputs are spelled into a pooled buffer, long ones by Node's encoder.
 */
export function toHex(bytes: Uint8Array): Hex {
  if (bytes.length > SHORT_BYTES) return `0x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')}` as Hex
  const out = Buffer.allocUnsafe(2 + 2 * bytes.length)
  out[0] = 0x30 // 0
  out[1] = 0x78 // x
  for (let i = 0, at = 2; i < bytes.length; i++, at += 2) {
    out[at] = HEX_DIGITS[bytes[i] >> 4]
    out[at + 1] = HEX_DIGITS[bytes[i] & 15]
  }
  return out.toString('latin1') as Hex
}

/** The address a 256-bit stack word names: its low 20 bytes, as lowercase hex (what BALANCE, EXTCODE* and the calls read). */
export function addressOfWord(word: bigint): Address {
  return `0x${BigInt.asUintN(160, word).toString(16).padStart(40, '0')}` as Address
}

/** The value of each ASCII code as a hex digit (either case), 255 for any other. */
const DIGIT_VALUES = new Uint8Array(128).fill(255)
for (let digit = 0; digit < 16; digit++) {
  DIGIT_VALUES['0123456789abcdef'.charCodeAt(digit)] = digit
  DIGIT_VALUES['0123456789ABCDEF'.charCodeAt(digit)] = digit
}

/**
 * `value` (non-negative) as minimal big-endian bytes, none for 0: util's `bigIntToUnpaddedBytes`,
 * which spells the number as hex and parses it back (with a regular expression): ~10k times a
 * sealed block of 2000 transfers, in trie keys, account leaves and receipts.
 */
export function unpaddedBytes(value: bigint): Uint8Array {
  if (value < DOUBLE_LIMIT) {
    let rest = Number(value)
    let length = 0
    for (let left = rest; left > 0; left = Math.floor(left / 256)) length++
    const out = new Uint8Array(length)
    for (let i = length - 1; i >= 0; i--, rest = Math.floor(rest / 256)) out[i] = rest % 256
    return out
  }
  const digits = value.toString(16)
  const odd = digits.length & 1
  const out = new Uint8Array((digits.length + odd) >> 1)
  // An odd count's first digit is a byte alone.
  if (odd === 1) out[0] = DIGIT_VALUES[digits.charCodeAt(0)]
  for (let i = odd, at = odd; i < out.length; i++, at += 2) out[i] = (DIGIT_VALUES[digits.charCodeAt(at)] << 4) | DIGIT_VALUES[digits.charCodeAt(at + 1)]
  return out
}

/**
 * The bytes of `hex` (`0x` and an even number of digits, either case), read without util's
 * `hexToBytes` checks and its prefix strip (a regular expression per call): for hex the engine
 * made or has checked, such as its account keys. Throws on a character that is not a digit.
 */
export function hexBytes(hex: Hex | Address): Uint8Array {
  const out = new Uint8Array((hex.length - 2) >> 1)
  for (let i = 0, at = 2; i < out.length; i++, at += 2) {
    const high = DIGIT_VALUES[hex.charCodeAt(at)] ?? 255
    const low = DIGIT_VALUES[hex.charCodeAt(at + 1)] ?? 255
    if ((high | low) === 255) throw new Error(`not hex: ${hex}`)
    out[i] = (high << 4) | low
  }
  return out
}
