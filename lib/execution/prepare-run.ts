/**
 * What every EVM run starts with, for transactions and calls alike: a clean journal and
 * transient storage, and the EIP-2929 warm set — precompiles, sender, recipient, the coinbase
 * (EIP-3651) and the access list.
 */
import type { AccessList } from '../transactions/transaction.ts'
import type { Address } from '../types.ts'
import type { DevnetEVM } from './devnet-evm.ts'

/** The journal's always-warm set, keyed as the library keys it: unprefixed hex address to unprefixed hex slots. */
type WarmSet = Map<string, Set<string>>
type WarmJournal = { alwaysWarmJournal: WarmSet }

/** The warm set of an EVM's precompiles, by the precompile table it was built from (a hardfork change replaces the table). */
const precompileSets = new WeakMap<ReadonlyMap<string, unknown>, WarmSet>()

/**
 * A precompile table's addresses as a warm set, built once per table. Its slot sets are one
 * shared empty set: a run's copy replaces it before adding slots (an access list may name a
 * precompile's slots).
 */
function precompileWarmSet(precompiles: ReadonlyMap<string, unknown>): WarmSet {
  let set = precompileSets.get(precompiles)
  if (set === undefined) {
    const none = new Set<string>()
    set = new Map([...precompiles.keys()].map((address) => [address.startsWith('0x') ? address.slice(2) : address, none]))
    precompileSets.set(precompiles, set)
  }
  return set
}

/** Resets `evm`'s per-run state and warms what a run from `sender` to `to` in a block by `coinbase` starts warm. */
export function prepareRun(evm: DevnetEVM, sender: Address, to: Address | undefined, coinbase: Address, accessList: AccessList): void {
  const { journal } = evm
  journal.cleanJournal()
  evm.transientStorage.clear()
  // A copy of the precompiles' set rather than one addAlwaysWarmAddress each (18 under Prague: a twentieth of an eth_call).
  const warm: WarmSet = new Map(precompileWarmSet(evm.precompiles))
  ;(journal as unknown as WarmJournal).alwaysWarmJournal = warm
  journal.addAlwaysWarmAddress(sender)
  if (to !== undefined) journal.addAlwaysWarmAddress(to)
  journal.addAlwaysWarmAddress(coinbase)
  for (const entry of accessList) {
    // The journal keys addresses and slots by unprefixed hex.
    const address = entry.address.slice(2)
    const slots = warm.get(address)
    if (slots !== undefined && slots.size === 0) warm.set(address, new Set())
    journal.addAlwaysWarmAddress(address, true)
    for (const key of entry.storageKeys) journal.addAlwaysWarmSlot(address, key.slice(2), true)
  }
}
