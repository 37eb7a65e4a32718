/**
 * A second, independent FastLZ (level 1) compressed-length estimator, written from Solady's
 * LibZip during the OP-stack research, for the differential spec of lib/op-stack/fastlz.ts.
 *
 * This is an independent re-implementation of the algorithm of Solady's LibZip.flzCompress
 * (MIT: Vectorized/solady js/solady.js + src/utils/LibZip.sol), which is what the
 * GasPriceOracle predeploy runs on-chain, and which op-geth (`FlzCompressLen`, core/types/rollup_cost.go)
 * and base/base (`flz_compress_len`, crates/alloy/flz/src/lib.rs) port. It only counts output bytes
 * and never builds the compressed buffer.
 *
 * Hash: bits 19..31 of the 32-bit product 2654435769 * u24 (Math.imul: exact, unlike the float
 * multiplication in solady.js, see flz-reference.md).
 */

const HASH_SIZE = 8192 // 13-bit hash table
const MAX_DISTANCE = 8192
const MAX_LEN_CHUNK = 262

/** Number of bytes FastLZ-1 would emit for `data` (0 for empty input). */
export function flzCompressLength(data: Uint8Array): number {
  const n = data.length
  const ipBound = n - 4 // solady's `b`
  const ipLimit = ipBound - 9 // main loop runs while ip < n - 13
  const htab = new Int32Array(HASH_SIZE) // zero-initialised, like solady's `ht[h] || 0`
  const u24 = (i: number): number => data[i] | (data[i + 1] << 8) | (data[i + 2] << 16)
  const hash = (x: number): number => (Math.imul(x, 0x9e3779b9) >>> 19) & 0x1fff

  let size = 0
  let anchor = 0 // start of the pending literal run
  let ip = 2

  // Literal runs are emitted as chunks of up to 32 bytes, each with a 1-byte header.
  const literals = (count: number): void => {
    size += 33 * Math.floor(count / 32)
    const rest = count % 32
    if (rest) size += rest + 1
  }

  while (ip < ipLimit) {
    let ref = 0
    let distance = 0
    // Find the next position whose 3-byte sequence repeats within the window.
    for (;;) {
      const seq = u24(ip)
      const h = hash(seq)
      ref = htab[h]
      htab[h] = ip
      distance = ip - ref
      const cmp = distance < MAX_DISTANCE ? u24(ref) : 0x1000000
      if (ip >= ipLimit) break
      ip++
      if (seq === cmp) break
    }
    if (ip >= ipLimit) break
    ip-- // ip is now the match start

    if (ip > anchor) literals(ip - anchor)

    // Match length beyond the first 3 bytes; counts the first mismatching byte, as the reference does.
    let len = 0
    const p = ref + 3
    const q = ip + 3
    const bound = ipBound - q
    while (len < bound) {
      const same = data[p + len] === data[q + len]
      len++
      if (!same) break
    }
    ip += len

    // Match tokens: long matches are split into 262-byte pieces of 3 bytes each.
    const l = len - 1
    size += 3 * Math.floor(l / MAX_LEN_CHUNK)
    size += l % MAX_LEN_CHUNK >= 6 ? 3 : 2

    // Re-seed the hash table at the two positions after the match.
    htab[hash(u24(ip))] = ip
    ip++
    htab[hash(u24(ip))] = ip
    ip++
    anchor = ip
  }

  literals(n - anchor)
  return size
}
