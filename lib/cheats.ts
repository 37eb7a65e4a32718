/**
 * State edits for tests (`anvil_setBalance`, `setCode`, `setStorageAt`, `setNonce` and their
 * `hardhat_` twins): as in Anvil and Hardhat they take effect at once and seal no block, so
 * each edit is written to the head of sealed history and to the pre-confirmed overlay alike,
 * and marked for the next state root.
 */
import { EMPTY_ACCOUNT, withAccountCode, withAccountFields, type AccountState } from './state/account.ts'
import type { StateHistory } from './state/state-history.ts'
import type { StateLayer } from './state/state-layer.ts'
import type { StateRoot } from './state/state-root.ts'
import type { Address } from './types.ts'

/** Where an edit lands: the sealed head and the overlay on top of it. */
export interface EditTarget {
  readonly history: StateHistory
  readonly headNumber: number
  readonly overlay: StateLayer
  readonly stateRoot: StateRoot
}

function editAccount(target: EditTarget, address: Address, edit: (account: AccountState | undefined) => AccountState): void {
  target.history.putAccount(target.headNumber, address, edit(target.history.latest.getAccount(address)))
  target.overlay.putAccount(address, edit(target.overlay.getAccount(address)))
  target.stateRoot.markAccount(address)
}

/** Sets the balance of `address` (creating the account if needed). */
export function setBalance(target: EditTarget, address: Address, balance: bigint): void {
  editAccount(target, address, (account) => withAccountFields(account, { balance }))
}

/** Sets the nonce of `address`. */
export function setNonce(target: EditTarget, address: Address, nonce: bigint): void {
  editAccount(target, address, (account) => withAccountFields(account, { nonce }))
}

/** Replaces the code of `address` (empty code removes it). */
export function setCode(target: EditTarget, address: Address, code: Uint8Array): void {
  editAccount(target, address, (account) => withAccountCode(account, code))
}

/** Sets one storage word of `address` (creating the account where it is missing, as Anvil does). */
export function setStorage(target: EditTarget, address: Address, slot: bigint, value: bigint): void {
  if (target.history.latest.getAccount(address) === undefined) target.history.putAccount(target.headNumber, address, EMPTY_ACCOUNT)
  if (target.overlay.getAccount(address) === undefined) target.overlay.putAccount(address, EMPTY_ACCOUNT)
  target.history.putStorage(target.headNumber, address, slot, value)
  target.overlay.putStorage(address, slot, value)
  target.stateRoot.markSlot(address, slot)
}
