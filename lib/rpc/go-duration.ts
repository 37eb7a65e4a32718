/**
 * Go's `time.ParseDuration`, for the parameters geth takes as Go durations (a trace config's
 * `timeout`: `"300ms"`, `"1.5s"`, `"2h45m"`), with its error texts, which geth returns as they are.
 */
import { RejectedParameterError } from '../errors.ts'

/** Nanoseconds per unit, as Go's unitMap (both micro signs included). */
const UNITS: Record<string, number> = { ns: 1, us: 1e3, 'µs': 1e3, 'μs': 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9 }
/** The largest Go duration (int64 nanoseconds). */
const MAX_NANOSECONDS = 2 ** 63 - 1

/** The duration `text` names, in milliseconds (may be negative); -32000 with Go's text when it is not one. */
export function parseGoDuration(text: string): number {
  const invalid = () => new RejectedParameterError(`time: invalid duration ${quote(text)}`)
  let rest = text
  let negative = false
  if (rest.startsWith('-') || rest.startsWith('+')) {
    negative = rest[0] === '-'
    rest = rest.slice(1)
  }
  if (rest === '0') return 0
  if (rest === '') throw invalid()
  let nanoseconds = 0
  while (rest !== '') {
    const number = /^(\d*)(?:\.(\d*))?/.exec(rest)!
    const [whole, integer, fraction] = number
    if (integer === '' && (fraction === undefined || fraction === '')) throw invalid()
    rest = rest.slice(whole.length)
    const unit = /^[^\d.]*/.exec(rest)![0]
    if (unit === '') throw new RejectedParameterError(`time: missing unit in duration ${quote(text)}`)
    rest = rest.slice(unit.length)
    const scale = UNITS[unit]
    if (scale === undefined) throw new RejectedParameterError(`time: unknown unit ${quote(unit)} in duration ${quote(text)}`)
    nanoseconds += Number(`${integer || '0'}.${fraction ?? ''}0`) * scale
    if (nanoseconds > MAX_NANOSECONDS) throw invalid()
  }
  return (negative ? -nanoseconds : nanoseconds) / 1e6
}

/** A string as Go's strconv.Quote prints printable text: in double quotes, `"` and `\` escaped. */
function quote(text: string): string {
  return JSON.stringify(text)
}
