/**
 * How an option is defined (its flag, description, default and parser) and the parsers options
 * share. lib/options.ts is the catalogue of options built from these.
 */
import type { ClockMode } from './clock/clock.ts'
import type { Address } from './types.ts'

/** One option. `Input` is what callers may pass, `Value` what the chain uses. */
export interface OptionDefinition<Input, Value> {
  /** The CLI flag, without dashes. */
  readonly flag: string
  /** One line for `--help` and the README. */
  readonly description: string
  /** The default, as shown in `--help` and the README. */
  readonly defaultText: string
  /** Parses a value given by a caller or a CLI string; throws a TypeError naming the option. */
  readonly parse: (value: Input | string, name: string) => Value
  /** The value used when the option is not given (may depend on the clock mode). */
  readonly default: (context: { clock: ClockMode }) => Value
  /** The CLI's default, where it differs from the library's. */
  readonly cliDefault?: Value
}

/** The error of an option given a value it cannot take. */
export function invalid(name: string, expected: string, value: unknown): TypeError {
  return new TypeError(`invalid option ${name}: expected ${expected}, got ${shown(value)}`)
}

/** `value` as an error shows it: a string quoted, an object or array as JSON (its bigints as numbers), anything else as text. */
function shown(value: unknown): string {
  if (typeof value === 'string') return `"${value}"`
  if (typeof value !== 'object' || value === null) return String(value)
  return JSON.stringify(value, (_key, entry: unknown) => (typeof entry === 'bigint' ? entry.toString() : entry))
}

/** A parser of integers from `min` to `max` (numbers, bigints, or decimal strings from the CLI). */
export function integer(min: number, max = Number.MAX_SAFE_INTEGER) {
  return (value: number | bigint | string, name: string): number => {
    const number = (typeof value === 'string' && /^\d+$/.test(value.trim())) || typeof value === 'bigint' ? Number(value) : value
    if (typeof number !== 'number' || !Number.isSafeInteger(number) || number < min || number > max) {
      throw invalid(name, `an integer from ${min}${max === Number.MAX_SAFE_INTEGER ? '' : ` to ${max}`}`, value)
    }
    return number
  }
}

/** The largest value a 256-bit word holds: a balance, a base fee. */
const MAX_UINT256 = 2n ** 256n - 1n

/**
 * A parser of non-negative integer amounts (wei, gas, a block number) that fit the `bits` of
 * the header or contract field that holds them (a gas limit a uint64, a base fee a uint256).
 */
export function unsigned(bits: 64 | 256) {
  const max = (1n << BigInt(bits)) - 1n
  return (value: bigint | number | string, name: string): bigint => {
    let amount = -1n
    if (typeof value === 'bigint') amount = value
    else if (typeof value === 'number' && Number.isSafeInteger(value)) amount = BigInt(value)
    else if (typeof value === 'string' && /^\d+$/.test(value.trim())) amount = BigInt(value.trim())
    if (amount < 0n || amount > max) throw invalid(name, `a non-negative integer below 2^${bits}`, value)
    return amount
  }
}

/** Decimal ether (`"10000"`, `0.5`, `1000n`) to wei, at most a balance's 2^256 - 1. */
export function ether(value: bigint | number | string, name: string): bigint {
  const text = typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : `${value}`
  const match = /^(\d+)(?:\.(\d{1,18}))?$/.exec(text)
  if ((typeof value === 'bigint' && value < 0n) || match === null) throw invalid(name, 'a non-negative amount of ether', value)
  const amount = BigInt(match[1]) * 10n ** 18n + BigInt((match[2] ?? '').padEnd(18, '0'))
  if (amount > MAX_UINT256) throw invalid(name, 'an amount of ether below 2^256 wei', value)
  return amount
}

/** A parser of fractions from 0 to 1 (a probability; numbers, or decimal strings from the CLI). */
export function fraction(value: number | string, name: string): number {
  const number = typeof value === 'string' && /^(?:\d+\.?\d*|\.\d+)(?:e-?\d+)?$/i.test(value.trim()) ? Number(value) : value
  if (typeof number !== 'number' || !Number.isFinite(number) || number < 0 || number > 1) throw invalid(name, 'a number from 0 to 1', value)
  return number
}

/** A parser of booleans (`true` / `false`, as values or CLI strings). */
export function boolean(value: boolean | string, name: string): boolean {
  if (value === true || value === 'true') return true
  if (value === false || value === 'false') return false
  throw invalid(name, 'true | false', value)
}

/** A parser of one of `choices`. */
export function oneOf<T extends string>(...choices: T[]) {
  return (value: T | string, name: string): T => {
    if (!choices.includes(value as T)) throw invalid(name, choices.join(' | '), value)
    return value as T
  }
}

/** A parser of 20-byte hex addresses (to lowercase). */
export function address(value: string, name: string): Address {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(value)) throw invalid(name, 'a 20-byte hex address', value)
  return value.toLowerCase() as Address
}

/** A parser of non-empty strings (trimmed). */
export function text(value: string, name: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw invalid(name, 'a non-empty string', value)
  return value.trim()
}

/** Declares an option (the identity, for type inference). */
export function define<Input, Value>(definition: OptionDefinition<Input, Value>): OptionDefinition<Input, Value> {
  return definition
}
