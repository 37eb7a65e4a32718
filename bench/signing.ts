/**
 * Fast EIP-1559 signing for the benchmark's setup: tens of thousands of transactions signed
 * with native libsecp256k1 (viem's pure-JS signer would dominate the run).
 */
import { createRequire } from 'node:module'
import { RLP } from '@ethereumjs/rlp'
import { bigIntToUnpaddedBytes, bytesToHex, concatBytes, hexToBytes } from '@ethereumjs/util'
import { keccak256 } from '../lib/crypto/keccak.ts'
import type { Address, Hex } from '../lib/types.ts'
import type { Chain } from 'preconf-devnet'

const GWEI = 1_000_000_000n

type Secp256k1 = { ecdsaSign(message: Uint8Array, privateKey: Uint8Array): { signature: Uint8Array; recid: number } }
const secp256k1 = createRequire(import.meta.url)('secp256k1') as Secp256k1

/** The fields of an EIP-1559 transfer or call. */
export interface TransactionFields {
  chainId: number
  nonce: bigint
  /** Undefined deploys `data` as init code. */
  to?: Address
  value?: bigint
  data?: Uint8Array
  gas: bigint
  maxFeePerGas: bigint
  maxPriorityFeePerGas: bigint
}

/** Signs `fields` with `privateKey`; returns the raw envelope. */
export function signEIP1559(privateKey: Hex, fields: TransactionFields): Uint8Array {
  const payload = [
    bigIntToUnpaddedBytes(BigInt(fields.chainId)),
    bigIntToUnpaddedBytes(fields.nonce),
    bigIntToUnpaddedBytes(fields.maxPriorityFeePerGas),
    bigIntToUnpaddedBytes(fields.maxFeePerGas),
    bigIntToUnpaddedBytes(fields.gas),
    fields.to === undefined ? new Uint8Array(0) : hexToBytes(fields.to),
    bigIntToUnpaddedBytes(fields.value ?? 0n),
    fields.data ?? new Uint8Array(0),
    [],
  ]
  const digest = keccak256(concatBytes(Uint8Array.of(2), RLP.encode(payload)))
  const { signature, recid } = secp256k1.ecdsaSign(digest, hexToBytes(privateKey))
  const r = signature.subarray(0, 32)
  const s = signature.subarray(32)
  const signed = [...payload, bigIntToUnpaddedBytes(BigInt(recid)), stripZeros(r), stripZeros(s)]
  return concatBytes(Uint8Array.of(2), RLP.encode(signed))
}

function stripZeros(bytes: Uint8Array): Uint8Array {
  let start = 0
  while (start < bytes.length - 1 && bytes[start] === 0) start++
  return bytes.subarray(start)
}

/** A deterministic private key for a synthetic account. */
export function syntheticKey(index: number): Hex {
  return bytesToHex(keccak256(new TextEncoder().encode(`preconf-devnet bench ${index}`))) as Hex
}

/** Signs `count` transfers spread round-robin over the chain's dev accounts. */
export function transfers(chain: Chain, count: number, firstNonce: (sender: number) => bigint, recipient: (i: number) => Address, data?: (i: number) => { to: Address; data: Uint8Array; gas: bigint }): Uint8Array[] {
  const senders = chain.accounts.length
  const nonces = chain.accounts.map((_, i) => firstNonce(i))
  const raws: Uint8Array[] = []
  for (let i = 0; i < count; i++) {
    const sender = i % senders
    const call = data?.(i)
    raws.push(
      signEIP1559(chain.accounts[sender].privateKey, {
        chainId: chain.options.chainId,
        nonce: nonces[sender]++,
        to: call?.to ?? recipient(i),
        value: call === undefined ? 1n : 0n,
        data: call?.data,
        gas: call?.gas ?? 21000n,
        maxFeePerGas: 100n * GWEI,
        maxPriorityFeePerGas: GWEI,
      }),
    )
  }
  return raws
}

/** A deterministic address nobody funded (the last 20 bytes of synthetic key `i`). */
export function syntheticAddress(i: number): Address {
  return bytesToHex(hexToBytes(syntheticKey(i)).subarray(12)) as Address
}
