/**
 * Seeded decisions without a random stream: each is a hash of the seed, what is being decided
 * and the key it is decided for (a block number, a tick's scheduled time). A decision so made
 * does not depend on how many were made before it, so snapshots, reverts and the order of calls
 * cannot shift later ones, and the realtime clock decides exactly as the manual one.
 */

/** What a seeded decision is for; each has its own hash stream. */
const DECISION = { drop: 1, stall: 2, late: 3, lateTicks: 4, jitter: 5 } as const

/** The name of a seeded decision. */
type Decision = keyof typeof DECISION

/** murmur3's 32-bit finaliser over `hash` mixed with `value`. */
function mix(hash: number, value: number): number {
  let h = Math.imul(hash ^ value, 0xcc9e2d51)
  h = Math.imul((h << 15) | (h >>> 17), 0x1b873593)
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  return (h ^ (h >>> 16)) >>> 0
}

/** A number in [0, 1) fixed by `seed`, the decision and its `key` (a safe integer: a block number or a time in ms). */
export function seededFraction(seed: number, decision: Decision, key: number | bigint): number {
  const value = typeof key === 'bigint' ? Number(key) : key
  const low = value % 0x1_0000_0000
  const high = Math.floor(value / 0x1_0000_0000)
  const hash = mix(mix(mix(mix(0x9e3779b9, seed % 0x1_0000_0000), Math.floor(seed / 0x1_0000_0000)), DECISION[decision]), low)
  return mix(hash, high) / 0x1_0000_0000
}
