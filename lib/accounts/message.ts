/** EIP-191 version 0x45 ("personal message"): the digest `personal_sign` and `eth_sign` sign. */
import { concatBytes } from '@ethereumjs/util'
import { keccak256 } from '../crypto/keccak.ts'

/**
 * keccak256("\x19Ethereum Signed Message:\n" + len(message) + message), the length in decimal
 * bytes, as geth's `accounts.TextHash` and viem's `hashMessage({ raw })` compute it.
 *
 * @example hashMessage(new TextEncoder().encode('hello')) // 0x50b2c43f…
 */
export function hashMessage(message: Uint8Array): Uint8Array {
  const prefix = new TextEncoder().encode(`\x19Ethereum Signed Message:\n${message.length}`)
  return keccak256(concatBytes(prefix, message))
}
