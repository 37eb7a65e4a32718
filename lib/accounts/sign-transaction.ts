/** Signing for `eth_sendTransaction`: the devnet holds the dev accounts' keys. */
import type { Common } from '@ethereumjs/common'
import { createFeeMarket1559Tx, createLegacyTx } from '@ethereumjs/tx'
import { hexToBytes } from '@ethereumjs/util'
import type { Address, Hex } from '../types.ts'

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
  readonly accessList: ReadonlyArray<{ readonly address: Address; readonly storageKeys: readonly Hex[] }>
}

/** The signed envelope of `fields`, signed by `privateKey` for `common`'s chain. */
export function signTransaction(fields: TransactionToSign, privateKey: Hex, common: Common): Uint8Array {
  const shared = { nonce: fields.nonce, to: fields.to, value: fields.value, data: fields.data, gasLimit: fields.gas }
  const key = hexToBytes(privateKey)
  if (fields.gasPrice !== undefined) return createLegacyTx({ ...shared, gasPrice: fields.gasPrice }, { common }).sign(key).serialize()
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
    .sign(key)
    .serialize()
}
