/**
 * Unsigned integers as fixed-width big-endian bytes, written in place: what @ethereumjs/util's
 * `setLengthLeft(bigIntToBytes(x), n)` returns, without its intermediate arrays and spread
 * (measured at a fifth of a block's sealing on an OP-stack chain, where every block writes
 * L1Block's storage).
 */

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
