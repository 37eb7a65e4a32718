/**
 * The read side of world state, shared by every layer: sealed history at some block, the
 * pre-confirmed overlay, a block under construction, or a call's throwaway journal.
 */
import type { Address } from '../types.ts'
import type { AccountState } from './account.ts'

/** World state as seen from one point. Reads are synchronous and never copy. */
export interface StateView {
  /** The account at `address`, or undefined if it does not exist. */
  getAccount(address: Address): AccountState | undefined
  /** The storage word at `slot` (0n when unset). */
  getStorage(address: Address, slot: bigint): bigint
  /** Every slot of `address` that may be non-zero here (a superset is fine). */
  storageSlots(address: Address): Iterable<bigint>
}

/** A set of state writes: accounts (null = deleted) and storage words (0n = cleared). */
export interface StateChanges {
  readonly accounts: ReadonlyMap<Address, AccountState | null>
  readonly storage: ReadonlyMap<Address, ReadonlyMap<bigint, bigint>>
}
