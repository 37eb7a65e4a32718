/**
 * A block's consensus encoding, rlp([header, transactions, ommers, withdrawals]) (`debug_getRawBlock`),
 * and its length alone, for the `size` field of `eth_getBlockBy*`.
 */
import { RLP } from '@ethereumjs/rlp'
import { rlpList } from '../trie/trie-encoding.ts'
import type { SealedBlock } from './block.ts'
import { encodeHeader } from './header.ts'

/** Bytes taken by an RLP item of `payload` bytes (string or list: both prefixes have the same size). */
function rlpLength(payload: number, singleByte = false): number {
  if (singleByte) return 1
  if (payload < 56) return 1 + payload
  let lengthBytes = 0
  for (let rest = payload; rest > 0; rest = Math.floor(rest / 256)) lengthBytes++
  return 1 + lengthBytes + payload
}

/** Size of rlp([header, transactions, ommers = [], withdrawals = []]), given the header's RLP length. */
export function blockSize(headerLength: number, rawTransactions: readonly Uint8Array[]): number {
  let transactions = 0
  for (const raw of rawTransactions) {
    // Legacy transactions are RLP lists already; typed envelopes are wrapped as byte strings.
    transactions += raw[0] >= 0xc0 ? raw.length : rlpLength(raw.length, raw.length === 1 && raw[0] < 0x80)
  }
  const body = headerLength + rlpLength(transactions) + rlpLength(0) + rlpLength(0)
  return rlpLength(body)
}

/** A block's consensus encoding: [header, transactions, ommers, withdrawals]. */
export function encodeBlock(block: SealedBlock): Uint8Array {
  // Legacy transactions are RLP lists already; typed envelopes go in as byte strings.
  const transactions = block.transactions.map(({ transaction: { raw } }) => (raw[0] >= 0xc0 ? raw : RLP.encode(raw)))
  return rlpList([encodeHeader(block.header), rlpList(transactions), rlpList([]), rlpList([])])
}
