/** The 2048-bit logs bloom of receipts and headers (yellow paper §4.3.1). */
import { hexBytes, toHex } from '../bytes.ts'
import { keccak256 } from '../crypto/keccak.ts'
import type { Hex } from '../types.ts'
import type { Log } from './receipt.ts'

/** Size of a bloom in bytes. */
export const BLOOM_BYTES = 256

/** The three bits `value` selects: from the first six bytes of its hash. */
function bloomBits(value: Uint8Array): readonly [number, number, number] {
  const hash = keccak256(value)
  return [((hash[0] << 8) | hash[1]) & 2047, ((hash[2] << 8) | hash[3]) & 2047, ((hash[4] << 8) | hash[5]) & 2047]
}

/**
 * The bits of emitters and topics seen lately, by hex: a token's address and its events'
 * signature topic recur in every transfer, and a hash costs ~20 times the lookup. Bounded: past
 * the limit, the table starts over.
 */
const recentBits = new Map<string, readonly [number, number, number]>()
const RECENT_LIMIT = 4096

/** Sets the three bits that the value spelled `hex` (whose bytes are `bytes`, or read from `hex`) selects. */
function addToBloom(bloom: Uint8Array, hex: string, bytes?: Uint8Array): void {
  let bits = recentBits.get(hex)
  if (bits === undefined) {
    bits = bloomBits(bytes ?? hexBytes(hex as Hex))
    if (recentBits.size >= RECENT_LIMIT) recentBits.clear()
    recentBits.set(hex, bits)
  }
  for (const bit of bits) bloom[BLOOM_BYTES - 1 - (bit >> 3)] |= 1 << (bit & 7)
}

/** Whether every bit `value` selects is set (false means "certainly absent"). */
export function bloomMayContain(bloom: Uint8Array, value: Uint8Array): boolean {
  return bloomBits(value).every((bit) => (bloom[BLOOM_BYTES - 1 - (bit >> 3)] & (1 << (bit & 7))) !== 0)
}

/** The bloom of no logs, shared by every receipt without any (a receipt's bloom is never written once made). */
const EMPTY_BLOOM = new Uint8Array(BLOOM_BYTES)

/** The bloom of a list of logs: each emitter address and topic. */
export function logsBloom(logs: readonly Log[]): Uint8Array {
  if (logs.length === 0) return EMPTY_BLOOM
  const bloom = new Uint8Array(BLOOM_BYTES)
  for (const log of logs) {
    addToBloom(bloom, log.address.toLowerCase())
    for (const topic of log.topics) addToBloom(bloom, toHex(topic), topic)
  }
  return bloom
}

/** ORs `source` into `target` (a block's bloom from its receipts'). */
export function mergeBloom(target: Uint8Array, source: Uint8Array): void {
  if (source === EMPTY_BLOOM) return
  for (let i = 0; i < BLOOM_BYTES; i++) target[i] |= source[i]
}
