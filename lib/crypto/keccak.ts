/**
 * Keccak-256, the one hash of the engine. Every caller goes through this module so the
 * implementation can be swapped in one place (it is also handed to ethereumjs via Common).
 */
import { keccak_256 } from '@noble/hashes/sha3.js'

/** Keccak-256 of `data` (32 bytes). */
export function keccak256(data: Uint8Array): Uint8Array {
  return keccak_256(data)
}
