/**
 * Engine objects to their JSON-RPC form (geth's field names and formats). A pre-confirmed
 * transaction's receipt carries 32 zero bytes as its block hash, as Base's flashblocks nodes do.
 */
import { bytesToBigInt, bytesToHex } from '@ethereumjs/util'
import { commitBody } from '../blocks/assemble.ts'
import type { IncludedTransaction, SealedBlock } from '../blocks/block.ts'
import { EMPTY_OMMERS_HASH } from '../blocks/header.ts'
import type { Log } from '../blocks/receipt.ts'
import type { PendingBlockView } from '../builder/pending-block.ts'
import { effectiveTip, type Transaction } from '../transactions/transaction.ts'
import type { Hash, Hex } from '../types.ts'
import { toData, toQuantity } from './hex.ts'

/** The block hash of pre-confirmed receipts and of the pending block: 32 zero bytes. */
export const PENDING_BLOCK_HASH = `0x${'0'.repeat(64)}` as Hash

const ZERO_NONCE = '0x0000000000000000'

const codeHex = new WeakMap<Uint8Array, Hex>()

/** Runtime code on the wire; each code array is converted once (the state keeps it stable per account). */
export function formatCode(code: Uint8Array): Hex {
  if (code.length === 0) return '0x'
  let hex = codeHex.get(code)
  if (hex === undefined) {
    hex = toData(code)
    codeHex.set(code, hex)
  }
  return hex
}

/** Where a transaction sits, for its JSON: nothing (mempool) or block, number and index. */
export interface InclusionPoint {
  /** Null for a mempool transaction; {@link PENDING_BLOCK_HASH} or null for pre-confirmed ones. */
  readonly blockHash: Hash | null
  readonly blockNumber: bigint
  readonly index: number
  /** The base fee of the block, for `gasPrice` of EIP-1559 transactions. */
  readonly baseFeePerGas: bigint
}

/** A transaction as `eth_getTransactionByHash` returns it. */
export function formatTransaction(transaction: Transaction, at: InclusionPoint | undefined): Record<string, unknown> {
  const { type } = transaction
  const json: Record<string, unknown> = {
    blockHash: at?.blockHash ?? null,
    blockNumber: at === undefined ? null : toQuantity(at.blockNumber),
    from: transaction.sender,
    gas: toQuantity(transaction.gasLimit),
    gasPrice: toQuantity(
      type >= 2 && at !== undefined
        ? at.baseFeePerGas + effectiveTip(transaction, at.baseFeePerGas)
        : transaction.maxFeePerGas,
    ),
    hash: transaction.hash,
    input: toData(transaction.data),
    nonce: toQuantity(transaction.nonce),
    to: transaction.to ?? null,
    transactionIndex: at === undefined ? null : toQuantity(at.index),
    value: toQuantity(transaction.value),
    type: toQuantity(type),
  }
  if (type >= 2) {
    json.maxFeePerGas = toQuantity(transaction.maxFeePerGas)
    json.maxPriorityFeePerGas = toQuantity(transaction.maxPriorityFeePerGas)
  }
  if (type !== 0) json.accessList = transaction.accessList.map(({ address, storageKeys }) => ({ address, storageKeys: [...storageKeys] }))
  if (type === 4) {
    json.authorizationList = transaction.authorizationList.map(([chainId, address, nonce, yParity, r, s]) => ({
      chainId: toQuantity(bytesToBigInt(chainId)),
      address: bytesToHex(address),
      nonce: toQuantity(bytesToBigInt(nonce)),
      yParity: toQuantity(bytesToBigInt(yParity)),
      r: toQuantity(bytesToBigInt(r)),
      s: toQuantity(bytesToBigInt(s)),
    }))
  }
  if (transaction.chainId !== undefined) json.chainId = toQuantity(transaction.chainId)
  json.v = toQuantity(transaction.v)
  json.r = toQuantity(transaction.r)
  json.s = toQuantity(transaction.s)
  if (type !== 0) json.yParity = toQuantity(transaction.v)
  return json
}

/** A log as receipts, `eth_getLogs` and subscriptions return it. */
export function formatLog(log: Log, logIndex: number, included: IncludedTransaction, blockHash: Hash, blockNumber: bigint): Record<string, unknown> {
  return {
    address: log.address,
    topics: log.topics.map((topic) => bytesToHex(topic)),
    data: toData(log.data),
    blockNumber: toQuantity(blockNumber),
    transactionHash: included.transaction.hash,
    transactionIndex: toQuantity(included.index),
    blockHash,
    logIndex: toQuantity(logIndex),
    removed: false,
  }
}

/** The logs of an included transaction, formatted. */
export function formatLogs(included: IncludedTransaction, blockHash: Hash, blockNumber: bigint): Record<string, unknown>[] {
  const { receipt } = included
  return receipt.logs.map((log, i) => formatLog(log, receipt.firstLogIndex + i, included, blockHash, blockNumber))
}

