/**
 * The FastLZ (level 1) compressed length that the OP-stack Fjord L1-cost function counts: the
 * length of Solady's `LibZip.flzCompress` output (what the GasPriceOracle runs on-chain), as
 * op-geth's `FlzCompressLen` (core/types/rollup_cost.go) and base/base's `flz_compress_len`
 * (crates/alloy/flz) count it without building the output.
 *
 * The hash is bits 19–31 of the 32-bit product `2654435769 · u24` (`Math.imul`): exact, unlike
 * solady.js's float multiplication, which mis-hashes 56 of the 2^24 inputs.
 */

const HASH_MULTIPLIER = 0x9e3779b9 // 2654435769
const HASH_MASK = 0x1fff // 13 bits: an 8192-entry table
const MAX_DISTANCE = 0x1fff // a match may reach back at most 8191 bytes
const MAX_MATCH_CHUNK = 262 // longer matches are emitted as several 3-byte tokens
const LITERAL_CHUNK = 32 // literals are emitted in runs of up to 32 bytes, each after a 1-byte header

/**
 * The hash table of positions, shared by every call. An entry holds `position + base`; entries
 * below `base` were written by an earlier call and read as empty (position 0, like a fresh
 * table). Each call raises `base` past everything it wrote, so no call has to clear the table;
 * it is cleared only when `base` would leave the Int32 range.
 */
const table = new Int32Array(HASH_MASK + 1)
let base = 1

/** The output length of `count` literal bytes: each run of up to 32 costs its bytes plus a header byte. */
function literalsLength(count: number): number {
  const rest = count % LITERAL_CHUNK
  return (LITERAL_CHUNK + 1) * ((count - rest) / LITERAL_CHUNK) + (rest === 0 ? 0 : rest + 1)
}

/** The length of `data` compressed by FastLZ level 1, as the Fjord L1-cost function counts it (LibZip.flzCompress, op-geth's FlzCompressLen). */
export function flzCompressLength(data: Uint8Array): number {
  const n = data.length
  const ipLimit = n < 13 ? 0 : n - 13 // the last 13 bytes are always literals
  const matchBound = ipLimit + 9 // matches stop 4 bytes before the end
  if (base > 0x7fffffff - n) {
    table.fill(0)
    base = 1
  }
  const offset = base
  base += n + 1
  let size = 0
  let anchor = 0 // start of the pending literal run
  let ip = 2
  while (ip < ipLimit) {
    // Find the next position whose 3 bytes were last seen within MAX_DISTANCE.
    let ref = 0
    for (;;) {
      const seq = data[ip] | (data[ip + 1] << 8) | (data[ip + 2] << 16)
      const h = (Math.imul(seq, HASH_MULTIPLIER) >>> 19) & HASH_MASK
      const stored = table[h] - offset
      ref = stored > 0 ? stored : 0
      table[h] = ip + offset
      const distance = ip - ref
      if (ip >= ipLimit) break
      ip++
      if (distance <= MAX_DISTANCE && seq === (data[ref] | (data[ref + 1] << 8) | (data[ref + 2] << 16))) break
    }
    if (ip >= ipLimit) break
    ip-- // the match starts here
    if (ip > anchor) size += literalsLength(ip - anchor)
    // The match length past the first 3 bytes, counting the first differing byte (as the reference does).
    let length = 0
    const p = ref + 3
    const q = ip + 3
    const end = matchBound - q
    while (length < end) {
      const same = data[p + length] === data[q + length]
      length++
      if (!same) break
    }
    const rest = (length - 1) % MAX_MATCH_CHUNK
    size += 3 * ((length - 1 - rest) / MAX_MATCH_CHUNK) + (rest >= 6 ? 3 : 2)
    // Seed the table at the two positions after the match; literals restart past them.
    ip += length
    table[(Math.imul(data[ip] | (data[ip + 1] << 8) | (data[ip + 2] << 16), HASH_MULTIPLIER) >>> 19) & HASH_MASK] = ip + offset
    ip++
    table[(Math.imul(data[ip] | (data[ip + 1] << 8) | (data[ip + 2] << 16), HASH_MULTIPLIER) >>> 19) & HASH_MASK] = ip + offset
    ip++
    anchor = ip
  }
  return size + literalsLength(n - anchor)
}
