/**
 * Raw-transaction arbitraries for the fuzz spec: random byte strings and RLP lists behind every
 * envelope type byte, byte-level mutations of a valid signed transaction, and field-level
 * mutations that are signed again with the sender's key (so they get past the signature and
 * reach the decoder's and the pool's own checks).
 */
import { RLP } from '@ethereumjs/rlp'
import fc from 'fast-check'
import { bytesToHex, concat, hexToBigInt, hexToBytes, keccak256, type Hex } from 'viem'
import { sign } from 'viem/accounts'

type Item = Uint8Array | Item[]

/** geth's pool rejection texts (core/txpool/errors.go, core/error.go); a detail may follow ': ' (or, for the gas cap, ' ('). */
export const REJECTION_TEXTS = [
  'already known',
  'nonce too low',
  'insufficient funds for gas * price + value',
  'replacement transaction underpriced',
  'intrinsic gas too low',
  'insufficient gas for floor data gas cost',
  'exceeds block gas limit',
  'transaction gas limit too high',
  'max fee per gas less than block base fee',
  'max priority fee per gas higher than max fee per gas',
  'invalid sender',
  'transaction type not supported',
  'oversized data',
  'max initcode size exceeded',
  'invalid transaction',
]

/** Whether `message` is one of geth's rejection texts, with or without a detail. */
export function isRejectionText(message: string): boolean {
  return REJECTION_TEXTS.some((text) => message === text || message.startsWith(`${text}: `) || message.startsWith(`${text} (`))
}

/** Random byte strings: short, typed-looking, RLP lists behind a type byte, and oversized ones. */
export const randomRawBytes: fc.Arbitrary<Uint8Array> = fc.oneof(
  fc.uint8Array({ maxLength: 300 }),
  fc
    .tuple(fc.constantFrom(0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x7f, 0x80, 0xbf, 0xc0, 0xf8, 0xff), fc.uint8Array({ maxLength: 300 }))
    .map(([type, rest]) => Uint8Array.of(type, ...rest)),
  fc
    .tuple(
      fc.constantFrom<number | undefined>(undefined, 0x01, 0x02, 0x03, 0x04, 0x05),
      fc.array(fc.oneof(fc.uint8Array({ maxLength: 40 }), fc.array(fc.uint8Array({ maxLength: 33 }), { maxLength: 3 })), { maxLength: 14 }),
    )
    .map(([type, items]) => {
      const payload = RLP.encode(items as Item[])
      return type === undefined ? payload : Uint8Array.of(type, ...payload)
    }),
  fc.integer({ min: 131_073, max: 140_000 }).map((size) => new Uint8Array(size).fill(0xf8)),
)

/** One edit of a byte string. */
export type Mutation =
  | { readonly kind: 'set'; readonly at: number; readonly byte: number }
  | { readonly kind: 'xor'; readonly at: number; readonly bit: number }
  | { readonly kind: 'insert'; readonly at: number; readonly byte: number }
  | { readonly kind: 'delete'; readonly at: number }
  | { readonly kind: 'truncate'; readonly at: number }
  | { readonly kind: 'append'; readonly bytes: Uint8Array }

export const mutations: fc.Arbitrary<Mutation[]> = fc.array(
  fc.oneof(
    fc.record({ kind: fc.constant<'set'>('set'), at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }),
    fc.record({ kind: fc.constant<'xor'>('xor'), at: fc.nat(), bit: fc.integer({ min: 0, max: 7 }) }),
    fc.record({ kind: fc.constant<'insert'>('insert'), at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }),
    fc.record({ kind: fc.constant<'delete'>('delete'), at: fc.nat() }),
    fc.record({ kind: fc.constant<'truncate'>('truncate'), at: fc.nat() }),
    fc.record({ kind: fc.constant<'append'>('append'), bytes: fc.uint8Array({ minLength: 1, maxLength: 8 }) }),
  ),
  { minLength: 1, maxLength: 4 },
)

/** `bytes` with `edits` applied (positions taken modulo the length). */
export function mutate(bytes: Uint8Array, edits: readonly Mutation[]): Uint8Array {
  let out = [...bytes]
  for (const edit of edits) {
    const at = out.length === 0 ? 0 : ('at' in edit ? edit.at : 0) % out.length
    switch (edit.kind) {
      case 'set':
        if (out.length > 0) out[at] = edit.byte
        break
      case 'xor':
        if (out.length > 0) out[at] ^= 1 << edit.bit
        break
      case 'insert':
        out.splice(at, 0, edit.byte)
        break
      case 'delete':
        out.splice(at, 1)
        break
      case 'truncate':
        out = out.slice(0, at)
        break
      case 'append':
        out.push(...edit.bytes)
        break
    }
  }
  return Uint8Array.from(out)
}

/** The EIP-1559 field names, in RLP order (before the signature). */
export const EIP1559_FIELDS = ['chainId', 'nonce', 'maxPriorityFeePerGas', 'maxFeePerGas', 'gas', 'to', 'value', 'data', 'accessList']

/** A replacement for one signed field: any bytes (leading zeros too), a number, a list, nothing. */
export const fieldValues: fc.Arbitrary<Item> = fc.oneof(
  fc.uint8Array({ maxLength: 40 }),
  fc.bigInt({ min: 0n, max: 2n ** 260n }).map((n) => (n === 0n ? new Uint8Array(0) : hexToBytes(`0x${n.toString(16).padStart(Math.ceil(n.toString(16).length / 2) * 2, '0')}`))),
  fc.constantFrom<Item>(new Uint8Array(0), Uint8Array.of(0), Uint8Array.of(0x7a, 0x69), new Uint8Array(20).fill(0x11), new Uint8Array(32).fill(0xff), []),
  fc.array(fc.oneof(fc.uint8Array({ maxLength: 33 }), fc.array(fc.uint8Array({ maxLength: 33 }), { maxLength: 2 })), { maxLength: 3 }),
)

/** The unsigned EIP-1559 fields of a signed type-2 envelope. */
export function unsignedFields(raw: Hex): Item[] {
  const fields = RLP.decode(hexToBytes(raw).subarray(1)) as Item[]
  return fields.slice(0, 9)
}

function quantity(value: bigint | number): Uint8Array {
  const n = BigInt(value)
  if (n === 0n) return new Uint8Array(0)
  const hex = n.toString(16)
  return hexToBytes(`0x${hex.length % 2 === 0 ? hex : `0${hex}`}`)
}

/** Signs `fields` as an envelope of `type` with `privateKey` (whatever the fields hold). */
export async function signFields(type: number, fields: Item[], privateKey: Hex): Promise<Hex> {
  const unsigned = concat([bytesToHex(Uint8Array.of(type)), bytesToHex(RLP.encode(fields))])
  const signature = await sign({ hash: keccak256(unsigned), privateKey })
  const signed = RLP.encode([...fields, quantity(signature.yParity ?? 0), quantity(hexToBigInt(signature.r)), quantity(hexToBigInt(signature.s))])
  return concat([bytesToHex(Uint8Array.of(type)), bytesToHex(signed)])
}
