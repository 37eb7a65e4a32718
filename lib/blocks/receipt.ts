/**
 * Transaction receipts and their consensus encoding. A receipt does not hold its block hash:
 * the same object serves the pre-confirmed block (hash unknown) and the sealed one.
 */
import { hexBytes, unpaddedBytes } from '../bytes.ts'
import { rlpBytes, rlpList, rlpStringList } from '../trie/trie-encoding.ts'
import type { Transaction } from '../transactions/transaction.ts'
import type { Address } from '../types.ts'

/** An event log. */
export interface Log {
  readonly address: Address
  readonly topics: readonly Uint8Array[]
  readonly data: Uint8Array
}

/** The outcome of one executed transaction. */
export interface TransactionReceipt {
  /** 1 success, 0 reverted or failed. */
  readonly status: 0 | 1
  /** Gas charged to this transaction (after refunds and the EIP-7623 floor). */
  readonly gasUsed: bigint
  /** Gas used by the block up to and including this transaction. */
  readonly cumulativeGasUsed: bigint
  /** The price per gas actually paid (base fee + effective tip). */
  readonly effectiveGasPrice: bigint
  readonly logs: readonly Log[]
  readonly logsBloom: Uint8Array
  /** The address a creation transaction deployed to (or would have: geth reports it either way). */
  readonly contractAddress: Address | undefined
  /** Position of this receipt's first log in the block's log list. */
  readonly firstLogIndex: number
  /** A deposit's: the sender's nonce before it ran, and the receipt version (1 since Canyon). */
  readonly deposit?: DepositReceiptFields
  /** An OP-stack chain's L1 data fee (and operator fee) of a user transaction. */
  readonly l1?: L1FeeReceiptFields
}

/** What a deposit's receipt adds (OP specs `deposits.md`; both are in its consensus encoding). */
export interface DepositReceiptFields {
  readonly nonce: bigint
  readonly receiptVersion: bigint
}

/** What an OP-stack user transaction's receipt adds (op-geth `receipt.go`): its L1 data fee and the L1 values it was computed from. */
export interface L1FeeReceiptFields {
  /** The L1 base fee (`l1GasPrice`). */
  readonly l1BaseFee: bigint
  readonly l1GasUsed: bigint
  readonly l1Fee: bigint
  readonly baseFeeScalar: bigint
  readonly l1BlobBaseFee: bigint
  readonly blobBaseFeeScalar: bigint
  /** The operator fee parameters, reported only when either is non-zero. */
  readonly operatorFeeScalar: bigint
  readonly operatorFeeConstant: bigint
  /** Jovian: the transaction's DA footprint (its `blobGasUsed`) and the scalar it came from. */
  readonly daFootprintGasScalar: bigint
  readonly daFootprint: bigint
}

/** Each receipt's encoding: a receipt never changes, and the pending block's preview commits to it at every tick. */
const encodedReceipts = new WeakMap<TransactionReceipt, Uint8Array>()

/** The receipt of `transaction` as the receipts root commits to it: `type || rlp(...)` for typed transactions. */
export function encodeReceipt(transaction: Transaction, receipt: TransactionReceipt): Uint8Array {
  let encoded = encodedReceipts.get(receipt)
  if (encoded === undefined) {
    encoded = encodeReceiptOnce(transaction, receipt)
    encodedReceipts.set(receipt, encoded)
  }
  return encoded
}

/** The status field as RLP: 1, or the empty string for 0. */
const SUCCESS = Uint8Array.of(0x01)
const FAILURE = Uint8Array.of(0x80)
/** No logs: the empty list. */
const NO_LOGS = Uint8Array.of(0xc0)
/** Each bloom's RLP (receipts without logs share one empty bloom, so this is mostly one entry). */
const bloomItems = new WeakMap<Uint8Array, Uint8Array>()

/** A receipt's consensus encoding, written into one buffer with the trie's RLP writer (a generic encoder allocated per field and level). */
function encodeReceiptOnce(transaction: Transaction, receipt: TransactionReceipt): Uint8Array {
  const { logsBloom } = receipt
  let bloom = bloomItems.get(logsBloom)
  if (bloom === undefined) {
    bloom = rlpBytes(logsBloom)
    bloomItems.set(logsBloom, bloom)
  }
  const logs = receipt.logs.length === 0 ? NO_LOGS : rlpList(receipt.logs.map((log) => rlpList([rlpBytes(hexBytes(log.address)), rlpStringList(log.topics), rlpBytes(log.data)])))
  const fields = [receipt.status === 1 ? SUCCESS : FAILURE, rlpBytes(unpaddedBytes(receipt.cumulativeGasUsed)), bloom, logs]
  // A deposit's receipt commits to its nonce and version too (Regolith, Canyon).
  if (receipt.deposit !== undefined) fields.push(rlpBytes(unpaddedBytes(receipt.deposit.nonce)), rlpBytes(unpaddedBytes(receipt.deposit.receiptVersion)))
  return rlpList(fields, transaction.type === 0 ? undefined : transaction.type)
}
