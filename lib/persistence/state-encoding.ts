/**
 * How a state dump travels: over RPC as hex of the gzipped JSON (`anvil_dumpState`, as Anvil
 * sends its own), in a file as the JSON text (`--dump-state`), in-process as either. A load
 * takes any of these (a file also as `anvil_dumpState`'s hex, bare or JSON-quoted), or the parsed object.
 */
import { constants } from 'node:buffer'
import { gunzipSync, gzipSync } from 'node:zlib'
import type { Hex } from '../types.ts'
import { StateDumpError } from './dump-fields.ts'

/** What a state dump may be given as: hex of gzip or of JSON, JSON text, gzip or JSON bytes, or the parsed object. */
export type StateInput = string | Uint8Array | Record<string, unknown>

/** The dump `json` as hex of its gzipped text (what `anvil_dumpState` answers). */
export function stateToHex(json: Record<string, unknown>): Hex {
  return `0x${gzipSync(JSON.stringify(json), { level: 1 }).toString('hex')}` as Hex
}

/** The dump `json` as a file holds it. */
export function stateToText(json: Record<string, unknown>): string {
  return JSON.stringify(json)
}

/** The parsed JSON of a dump given in any of the {@link StateInput} forms; a refusal says what was wrong. */
export function stateFromInput(input: unknown): unknown {
  if (input instanceof Uint8Array) return parseBytes(input)
  if (typeof input === 'string') {
    const text = input.trim()
    if (text.startsWith('0x')) {
      if (!/^0x(?:[0-9a-fA-F]{2})*$/.test(text)) throw new StateDumpError('hex that is not an even number of hex digits')
      return parseBytes(Buffer.from(text.slice(2), 'hex'))
    }
    return parseText(text)
  }
  if (typeof input === 'object' && input !== null && !Array.isArray(input)) return input
  throw new StateDumpError(`expected hex, JSON text, bytes or an object, not ${input === null ? 'null' : typeof input}`)
}

/** The most bytes of JSON text a dump can be read from: V8's longest string (~512 MiB). */
const MAX_TEXT_BYTES = constants.MAX_STRING_LENGTH

function tooLarge(what: string): StateDumpError {
  return new StateDumpError(`${what} is too large to read: JSON text of more than ${MAX_TEXT_BYTES} bytes (V8's longest string)`)
}

function parseBytes(bytes: Uint8Array): unknown {
  const gzip = bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b
  if (!gzip) {
    if (bytes.length > MAX_TEXT_BYTES) throw tooLarge(`a dump of ${bytes.length} bytes`)
    const text = Buffer.from(bytes).toString('utf8').trim()
    // A file of what anvil_dumpState answers: its hex, bare or as a JSON string (`cast rpc anvil_dumpState > file`).
    const unquoted = text.length >= 2 && text.startsWith('"') && text.endsWith('"') ? text.slice(1, -1) : text
    if (unquoted.startsWith('0x')) return stateFromInput(unquoted)
    if (!text.startsWith('{')) throw new StateDumpError('neither gzipped JSON, JSON text nor the hex of anvil_dumpState')
    return parseText(text)
  }
  let text: string
  try {
    text = gunzipSync(bytes, { maxOutputLength: MAX_TEXT_BYTES }).toString('utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge('the gzipped dump')
    throw new StateDumpError(`the gzip data is corrupt or truncated (${(error as Error).message})`)
  }
  return parseText(text)
}

function parseText(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new StateDumpError(`not JSON (${(error as Error).message})`)
  }
}
