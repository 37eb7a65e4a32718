/**
 * Transactions as the engine holds them: one discriminated union on `kind`, decoded once, with
 * everything admission, ordering, execution and formatting need. The pool holds user
 * transactions (signed, or sent for an impersonated account); the builder also takes
 * transactions no key signed from its other sources. Add a kind here, then handle it where the
 * compiler asks: the builder's sources, execution, receipts and the JSON formats switch on it.
 */
import type { EOACode7702AuthorizationListBytesItem, Address as EVMAddress } from '@ethereumjs/util'
import type { Address, Hash, Hex } from '../types.ts'

/** Why a blob transaction (type 3), signed or requested, is refused (`transaction type not supported: …`). */
export const BLOB_TRANSACTIONS_UNSUPPORTED = 'blob transactions (type 3) are not supported by preconf-devnet'

/** An EIP-2930 access list: addresses and their storage keys, as 0x-prefixed hex. */
export type AccessList = ReadonlyArray<{ readonly address: Address; readonly storageKeys: readonly Hex[] }>

/** An EIP-7702 authorization tuple as signed: [chainId, address, nonce, yParity, r, s]. */
export type Authorization = EOACode7702AuthorizationListBytesItem

/** The fields every kind of transaction has. */
interface TransactionFields {
  /** keccak256 of the raw bytes. */
  readonly hash: Hash
  /** The EIP-2718 envelope: what the transactions root commits to. */
  readonly raw: Uint8Array
  /** EIP-2718 type: 0 legacy, 1 access list, 2 EIP-1559, 4 EIP-7702, 0x7e an OP-stack deposit. */
  readonly type: number
  readonly sender: Address
  /** The sender as the EVM wants it. */
  readonly senderAddress: EVMAddress
  /** Recipient; undefined deploys a contract. */
  readonly to: Address | undefined
  readonly value: bigint
  readonly data: Uint8Array
  readonly gasLimit: bigint
  /** Gas charged before any code runs (base, calldata, access list, authorizations, creation). */
  readonly intrinsicGas: bigint
  /** EIP-7623: the least gas a transaction with this calldata pays. */
  readonly floorDataGas: bigint
}

/** A transaction a user sent: signed by its key, or sent for an impersonated account. */
export interface UserTransaction extends TransactionFields {
  /** `impersonated`: no real signature, the sender taken as given (it may be a contract, as in Anvil). */
  readonly kind: 'signed' | 'impersonated'
  readonly nonce: bigint
  /** The fee cap (the gas price of legacy and access-list transactions). */
  readonly maxFeePerGas: bigint
  /** The tip cap (the gas price of legacy and access-list transactions). */
  readonly maxPriorityFeePerGas: bigint
  /** What the sender must hold: gasLimit × fee cap + value (geth's tx.Cost()). */
  readonly cost: bigint
  /** The chain id the signature commits to (undefined for a pre-EIP-155 legacy transaction). */
  readonly chainId: bigint | undefined
  readonly accessList: AccessList
  /** EIP-7702 authorizations (type 4 only; empty otherwise). */
  readonly authorizationList: readonly Authorization[]
  readonly v: bigint
  readonly r: bigint
  readonly s: bigint
}

/**
 * An OP-stack deposit (type 0x7e): sent from L1 (a user deposit, minting ether to its sender),
 * or the L1-attributes transaction each block opens with. No signature, nonce or fee; its gas
 * was bought on L1.
 */
export interface DepositTransaction extends TransactionFields {
  readonly kind: 'deposit'
  /** Identifies the deposit's origin on L1 (OP specs `deposits.md`). */
  readonly sourceHash: Uint8Array
  /** Ether credited to the sender before it runs, kept even if it fails. */
  readonly mint: bigint
  /** Pre-Regolith system transactions; always false on a chain of today. */
  readonly isSystemTx: boolean
}

/** Any transaction a block can hold. */
export type Transaction = UserTransaction | DepositTransaction

/** The tip per gas a user transaction pays at `baseFee`, or a negative number if it cannot pay it. */
export function effectiveTip(transaction: UserTransaction, baseFee: bigint): bigint {
  const headroom = transaction.maxFeePerGas - baseFee
  return headroom < transaction.maxPriorityFeePerGas ? headroom : transaction.maxPriorityFeePerGas
}
