/**
 * A view that notes what is read through it: what a tick's transactions read of the block
 * before them, so a later edit of one of those accounts knows which pre-confirmations rest on it.
 */
import type { Address } from '../types.ts'
import type { AccountState } from './account.ts'
import type { StateSource, StateView, Unloaded } from './state-view.ts'

/** The addresses whose accounts (balance, nonce, code) and whose storage words were read. */
export interface StateReads {
  readonly accounts: ReadonlySet<Address>
  readonly storage: ReadonlySet<Address>
}

/** Reads `parent`, noting the address of each account and each storage word read. */
export class ReadRecorder implements StateView, StateReads {
  readonly accounts = new Set<Address>()
  readonly storage = new Set<Address>()

  constructor(private readonly parent: StateView) {}

  get source(): StateSource {
    return this.parent.source
  }

  getAccount(address: Address): AccountState | undefined | Unloaded {
    this.accounts.add(address)
    return this.parent.getAccount(address)
  }

  getStorage(address: Address, slot: bigint): bigint | Unloaded {
    this.storage.add(address)
    return this.parent.getStorage(address, slot)
  }
}
