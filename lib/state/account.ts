/**
 * An account as the engine stores it: immutable records, replaced on every change, so a
 * version kept in history or a snapshot never changes under a reader.
 */
import { KECCAK256_NULL } from '@ethereumjs/util'
import { keccak256 } from '../crypto/keccak.ts'
import type { Address } from '../types.ts'

/** One account's fields. Storage lives apart, keyed by address and slot. */
export interface AccountState {
  readonly nonce: bigint
  readonly balance: bigint
  /** The runtime code; the same array instance for as long as the code is unchanged. */
  readonly code: Uint8Array
  /** keccak256(code). */
  readonly codeHash: Uint8Array
}

/** Code of an account that has none. */
export const EMPTY_CODE = new Uint8Array(0)

/** The account a never-touched address reads as. */
export const EMPTY_ACCOUNT: AccountState = Object.freeze({
  nonce: 0n,
  balance: 0n,
  code: EMPTY_CODE,
  codeHash: KECCAK256_NULL,
})

/** A copy of `account` (or of the empty account) with some fields changed. */
export function withAccountFields(
  account: AccountState | undefined,
  fields: Partial<Pick<AccountState, 'nonce' | 'balance'>>,
): AccountState {
  const base = account ?? EMPTY_ACCOUNT
  return { nonce: fields.nonce ?? base.nonce, balance: fields.balance ?? base.balance, code: base.code, codeHash: base.codeHash }
}

/** A copy of `account` (or of the empty account) running `code`. */
export function withAccountCode(account: AccountState | undefined, code: Uint8Array): AccountState {
  const base = account ?? EMPTY_ACCOUNT
  return {
    nonce: base.nonce,
    balance: base.balance,
    code: code.length === 0 ? EMPTY_CODE : code,
    codeHash: code.length === 0 ? KECCAK256_NULL : keccak256(code),
  }
}

/** EIP-161 emptiness: no nonce, no balance, no code. */
export function isEmptyAccount(account: AccountState): boolean {
  return account.nonce === 0n && account.balance === 0n && account.code.length === 0
}

/** One account of a genesis allocation besides the dev accounts (a system contract, a predeploy, a preinstall). */
export interface GenesisAccount {
  /** Where the account lives (lowercase). */
  readonly address: Address
  /** Its runtime code; empty for an account without code. */
  readonly code: Uint8Array
  /** Its nonzero storage words, slot → value. */
  readonly storage: ReadonlyMap<bigint, bigint>
  /** Its nonce (default 0). */
  readonly nonce?: bigint
}