/** A receipt as `eth_getTransactionReceipt` returns it. */
export function formatReceipt(included: IncludedTransaction, blockHash: Hash, blockNumber: bigint): Record<string, unknown> {
  const { transaction, receipt } = included
  return {
    transactionHash: transaction.hash,
    transactionIndex: toQuantity(included.index),
    blockHash,
    blockNumber: toQuantity(blockNumber),
    from: transaction.sender,
    to: transaction.to ?? null,
    cumulativeGasUsed: toQuantity(receipt.cumulativeGasUsed),
    gasUsed: toQuantity(receipt.gasUsed),
    contractAddress: receipt.contractAddress ?? null,
    logs: formatLogs(included, blockHash, blockNumber),
    logsBloom: toData(receipt.logsBloom),
    status: toQuantity(receipt.status),
    effectiveGasPrice: toQuantity(receipt.effectiveGasPrice),
    type: toQuantity(transaction.type),
  }
}

/**
 * A pre-confirmed transaction with its receipt fields, as Base's `newFlashblockTransactions`
 * subscription sends it with `true`: the transaction (block hash null), then `logs`,
 * `gasUsed`, `status`, `cumulativeGasUsed`, `contractAddress` and `logsBloom`.
 */
export function formatTransactionWithLogs(included: IncludedTransaction, blockNumber: bigint, baseFeePerGas: bigint): Record<string, unknown> {
  const { receipt } = included
  return {
    ...formatTransaction(included.transaction, { blockHash: null, blockNumber, index: included.index, baseFeePerGas }),
    logs: formatLogs(included, PENDING_BLOCK_HASH, blockNumber),
    gasUsed: toQuantity(receipt.gasUsed),
    status: toQuantity(receipt.status),
    cumulativeGasUsed: toQuantity(receipt.cumulativeGasUsed),
    contractAddress: receipt.contractAddress ?? null,
    logsBloom: toData(receipt.logsBloom),
  }
}

/** A sealed block's header, as the `newHeads` subscription sends it. */
export function formatHeader(block: SealedBlock): Record<string, unknown> {
  const { transactions, uncles, withdrawals, size, totalDifficulty, ...header } = formatBlock(block, false)
  return header
}

function formatTransactions(
  transactions: readonly IncludedTransaction[],
  full: boolean,
  point: (included: IncludedTransaction) => InclusionPoint,
): unknown[] {
  return transactions.map((included) => (full ? formatTransaction(included.transaction, point(included)) : included.transaction.hash))
}

/** A sealed block as `eth_getBlockByNumber` / `eth_getBlockByHash` return it. */
export function formatBlock(block: SealedBlock, fullTransactions: boolean): Record<string, unknown> {
  const { header } = block
  return {
    number: toQuantity(header.number),
    hash: block.hash,
    parentHash: toData(header.parentHash),
    nonce: ZERO_NONCE,
    sha3Uncles: toData(EMPTY_OMMERS_HASH),
    logsBloom: toData(header.logsBloom),
    transactionsRoot: toData(header.transactionsRoot),
    stateRoot: toData(header.stateRoot),
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
    transactions: formatTransactions(block.transactions, fullTransactions, (included) => ({
      blockHash: block.hash,
      blockNumber: header.number,
      index: included.index,
      baseFeePerGas: header.baseFeePerGas,
    })),
    uncles: [],
    withdrawals: [],
  }
}

/**
 * The pre-confirmed block as `eth_getBlockByNumber('pending')` returns it: hash and state root
 * are 32 zero bytes (neither is final before the seal), transactions are those pre-confirmed so far.
 */
export function formatPendingBlock(pending: PendingBlockView, fullTransactions: boolean): Record<string, unknown> {
  const { context, transactions } = pending
  const { logsBloom, transactionsRoot, receiptsRoot } = commitBody(transactions)
  return {
    number: toQuantity(context.number),
    hash: PENDING_BLOCK_HASH,
    parentHash: pending.parentHash,
    nonce: ZERO_NONCE,
    sha3Uncles: toData(EMPTY_OMMERS_HASH),
    logsBloom: toData(logsBloom),
    transactionsRoot: toData(transactionsRoot),
    stateRoot: PENDING_BLOCK_HASH,
    receiptsRoot: toData(receiptsRoot),
    miner: context.coinbase,
    difficulty: '0x0',
    totalDifficulty: '0x0',
    extraData: '0x',
    size: '0x0',
    gasLimit: toQuantity(context.gasLimit),
    gasUsed: toQuantity(pending.gasUsed),
    timestamp: toQuantity(context.timestamp),
    mixHash: toData(context.prevRandao),
    baseFeePerGas: toQuantity(context.baseFeePerGas),
    blobGasUsed: '0x0',
    excessBlobGas: '0x0',
    transactions: formatTransactions(pending.transactions, fullTransactions, (included) => ({
      blockHash: null,
      blockNumber: context.number,
      index: included.index,
      baseFeePerGas: context.baseFeePerGas,
    })),
    uncles: [],
    withdrawals: [],
  }
}
