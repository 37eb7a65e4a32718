/**
 * The dev-account wallet: the chain holds the dev accounts' keys and signs `eth_sendTransaction`
 * for them, and builds unsigned transactions for impersonated accounts (as Hardhat and Anvil).
 */
import type { Common } from '@ethereumjs/common'
import { createAddressFromString } from '@ethereumjs/util'
import type { DevAccount } from '../accounts/dev-accounts.ts'
import { InvalidParamsError, ResourceNotFoundError } from '../errors.ts'
import { hashTransaction, toUserTransaction } from '../transactions/decode.ts'
import { impersonatedTransaction, signTransaction, type TransactionToSign } from '../transactions/sign.ts'
import type { UserTransaction } from '../transactions/transaction.ts'
import type { Address } from '../types.ts'

/** Signs for the dev accounts and for impersonated addresses. */
export class Wallet {
  private readonly keys: ReadonlyMap<Address, DevAccount>
  /** Addresses `eth_sendTransaction` accepts without a key. */
  private readonly impersonated = new Set<Address>()

  constructor(
    accounts: readonly DevAccount[],
    private readonly common: Common,
  ) {
    this.keys = new Map(accounts.map((account) => [account.address.toLowerCase() as Address, account]))
  }

  /** Lets `eth_sendTransaction` send from `address` without its key (until stopped). */
  impersonate(address: Address): void {
    this.impersonated.add(address)
  }

  /** Ends {@link impersonate} for `address`. */
  stopImpersonating(address: Address): void {
    this.impersonated.delete(address)
  }

  /** Throws -32000 `unknown account` unless the wallet can send from `address`. */
  checkSender(address: Address): void {
    if (!this.keys.has(address) && !this.impersonated.has(address)) throw new ResourceNotFoundError('unknown account')
  }

  /** The transaction `fields` from `sender`: signed with its key, or unsigned for an impersonated sender. */
  sign(sender: Address, fields: TransactionToSign): UserTransaction {
    this.checkSender(sender)
    const account = this.keys.get(sender)
    let tx
    try {
      tx = account !== undefined ? signTransaction(fields, account.privateKey, this.common) : impersonatedTransaction(fields, sender, this.common)
    } catch (error) {
      // ethereumjs refuses out-of-range fields (nonce ≥ 2^64 - 1, gas × fee cap ≥ 2^256, …).
      throw new InvalidParamsError(`invalid argument 0 (transaction): ${(error as Error).message.replace(/ \(tx type=.*$/, '')}`)
    }
    const raw = tx.serialize()
    // The sender is known (we signed, or it is impersonated): no recovery needed.
    return toUserTransaction(tx, raw, hashTransaction(raw), createAddressFromString(sender), account === undefined ? 'impersonated' : 'signed')
  }

  /** The impersonated set as it is now, and how to restore it (world snapshots). */
  capture(): () => void {
    const impersonated = [...this.impersonated]
    return () => {
      this.impersonated.clear()
      for (const address of impersonated) this.impersonated.add(address)
    }
  }
}
