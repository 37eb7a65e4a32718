/**
 * A canonical RLP list read in place: its items as views into the input, with where each
 * starts, so a signed envelope's signing payload can be cut from it rather than re-encoded.
 * Anything not canonical (a length with leading zeros, a long form for a short length, a
 * single byte below 0x80 written as a string, bytes past the end) is refused with `undefined`:
 * the caller hands such input to @ethereumjs/rlp, whose errors it reports.
 */

/** One item of a list: its content (a view), whether it is a list, and where its encoding starts and ends. */
export interface RlpItem {
  readonly content: Uint8Array
  readonly isList: boolean
  /** Offset of the item's first byte (its prefix) in the input. */
  readonly start: number
  /** Offset just past the item. */
  readonly end: number
}

/** The item whose encoding starts at `position` of `input`, if canonical and within `limit`. */
function readItem(input: Uint8Array, position: number, limit: number): RlpItem | undefined {
  if (position >= limit) return undefined
  const prefix = input[position]
  if (prefix < 0x80) return { content: input.subarray(position, position + 1), isList: false, start: position, end: position + 1 }
  const isList = prefix >= 0xc0
  const short = isList ? prefix <= 0xf7 : prefix <= 0xb7
  let length: number
  let contentStart: number
  if (short) {
    length = prefix - (isList ? 0xc0 : 0x80)
    contentStart = position + 1
    // A single byte below 0x80 is its own encoding.
    if (!isList && length === 1 && (contentStart >= limit || input[contentStart] < 0x80)) return undefined
  } else {
    const lengthOfLength = prefix - (isList ? 0xf7 : 0xb7)
    if (position + 1 + lengthOfLength > limit || input[position + 1] === 0 || lengthOfLength > 4) return undefined
    length = 0
    for (let i = 0; i < lengthOfLength; i++) length = length * 256 + input[position + 1 + i]
    if (length < 56) return undefined
    contentStart = position + 1 + lengthOfLength
  }
  const end = contentStart + length
  if (end > limit) return undefined
  return { content: input.subarray(contentStart, end), isList, start: position, end }
}

/** The items of the list that is exactly `input[offset..]`, or undefined if it is not one canonical list. */
export function readList(input: Uint8Array, offset = 0): RlpItem[] | undefined {
  const list = readItem(input, offset, input.length)
  if (list === undefined || !list.isList || list.end !== input.length) return undefined
  return readItems(input, list.end - list.content.length, list.end)
}

/** The items of a list item read by {@link readList}. */
export function itemsOf(list: RlpItem): RlpItem[] | undefined {
  const { content } = list
  return readItems(content, 0, content.length)
}

function readItems(input: Uint8Array, from: number, to: number): RlpItem[] | undefined {
  const items: RlpItem[] = []
  for (let position = from; position < to; ) {
    const item = readItem(input, position, to)
    if (item === undefined) return undefined
    items.push(item)
    position = item.end
  }
  return items
}
