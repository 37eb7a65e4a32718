/**
 * What every EVM run starts with, for transactions and calls alike: a clean journal and
 * transient storage, and the EIP-2929 warm set — precompiles, sender, recipient, the coinbase
 * (EIP-3651) and the access list.
 */
import type { AccessList } from '../transactions/transaction.ts'
import type { Address } from '../types.ts'
import type { DevnetEVM } from './devnet-evm.ts'

/** Resets `evm`'s per-run state and warms what a run from `sender` to `to` in a block by `coinbase` starts warm. */
export function prepareRun(evm: DevnetEVM, sender: Address, to: Address | undefined, coinbase: Address, accessList: AccessList): void {
  const { journal } = evm
  journal.cleanJournal()
  evm.transientStorage.clear()
  for (const address of evm.precompiles.keys()) journal.addAlwaysWarmAddress(address)
  journal.addAlwaysWarmAddress(sender)
  if (to !== undefined) journal.addAlwaysWarmAddress(to)
  journal.addAlwaysWarmAddress(coinbase)
  for (const entry of accessList) {
    // The journal keys addresses and slots by unprefixed hex.
    const address = entry.address.slice(2)
    journal.addAlwaysWarmAddress(address, true)
    for (const key of entry.storageKeys) journal.addAlwaysWarmSlot(address, key.slice(2), true)
  }
}
