/**
 * Reading a state dump's JSON field by field: each reader checks one value and, when it is not
 * what the format says, throws a {@link StateDumpError} naming where in the dump it is. A dump is
 * read whole before anything is loaded, so a bad one is refused, never half-loaded.
 */
import { hexToBytes } from '@ethereumjs/util'
import { InvalidInputError } from '../errors.ts'
import type { Address, Hash } from '../types.ts'

/** A state dump that cannot be loaded: corrupt, truncated, or of a format this version does not read. */
export class StateDumpError extends InvalidInputError {
  override name = 'StateDumpError'
  constructor(detail: string) {
    super(`invalid state dump: ${detail}`)
  }
}

function wrong(path: string, expected: string, value: unknown): StateDumpError {
  const shown = typeof value === 'string' ? `"${value.length > 40 ? `${value.slice(0, 40)}…` : value}"` : (JSON.stringify(value)?.slice(0, 40) ?? String(value))
  return new StateDumpError(`${path} should be ${expected}, not ${shown}`)
}

/** A JSON object. */
export function objectAt(value: unknown, path: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw wrong(path, 'an object', value)
  return value as Record<string, unknown>
}

/** A JSON array. */
export function listAt(value: unknown, path: string): unknown[] {
  if (!Array.isArray(value)) throw wrong(path, 'a list', value)
  return value
}

/** A non-negative safe integer. */
export function integerAt(value: unknown, path: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw wrong(path, 'a non-negative integer', value)
  return value
}

/** A hex quantity of at most 256 bits. */
export function quantityAt(value: unknown, path: string): bigint {
  if (typeof value !== 'string' || !/^0x[0-9a-f]{1,64}$/i.test(value)) throw wrong(path, 'a hex quantity', value)
  return BigInt(value)
}

/** A hex quantity a uint64 holds (a gas limit). */
export function uint64At(value: unknown, path: string): bigint {
  if (typeof value !== 'string' || !/^0x[0-9a-f]{1,16}$/i.test(value)) throw wrong(path, 'a hex quantity below 2^64', value)
  return BigInt(value)
}

/** Hex data. */
export function dataAt(value: unknown, path: string): Uint8Array {
  if (typeof value !== 'string' || !/^0x(?:[0-9a-f]{2})*$/i.test(value)) throw wrong(path, 'hex data', value)
  return hexToBytes(value as `0x${string}`)
}

/** 32 bytes of hex, lowercase. */
export function hashAt(value: unknown, path: string): Hash {
  if (typeof value !== 'string' || !/^0x[0-9a-f]{64}$/i.test(value)) throw wrong(path, 'a 32-byte hex hash', value)
  return value.toLowerCase() as Hash
}

/** 32 bytes of hex, as bytes. */
export function wordAt(value: unknown, path: string): Uint8Array {
  return hexToBytes(hashAt(value, path))
}

/** A 20-byte hex address, lowercase. */
export function addressAt(value: unknown, path: string): Address {
  if (typeof value !== 'string' || !/^0x[0-9a-f]{40}$/i.test(value)) throw wrong(path, 'a 20-byte hex address', value)
  return value.toLowerCase() as Address
}

/** A quantity written as `0x…` hex. */
export const hexQuantity = (value: bigint | number): string => `0x${value.toString(16)}`

