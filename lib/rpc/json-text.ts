/**
 * The JSON text of a result made once and sent to many (a subscription notification shared by
 * its subscribers): serialized on first use, or given by the result's maker where it can write
 * it for less than JSON.stringify (a pending block, from its transactions' texts).
 */
const texts = new WeakMap<object, string>()

/** The JSON text of `value`, serialized once. */
export function jsonText(value: object): string {
  let text = texts.get(value)
  if (text === undefined) {
    text = JSON.stringify(value)
    texts.set(value, text)
  }
  return text
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
