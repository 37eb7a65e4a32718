/**
 * JSON text written for less than JSON.stringify takes. A result made once and sent to many (a
 * subscription notification) may come with its text from its maker (a pending block, written
 * from its transactions' texts); long strings known to need no escaping (code) keep theirs.
 */
const texts = new WeakMap<object, string>()

/** The JSON text of `value`: the one its maker gave, or JSON.stringify's. */
export function jsonText(value: object): string {
  return texts.get(value) ?? JSON.stringify(value)
}

/** Records `text` as the JSON of `value` (it must be exactly what JSON.stringify gives). */
export function knowJsonText(value: object, text: string): void {
  texts.set(value, text)
}

/** Strings shorter than this are cheaper to escape than to look up. */
const LONG_STRING = 1024
/** How many long strings are remembered (code of up to 24 KiB each: a few MiB at most). */
const PLAIN_STRINGS_LIMIT = 64
/**
 * The JSON of long strings known to need no escaping (contract code as hex, converted once per
 * code array), as bytes: a reply sends them as they are, rather than have JSON.stringify scan
 * them (~9 µs for 11 KB of code, as long as the rest of a getCode reply takes) and copy them.
 */
const plainStrings = new Map<string, Buffer>()

/** Records `text`, which holds no character JSON escapes (hex), if it is long enough to matter. */
export function knowPlainString(text: string): void {
  if (text.length < LONG_STRING) return
  if (plainStrings.size >= PLAIN_STRINGS_LIMIT) plainStrings.clear()
  plainStrings.set(text, Buffer.from(`"${text}"`))
}

/** The JSON of `text` as bytes, if it is a long string recorded by {@link knowPlainString}. */
export function plainStringJson(text: string): Buffer | undefined {
  return text.length >= LONG_STRING ? plainStrings.get(text) : undefined
}
