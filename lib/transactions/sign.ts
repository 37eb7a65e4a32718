/**
 * Building and signing the transactions the devnet's wallet makes: signed by a dev account's
 * key (`eth_sendTransaction`, `eth_signTransaction`), unsigned (`eth_fillTransaction`), or with a
 * placeholder signature for an impersonated sender.
 */
import type { Common } from '@ethereumjs/common'
import { createAccessList2930Tx, createEOACode7702Tx, createFeeMarket1559Tx, createLegacyTx, type TypedTransaction } from '@ethereumjs/tx'
import { hexToBytes } from '@ethereumjs/util'
import { TransactionRejectedError, TransactionRejection } from '../errors.ts'
import type { Address, Hex } from '../types.ts'
import { BLOB_TRANSACTIONS_UNSUPPORTED, type AccessList, type Authorization } from './transaction.ts'

/** The EIP-2718 types the wallet builds: legacy, access list, EIP-1559, EIP-7702. */
export type WalletTransactionType = 0 | 1 | 2 | 4

/** The fee and list fields of a request that decide its type. */
export interface TypedFields {
  readonly gasPrice?: bigint
  readonly maxFeePerGas?: bigint
  readonly maxPriorityFeePerGas?: bigint
  readonly accessList?: AccessList
  readonly authorizationList?: readonly Authorization[]
  readonly blobVersionedHashes?: readonly unknown[]
}

/**
 * The type a request becomes, as geth and viem infer it: 4 with an `authorizationList`, 2 with
 * EIP-1559 fees, 1 with `gasPrice` and an `accessList`, 0 with `gasPrice` alone, else 2. One
 * with blob hashes would be 3, which the devnet refuses as it refuses a signed one.
 */
export function inferredType(request: TypedFields): WalletTransactionType {
  if (request.blobVersionedHashes !== undefined) throw new TransactionRejectedError(TransactionRejection.typeNotSupported, BLOB_TRANSACTIONS_UNSUPPORTED)
  if (request.authorizationList !== undefined) return 4
  if (request.maxFeePerGas !== undefined || request.maxPriorityFeePerGas !== undefined) return 2
  if (request.gasPrice !== undefined) return request.accessList !== undefined ? 1 : 0
  return 2
}

/** A transaction to sign, every field decided. */
export interface TransactionToSign {
  readonly type: WalletTransactionType
  readonly nonce: bigint
  readonly to: Address | undefined
  readonly value: bigint
  readonly data: Uint8Array
  readonly gas: bigint
  /** The fee cap; the gas price of types 0 and 1. */
  readonly maxFeePerGas: bigint
  /** The tip cap (unused by types 0 and 1). */
  readonly maxPriorityFeePerGas: bigint
  /** Unused by type 0. */
  readonly accessList: AccessList
  /** Type 4 only. */
  readonly authorizationList: readonly Authorization[]
}

type Signature = { v: bigint; r: bigint; s: bigint }

function build(fields: TransactionToSign, common: Common, signature?: Signature): TypedTransaction {
  const shared = { nonce: fields.nonce, to: fields.to, value: fields.value, data: fields.data, gasLimit: fields.gas, ...signature }
  if (fields.type === 0) return createLegacyTx({ ...shared, gasPrice: fields.maxFeePerGas }, { common })
  const accessList = fields.accessList.map((entry) => ({ address: entry.address, storageKeys: [...entry.storageKeys] }))
  const typed = { ...shared, chainId: common.chainId(), accessList }
  if (fields.type === 1) return createAccessList2930Tx({ ...typed, gasPrice: fields.maxFeePerGas }, { common })
  const fees = { maxFeePerGas: fields.maxFeePerGas, maxPriorityFeePerGas: fields.maxPriorityFeePerGas }
  if (fields.type === 2) return createFeeMarket1559Tx({ ...typed, ...fees }, { common })
  return createEOACode7702Tx({ ...typed, ...fees, authorizationList: [...fields.authorizationList] }, { common })
}

/**
 * The signed envelope of `fields`, signed by `privateKey` for `common`'s chain. Signatures are
 * RFC 6979 without extra entropy (ethereumjs adds random entropy by default), so the same
 * request gives the same transaction hash on every run.
 */
export function signTransaction(fields: TransactionToSign, privateKey: Hex, common: Common): TypedTransaction {
  return build(fields, common).sign(hexToBytes(privateKey), false)
}

/** `fields` without a signature (its envelope carries v = r = s = 0, as geth's `eth_fillTransaction`). */
export function unsignedTransaction(fields: TransactionToSign, common: Common): TypedTransaction {
  return build(fields, common)
}

/**
 * A transaction "from" an impersonated account, which has no key: it carries a placeholder
 * signature (r = the sender + 1, s = 1) that makes its hash unique to the sender, and the pool
 * takes the sender as given instead of recovering it (as Hardhat and Anvil do).
 */
export function impersonatedTransaction(fields: TransactionToSign, sender: Address, common: Common): TypedTransaction {
  const v = fields.type === 0 ? common.chainId() * 2n + 35n : 0n
  return build(fields, common, { v, r: BigInt(sender) + 1n, s: 1n })
}
