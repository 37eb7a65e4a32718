/** Sealed blocks and the transactions they (or the pre-confirmed block) hold. */
import type { Transaction } from '../transactions/transaction.ts'
import type { Hash } from '../types.ts'
import type { BlockHeader } from './header.ts'
import type { TransactionReceipt } from './receipt.ts'

/** A transaction executed in a block, pre-confirmed or sealed: the receipt is the same object in both. */
export interface IncludedTransaction {
  readonly transaction: Transaction
  readonly receipt: TransactionReceipt
  /** Position in the block. */
  readonly index: number
}

/** A block of the canonical chain. */
export interface SealedBlock {
  readonly header: BlockHeader
  readonly hash: Hash
  readonly transactions: readonly IncludedTransaction[]
  /** Length of the block's RLP encoding in bytes. */
  readonly size: number
}
