/** Accounts as the state trie holds them: `eth_getProof` (EIP-1186, with Merkle proofs) and `eth_getAccount`. */
import type { AccountProof, AccountSummary } from '../engine/proofs.ts'
import type { Hex } from '../types.ts'
import { describeValue, invalidArgument, toData, toQuantity } from './hex.ts'
import { method, required, type MethodDefinition } from './method-definition.ts'
import { address, block } from './state-methods.ts'

/** A storage key of `eth_getProof`: the slot, and the key as the answer echoes it. */
interface StorageKey {
  readonly slot: bigint
  /** geth's echo: a 32-byte key as given (lowercased), a shorter one as a quantity. */
  readonly key: Hex
}

/** One storage key, read as geth reads it: hex with or without 0x, odd lengths padded, at most 32 bytes. */
function parseStorageKey(value: unknown, name: string): StorageKey {
  if (typeof value !== 'string') throw invalidArgument(name, `expected a hex storage key, got ${describeValue(value)}`)
  let digits = value.startsWith('0x') || value.startsWith('0X') ? value.slice(2) : value
  if (digits.length % 2 === 1) digits = `0${digits}`
  if (!/^[0-9a-fA-F]*$/.test(digits)) throw invalidArgument(name, 'hex string invalid')
  if (digits.length > 64) throw invalidArgument(name, 'hex string too long, want at most 32 bytes')
  const slot = digits.length === 0 ? 0n : BigInt(`0x${digits}`)
  return { slot, key: digits.length === 64 ? `0x${digits.toLowerCase()}` : toQuantity(slot) }
}

/** The storage keys of `eth_getProof`. */
function parseStorageKeys(value: unknown, name: string): StorageKey[] {
  if (!Array.isArray(value)) throw invalidArgument(name, `expected an array of storage keys, got ${describeValue(value)}`)
  return value.map((key, i) => parseStorageKey(key, `${name}[${i}]`))
}

/** `eth_getAccount`'s answer, fields in Anvil's order. */
function formatAccount(account: AccountSummary): Record<string, Hex> {
  return {
    nonce: toQuantity(account.nonce),
    balance: toQuantity(account.balance),
    storageRoot: toData(account.storageRoot),
    codeHash: toData(account.codeHash),
  }
}

/** `eth_getProof`'s answer, fields in Anvil's order; `keys` are the echoes of the keys asked for. */
function formatProof(proof: AccountProof, keys: readonly StorageKey[]): Record<string, unknown> {
  return {
    address: proof.address,
    balance: toQuantity(proof.balance),
    codeHash: toData(proof.codeHash),
    nonce: toQuantity(proof.nonce),
    storageHash: toData(proof.storageRoot),
    accountProof: proof.accountProof.map(toData),
    storageProof: proof.storageProof.map((entry, i) => ({ key: keys[i].key, value: toQuantity(entry.value), proof: entry.proof.map(toData) })),
  }
}

/** The account methods, by name. */
export const accountMethods: Readonly<Record<string, MethodDefinition>> = {
  eth_getProof: method([address('0'), required('1 (storageKeys)', parseStorageKeys), block(2)], ({ engine, view }, account, keys, selector) => {
    const proof = engine.proofs.proof(account, keys.map((key) => key.slot), view.blocks.resolve(selector))
    return formatProof(proof, keys)
  }),
  eth_getAccount: method([address('0'), block(1)], async ({ engine, view }, account, selector) =>
    formatAccount(await engine.proofs.account(account, view.blocks.resolve(selector))),
  ),
}
