/** The 2048-bit logs bloom of receipts and headers (yellow paper §4.3.1). */
import { hexToBytes } from '@ethereumjs/util'
import { keccak256 } from '../crypto/keccak.ts'
import type { Log } from './receipt.ts'

/** Size of a bloom in bytes. */
export const BLOOM_BYTES = 256

/** Sets the three bits `value` selects. */
function addToBloom(bloom: Uint8Array, value: Uint8Array): void {
  const hash = keccak256(value)
  for (let i = 0; i < 6; i += 2) {
    const bit = ((hash[i] << 8) | hash[i + 1]) & 2047
    bloom[BLOOM_BYTES - 1 - (bit >> 3)] |= 1 << (bit & 7)
  }
}

/** Whether every bit `value` selects is set (false means "certainly absent"). */
export function bloomMayContain(bloom: Uint8Array, value: Uint8Array): boolean {
  const hash = keccak256(value)
  for (let i = 0; i < 6; i += 2) {
    const bit = ((hash[i] << 8) | hash[i + 1]) & 2047
    if ((bloom[BLOOM_BYTES - 1 - (bit >> 3)] & (1 << (bit & 7))) === 0) return false
  }
  return true
}

/** The bloom of no logs, shared by every receipt without any (a receipt's bloom is never written once made). */
const EMPTY_BLOOM = new Uint8Array(BLOOM_BYTES)

/** The bloom of a list of logs: each emitter address and topic. */
export function logsBloom(logs: readonly Log[]): Uint8Array {
  if (logs.length === 0) return EMPTY_BLOOM
  const bloom = new Uint8Array(BLOOM_BYTES)
  for (const log of logs) {
    addToBloom(bloom, hexToBytes(log.address))
    for (const topic of log.topics) addToBloom(bloom, topic)
  }
  return bloom
}

/** ORs `source` into `target` (a block's bloom from its receipts'). */
export function mergeBloom(target: Uint8Array, source: Uint8Array): void {
  if (source === EMPTY_BLOOM) return
  for (let i = 0; i < BLOOM_BYTES; i++) target[i] |= source[i]
}
