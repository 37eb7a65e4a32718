/**
 * State edits for tests (`anvil_setBalance`, `setCode`, `setStorageAt`, `setNonce` and their
 * `hardhat_` twins): as in Anvil and Hardhat they take effect at once and seal no block, so
 * each edit is written to the head of sealed history and to the pending block alike, and
 * marked for the next state root. The account must be loaded before it is edited.
 */
import type { PendingBlock } from '../builder/pending-block.ts'
import { EMPTY_ACCOUNT, withAccountCode, withAccountFields, type AccountState } from '../state/account.ts'
import type { StateCommitment } from '../state/state-commitment.ts'
import type { StateHistory } from '../state/state-history.ts'
import { heldAccount } from '../state/state-source.ts'
import type { Address } from '../types.ts'

/** Where an edit lands: the sealed head and the pending block on top of it. */
export interface EditTarget {
  readonly history: StateHistory
  readonly headNumber: number
  readonly pending: PendingBlock
  readonly commitment: StateCommitment
}

function editAccount(target: EditTarget, address: Address, edit: (account: AccountState | undefined) => AccountState): void {
  const { history, pending } = target
  history.putAccount(target.headNumber, address, edit(heldAccount(history.latest, address)))
  pending.edit((state) => state.putAccount(address, edit(heldAccount(state, address))))
  target.commitment.markAccount(address)
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
  const { history, pending, headNumber } = target
  if (heldAccount(history.latest, address) === undefined) history.putAccount(headNumber, address, EMPTY_ACCOUNT)
  pending.edit((state) => {
    if (heldAccount(state, address) === undefined) state.putAccount(address, EMPTY_ACCOUNT)
    state.putStorage(address, slot, value)
  })
  history.putStorage(headNumber, address, slot, value)
  target.commitment.markSlot(address, slot)
}
