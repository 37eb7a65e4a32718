/**
 * Hex parsing and formatting: the only place where wire strings become engine values and back.
 * Parsers take the argument's name so a bad value gets a -32602 that says which one it was.
 */
import { hexToBytes } from '@ethereumjs/util'
import { toHex } from '../bytes.ts'
import { InvalidParamsError } from '../errors.ts'
import type { Address, Hash, Hex } from '../types.ts'

const hexPattern = /^0x[0-9a-fA-F]*$/
const addressPattern = /^0x[0-9a-fA-F]{40}$/
const hashPattern = /^0x[0-9a-fA-F]{64}$/
const quantityPattern = /^0x[0-9a-fA-F]{1,64}$/

/** A short, safe rendering of any value for an error message (never throws). */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return value.length > 80 ? `"${value.slice(0, 77)}..."` : `"${value}"`
  if (typeof value === 'bigint') return `${value}n`
  try {
    const json = JSON.stringify(value)
    return json === undefined ? String(value) : json.length > 80 ? `${json.slice(0, 77)}...` : json
  } catch {
    return typeof value
  }
}

/** A -32602 error naming the argument: `invalid argument <name>: <reason>`. */
export function invalidArgument(name: string, reason: string): InvalidParamsError {
  return new InvalidParamsError(`invalid argument ${name}: ${reason}`)
}

/** A 20-byte address, lowercased (the engine's address key). */
export function parseAddress(value: unknown, name: string): Address {
  if (typeof value !== 'string' || !addressPattern.test(value)) {
    throw invalidArgument(name, `expected a 20-byte hex address, got ${describeValue(value)}`)
  }
  return value.toLowerCase() as Address
}

/** A 32-byte hash, lowercased. */
export function parseHash(value: unknown, name: string): Hash {
  if (typeof value !== 'string' || !hashPattern.test(value)) {
    throw invalidArgument(name, `expected a 32-byte hex hash, got ${describeValue(value)}`)
  }
  return value.toLowerCase() as Hash
}

/** A 32-byte word as DATA (a storage value): exactly 64 hex digits, as Anvil's and Hardhat's setStorageAt take it. */
export function parseWord(value: unknown, name: string): bigint {
  if (typeof value !== 'string' || !hashPattern.test(value)) {
    throw invalidArgument(name, `expected a 32-byte hex word, got ${describeValue(value)}`)
  }
  return BigInt(value)
}

/** A QUANTITY: 0x-prefixed hex of at most 256 bits. */
export function parseQuantity(value: unknown, name: string): bigint {
  if (typeof value !== 'string' || !quantityPattern.test(value)) {
    throw invalidArgument(name, `expected a hex quantity of at most 256 bits, got ${describeValue(value)}`)
  }
  // BigInt of a string costs several times a number's conversion: short quantities go by number.
  return value.length <= MAX_SAFE_HEX_LENGTH ? BigInt(Number.parseInt(value, 16)) : BigInt(value)
}

/** The longest `0x…` quantity that always fits a safe integer: 13 hex digits (52 bits). */
const MAX_SAFE_HEX_LENGTH = 15

/** A QUANTITY that must fit a safe JavaScript integer (counts, indexes, milliseconds). */
export function parseSmallQuantity(value: unknown, name: string): number {
  const quantity = typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? BigInt(value) : parseQuantity(value, name)
  if (quantity > BigInt(Number.MAX_SAFE_INTEGER)) throw invalidArgument(name, `${describeValue(value)} is too large`)
  return Number(quantity)
}

/** DATA: 0x-prefixed hex with an even number of digits. */
export function parseData(value: unknown, name: string): Uint8Array {
  if (typeof value !== 'string' || !hexPattern.test(value) || value.length % 2 !== 0) {
    throw invalidArgument(name, `expected even-length 0x-prefixed hex data, got ${describeValue(value)}`)
  }
  return hexToBytes(value as Hex)
}

/** A QUANTITY on the wire: minimal hex, `0x0` for zero. */
export function toQuantity(value: bigint | number): Hex {
  return `0x${hexDigits(value)}`
}

/** DATA on the wire. */
export function toData(bytes: Uint8Array): Hex {
  return toHex(bytes)
}

/** A 32-byte word on the wire (storage values). */
export function toWord(value: bigint): Hex {
  const digits = hexDigits(value)
  return `${WORD_PREFIXES[digits.length]}${digits}` as Hex
}

/** `0x` and the zeros that pad n digits to a 32-byte word, by n. */
const WORD_PREFIXES: readonly string[] = Array.from({ length: 65 }, (_, digits) => `0x${'0'.repeat(64 - digits)}`)

/** The minimal hex digits of a non-negative value; a bigint within 2^53 goes by number (bigint's toString is several times slower). */
function hexDigits(value: bigint | number): string {
  return typeof value === 'bigint' && value <= MAX_SAFE_BIGINT ? Number(value).toString(16) : value.toString(16)
}

const MAX_SAFE_BIGINT = BigInt(Number.MAX_SAFE_INTEGER)
