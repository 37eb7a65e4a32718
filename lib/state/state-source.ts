/**
 * State sources, and reads that load what a view does not hold yet. A fresh chain's source is
 * empty and answers at once, so its reads never wait; a lazily loaded source (a fork, a test
 * double) is awaited only on the first read of each key.
 */
import { UpstreamError } from '../errors.ts'
import type { Address } from '../types.ts'
import type { AccountState } from './account.ts'
import { UNLOADED, type StateSource, type StateView } from './state-view.ts'

/** The source of a fresh chain: every key it was never given is empty. */
export const EMPTY_STATE_SOURCE: StateSource = {
  account: () => undefined,
  storage: () => 0n,
  loadAccount: async () => {},
  loadStorage: async () => {},
}

/** The account at `address` in `view`, loading it first if it must be. */
export async function loadAccount(view: StateView, address: Address): Promise<AccountState | undefined> {
  await view.source.loadAccount(address)
  const account = view.getAccount(address)
  if (account === UNLOADED) throw new Error(`state source did not load account ${address}`)
  return account
}

/** The storage word at `slot` of `address` in `view`, loading it first if it must be. */
async function loadStorage(view: StateView, address: Address, slot: bigint): Promise<bigint> {
  await view.source.loadStorage(address, slot)
  const value = view.getStorage(address, slot)
  if (value === UNLOADED) throw new Error(`state source did not load slot ${slot} of ${address}`)
  return value
}

/** The account at `address`: at once when held, else a promise of it. */
export function readAccount(view: StateView, address: Address): AccountState | undefined | Promise<AccountState | undefined> {
  const account = view.getAccount(address)
  return account === UNLOADED ? loadAccount(view, address) : account
}

/** The storage word at `slot` of `address`: at once when held, else a promise of it. */
export function readStorage(view: StateView, address: Address, slot: bigint): bigint | Promise<bigint> {
  const value = view.getStorage(address, slot)
  return value === UNLOADED ? loadStorage(view, address, slot) : value
}

/**
 * Loads whichever of `addresses` the view does not hold yet; undefined when all are at hand
 * (the synchronous paths of a transaction then read them without waiting).
 */
export function ensureAccounts(view: StateView, addresses: ReadonlyArray<Address | undefined>): Promise<void> | undefined {
  let pending: Promise<unknown>[] | undefined
  for (const address of addresses) {
    if (address !== undefined && view.getAccount(address) === UNLOADED) (pending ??= []).push(loadAccount(view, address))
  }
  return pending === undefined ? undefined : Promise.all(pending).then(() => undefined)
}

/** The account at `address`, which must already be held (loaded beforehand with {@link ensureAccounts}). */
export function heldAccount(view: StateView, address: Address): AccountState | undefined {
  const account = view.getAccount(address)
  if (account === UNLOADED) throw new Error(`account ${address} was read before it was loaded`)
  return account
}

/**
 * An {@link UpstreamError} met fetching one key of a fork's state (an account or a storage
 * word): `loaded` tells whether that key has been loaded since, `loadAgain` fetches it again.
 */
export class StateLoadError extends UpstreamError {
  override name = 'StateLoadError'
  constructor(
    failure: UpstreamError,
    readonly loaded: () => boolean,
    readonly loadAgain: () => Promise<void>,
  ) {
    super(failure.message)
  }
}
