/**
 * Transactions, receipts and logs to their JSON-RPC form (geth's field names and formats,
 * `blockTimestamp` included as recent geth sends it). A pre-confirmed transaction has no block
 * hash yet: its JSON says null, its receipt and logs carry 32 zero bytes, as Base's
 * flashblocks nodes do.
 */
import { toHex } from '../bytes.ts'
import { knowPlainString } from './json-text.ts'
import { bytesToBigInt } from '@ethereumjs/util'
import type { IncludedTransaction, SealedBlock } from '../blocks/block.ts'
import type { Log, TransactionReceipt } from '../blocks/receipt.ts'
import type { PendingBlockView } from '../builder/pending-block.ts'
import { BLOB_BASE_FEE } from '../execution/block-context.ts'
import { effectiveTip, type DepositTransaction, type Transaction, type UserTransaction } from '../transactions/transaction.ts'
import type { Hash, Hex } from '../types.ts'
import { toData, toQuantity } from './hex.ts'

/** The block hash of pre-confirmed receipts and of the pending block: 32 zero bytes. */
export const PENDING_BLOCK_HASH = `0x${'0'.repeat(64)}` as Hash


/** The block a transaction is formatted in: a sealed one, or the pre-confirmed one (no hash yet). */
export interface BlockRef {
  /** Undefined while pre-confirmed. */
  readonly hash: Hash | undefined
  readonly number: bigint
  readonly timestamp: bigint
  readonly baseFeePerGas: bigint
}

/** A sealed block as a {@link BlockRef}. */
export function sealedRef(block: SealedBlock): BlockRef {
  const { header } = block
  return { hash: block.hash, number: header.number, timestamp: header.timestamp, baseFeePerGas: header.baseFeePerGas }
}

/** The pre-confirmed block as a {@link BlockRef}. */
export function pendingRef(pending: PendingBlockView): BlockRef {
  const { context } = pending
  return { hash: undefined, number: context.number, timestamp: context.timestamp, baseFeePerGas: context.baseFeePerGas }
}

const codeHex = new WeakMap<Uint8Array, Hex>()

/** Runtime code on the wire; each code array is converted once (the state keeps it stable per account). */
export function formatCode(code: Uint8Array): Hex {
  if (code.length === 0) return '0x'
  let hex = codeHex.get(code)
  if (hex === undefined) {
    hex = toData(code)
    codeHex.set(code, hex)
    knowPlainString(hex)
  }
  return hex
}

/**
 * A transaction as `eth_getTransactionByHash` returns it: in the mempool when `block` is
 * undefined. A deposit's nonce is the one its receipt records (op-geth): 0 until it has run.
 */
export function formatTransaction(transaction: Transaction, block: BlockRef | undefined, index = 0, receipt?: TransactionReceipt): Record<string, unknown> {
  const json: Record<string, unknown> = {
    blockHash: block?.hash ?? null,
    blockNumber: block === undefined ? null : toQuantity(block.number),
    from: transaction.sender,
    gas: toQuantity(transaction.gasLimit),
    gasPrice: '0x0',
    hash: transaction.hash,
    input: toData(transaction.data),
    nonce: '0x0',
    to: transaction.to ?? null,
    transactionIndex: block === undefined ? null : toQuantity(index),
    value: toQuantity(transaction.value),
    type: toQuantity(transaction.type),
  }
  if (transaction.kind === 'deposit') addDepositFields(json, transaction, receipt)
  else addUserFields(json, transaction, block)
  if (block !== undefined) json.blockTimestamp = toQuantity(block.timestamp)
  return json
}

/** op-geth's deposit fields: `sourceHash`, `mint` (always, `0x0` included: viem parses it), `isSystemTx` only when true, no signature, and the receipt's nonce and version. */
function addDepositFields(json: Record<string, unknown>, transaction: DepositTransaction, receipt: TransactionReceipt | undefined): void {
  json.sourceHash = toHex(transaction.sourceHash)
  json.mint = toQuantity(transaction.mint)
  if (transaction.isSystemTx) json.isSystemTx = true
  json.v = '0x0'
  json.r = '0x0'
  json.s = '0x0'
  if (receipt?.deposit !== undefined) {
    json.nonce = toQuantity(receipt.deposit.nonce)
    json.depositReceiptVersion = toQuantity(receipt.deposit.receiptVersion)
  }
}

