/**
 * Reading what an upstream node answered: JSON-RPC responses, rate-limit errors, and short
 * descriptions of failures and bodies for error messages.
 */
import type { RPCErrorObject } from '../errors.ts'

/** A JSON-RPC response object. */
export type Response = { readonly id?: unknown; readonly result?: unknown; readonly error?: RPCErrorObject }

/** The parsed JSON of a body, or undefined when it is not JSON. */
export function parseJSON(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) }
  } catch {
    return undefined
  }
}

/** A JSON-RPC response: an object with a `result`, or an `error` with an integer code and a message. */
export function isResponse(value: unknown): value is Response {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const error = (value as Response).error
  return error === undefined ? 'result' in value : typeof error === 'object' && error !== null && Number.isInteger(error.code) && typeof error.message === 'string'
}

/** A JSON-RPC error that says the upstream is rate limiting us (EIP-1474's -32005, or HTTP's 429 as a code). */
export function isRateLimit(error: RPCErrorObject): boolean {
  return error.code === 429 || error.code === -32005 || /rate limit|too many requests/i.test(error.message)
}

/** A network error's text (a failed dual-stack connect is an AggregateError with no message of its own). */
export function describe(error: unknown): string {
  if (error instanceof AggregateError && error.message === '') return error.errors.map(describe).join('; ')
  return error instanceof Error ? error.message || error.name : String(error)
}

/** The start of a response body, on one line, for an error message. */
export function snippet(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length > 200 ? `${line.slice(0, 200)}…` : line
}
