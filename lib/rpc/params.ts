/**
 * Parsers for the structured parameters of the RPC methods (and of the chain's plain
 * functions, which take the same shapes): block tags and call objects.
 */
import { MAX_BLOCK_TIMESTAMP } from '../clock/block-schedule.ts'
import { TAG, type BlockSelector } from '../engine/block-resolver.ts'
import type { DepositRequest, TransactionRequest } from '../engine/intake.ts'
import { bigIntToUnpaddedBytes, hexToBytes } from '@ethereumjs/util'
import { InvalidParamsError } from '../errors.ts'
import type { CallRequest } from '../execution/run-call.ts'
import type { Authorization } from '../transactions/transaction.ts'
import type { Address, BlockTagName, Hex } from '../types.ts'
import { describeValue, invalidArgument, parseAddress, parseData, parseHash, parseQuantity } from './hex.ts'

/** A JSON boolean. */
export function parseBoolean(value: unknown, name: string): boolean {
  if (typeof value !== 'boolean') throw invalidArgument(name, `expected a boolean, got ${describeValue(value)}`)
  return value
}

/** A deposit's mint: a QUANTITY below 2^128, a u128 as Base's node (op-reth) holds it. */
function parseMint(value: unknown, name: string): bigint {
  const mint = parseQuantityLike(value, name)
  if (mint >= 1n << 128n) throw invalidArgument(name, `${describeValue(value)} exceeds u128, the most a deposit can mint`)
  return mint
}

/** A QUANTITY given as hex, or (in-process) as a bigint or a safe integer. */
export function parseQuantityLike(value: unknown, name: string): bigint {
  if (typeof value === 'bigint' && value >= 0n && value < 2n ** 256n) return value
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value)
  return parseQuantity(value, name)
}

/** The largest uint64: a header's timestamp and gas limit are uint64s. */
const UINT64_MAX = 2n ** 64n - 1n

/** The largest int64: geth holds a block number in one (rpc.BlockNumber). */
const MAX_INT64 = 2n ** 63n - 1n

/** A block timestamp, below the largest uint64 as Anvil takes one (-32602 `The timestamp is too big`). */
export function parseTimestamp(value: unknown, name: string): bigint {
  const timestamp = parseQuantityLike(value, name)
  if (timestamp > MAX_BLOCK_TIMESTAMP) throw new InvalidParamsError('The timestamp is too big')
  return timestamp
}

/** A QUANTITY a header holds as a uint64 (a gas limit, a timestamp interval). */
export function parseUint64(value: unknown, name: string): bigint {
  const quantity = parseQuantityLike(value, name)
  if (quantity > UINT64_MAX) throw invalidArgument(name, `${describeValue(value)} exceeds uint64`)
  return quantity
}

/** A block parameter that may also be a bare block hash: geth's BlockNumberOrHash takes a 66-character string as a hash (ethers sends one for a `blockTag` that is a hash; Anvil alike). */
export function parseBlockOrHash(value: unknown, name: string): BlockSelector {
  return typeof value === 'string' && value.length === 66 ? { hash: parseHash(value, name) } : parseBlockTag(value, name)
}

/** A block tag, number or EIP-1898 object. */
export function parseBlockTag(value: unknown, name: string): BlockSelector {
  // The common tags first, by identity of the string: no lookup on the hot read paths.
  if (value === 'latest') return TAG.latest
  if (value === 'pending') return TAG.pending
  if (typeof value === 'string' && Object.hasOwn(TAG, value)) return TAG[value as BlockTagName]
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const object = value as { blockHash?: unknown; blockNumber?: unknown }
    if (object.blockHash !== undefined && object.blockNumber !== undefined) {
      throw invalidArgument(name, 'a block object takes blockHash or blockNumber, not both')
    }
    if (object.blockHash !== undefined) return { hash: parseHash(object.blockHash, name) }
    if (object.blockNumber !== undefined) return { number: parseBlockNumber(object.blockNumber, `${name}.blockNumber`) }
    throw invalidArgument(name, 'a block object needs blockHash or blockNumber')
  }
  if (typeof value === 'string' && !value.startsWith('0x')) {
    throw invalidArgument(name, `expected a block number or one of latest, pending, safe, finalized, earliest, got "${value.slice(0, 40)}"`)
  }
  return { number: parseBlockNumber(value, name) }
}

/** A block number, which geth holds in an int64: larger ones are refused with geth's texts. */
function parseBlockNumber(value: unknown, name: string): bigint {
  const number = parseQuantityLike(value, name)
  if (number > MAX_INT64) throw invalidArgument(name, number >> 64n === 0n ? 'block number larger than int64' : 'hex number > 64 bits')
  return number
}

function optional<T>(object: Record<string, unknown>, key: string, name: string, parse: (value: unknown, name: string) => T): T | undefined {
  const value = object[key]
  return value === undefined || value === null ? undefined : parse(value, `${name}.${key}`)
}

