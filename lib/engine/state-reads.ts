/**
 * Account and storage reads at a block: balance, nonce, code and storage words. Each answers at
 * once from state the chain holds, and waits only for a key a lazily loaded source must fetch.
 */
import type { FaultSwitches } from '../faults/fault-options.ts'
import type { AccountState } from '../state/account.ts'
import { EMPTY_CODE } from '../state/account.ts'
import { loadAccount, readAccount, readStorage } from '../state/state-source.ts'
import { UNLOADED } from '../state/state-view.ts'
import type { TxPool } from '../txpool/txpool.ts'
import type { Address } from '../types.ts'
import { TAG, type BlockResolver, type BlockSelector } from './block-resolver.ts'

/** A value now, or once its state has loaded. */
export type Eventually<T> = T | Promise<T>

function then<A, B>(value: Eventually<A>, map: (value: A) => B): Eventually<B> {
  return value instanceof Promise ? value.then(map) : map(value)
}

const balanceOf = (account: AccountState | undefined): bigint => account?.balance ?? 0n
const nonceOf = (account: AccountState | undefined): bigint => account?.nonce ?? 0n
const codeOf = (account: AccountState | undefined): Uint8Array => account?.code ?? EMPTY_CODE

/** State reads at any block. */
export class StateReads {
  constructor(
    private readonly blocks: BlockResolver,
    private readonly pool: TxPool,
    /** The fault switches in force (a flashblocks endpoint's): the pending nonce and where pending code and storage read. */
    private readonly faults?: FaultSwitches,
  ) {}

  /** The account at `address` (undefined if it does not exist). */
  account(address: Address, block: BlockSelector): Eventually<AccountState | undefined> {
    return readAccount(this.blocks.stateAt(block), address)
  }

  /** The balance of `address` in wei. */
  balance(address: Address, block: BlockSelector): Eventually<bigint> {
    const account = this.blocks.stateAt(block).getAccount(address)
    return account === UNLOADED ? this.loaded(address, block, balanceOf) : balanceOf(account)
  }

  /** The runtime code of `address` (empty for none). */
  code(address: Address, block: BlockSelector): Eventually<Uint8Array> {
    block = this.codeAndStorageAt(block)
    const account = this.blocks.stateAt(block).getAccount(address)
    return account === UNLOADED ? this.loaded(address, block, codeOf) : codeOf(account)
  }

  /** The storage word at `slot` of `address`. */
  storage(address: Address, slot: bigint, block: BlockSelector): Eventually<bigint> {
    return readStorage(this.blocks.stateAt(this.codeAndStorageAt(block)), address, slot)
  }

  /** Where code and storage at `block` are read: `latest` for `pending` where Base's node does so. */
  private codeAndStorageAt(block: BlockSelector): BlockSelector {
    return this.faults?.pendingCodeAndStorage === 'latest' && 'tag' in block && block.tag === 'pending' ? TAG.latest : block
  }

  /**
   * The nonce of `address`. At `pending` it also counts the sender's mempool transactions
   * without a gap, as geth's pending nonce does (so wallets can send back to back), unless the
   * pending nonce counts pre-confirmed transactions only, as Base's node does.
   */
  nonce(address: Address, block: BlockSelector): Eventually<bigint> {
    if (!('tag' in block && block.tag === 'pending') || this.faults?.pendingNonce === 'preconfirmed') {
      const account = this.blocks.stateAt(block).getAccount(address)
      return account === UNLOADED ? this.loaded(address, block, nonceOf) : nonceOf(account)
    }
    // Whatever `pending` means to this reader, the pending nonce counts every transaction the
    // node has taken: the pre-confirmed ones and the sender's gapless run in the mempool.
    return this.poolNonce(address)
  }

  /**
   * The next nonce of `address` as the node counts it, whatever `eth_getTransactionCount`
   * reports: pre-confirmed transactions and the sender's gapless run in the mempool (geth's pool
   * nonce, which it fills into `eth_sendTransaction`, so the node's own signer sends back to back).
   */
  poolNonce(address: Address): Eventually<bigint> {
    return then(readAccount(this.blocks.pending.state, address), (account) => this.pool.pendingNonce(address, nonceOf(account)))
  }

  /** One field of the account at `address`, once it has loaded from the state source. */
  private async loaded<T>(address: Address, block: BlockSelector, pick: (account: AccountState | undefined) => T): Promise<T> {
    return pick(await loadAccount(this.blocks.stateAt(block), address))
  }
}
