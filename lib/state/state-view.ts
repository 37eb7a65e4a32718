/**
 * The read side of world state, shared by every layer: sealed history at some block, the
 * pre-confirmed block, one tick or transaction under construction, or a call's throwaway
 * journal. Reads are synchronous and never copy; a key the chain has never held locally may
 * read as {@link UNLOADED}, to be fetched once through the view's {@link StateSource}.
 */
import type { Address } from '../types.ts'
import type { AccountState } from './account.ts'

/** What a read returns for a key that must first be loaded from the state source. */
export const UNLOADED: unique symbol = Symbol('unloaded')

/** The type of {@link UNLOADED}. */
export type Unloaded = typeof UNLOADED

/**
 * Where state the chain has not written comes from: nothing (a fresh chain), a forked upstream,
 * a test double. Sync reads answer from what is already at hand; loads fetch the rest (and may
 * fail with a clear error). After a load resolves, the sync read of that key answers.
 */
export interface StateSource {
  /** The account, undefined if it does not exist, {@link UNLOADED} if not fetched yet. */
  account(address: Address): AccountState | undefined | Unloaded
  /** The storage word (0n when unset), {@link UNLOADED} if not fetched yet. */
  storage(address: Address, slot: bigint): bigint | Unloaded
  /** Fetches the account (code included). */
  loadAccount(address: Address): Promise<void>
  /** Fetches one storage word. */
  loadStorage(address: Address, slot: bigint): Promise<void>
  /** Every account the source holds at hand (undefined: none there) with its storage words held: what a state dump takes of it. */
  held?(): Iterable<[Address, AccountState | undefined, ReadonlyMap<bigint, bigint> | undefined]>
}

/** World state as seen from one point. */
export interface StateView {
  /** The account at `address`, undefined if it does not exist. */
  getAccount(address: Address): AccountState | undefined | Unloaded
  /** The storage word at `slot` (0n when unset). */
  getStorage(address: Address, slot: bigint): bigint | Unloaded
  /** Where the keys that read as {@link UNLOADED} load from. */
  readonly source: StateSource
}

/** One account's storage writes; `cleared` marks a wipe of everything before them. */
export interface StorageWrites extends ReadonlyMap<bigint, bigint> {
  /** The account's storage was wiped (self-destruct, re-creation) before these words were written. */
  readonly cleared: boolean
}

/** A set of state writes: accounts (null = deleted) and storage words (0n = cleared). */
export interface StateChanges {
  readonly accounts: ReadonlyMap<Address, AccountState | null>
  readonly storage: ReadonlyMap<Address, StorageWrites>
}
