/**
 * Keccak-256, the one hash of the engine. Every caller goes through this module (it is also
 * handed to ethereumjs via Common), so the implementation is chosen in one place: hash-wasm's
 * WebAssembly Keccak (about 2 µs per transaction-sized input here), else @noble/hashes
 * (about 7 µs) if WebAssembly is unavailable.
 */
import { keccak_256 } from '@noble/hashes/sha3.js'
import { createKeccak } from 'hash-wasm'

const wasm = await createKeccak(256).catch(() => undefined)

/** Keccak-256 of `data` (32 bytes). */
export const keccak256: (data: Uint8Array) => Uint8Array =
  wasm === undefined
    ? keccak_256
    : (data) => {
        wasm.init()
        wasm.update(data)
        return wasm.digest('binary')
      }
