/**
 * Public-key recovery for transaction senders: native libsecp256k1 (npm `secp256k1`) when its
 * prebuilt binding loads, otherwise ethereumjs's own @noble/curves path (about 30× slower).
 */
import { createRequire } from 'node:module'
import type { CustomCrypto } from '@ethereumjs/common'

type NativeSecp256k1 = {
  ecdsaRecover(signature: Uint8Array, recoveryId: number, message: Uint8Array, compressed: boolean): Uint8Array
  ecdsaSign(message: Uint8Array, privateKey: Uint8Array): { signature: Uint8Array; recid: number }
}

function loadNative(): NativeSecp256k1 | undefined {
  try {
    // `secp256k1/bindings` is the native addon alone; the package root would silently fall back
    // to a pure-JS elliptic build, which is slower than @noble/curves.
    return createRequire(import.meta.url)('secp256k1/bindings') as NativeSecp256k1
  } catch {
    return undefined
  }
}

const native = loadNative()

/** Whether sender recovery runs on the native libsecp256k1 binding. */
export const nativeSecp256k1 = native !== undefined

/**
 * The recovery id of a signature's `v`, as @ethereumjs/util computes it: typed transactions carry
 * the y-parity itself, legacy ones 27/28 or (EIP-155) `chainId * 2 + 35/36`.
 */
function recoveryId(v: bigint, chainId: bigint | undefined): number {
  if (v === 0n || v === 1n) return Number(v)
  return Number(chainId === undefined ? v - 27n : v - (chainId * 2n + 35n))
}

function recoverWithNative(
  secp: NativeSecp256k1,
  messageHash: Uint8Array,
  v: bigint,
  r: Uint8Array,
  s: Uint8Array,
  chainId?: bigint,
): Uint8Array {
  const id = recoveryId(v, chainId)
  if (id !== 0 && id !== 1) throw new Error('Invalid signature v value')
  const signature = new Uint8Array(64)
  signature.set(r, 32 - r.length)
  signature.set(s, 64 - s.length)
  // Uncompressed key: 0x04 || x || y; ethereumjs expects the 64 bytes after the prefix.
  return secp.ecdsaRecover(signature, id, messageHash, false).subarray(1)
}

/** `customCrypto.ecrecover` for ethereumjs's Common: native when available, else undefined (noble). */
export const ecrecover: CustomCrypto['ecrecover'] = native
  ? (messageHash, v, r, s, chainId) => recoverWithNative(native, messageHash, v, r, s, chainId)
  : undefined

/**
 * `customCrypto.ecsign`: native RFC 6979 signing (deterministic, low-s) as noble's 'recovered'
 * format, recovery byte first; undefined (noble) without the binding.
 */
export const ecsign: CustomCrypto['ecsign'] = native
  ? (((messageHash: Uint8Array, privateKey: Uint8Array) => {
      const { signature, recid } = native.ecdsaSign(messageHash, privateKey)
      const recovered = new Uint8Array(65)
      recovered[0] = recid
      recovered.set(signature, 1)
      return recovered
    }) as unknown as CustomCrypto['ecsign'])
  : undefined
