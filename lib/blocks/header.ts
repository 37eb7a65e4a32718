/** Block headers (Prague layout) and their hash. */
import { RLP } from '@ethereumjs/rlp'
import { bytesToHex, hexToBytes, KECCAK256_RLP, KECCAK256_RLP_ARRAY } from '@ethereumjs/util'
import { sha256 } from '@noble/hashes/sha2.js'
import { keccak256 } from '../crypto/keccak.ts'
import type { Address, Hash } from '../types.ts'

/** A sealed block's header, field for field as hashed. */
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
  readonly requestsHash: Uint8Array
}

/** keccak256(rlp([])): no ommers since the merge. */
export const EMPTY_OMMERS_HASH = KECCAK256_RLP_ARRAY
/** The root of an empty trie (no transactions, receipts or withdrawals). */
export const EMPTY_TRIE_ROOT = KECCAK256_RLP
/** EIP-7685 requests hash of a block without requests: sha256 of nothing. */
export const EMPTY_REQUESTS_HASH = sha256(new Uint8Array(0))
const ZERO_NONCE = new Uint8Array(8)
const ZERO_DIFFICULTY = new Uint8Array(0)

/** The header's RLP, in consensus field order. */
export function encodeHeader(header: BlockHeader): Uint8Array {
  return RLP.encode([
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
    header.requestsHash,
  ])
}

/** The block hash: keccak256 of the header's RLP, as lowercase hex. */
export function hashHeader(header: BlockHeader): Hash {
  return bytesToHex(keccak256(encodeHeader(header))) as Hash
}
