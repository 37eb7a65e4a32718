/**
 * RIP-7212's P256VERIFY precompile at 0x100, which OP-stack chains have had since Fjord (OP
 * specs `fjord/exec-engine.md`; Base's smart wallets verify passkeys with it): input
 * `hash ‖ r ‖ s ‖ x ‖ y` (160 bytes), output the 32-byte word 1 for a valid secp256r1
 * signature and nothing otherwise, 3450 gas either way.
 */
import { p256 } from '@noble/curves/nist.js'
import { EVMError, type PrecompileFunc } from '@ethereumjs/evm'
import type { Address } from '../types.ts'

/** Where the precompile lives. */
export const P256_VERIFY: Address = '0x0000000000000000000000000000000000000100'
/** RIP-7212's price (EIP-7951 later asks 6900). */
const P256_VERIFY_GAS = 3450n
const VALID = (() => {
  const word = new Uint8Array(32)
  word[31] = 1
  return word
})()

/** Whether `input` holds a valid signature of its hash by its public key (r, s in range, the key on the curve). */
function verifies(input: Uint8Array): boolean {
  if (input.length !== 160) return false
  try {
    // The raw hash is signed (no prehash); high-s signatures are valid, as in RIP-7212.
    const publicKey = new Uint8Array(65)
    publicKey[0] = 4
    publicKey.set(input.subarray(96, 160), 1)
    return p256.verify(input.subarray(32, 96), input.subarray(0, 32), publicKey, { prehash: false, lowS: false, format: 'compact' })
  } catch {
    return false
  }
}

/** The precompile, as @ethereumjs/evm runs custom precompiles. */
export const p256Verify: PrecompileFunc = (input) => {
  if (input.gasLimit < P256_VERIFY_GAS) {
    return { returnValue: new Uint8Array(0), executionGasUsed: input.gasLimit, exceptionError: new EVMError(EVMError.errorMessages.OUT_OF_GAS) }
  }
  return { returnValue: verifies(input.data) ? VALID : new Uint8Array(0), executionGasUsed: P256_VERIFY_GAS }
}
