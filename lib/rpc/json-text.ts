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
