/**
 * The EVM's address objects for the engine's addresses, and the engine's keys back from them.
 * A run asks the same few addresses for their hex many times (each state access, the journal's
 * touches and warm checks, the precompile lookup), and the library spells it afresh each time
 * (`bytesToHex`): ~150 ns, ~8% of an eth_call. An address made here carries its spellings, worked
 * out once, and there is one per address in a bounded table, so a call to a known contract
 * spells nothing.
 */
import { Address as EVMAddress, hexToBytes, type PrefixedHexString } from '@ethereumjs/util'
import { toHex } from '../bytes.ts'
import type { Address } from '../types.ts'

/** An EVM address that knows its engine key (`0x` + lowercase hex) and the journal's (unprefixed). */
class KeyedAddress extends EVMAddress {
  /** The journal's key: the lowercase hex without `0x`. */
  readonly unprefixed: string

  constructor(readonly key: Address) {
    super(hexToBytes(key))
    this.unprefixed = key.slice(2)
  }

  override toString(): PrefixedHexString {
    return this.key
  }
}

/** The table's bound: past it, the table starts over (a miss costs one address made). */
const TABLE_LIMIT = 16_384
const table = new Map<string, KeyedAddress>()

/** The EVM's address for `address` (either case), the same object each time while the table holds it. */
export function evmAddress(address: string): EVMAddress {
  let made = table.get(address)
  if (made === undefined) {
    if (table.size >= TABLE_LIMIT) table.clear()
    made = new KeyedAddress(address.toLowerCase() as Address)
    table.set(address, made)
  }
  return made
}

/** The engine's key of an EVM address: `0x` and 40 lowercase hex digits. */
export function addressKey(address: EVMAddress): Address {
  return address instanceof KeyedAddress ? address.key : (toHex(address.bytes) as Address)
}

/** The journal's keys of addresses the library made (a contract's, a call's target), by address object. */
const journalKeys = new WeakMap<EVMAddress, string>()

/** The journal's key of an EVM address: lowercase hex without `0x`. */
export function journalKey(address: EVMAddress): string {
  if (address instanceof KeyedAddress) return address.unprefixed
  let key = journalKeys.get(address)
  if (key === undefined) {
    key = toHex(address.bytes).slice(2)
    journalKeys.set(address, key)
  }
  return key
}
