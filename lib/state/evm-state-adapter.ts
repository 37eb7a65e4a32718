/**
 * Presents a {@link StateLayer} to @ethereumjs/evm as its state manager. The EVM keeps one
 * adapter for its lifetime; each transaction or call points it at a fresh layer with
 * {@link EVMStateAdapter.attach}, and the layer's parent is the "original" state that
 * EIP-2200/3529 gas rules compare against. A key the layer does not hold yet (a forked chain's
 * first touch of an account) is loaded through the layer's state source, awaited here.
 */
import type { AccountFields, StateManagerInterface } from '@ethereumjs/common'
import { Account, KECCAK256_RLP, bigIntToBytes, bytesToBigInt, equalsBytes, KECCAK256_NULL } from '@ethereumjs/util'
import type { Address as EVMAddress } from '@ethereumjs/util'
import { addressKey } from './evm-address.ts'
import { EMPTY_CODE, withAccountCode, type AccountState } from './account.ts'
import type { StateLayer } from './state-layer.ts'
import { readAccount, readStorage } from './state-source.ts'
import { UNLOADED } from './state-view.ts'

const EMPTY_WORD = new Uint8Array(0)

/** Storage words as the EVM compares them: zero is empty, anything else its minimal bytes. */
function wordToBytes(value: bigint): Uint8Array {
  return value === 0n ? EMPTY_WORD : bigIntToBytes(value)
}

function toEVMAccount(account: AccountState): Account {
  return new Account(account.nonce, account.balance, KECCAK256_RLP, account.codeHash, account.code.length)
}

/** The EVM's view of one {@link StateLayer}; switch layers with {@link attach}. */
export class EVMStateAdapter implements StateManagerInterface {
  private layer!: StateLayer

  /** The state before the current transaction: what SSTORE gas compares against. */
  readonly originalStorageCache = {
    get: async (address: EVMAddress, key: Uint8Array): Promise<Uint8Array> => wordToBytes(await this.originalStorageWord(address, bytesToBigInt(key))),
    clear: (): void => {},
  }

  /** Points the EVM at `layer`; its parent is the transaction's original state. */
  attach(layer: StateLayer): void {
    this.layer = layer
  }

  async getAccount(address: EVMAddress): Promise<Account | undefined> {
    const account = await readAccount(this.layer, addressKey(address))
    return account === undefined ? undefined : toEVMAccount(account)
  }

  /** Whether an account exists at `address` and the layer holds it at hand (false for one still to load). */
  holdsAccount(address: EVMAddress): boolean {
    const account = this.layer.getAccount(addressKey(address))
    return account !== undefined && account !== UNLOADED
  }

  async putAccount(address: EVMAddress, account?: Account): Promise<void> {
    const key = addressKey(address)
    if (account === undefined) {
      this.layer.putAccount(key, undefined)
      return
    }
    const current = await readAccount(this.layer, key)
    const keepsCode = current !== undefined && equalsBytes(current.codeHash, account.codeHash)
    this.layer.putAccount(key, {
      nonce: account.nonce,
      balance: account.balance,
      code: keepsCode ? current.code : EMPTY_CODE,
      codeHash: keepsCode ? current.codeHash : KECCAK256_NULL,
    })
  }

  async deleteAccount(address: EVMAddress): Promise<void> {
    this.layer.putAccount(addressKey(address), undefined)
  }

  async modifyAccountFields(address: EVMAddress, fields: AccountFields): Promise<void> {
    const account = (await this.getAccount(address)) ?? new Account()
    if (fields.nonce !== undefined) account.nonce = fields.nonce
    if (fields.balance !== undefined) account.balance = fields.balance
    await this.putAccount(address, account)
  }

  async putCode(address: EVMAddress, code: Uint8Array): Promise<void> {
    const key = addressKey(address)
    this.layer.putAccount(key, withAccountCode(await readAccount(this.layer, key), code))
  }

  async getCode(address: EVMAddress): Promise<Uint8Array> {
    return (await readAccount(this.layer, addressKey(address)))?.code ?? EMPTY_CODE
  }

  async getCodeSize(address: EVMAddress): Promise<number> {
    return (await readAccount(this.layer, addressKey(address)))?.code.length ?? 0
  }

  async getStorage(address: EVMAddress, key: Uint8Array): Promise<Uint8Array> {
    return wordToBytes(await this.storageWord(address, bytesToBigInt(key)))
  }

  /** The word at `slot` of `address`'s storage, as SLOAD reads it: no conversions, and at once when the layer holds it. */
  storageWord(address: EVMAddress, slot: bigint): bigint | Promise<bigint> {
    return readStorage(this.layer, addressKey(address), slot)
  }

  /** The word at `slot` before the current transaction, as SSTORE's gas compares against. */
  originalStorageWord(address: EVMAddress, slot: bigint): bigint | Promise<bigint> {
    return readStorage(this.layer.parent, addressKey(address), slot)
  }

  /** Writes the word at `slot`, as SSTORE does. */
  putStorageWord(address: EVMAddress, slot: bigint, value: bigint): void {
    this.layer.putStorage(addressKey(address), slot, value)
  }

  async putStorage(address: EVMAddress, key: Uint8Array, value: Uint8Array): Promise<void> {
    this.putStorageWord(address, bytesToBigInt(key), bytesToBigInt(value))
  }

  async clearStorage(address: EVMAddress): Promise<void> {
    this.layer.clearStorage(addressKey(address))
  }

  async checkpoint(): Promise<void> {
    this.layer.checkpoint()
  }

  async commit(): Promise<void> {
    this.layer.commit()
  }

  async revert(): Promise<void> {
    this.layer.revert()
  }

  /** State roots are computed when a block seals, never during execution. */
  async getStateRoot(): Promise<Uint8Array> {
    throw new Error('state roots are computed at seal time, not by the EVM adapter')
  }

  async setStateRoot(): Promise<void> {
    throw new Error('the EVM adapter cannot move to another state root')
  }

  async hasStateRoot(): Promise<boolean> {
    return false
  }

  /** The adapter holds no caches: every read goes to the attached layer. */
  clearCaches(): void {}

  shallowCopy(): StateManagerInterface {
    throw new Error('the EVM adapter is not copied; attach another layer instead')
  }
}
