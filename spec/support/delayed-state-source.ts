/**
 * A test double of a lazily loaded state source (what a forked upstream is): it holds a world
 * of accounts and storage, but every key reads as unloaded until it is loaded, and each load
 * answers only after the event loop has turned. Concurrent loads of one key share one answer.
 */
import { withAccountCode, withAccountFields, type AccountState } from '../../lib/state/account.ts'
import { UNLOADED, type StateSource, type Unloaded } from '../../lib/state/state-view.ts'
import type { Address } from '../../lib/types.ts'

/** One account of the double's world. */
export interface WorldAccount {
  readonly balance?: bigint
  readonly nonce?: bigint
  readonly code?: Uint8Array
  readonly storage?: ReadonlyMap<bigint, bigint>
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

/** A source over `world` that answers every first read of a key after a delay. */
export class DelayedStateSource implements StateSource {
  /** How many loads reached the world (each key at most once). */
  readonly loads = { accounts: 0, slots: 0 }
  private readonly accounts = new Map<Address, AccountState | undefined>()
  private readonly slots = new Map<string, bigint>()
  private readonly inFlight = new Map<string, Promise<void>>()

  constructor(private readonly world: ReadonlyMap<Address, WorldAccount>) {}

  account(address: Address): AccountState | undefined | Unloaded {
    return this.accounts.has(address) ? this.accounts.get(address) : UNLOADED
  }

  storage(address: Address, slot: bigint): bigint | Unloaded {
    return this.slots.get(`${address}:${slot}`) ?? UNLOADED
  }

  loadAccount(address: Address): Promise<void> {
    return this.once(address, async () => {
      this.loads.accounts++
      const entry = this.world.get(address)
      this.accounts.set(address, entry === undefined ? undefined : withAccountCode(withAccountFields(undefined, { balance: entry.balance ?? 0n, nonce: entry.nonce ?? 0n }), entry.code ?? new Uint8Array(0)))
    })
  }

  loadStorage(address: Address, slot: bigint): Promise<void> {
    const key = `${address}:${slot}`
    return this.once(key, async () => {
      this.loads.slots++
      this.slots.set(key, this.world.get(address)?.storage?.get(slot) ?? 0n)
    })
  }

  private once(key: string, load: () => Promise<void>): Promise<void> {
    if (this.accounts.has(key as Address) || this.slots.has(key)) return Promise.resolve()
    let pending = this.inFlight.get(key)
    if (pending === undefined) {
      pending = nextTurn().then(load)
      this.inFlight.set(key, pending)
    }
    return pending
  }
}
