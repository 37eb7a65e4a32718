/** Block headers and their hash. */
import { RLP } from '@ethereumjs/rlp'
import { hexToBytes, KECCAK256_RLP, KECCAK256_RLP_ARRAY } from '@ethereumjs/util'
import { sha256 } from '@noble/hashes/sha2.js'
import { toHex } from '../bytes.ts'
import { keccak256 } from '../crypto/keccak.ts'
import type { Address, Hash } from '../types.ts'

/** A sealed block's header (Cancun and later layouts), field for field as hashed. */
export interface BlockHeader {
  readonly parentHash: Uint8Array
  readonly coinbase: Address
  readonly stateRoot: Uint8Array
  readonly transactionsRoot: Uint8Array
  readonly receiptsRoot: Uint8Array
  readonly logsBloom: Uint8Array
  readonly number: bigint
  readonly gasLimit: bigint
  readonly gasUsed: bigint
  /** Seconds. */
  readonly timestamp: bigint
  readonly extraData: Uint8Array
  /** prevRandao since the merge. */
  readonly mixHash: Uint8Array
  readonly baseFeePerGas: bigint
  readonly withdrawalsRoot: Uint8Array
  readonly blobGasUsed: bigint
  readonly excessBlobGas: bigint
  readonly parentBeaconBlockRoot: Uint8Array
  /** EIP-7685, from Prague on (absent under Cancun). */
  readonly requestsHash: Uint8Array | undefined
}

/** keccak256(rlp([])): no ommers since the merge. */
export const EMPTY_OMMERS_HASH = KECCAK256_RLP_ARRAY
/** The root of an empty trie (no transactions, receipts or withdrawals). */
export const EMPTY_TRIE_ROOT = KECCAK256_RLP
/** EIP-7685 requests hash of a block without requests: sha256 of nothing. */
const EMPTY_REQUESTS_HASH = sha256(new Uint8Array(0))

/** The requests hash of a block without requests under `hardfork` (none before Prague). */
export function emptyRequestsHash(hardfork: string): Uint8Array | undefined {
  return hardfork === 'cancun' ? undefined : EMPTY_REQUESTS_HASH
}
const ZERO_NONCE = new Uint8Array(8)
const ZERO_DIFFICULTY = new Uint8Array(0)

/** The header's RLP, in consensus field order. */
export function encodeHeader(header: BlockHeader): Uint8Array {
  const fields = [
    header.parentHash,
    EMPTY_OMMERS_HASH,
    hexToBytes(header.coinbase),
    header.stateRoot,
    header.transactionsRoot,
    header.receiptsRoot,
    header.logsBloom,
    ZERO_DIFFICULTY,
    header.number,
    header.gasLimit,
    header.gasUsed,
    header.timestamp,
    header.extraData,
    header.mixHash,
    ZERO_NONCE,
    header.baseFeePerGas,
    header.withdrawalsRoot,
    header.blobGasUsed,
    header.excessBlobGas,
    header.parentBeaconBlockRoot,
  ]
  if (header.requestsHash !== undefined) fields.push(header.requestsHash)
  return RLP.encode(fields)
}

/** The block hash (keccak256 of the header's RLP, as lowercase hex) and the RLP's length. */
export function hashHeader(header: BlockHeader): { hash: Hash; encodedLength: number } {
  const encoded = encodeHeader(header)
  return { hash: toHex(keccak256(encoded)) as Hash, encodedLength: encoded.length }
}
