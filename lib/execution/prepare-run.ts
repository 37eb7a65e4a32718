/**
 * What every EVM run starts with, for transactions and calls alike: a clean journal and
 * transient storage, and the EIP-2929 warm set — precompiles, sender, recipient, the coinbase
 * (EIP-3651) and the access list.
 */
import { evmAddress, journalKey } from '../state/evm-address.ts'
import type { AccessList } from '../transactions/transaction.ts'
import type { Address } from '../types.ts'
import type { DevnetEVM } from './devnet-evm.ts'

/** The journal's always-warm set, keyed as the library keys it: unprefixed hex address to unprefixed hex slots. */
type WarmSet = Map<string, Set<string>>
type WarmJournal = { alwaysWarmJournal: WarmSet }

/**
 * The slots of an address warm with none: one shared empty set. An access list's slots go into a
 * set of the address's own, which replaces this one first.
 */
const NO_SLOTS: ReadonlySet<string> = new Set()

/** The warm set of an EVM's precompiles, by the precompile table it was built from (a hardfork change replaces the table). */
const precompileSets = new WeakMap<ReadonlyMap<string, unknown>, WarmSet>()

/** A precompile table's addresses as a warm set, built once per table, each with {@link NO_SLOTS}. */
function precompileWarmSet(precompiles: ReadonlyMap<string, unknown>): WarmSet {
  let set = precompileSets.get(precompiles)
  if (set === undefined) {
    set = new Map([...precompiles.keys()].map((address) => [address.startsWith('0x') ? address.slice(2) : address, NO_SLOTS as Set<string>]))
    precompileSets.set(precompiles, set)
  }
  return set
}

/**
 * The always-warm set of one run: its own entries over the precompiles' shared set, which it
 * reads through rather than copies (18 under Prague: a twentieth of an eth_call). The journal
 * only asks it `has`, `get` and `set`.
 */
class RunWarmSet extends Map<string, Set<string>> {
  constructor(private readonly precompiles: WarmSet) {
    super()
  }

  override has(address: string): boolean {
    return super.has(address) || this.precompiles.has(address)
  }

  override get(address: string): Set<string> | undefined {
    return super.get(address) ?? this.precompiles.get(address)
  }
}

/** Resets `evm`'s per-run state and warms what a run from `sender` to `to` in a block by `coinbase` starts warm. */
export function prepareRun(evm: DevnetEVM, sender: Address, to: Address | undefined, coinbase: Address, accessList: AccessList): void {
  const { journal } = evm
  journal.cleanJournal()
  evm.transientStorage.clear()
  const warm: WarmSet = new RunWarmSet(precompileWarmSet(evm.precompiles))
  ;(journal as unknown as WarmJournal).alwaysWarmJournal = warm
  // As addAlwaysWarmAddress would, less its prefix check and a set each: the journal's keys, kept on the addresses.
  warm.set(journalKey(evmAddress(sender)), NO_SLOTS as Set<string>)
  if (to !== undefined) warm.set(journalKey(evmAddress(to)), NO_SLOTS as Set<string>)
  warm.set(journalKey(evmAddress(coinbase)), NO_SLOTS as Set<string>)
  for (const entry of accessList) {
    // The journal keys addresses and slots by unprefixed hex.
    const address = entry.address.slice(2)
    const slots = warm.get(address)
    if (slots === NO_SLOTS) warm.set(address, new Set())
    journal.addAlwaysWarmAddress(address, true)
    for (const key of entry.storageKeys) journal.addAlwaysWarmSlot(address, key.slice(2), true)
  }
}
