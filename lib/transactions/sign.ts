/** Signing for `eth_sendTransaction`: the devnet holds the dev accounts' keys. */
import type { Common } from '@ethereumjs/common'
import { createFeeMarket1559Tx, createLegacyTx, type TypedTransaction } from '@ethereumjs/tx'
import { hexToBytes } from '@ethereumjs/util'
import type { Address, Hex } from '../types.ts'
import type { AccessList } from './transaction.ts'

/** A transaction to sign, every field decided. */
export interface TransactionToSign {
  readonly nonce: bigint
  readonly to: Address | undefined
  readonly value: bigint
  readonly data: Uint8Array
  readonly gas: bigint
  /** A legacy (EIP-155) transaction when set; EIP-1559 otherwise. */
  readonly gasPrice: bigint | undefined
  readonly maxFeePerGas: bigint
  readonly maxPriorityFeePerGas: bigint
  readonly accessList: AccessList
}

type Signature = { v: bigint; r: bigint; s: bigint }

function build(fields: TransactionToSign, common: Common, signature?: Signature): TypedTransaction {
  const shared = { nonce: fields.nonce, to: fields.to, value: fields.value, data: fields.data, gasLimit: fields.gas, ...signature }
  if (fields.gasPrice !== undefined) return createLegacyTx({ ...shared, gasPrice: fields.gasPrice }, { common })
  return createFeeMarket1559Tx(
    {
      ...shared,
      chainId: common.chainId(),
      maxFeePerGas: fields.maxFeePerGas,
      maxPriorityFeePerGas: fields.maxPriorityFeePerGas,
      accessList: fields.accessList.map((entry) => ({ address: entry.address, storageKeys: [...entry.storageKeys] })),
    },
    { common },
  )
}

/**
 * The signed envelope of `fields`, signed by `privateKey` for `common`'s chain. Signatures are
 * RFC 6979 without extra entropy (ethereumjs adds random entropy by default), so the same
 * request gives the same transaction hash on every run.
 */
export function signTransaction(fields: TransactionToSign, privateKey: Hex, common: Common): TypedTransaction {
  return build(fields, common).sign(hexToBytes(privateKey), false)
}

/**
 * A transaction "from" an impersonated account, which has no key: it carries a placeholder
 * signature (r = the sender + 1, s = 1) that makes its hash unique to the sender, and the pool
 * takes the sender as given instead of recovering it (as Hardhat and Anvil do).
 */
export function impersonatedTransaction(fields: TransactionToSign, sender: Address, common: Common): TypedTransaction {
  const v = fields.gasPrice !== undefined ? common.chainId() * 2n + 35n : 0n
  return build(fields, common, { v, r: BigInt(sender) + 1n, s: 1n })
}
