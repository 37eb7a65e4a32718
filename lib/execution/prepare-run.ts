/**
 * What every EVM run starts with, for transactions and calls alike: a clean journal and
 * transient storage, and the EIP-2929 warm set — precompiles, sender, recipient, the coinbase
 * (EIP-3651) and the access list.
 */
import { bytesToUnprefixedHex } from '@ethereumjs/util'
import type { Address } from '../types.ts'
import type { DevnetEVM } from './devnet-evm.ts'

/** An access list entry: an address and its storage keys (unprefixed or 0x-prefixed hex both work). */
export interface WarmEntry {
  readonly address: Address | Uint8Array
  readonly storageKeys: ReadonlyArray<`0x${string}` | Uint8Array>
}

function unprefixed(value: string | Uint8Array, width: number): string {
  return typeof value === 'string' ? value.slice(2).padStart(width, '0') : bytesToUnprefixedHex(value)
}

/** Resets `evm`'s per-run state and warms what a run from `sender` to `to` in a block by `coinbase` starts warm. */
export function prepareRun(evm: DevnetEVM, sender: Address, to: Address | undefined, coinbase: Address, accessList: readonly WarmEntry[]): void {
  const { journal } = evm
  journal.cleanJournal()
  evm.transientStorage.clear()
  for (const address of evm.precompiles.keys()) journal.addAlwaysWarmAddress(address)
  journal.addAlwaysWarmAddress(sender)
  if (to !== undefined) journal.addAlwaysWarmAddress(to)
  journal.addAlwaysWarmAddress(coinbase)
  for (const entry of accessList) {
    const address = unprefixed(entry.address, 40)
    journal.addAlwaysWarmAddress(address, true)
    for (const key of entry.storageKeys) journal.addAlwaysWarmSlot(address, unprefixed(key, 64), true)
  }
}
