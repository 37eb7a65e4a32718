/**
 * The dev-account wallet: the chain holds the dev accounts' keys and signs transactions,
 * messages and typed data for them (`eth_sendTransaction`, `eth_signTransaction`,
 * `personal_sign`, `eth_signTypedData_v4`), builds unsigned transactions for impersonated
 * accounts (as Hardhat and Anvil) and leaves them unsigned for `eth_fillTransaction`.
 */
import type { Common } from '@ethereumjs/common'
import type { TypedTransaction } from '@ethereumjs/tx'
import { hexToBytes } from '@ethereumjs/util'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import type { DevAccount } from '../accounts/dev-accounts.ts'
import { InvalidParamsError, ResourceNotFoundError } from '../errors.ts'
import { createUncappedCommon } from '../execution/common.ts'
import { evmAddress } from '../state/evm-address.ts'
import { checkGasCap, hashTransaction, toUserTransaction } from '../transactions/decode.ts'
import { impersonatedTransaction, signTransaction, unsignedTransaction, type TransactionToSign } from '../transactions/sign.ts'
import type { UserTransaction } from '../transactions/transaction.ts'
import type { Address } from '../types.ts'

/** geth's text for a sender whose key the node does not hold. */
const UNKNOWN_ACCOUNT = 'unknown account'

/** Signs for the dev accounts and for impersonated addresses. */
export class Wallet {
  private readonly keys: ReadonlyMap<Address, DevAccount>
  /** Addresses `eth_sendTransaction` accepts without a key. */
  private readonly impersonated = new Set<Address>()
  /** `anvil_autoImpersonateAccount`: every address is accepted without a key. */
  private autoImpersonating = false
  /** The Common transactions that are only signed, not submitted, are built with (made on first use). */
  private uncapped: Common | undefined

  constructor(
    accounts: readonly DevAccount[],
    private readonly common: Common,
  ) {
    this.keys = new Map(accounts.map((account) => [account.address.toLowerCase() as Address, account]))
  }

  /** The first dev account, which Anvil sends from when a request names no `from`; undefined without dev accounts. */
  get firstAccount(): Address | undefined {
    return this.keys.keys().next().value
  }

  /** Lets `eth_sendTransaction` send from `address` without its key (until stopped). */
  impersonate(address: Address): void {
    this.impersonated.add(address)
  }

  /** Ends {@link impersonate} for `address`. */
  stopImpersonating(address: Address): void {
    this.impersonated.delete(address)
  }

  /** While `enabled`, `eth_sendTransaction` sends from any address without its key (`anvil_autoImpersonateAccount`). */
  autoImpersonate(enabled: boolean): void {
    this.autoImpersonating = enabled
  }

  /** Throws -32000 `unknown account` unless the wallet can send from `address`. */
  checkSender(address: Address): void {
    if (!this.keys.has(address) && !this.autoImpersonating && !this.impersonated.has(address)) throw new ResourceNotFoundError(UNKNOWN_ACCOUNT)
  }

  /** Throws -32000 `unknown account` unless the wallet holds the key of `address`. */
  checkKey(address: Address): void {
    this.key(address)
  }

  /** The transaction `fields` from `sender`: signed with its key, or unsigned for an impersonated sender. */
  sign(sender: Address, fields: TransactionToSign): UserTransaction {
    this.checkSender(sender)
    const account = this.keys.get(sender)
    if (account === undefined) return this.impersonatedFrom(sender, fields)
    checkGasCap(fields.gas, this.common)
    return this.complete(() => signTransaction(fields, account.privateKey, this.common), sender, 'signed')
  }

  /**
   * `fields` signed with the key of `sender` (`eth_signTransaction`); -32000 `unknown account`
   * without one. Only signed, it may carry more gas than Osaka's pool takes, as in geth.
   */
  signWithKey(sender: Address, fields: TransactionToSign): UserTransaction {
    const { privateKey } = this.key(sender)
    return this.complete(() => signTransaction(fields, privateKey, this.uncappedCommon()), sender, 'signed')
  }

  /**
   * `fields` from `sender` with no key and no impersonation needed (`eth_sendUnsignedTransaction`,
   * as Anvil). Like {@link sign}, it submits: over Osaka's gas cap is geth's pool error.
   */
  impersonatedFrom(sender: Address, fields: TransactionToSign): UserTransaction {
    checkGasCap(fields.gas, this.common)
    return this.complete(() => impersonatedTransaction(fields, sender, this.common), sender, 'impersonated')
  }

  /** `fields` unsigned (v = r = s = 0; the hash is that of the unsigned envelope), as `eth_fillTransaction` returns it. */
  unsigned(sender: Address, fields: TransactionToSign): UserTransaction {
    return { ...this.complete(() => unsignedTransaction(fields, this.uncappedCommon()), sender, 'impersonated'), v: 0n, r: 0n, s: 0n }
  }

  /** The Common of transactions built but not submitted: without Osaka's cap on their gas. */
  private uncappedCommon(): Common {
    this.uncapped ??= createUncappedCommon(this.common)
    return this.uncapped
  }

  /**
   * The 65-byte signature r ‖ s ‖ v (v = 27 + y-parity) of the 32-byte `digest` by the key of
   * `address` (`personal_sign`, `eth_sign`, `eth_signTypedData_v4`): RFC 6979, low s, so the
   * same digest always gives the same signature, byte for byte what viem's and ethers' local
   * accounts produce. -32000 `unknown account` without the key.
   */
  signDigest(address: Address, digest: Uint8Array): Uint8Array {
    const privateKey = hexToBytes(this.key(address).privateKey)
    const sign = this.common.customCrypto.ecsign ?? secp256k1.sign
    // The 'recovered' format: recovery id, then r and s.
    const recovered = sign(digest, privateKey, { extraEntropy: false, format: 'recovered', prehash: false })
    const signature = new Uint8Array(65)
    signature.set(recovered.subarray(1, 65))
    signature[64] = 27 + recovered[0]
    return signature
  }

  /** The impersonation state as it is now, and how to restore it (world snapshots). */
  capture(): () => void {
    const impersonated = [...this.impersonated]
    const autoImpersonating = this.autoImpersonating
    return () => {
      this.impersonated.clear()
      for (const address of impersonated) this.impersonated.add(address)
      this.autoImpersonating = autoImpersonating
    }
  }

  private key(address: Address): DevAccount {
    const account = this.keys.get(address)
    if (account === undefined) throw new ResourceNotFoundError(UNKNOWN_ACCOUNT)
    return account
  }

  /** The engine's form of the transaction `build` makes; the sender is known (we signed, or it is taken as given). */
  private complete(build: () => TypedTransaction, sender: Address, kind: UserTransaction['kind']): UserTransaction {
    let tx
    try {
      tx = build()
    } catch (error) {
      // ethereumjs refuses out-of-range fields (nonce ≥ 2^64 - 1, gas × fee cap ≥ 2^256, …).
      throw new InvalidParamsError(`invalid argument 0 (transaction): ${(error as Error).message.replace(/ \(tx type=.*$/, '')}`)
    }
    const raw = tx.serialize()
    return toUserTransaction(tx, raw, hashTransaction(raw), evmAddress(sender), kind)
  }
}
