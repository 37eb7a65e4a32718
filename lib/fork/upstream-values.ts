/**
 * Values in an upstream's answers, checked at the edge: a malformed answer is a clear -32000
 * naming the upstream and the call, never a crash and never a value half taken.
 */
import { hexToBytes } from '@ethereumjs/util'
import { UpstreamError } from '../errors.ts'
import type { Address, Hash } from '../types.ts'

/** Where a value came from, for the error: the upstream as shown and the call. */
export interface AnswerOrigin {
  readonly upstream: string
  readonly method: string
}

function malformed(origin: AnswerOrigin, expected: string, value: unknown): UpstreamError {
  const shown = typeof value === 'string' ? `"${value.length > 80 ? `${value.slice(0, 80)}…` : value}"` : JSON.stringify(value) ?? String(value)
  return new UpstreamError(`upstream ${origin.upstream} answered ${origin.method} with ${shown} where ${expected} was expected`)
}

/** A hex quantity (`0x…`, at most 256 bits). */
export function quantityFrom(value: unknown, origin: AnswerOrigin): bigint {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/.test(value)) throw malformed(origin, 'a hex quantity', value)
  return BigInt(value)
}

/** Hex data (`0x` and an even number of digits). */
export function dataFrom(value: unknown, origin: AnswerOrigin): Uint8Array {
  if (typeof value !== 'string' || !/^0x(?:[0-9a-fA-F]{2})*$/.test(value)) throw malformed(origin, 'hex data', value)
  return hexToBytes(value as `0x${string}`)
}

/** A 32-byte hash, lowercase. */
export function hashFrom(value: unknown, origin: AnswerOrigin): Hash {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(value)) throw malformed(origin, 'a 32-byte hash', value)
  return value.toLowerCase() as Hash
}

/** A 20-byte address, lowercase. */
export function addressFrom(value: unknown, origin: AnswerOrigin): Address {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(value)) throw malformed(origin, 'a 20-byte address', value)
  return value.toLowerCase() as Address
}

/** A JSON object (a block, a transaction), or null when the upstream has none. */
export function objectOrNullFrom(value: unknown, origin: AnswerOrigin): Record<string, unknown> | null {
  if (value === null) return null
  if (typeof value !== 'object' || Array.isArray(value)) throw malformed(origin, 'an object or null', value)
  return value as Record<string, unknown>
}
