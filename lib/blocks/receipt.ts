/**
 * Transaction receipts and their consensus encoding. A receipt does not hold its block hash:
 * the same object serves the pre-confirmed block (hash unknown) and the sealed one.
 */
import { RLP } from '@ethereumjs/rlp'
import { bigIntToUnpaddedBytes, concatBytes, hexToBytes } from '@ethereumjs/util'
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
}

/** The receipt of `transaction` as the receipts root commits to it: `type || rlp(...)` for typed transactions. */
export function encodeReceipt(transaction: Transaction, receipt: TransactionReceipt): Uint8Array {
  const { type } = transaction
  const payload = RLP.encode([
    receipt.status === 1 ? Uint8Array.of(1) : new Uint8Array(0),
    bigIntToUnpaddedBytes(receipt.cumulativeGasUsed),
    receipt.logsBloom,
    receipt.logs.map((log) => [hexToBytes(log.address), [...log.topics], log.data]),
  ])
  return type === 0 ? payload : concatBytes(Uint8Array.of(type), payload)
}
