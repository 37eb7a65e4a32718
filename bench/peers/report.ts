/**
 * The peer section's output: each figure recorded (bench/measure.ts `record`, so it lands in the
 * bench's JSON) beside its peer's and their ratio with its target, and the same rows printed as
 * one table with "met" / "missed".
 */
import { figures, record } from '../measure.ts'

interface Row {
  readonly figure: string
  readonly ours: string
  readonly peer: string
  readonly ratio: string
  readonly target: string
  readonly result: string
}

const rows: Row[] = []

/** A figure of ours with its own target (or none): a row without a peer. */
export function ours(label: string, value: number, unit: string, target?: { atLeast?: number; atMost?: number }, note?: string): void {
  record(`peers: ${label}`, value, unit, target, note)
  rows.push({ figure: label, ours: `${format(value)} ${unit}`, peer: '', ratio: '', target: targetText(target, unit), result: result() })
}

/**
 * Ours against a peer's figure (rates: higher is better): our figure, then the ratio ours / peer
 * recorded with its target. `errors` names failed requests of either side, if any.
 */
export function versus(label: string, unit: string, value: number, peerName: string, peer: number, atLeast: number | undefined, errors = ''): void {
  const ratio = value / peer
  record(`peers: ${label}, ours / ${peerName}`, ratio, 'x', atLeast === undefined ? undefined : { atLeast }, `ours ${format(value)} ${unit}, ${peerName} ${format(peer)} ${unit}${errors}`)
  rows.push({ figure: `${label} vs ${peerName}`, ours: `${format(value)} ${unit}`, peer: `${format(peer)} ${unit}`, ratio: `${ratio.toFixed(2)}x`, target: atLeast === undefined ? 'n/a' : `>= ${atLeast}x`, result: result() + (errors === '' ? '' : ' (failed requests: see the note)') })
}

/**
 * Ours against a peer's cost (lower is better): the ratio ours / peer recorded without a
 * target, as evidence beside a rate whose target it is not.
 */
export function versusCost(label: string, unit: string, value: number, peerName: string, peer: number): void {
  const ratio = value / peer
  record(`peers: ${label}, ours / ${peerName}`, ratio, 'x', undefined, `ours ${format(value)} ${unit}, ${peerName} ${format(peer)} ${unit}; lower is cheaper`)
  rows.push({ figure: `${label} vs ${peerName}`, ours: `${format(value)} ${unit}`, peer: `${format(peer)} ${unit}`, ratio: `${ratio.toFixed(2)}x`, target: 'n/a (lower is cheaper)', result: '' })
}

/** A line in the table saying why a peer is missing, or what it is. */
export function notice(text: string): void {
  process.stderr.write(`peers: ${text}\n`)
  rows.push({ figure: text, ours: '', peer: '', ratio: '', target: '', result: '' })
}

/** Prints the table of every row so far to stderr. */
export function printTable(): void {
  const header: Row = { figure: 'figure', ours: 'ours', peer: 'peer', ratio: 'ratio', target: 'target', result: 'result' }
  const columns = ['figure', 'ours', 'peer', 'ratio', 'target', 'result'] as const
  const tabular = rows.filter((row) => row.ours !== '')
  const widths = columns.map((column) => Math.max(...[header, ...tabular].map((row) => row[column].length)))
  const line = (row: Row) => columns.map((column, i) => row[column].padEnd(widths[i])).join(' | ')
  const lines = rows.map((row) => (row.ours === '' ? `  ${row.figure}` : line(row)))
  process.stderr.write(`\n${line(header)}\n${widths.map((width) => '-'.repeat(width)).join('-|-')}\n${lines.join('\n')}\n\n`)
}

function result(): string {
  const met = figures.at(-1)!.met
  return met === null ? '' : met ? 'met' : 'missed'
}

function targetText(target: { atLeast?: number; atMost?: number } | undefined, unit: string): string {
  if (target === undefined) return 'n/a'
  return target.atLeast !== undefined ? `>= ${format(target.atLeast)} ${unit}` : `<= ${format(target.atMost!)} ${unit}`
}

function format(value: number): string {
  return Math.abs(value) >= 100 ? Math.round(value).toLocaleString('en-US') : Number(value.toPrecision(3)).toString()
}
