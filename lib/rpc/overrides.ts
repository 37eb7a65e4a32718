/**
 * Parsers for geth's call overrides: state overrides `{ [address]: { balance, nonce, code,
 * state, stateDiff, movePrecompileToAddress } }` and block overrides `{ number, time, gasLimit,
 * feeRecipient, prevRandao, baseFeePerGas, blobBaseFee }` (or alloy's names for four of them), as `eth_call`, `eth_estimateGas` and
 * `eth_simulateV1` take them. Unknown fields are ignored and null reads as absent, as geth's
 * JSON decoding does.
 */
import { hexToBytes, toChecksumAddress } from '@ethereumjs/util'
import { InvalidInputError } from '../errors.ts'
import type { AccountOverride, BlockOverrides, StateOverrides } from '../state/state-overrides.ts'
import type { Address } from '../types.ts'
import { invalidArgument, parseAddress, parseData, parseHash } from './hex.ts'
import { parseQuantityLike } from './params.ts'

const MAX_UINT64 = 2n ** 64n - 1n

type JSONObject = Readonly<Record<string, unknown>>

function parseObject(value: unknown, name: string, expected: string): JSONObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalidArgument(name, `expected ${expected}`)
  return value as JSONObject
}

/** `object[key]` parsed, undefined when absent or null. */
function field<T>(object: JSONObject, key: string, name: string, parse: (value: unknown, name: string) => T): T | undefined {
  const value = object[key]
  return value === undefined || value === null ? undefined : parse(value, `${name}.${key}`)
}

/** A QUANTITY of at most 64 bits (geth's hexutil.Uint64). */
function parseUint64(value: unknown, name: string): bigint {
  const quantity = parseQuantityLike(value, name)
  if (quantity > MAX_UINT64) throw invalidArgument(name, 'hex number > 64 bits')
  return quantity
}

/** A storage map: 32-byte slots to 32-byte values, as geth's map[common.Hash]common.Hash. */
function parseStorage(value: unknown, name: string): Map<bigint, bigint> {
  const slots = new Map<bigint, bigint>()
  for (const [slot, word] of Object.entries(parseObject(value, name, 'an object of 32-byte slots to 32-byte values'))) {
    slots.set(BigInt(parseHash(slot, `${name} slot`)), BigInt(parseHash(word, `${name}[${slot}]`)))
  }
  return slots
}

function parseAccountOverride(address: Address, value: unknown, name: string): AccountOverride {
  const object = parseObject(value, name, 'an account override object')
  const override: AccountOverride = {
    balance: field(object, 'balance', name, parseQuantityLike),
    nonce: field(object, 'nonce', name, parseUint64),
    code: field(object, 'code', name, parseData),
    state: field(object, 'state', name, parseStorage),
    stateDiff: field(object, 'stateDiff', name, parseStorage),
    movePrecompileTo: field(object, 'movePrecompileToAddress', name, parseAddress),
  }
  // geth refuses this when it applies the overrides: -32000 with its text.
  if (override.state !== undefined && override.stateDiff !== undefined) {
    throw new InvalidInputError(`account ${toChecksumAddress(address)} has both 'state' and 'stateDiff'`)
  }
  return override
}

/** State overrides: account overrides by address (eth_call's third parameter). */
export function parseStateOverrides(value: unknown, name: string): StateOverrides {
  const overrides = new Map<Address, AccountOverride>()
  for (const [key, account] of Object.entries(parseObject(value, name, 'an object of account overrides by address'))) {
    const address = parseAddress(key, `${name} address`)
    overrides.set(address, parseAccountOverride(address, account, `${name}[${key}]`))
  }
  return overrides
}

/**
 * The key a block override is given under: geth's name, or the one alloy's BlockOverrides
 * serializes (what cast, forge and Anvil send and take: `coinbase`, `random`, `baseFee`, `timestamp`).
 */
function aliased(object: JSONObject, geth: string, alloy: string): string {
  return object[geth] == null && object[alloy] != null ? alloy : geth
}

/** Block overrides (eth_call's fourth parameter); `difficulty` is accepted and ignored after the merge, as in geth. */
export function parseBlockOverrides(value: unknown, name: string): BlockOverrides {
  const object = parseObject(value, name, 'a block overrides object')
  for (const key of ['beaconRoot', 'withdrawals']) {
    if (object[key] !== undefined && object[key] !== null) throw new InvalidInputError(`block override "${key}" is not supported for this RPC method`)
  }
  return {
    number: field(object, 'number', name, parseQuantityLike),
    time: field(object, aliased(object, 'time', 'timestamp'), name, parseUint64),
    gasLimit: field(object, 'gasLimit', name, parseUint64),
    feeRecipient: field(object, aliased(object, 'feeRecipient', 'coinbase'), name, parseAddress),
    prevRandao: field(object, aliased(object, 'prevRandao', 'random'), name, (raw, key) => hexToBytes(parseHash(raw, key))),
    baseFeePerGas: field(object, aliased(object, 'baseFeePerGas', 'baseFee'), name, parseQuantityLike),
    blobBaseFee: field(object, 'blobBaseFee', name, parseQuantityLike),
  }
}
