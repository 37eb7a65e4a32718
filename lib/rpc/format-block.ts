/**
 * Blocks and headers to their JSON-RPC form (geth's fields). The pending block is formatted from
 * its preview — the block as it would seal now — with 32 zero bytes for its hash and state root
 * (neither is final before the seal), as Base's flashblocks nodes answer.
 */
import type { IncludedTransaction, SealedBlock } from '../blocks/block.ts'
import { EMPTY_OMMERS_HASH } from '../blocks/header.ts'
import type { PendingBlockView } from '../builder/pending-block.ts'
import type { Hash } from '../types.ts'
import { formatIncluded, PENDING_BLOCK_HASH, pendingRef, sealedRef, type BlockRef } from './format-transaction.ts'
import { toData, toQuantity } from './hex.ts'

const ZERO_NONCE = '0x0000000000000000'

/** A transaction of a block to its JSON-RPC form, in that block. */
export type TransactionFormatter = (included: IncludedTransaction, ref: BlockRef) => unknown

function format(block: SealedBlock, hash: Hash, stateRoot: string, ref: BlockRef, fullTransactions: boolean, formatTransaction: TransactionFormatter = formatIncluded): Record<string, unknown> {
  const { header } = block
  return {
    number: toQuantity(header.number),
    hash,
    parentHash: toData(header.parentHash),
    nonce: ZERO_NONCE,
    sha3Uncles: toData(EMPTY_OMMERS_HASH),
    logsBloom: toData(header.logsBloom),
    transactionsRoot: toData(header.transactionsRoot),
    stateRoot,
    receiptsRoot: toData(header.receiptsRoot),
    miner: header.coinbase,
    difficulty: '0x0',
    totalDifficulty: '0x0',
    extraData: toData(header.extraData),
    size: toQuantity(block.size),
    gasLimit: toQuantity(header.gasLimit),
    gasUsed: toQuantity(header.gasUsed),
    timestamp: toQuantity(header.timestamp),
    mixHash: toData(header.mixHash),
    baseFeePerGas: toQuantity(header.baseFeePerGas),
    withdrawalsRoot: toData(header.withdrawalsRoot),
    blobGasUsed: toQuantity(header.blobGasUsed),
    excessBlobGas: toQuantity(header.excessBlobGas),
    parentBeaconBlockRoot: toData(header.parentBeaconBlockRoot),
    ...(header.requestsHash === undefined ? {} : { requestsHash: toData(header.requestsHash) }),
    transactions: block.transactions.map((included) => (fullTransactions ? formatTransaction(included, ref) : included.transaction.hash)),
    uncles: [],
    withdrawals: [],
  }
}

/** A sealed block as `eth_getBlockByNumber` / `eth_getBlockByHash` return it. */
export function formatBlock(block: SealedBlock, fullTransactions: boolean): Record<string, unknown> {
  return format(block, block.hash, toData(block.header.stateRoot), sealedRef(block), fullTransactions)
}

/**
 * The pre-confirmed block as `eth_getBlockByNumber('pending')` returns it: its transactions so
 * far (each through `formatTransaction` if given: a stream of the block reuses what it formatted).
 */
export function formatPendingBlock(pending: PendingBlockView, fullTransactions: boolean, formatTransaction?: TransactionFormatter): Record<string, unknown> {
  return format(pending.preview(), PENDING_BLOCK_HASH, PENDING_BLOCK_HASH, pendingRef(pending), fullTransactions, formatTransaction)
}

/** A sealed block's header, as the `newHeads` subscription sends it. */
export function formatHeader(block: SealedBlock): Record<string, unknown> {
  const { transactions, uncles, withdrawals, size, totalDifficulty, ...header } = formatBlock(block, false)
  return header
}