function addUserFields(json: Record<string, unknown>, transaction: UserTransaction, block: BlockRef | undefined): void {
  const { type } = transaction
  json.gasPrice = toQuantity(type >= 2 && block !== undefined ? block.baseFeePerGas + effectiveTip(transaction, block.baseFeePerGas) : transaction.maxFeePerGas)
  json.nonce = toQuantity(transaction.nonce)
  if (type >= 2) {
    json.maxFeePerGas = toQuantity(transaction.maxFeePerGas)
    json.maxPriorityFeePerGas = toQuantity(transaction.maxPriorityFeePerGas)
  }
  if (type !== 0) json.accessList = transaction.accessList.map(({ address, storageKeys }) => ({ address, storageKeys: [...storageKeys] }))
  if (type === 4) {
    json.authorizationList = transaction.authorizationList.map(([chainId, address, nonce, yParity, r, s]) => ({
      chainId: toQuantity(bytesToBigInt(chainId)),
      address: toHex(address),
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
}

/** An included transaction in its block. */
export function formatIncluded(included: IncludedTransaction, block: BlockRef): Record<string, unknown> {
  return formatTransaction(included.transaction, block, included.index, included.receipt)
}

/** A log as receipts, `eth_getLogs` and subscriptions return it. */
export function formatLog(log: Log, logIndex: number, included: IncludedTransaction, block: BlockRef): Record<string, unknown> {
  return {
    address: log.address,
    topics: log.topics.map((topic) => toHex(topic)),
    data: toData(log.data),
    blockNumber: toQuantity(block.number),
    transactionHash: included.transaction.hash,
    transactionIndex: toQuantity(included.index),
    blockHash: block.hash ?? PENDING_BLOCK_HASH,
    blockTimestamp: toQuantity(block.timestamp),
    logIndex: toQuantity(logIndex),
    removed: false,
  }
}

/** The logs of an included transaction, formatted. */
export function formatLogs(included: IncludedTransaction, block: BlockRef): Record<string, unknown>[] {
  const { receipt } = included
  return receipt.logs.map((log, i) => formatLog(log, receipt.firstLogIndex + i, included, block))
}

/** A receipt as `eth_getTransactionReceipt` returns it. */
export function formatReceipt(included: IncludedTransaction, block: BlockRef): Record<string, unknown> {
  const { transaction, receipt } = included
  return {
    transactionHash: transaction.hash,
    transactionIndex: toQuantity(included.index),
    blockHash: block.hash ?? PENDING_BLOCK_HASH,
    blockNumber: toQuantity(block.number),
    from: transaction.sender,
    to: transaction.to ?? null,
    cumulativeGasUsed: toQuantity(receipt.cumulativeGasUsed),
    gasUsed: toQuantity(receipt.gasUsed),
    contractAddress: receipt.contractAddress ?? null,
    logs: formatLogs(included, block),
    logsBloom: toData(receipt.logsBloom),
    status: toQuantity(receipt.status),
    effectiveGasPrice: toQuantity(receipt.effectiveGasPrice),
    blobGasPrice: toQuantity(BLOB_BASE_FEE),
    type: toQuantity(transaction.type),
    blockTimestamp: toQuantity(block.timestamp),
    ...opStackReceiptFields(receipt),
  }
}

/** What an OP-stack receipt adds (op-geth `receipt.go`): a deposit's nonce and version; a user transaction's L1 fee fields, the operator fee's only when non-zero, Jovian's DA footprint. */
function opStackReceiptFields(receipt: TransactionReceipt): Record<string, unknown> {
  if (receipt.deposit !== undefined) return { depositNonce: toQuantity(receipt.deposit.nonce), depositReceiptVersion: toQuantity(receipt.deposit.receiptVersion) }
  const { l1 } = receipt
  if (l1 === undefined) return {}
  const fields: Record<string, unknown> = {
    l1GasPrice: toQuantity(l1.l1BaseFee),
    l1GasUsed: toQuantity(l1.l1GasUsed),
    l1Fee: toQuantity(l1.l1Fee),
    l1BaseFeeScalar: toQuantity(l1.baseFeeScalar),
    l1BlobBaseFee: toQuantity(l1.l1BlobBaseFee),
    l1BlobBaseFeeScalar: toQuantity(l1.blobBaseFeeScalar),
  }
  if (l1.operatorFeeScalar !== 0n || l1.operatorFeeConstant !== 0n) {
    fields.operatorFeeScalar = toQuantity(l1.operatorFeeScalar)
    fields.operatorFeeConstant = toQuantity(l1.operatorFeeConstant)
  }
  fields.daFootprintGasScalar = toQuantity(l1.daFootprintGasScalar)
  fields.blobGasUsed = toQuantity(l1.daFootprint)
  return fields
}

/**
 * A pre-confirmed transaction with its receipt fields, as Base's `newFlashblockTransactions`
 * subscription sends it with `true`: the transaction (block hash null), then `logs`,
 * `gasUsed`, `status`, `cumulativeGasUsed`, `contractAddress` and `logsBloom`.
 */
export function formatTransactionWithLogs(included: IncludedTransaction, block: BlockRef): Record<string, unknown> {
  const { receipt } = included
  return {
    ...formatIncluded(included, block),
    logs: formatLogs(included, block),
    gasUsed: toQuantity(receipt.gasUsed),
    status: toQuantity(receipt.status),
    cumulativeGasUsed: toQuantity(receipt.cumulativeGasUsed),
    contractAddress: receipt.contractAddress ?? null,
    logsBloom: toData(receipt.logsBloom),
  }
}
