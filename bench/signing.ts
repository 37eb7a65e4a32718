/**
 * Fast EIP-1559 signing for the benchmark's setup: tens of thousands of transactions signed
 * with native libsecp256k1 (viem's pure-JS signer would dominate the run).
 */
import { createRequire } from 'node:module'
import { RLP } from '@ethereumjs/rlp'
import { bigIntToUnpaddedBytes, bytesToHex, concatBytes, hexToBytes } from '@ethereumjs/util'
import { keccak256 } from '../lib/crypto/keccak.ts'
import type { Address, Hex } from '../lib/types.ts'

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
