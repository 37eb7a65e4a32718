/**
 * Unsigned integers as fixed-width big-endian bytes, written in place: what @ethereumjs/util's
 * `setLengthLeft(bigIntToBytes(x), n)` returns, without its intermediate arrays and spread
 * (measured at a fifth of a block's sealing on an OP-stack chain, where every block writes
 * L1Block's storage).
 */
import type { Address, Hex } from './types.ts'

/** Writes `value` big-endian into the `width` bytes of `out` from `offset` (the bytes must be zero; higher bits are dropped). */
export function putUint(out: Uint8Array, offset: number, width: number, value: bigint): void {
  for (let i = offset + width - 1; i >= offset && value > 0n; i--) {
    out[i] = Number(value & 0xffn)
    value >>= 8n
  }
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
