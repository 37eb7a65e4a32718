/**
 * Raw-envelope helpers for the txpool specs: take a signed transaction apart, change its
 * signature, or sign fields that viem refuses to sign (e.g. a tip above the fee cap), so the
 * specs can send exactly the bytes a misbehaving wallet would.
 */
import { RLP } from '@ethereumjs/rlp'
import { bytesToHex, concat, hexToBigInt, hexToBytes, keccak256, type Hex } from 'viem'
import { sign } from 'viem/accounts'

/** The order of secp256k1. */
export const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n

type Item = Uint8Array | Item[]

/** An RLP quantity: big-endian, no leading zeros, empty for zero. */
export function quantity(value: bigint | number): Uint8Array {
  const n = BigInt(value)
  if (n === 0n) return new Uint8Array(0)
  const hex = n.toString(16)
  return hexToBytes(`0x${hex.length % 2 === 0 ? hex : `0${hex}`}`)
}

function toBigInt(bytes: Uint8Array): bigint {
  return bytes.length === 0 ? 0n : hexToBigInt(bytesToHex(bytes))
}

/** A signed envelope split into its type (0 = legacy) and its RLP fields. */
export function decodeEnvelope(raw: Hex): { type: number; fields: Item[] } {
  const bytes = hexToBytes(raw)
  const type = bytes[0] >= 0xc0 ? 0 : bytes[0]
  const fields = RLP.decode(type === 0 ? bytes : bytes.subarray(1)) as Item[]
  return { type, fields }
}

/** The inverse of {@link decodeEnvelope}. */
export function encodeEnvelope(type: number, fields: Item[]): Hex {
  const payload = RLP.encode(fields)
  return type === 0 ? bytesToHex(payload) : concat([bytesToHex(new Uint8Array([type])), bytesToHex(payload)])
}

/** A signature as it sits in the envelope: v (legacy v or typed yParity), r, s. */
export interface RawSignature {
  v: bigint
  r: bigint
  s: bigint
}

/** Re-encodes `raw` with its signature values rewritten by `change` (the signed fields stay). */
export function withSignature(raw: Hex, change: (signature: RawSignature) => RawSignature): Hex {
  const { type, fields } = decodeEnvelope(raw)
  const n = fields.length
  const [v, r, s] = fields.slice(n - 3) as Uint8Array[]
  const next = change({ v: toBigInt(v), r: toBigInt(r), s: toBigInt(s) })
  return encodeEnvelope(type, [...fields.slice(0, n - 3), quantity(next.v), quantity(next.r), quantity(next.s)])
}

/**
 * The malleable twin of a valid signature: s → n − s with the recovery bit flipped. It recovers
 * the same key, but EIP-2 (homestead) forbids s > n/2.
 */
export function withHighS(raw: Hex): Hex {
  const { type } = decodeEnvelope(raw)
  return withSignature(raw, ({ v, r, s }) => {
    // Typed: yParity 0 ↔ 1. Legacy: 27 ↔ 28, or 35+2c ↔ 36+2c — parity flips the same way.
    const flipped = type === 0 ? (v % 2n === 0n ? v - 1n : v + 1n) : 1n - v
    return { v: flipped, r, s: SECP256K1_N - s }
  })
}

/** EIP-1559 fields, any values (no sanity checks, unlike viem's serializer). */
export interface UncheckedEip1559 {
  chainId: number
  nonce: number
  maxPriorityFeePerGas: bigint
  maxFeePerGas: bigint
  gas: bigint
  to: Hex | null
  value?: bigint
  data?: Hex
}

/** Signs an EIP-1559 transaction with `privateKey` exactly as given, e.g. a tip above the fee cap. */
export async function signUncheckedEip1559(privateKey: Hex, fields: UncheckedEip1559): Promise<Hex> {
  const unsigned: Item[] = [
    quantity(fields.chainId),
    quantity(fields.nonce),
    quantity(fields.maxPriorityFeePerGas),
    quantity(fields.maxFeePerGas),
    quantity(fields.gas),
    fields.to === null ? new Uint8Array(0) : hexToBytes(fields.to),
    quantity(fields.value ?? 0n),
    hexToBytes(fields.data ?? '0x'),
    [],
  ]
  const hash = keccak256(encodeEnvelope(2, unsigned))
  const signature = await sign({ hash, privateKey })
  return encodeEnvelope(2, [...unsigned, quantity(signature.yParity ?? 0), quantity(hexToBigInt(signature.r)), quantity(hexToBigInt(signature.s))])
}
