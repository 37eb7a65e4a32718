/**
 * Block assembly, in one place: what a block commits to of its transactions (logs bloom,
 * transactions root, receipts root) and the sealed block with its header, hash and size.
 * Genesis, the builder's seal and the pending block's JSON all go through here.
 */
import { hexToBytes } from '@ethereumjs/util'
import type { BlockContext } from '../execution/block-context.ts'
import { orderedTrieRoot, type GrowingOrderedTrie } from '../trie/ordered-trie.ts'
import type { Hash } from '../types.ts'
import type { IncludedTransaction, SealedBlock } from './block.ts'
import { blockSize } from './block-encoding.ts'
import { BLOOM_BYTES, mergeBloom } from './bloom.ts'
import { EMPTY_TRIE_ROOT, hashHeader, type BlockHeader } from './header.ts'
import { encodeReceipt } from './receipt.ts'

/** What a block's header commits to of its transactions. */
export interface BodyCommitments {
  readonly logsBloom: Uint8Array
  readonly transactionsRoot: Uint8Array
  readonly receiptsRoot: Uint8Array
}

/** The logs bloom and the transactions and receipts roots of `transactions`, in block order. */
export function commitBody(transactions: readonly IncludedTransaction[], tries?: BodyTries): BodyCommitments {
  const logsBloom = new Uint8Array(BLOOM_BYTES)
  for (const { receipt } of transactions) mergeBloom(logsBloom, receipt.logsBloom)
  const raws = transactions.map(({ transaction }) => transaction.raw)
  const receipts = transactions.map(({ transaction, receipt }) => encodeReceipt(transaction, receipt))
  return {
    logsBloom,
    transactionsRoot: tries === undefined ? orderedTrieRoot(raws) : tries.transactions.rootOf(raws),
    receiptsRoot: tries === undefined ? orderedTrieRoot(receipts) : tries.receipts.rootOf(receipts),
  }
}

/** The transactions and receipts tries of a block being built, kept from one assembly to the next (each costs what was added). */
export interface BodyTries {
  readonly transactions: GrowingOrderedTrie
  readonly receipts: GrowingOrderedTrie
}

/** Everything a sealed block is made of besides what {@link commitBody} derives. */
export interface BlockParts {
  readonly parentHash: Hash | Uint8Array
  /** Number, timestamp, base fee, gas limit, coinbase and prevRandao of the block. */
  readonly context: BlockContext
  readonly transactions: readonly IncludedTransaction[]
  readonly gasUsed: bigint
  readonly stateRoot: Uint8Array
  readonly extraData: Uint8Array
  /** EIP-7685 requests hash (Prague on), undefined before. */
  readonly requestsHash: Uint8Array | undefined
  /** Blob gas used: none on the devnet's own chains, the DA footprint of an OP-stack block (Jovian). */
  readonly blobGasUsed?: bigint
  /** The withdrawals root: the empty trie's, or an OP-stack block's L2ToL1MessagePasser storage root (Isthmus). */
  readonly withdrawalsRoot?: Uint8Array
  /** The block's tries as its previous assembly left them (the pending block's), if any. */
  readonly tries?: BodyTries
}

const ZERO_BEACON_ROOT = new Uint8Array(32)

/** The sealed block of `parts`: header, hash and encoded size. */
export function assembleBlock(parts: BlockParts): SealedBlock {
  const { context, transactions } = parts
  const header: BlockHeader = {
    parentHash: typeof parts.parentHash === 'string' ? hexToBytes(parts.parentHash) : parts.parentHash,
    coinbase: context.coinbase,
    stateRoot: parts.stateRoot,
    ...commitBody(transactions, parts.tries),
    number: context.number,
    gasLimit: context.gasLimit,
    gasUsed: parts.gasUsed,
    timestamp: context.timestamp,
    extraData: parts.extraData,
    mixHash: context.prevRandao,
    baseFeePerGas: context.baseFeePerGas,
    withdrawalsRoot: parts.withdrawalsRoot ?? EMPTY_TRIE_ROOT,
    blobGasUsed: parts.blobGasUsed ?? 0n,
    excessBlobGas: 0n,
    parentBeaconBlockRoot: ZERO_BEACON_ROOT,
    requestsHash: parts.requestsHash,
  }
  const { hash, encodedLength } = hashHeader(header)
  return { header, hash, transactions, size: blockSize(encodedLength, transactions.map(({ transaction }) => transaction.raw)) }
}
