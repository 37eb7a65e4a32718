/** A decoded, sender-recovered transaction, as the pool, the builder and the RPC layer share it. */
import type { TypedTransaction } from '@ethereumjs/tx'
import type { Address as EVMAddress } from '@ethereumjs/util'
import type { Address, Hash } from '../types.ts'

/** A signed transaction with everything admission and ordering need, computed once. */
export interface PooledTransaction {
  /** keccak256 of the raw bytes. */
  readonly hash: Hash
  /** The signed transaction as received (the EIP-2718 envelope). */
  readonly raw: Uint8Array
  /** The ethereumjs object the EVM runs. */
  readonly tx: TypedTransaction
  /** EIP-2718 type: 0 legacy, 1 access list, 2 EIP-1559, 4 EIP-7702. */
  readonly type: number
  readonly sender: Address
  /** The sender as the EVM wants it. */
  readonly senderAddress: EVMAddress
  readonly nonce: bigint
  readonly gasLimit: bigint
  /** The fee cap (the gas price of legacy and access-list transactions). */
  readonly maxFeePerGas: bigint
  /** The tip cap (the gas price of legacy and access-list transactions). */
  readonly maxPriorityFeePerGas: bigint
  /** Recipient; undefined deploys a contract. */
  readonly to: Address | undefined
  readonly value: bigint
  /** Gas charged before any code runs (base, calldata, access list, authorizations, creation). */
  readonly intrinsicGas: bigint
  /** EIP-7623: the least gas a transaction with this calldata pays. */
  readonly floorDataGas: bigint
  /** What the sender must hold: gasLimit × fee cap + value (geth's tx.Cost()). */
  readonly cost: bigint
  /** Sent for an impersonated account (no real signature; may come from a contract, as in Anvil). */
  readonly impersonated: boolean
}

/** The tip per gas a transaction pays at `baseFee`, or a negative number if it cannot pay it. */
export function effectiveTip(transaction: PooledTransaction, baseFee: bigint): bigint {
  const headroom = transaction.maxFeePerGas - baseFee
  return headroom < transaction.maxPriorityFeePerGas ? headroom : transaction.maxPriorityFeePerGas
}
