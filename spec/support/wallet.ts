/**
 * Signing helpers for specs: dev-account keys sign with viem, so every transaction a spec
 * sends is a real signed envelope, as a wallet would produce it.
 */
import { privateKeyToAccount } from 'viem/accounts'
import type { TransactionSerializable } from 'viem'
import type { Chain } from '../../lib/index.ts'
import type { Address, Hex } from '../../lib/types.ts'

/** 1 gwei. */
export const GWEI = 1_000_000_000n

/** A dev account that signs. */
export function signer(chain: Chain, index: number) {
  const account = privateKeyToAccount(chain.accounts[index].privateKey)
  return {
    address: account.address as Address,
    /** Signs an EIP-1559 transaction (defaults: nonce 0, 21000 gas, fee cap 10 gwei, tip 1 gwei). */
    sign(fields: Partial<Extract<TransactionSerializable, { type?: 'eip1559' }>> & { to?: Address | null } = {}): Promise<Hex> {
      return account.signTransaction({
        type: 'eip1559',
        chainId: chain.options.chainId,
        nonce: 0,
        gas: 21000n,
        maxFeePerGas: 10n * GWEI,
        maxPriorityFeePerGas: GWEI,
        ...fields,
      } as TransactionSerializable)
    },
    /** Signs any transaction type (chain id filled in unless given). */
    signAny(fields: TransactionSerializable): Promise<Hex> {
      return account.signTransaction({ chainId: chain.options.chainId, ...fields } as TransactionSerializable)
    },
  }
}