function parseAccessList(value: unknown, name: string): CallRequest['accessList'] {
  if (!Array.isArray(value)) throw invalidArgument(name, 'expected an access list array')
  return value.map((entry, i) => {
    const item = entry as { address?: unknown; storageKeys?: unknown }
    if (typeof entry !== 'object' || entry === null || !Array.isArray(item.storageKeys)) {
      throw invalidArgument(`${name}[${i}]`, 'expected { address, storageKeys }')
    }
    return {
      address: parseAddress(item.address, `${name}[${i}].address`),
      storageKeys: item.storageKeys.map((key, k) => parseHash(key, `${name}[${i}].storageKeys[${k}]`) as Hex),
    }
  })
}

function parseBlobHashes(value: unknown, name: string): Hex[] {
  if (!Array.isArray(value)) throw invalidArgument(name, 'expected an array of blob hashes')
  return value.map((hash, i) => parseHash(hash, `${name}[${i}]`))
}

/** One signed EIP-7702 authorization: `{ chainId, address, nonce, yParity (or v), r, s }`. */
function parseAuthorization(value: unknown, name: string): Authorization {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalidArgument(name, 'expected an authorization object')
  const item = value as Record<string, unknown>
  const yParity = item.yParity ?? item.v
  if (yParity === undefined || yParity === null) throw invalidArgument(`${name}.yParity`, 'missing')
  const field = (key: string, raw: unknown = item[key]) => {
    if (raw === undefined || raw === null) throw invalidArgument(`${name}.${key}`, 'missing')
    return bigIntToUnpaddedBytes(parseQuantityLike(raw, `${name}.${key}`))
  }
  return [field('chainId'), hexToBytes(parseAddress(item.address, `${name}.address`)), field('nonce'), field('yParity', yParity), field('r'), field('s')]
}

function parseAuthorizationList(value: unknown, name: string): Authorization[] {
  if (!Array.isArray(value)) throw invalidArgument(name, 'expected an authorization list array')
  return value.map((entry, i) => parseAuthorization(entry, `${name}[${i}]`))
}

/** The call object of `eth_call` / `eth_estimateGas` (`data` or its alias `input`). */
export function parseCallRequest(value: unknown, name: string): TransactionRequest {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalidArgument(name, 'expected a call object')
  const object = value as Record<string, unknown>
  const data = optional(object, 'data', name, parseData)
  const input = optional(object, 'input', name, parseData)
  if (data !== undefined && input !== undefined && (data.length !== input.length || data.some((byte, i) => byte !== input[i]))) {
    throw invalidArgument(name, 'both "data" and "input" are set and not equal; please use "input" to pass transaction call data')
  }
  const request = {
    from: optional<Address>(object, 'from', name, parseAddress),
    to: optional<Address>(object, 'to', name, parseAddress),
    gas: optional(object, 'gas', name, parseQuantityLike),
    gasPrice: optional(object, 'gasPrice', name, parseQuantityLike),
    maxFeePerGas: optional(object, 'maxFeePerGas', name, parseQuantityLike),
    maxPriorityFeePerGas: optional(object, 'maxPriorityFeePerGas', name, parseQuantityLike),
    value: optional(object, 'value', name, parseQuantityLike),
    nonce: optional(object, 'nonce', name, parseQuantityLike),
    data: input ?? data,
    accessList: optional(object, 'accessList', name, parseAccessList),
    authorizationList: optional(object, 'authorizationList', name, parseAuthorizationList),
    chainId: optional(object, 'chainId', name, parseQuantityLike),
    blobVersionedHashes: optional(object, 'blobVersionedHashes', name, parseBlobHashes),
    // An OP-stack deposit's fields (eth_sendTransaction, as Anvil's optimism mode takes them).
    sourceHash: optional(object, 'sourceHash', name, (raw, field) => hexToBytes(parseHash(raw, field))),
    mint: optional(object, 'mint', name, parseMint),
    isSystemTx: optional(object, 'isSystemTx', name, parseBoolean),
  }
  if (request.gasPrice !== undefined && (request.maxFeePerGas !== undefined || request.maxPriorityFeePerGas !== undefined)) {
    throw invalidArgument(name, 'both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified')
  }
  return request
}

/** `preconf_deposit`'s object: `{ to, from?, mint?, value?, gas?, data? }` (`input` for `data` too). */
export function parseDepositRequest(value: unknown, name: string): DepositRequest {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalidArgument(name, 'expected a deposit object { to, from?, mint?, value?, gas?, data? }')
  const object = value as Record<string, unknown>
  const known = new Set(['to', 'from', 'mint', 'value', 'gas', 'data', 'input'])
  const unknown = Object.keys(object).find((key) => !known.has(key))
  if (unknown !== undefined) throw invalidArgument(name, `unknown field "${unknown.slice(0, 40)}" (expected to, from, mint, value, gas, data)`)
  const to = optional<Address>(object, 'to', name, parseAddress)
  if (to === undefined) throw invalidArgument(`${name}.to`, 'missing')
  return {
    to,
    from: optional<Address>(object, 'from', name, parseAddress),
    mint: optional(object, 'mint', name, parseMint),
    value: optional(object, 'value', name, parseQuantityLike),
    gas: optional(object, 'gas', name, parseQuantityLike),
    data: optional(object, 'input', name, parseData) ?? optional(object, 'data', name, parseData),
  }
}
