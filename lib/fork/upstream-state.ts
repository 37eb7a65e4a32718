/**
 * The state source of a forked chain: the upstream's state at the fork block, fetched one key
 * at a time on first read (an account as its balance, nonce and code, sent together so they
 * travel in one batch; a storage word alone), kept for good, and recorded to the disk cache.
 * Concurrent first reads of one key share one fetch; a failed fetch keeps nothing, so the next
 * read tries again (its error, a `StateLoadError`, can fetch that key again). Dev accounts read
 * with their funded balance on top (as Anvil funds them).
 */
import { UpstreamError } from '../errors.ts'
import { StateLoadError } from '../state/state-source.ts'
import { withAccountCode, withAccountFields, type AccountState } from '../state/account.ts'
import { UNLOADED, type StateSource, type Unloaded } from '../state/state-view.ts'
import type { Address } from '../types.ts'
import type { FetchedState, FetchRecorder } from './fork-cache.ts'
import type { Upstream } from './upstream.ts'
import { dataFrom, quantityFrom } from './upstream-values.ts'

/** How the source reaches the upstream (the client may be replaced, `anvil_setRpcUrl`). */
export interface UpstreamAccess {
  readonly upstream: () => Upstream
}

/** The upstream's state at one block, loaded lazily. */
export class UpstreamState implements StateSource {
  private readonly accounts: Map<Address, AccountState | null>
  private readonly storageWords: Map<Address, Map<bigint, bigint>>
  private readonly loadingAccounts = new Map<Address, Promise<void>>()
  private readonly loadingWords = new Map<string, Promise<void>>()
  private readonly tag: string

  constructor(
    private readonly access: UpstreamAccess,
    /** The block the state is read at. */
    readonly blockNumber: bigint,
    /** Balances that replace the upstream's (the dev accounts). */
    private readonly funded: ReadonlyMap<Address, bigint>,
    fetched: FetchedState,
    private readonly recorder: FetchRecorder | undefined,
  ) {
    this.tag = `0x${blockNumber.toString(16)}`
    this.accounts = fetched.accounts
    this.storageWords = fetched.storage
    for (const [address, balance] of funded) {
      const account = this.accounts.get(address)
      if (account !== undefined) this.accounts.set(address, withAccountFields(account ?? undefined, { balance }))
    }
  }

  /** Every account held, with its storage words (what a state dump takes of the upstream's state). */
  *held(): Iterable<[Address, AccountState | undefined, ReadonlyMap<bigint, bigint> | undefined]> {
    const seen = new Set<Address>()
    for (const [address, account] of this.accounts) {
      seen.add(address)
      yield [address, account ?? undefined, this.storageWords.get(address)]
    }
    for (const [address, words] of this.storageWords) if (!seen.has(address)) yield [address, undefined, words]
  }

  account(address: Address): AccountState | undefined | Unloaded {
    const account = this.accounts.get(address)
    return account === undefined ? UNLOADED : (account ?? undefined)
  }

  storage(address: Address, slot: bigint): bigint | Unloaded {
    return this.storageWords.get(address)?.get(slot) ?? UNLOADED
  }

  loadAccount(address: Address): Promise<void> {
    if (this.accounts.has(address)) return Promise.resolve()
    let loading = this.loadingAccounts.get(address)
    if (loading === undefined) {
      loading = this.fetchAccount(address)
        .catch(this.failedLoad(() => this.accounts.has(address), () => this.loadAccount(address)))
        .finally(() => this.loadingAccounts.delete(address))
      this.loadingAccounts.set(address, loading)
    }
    return loading
  }

  loadStorage(address: Address, slot: bigint): Promise<void> {
    if (this.storageWords.get(address)?.has(slot) === true) return Promise.resolve()
    const key = `${address}:${slot}`
    let loading = this.loadingWords.get(key)
    if (loading === undefined) {
      loading = this.fetchWord(address, slot)
        .catch(this.failedLoad(() => this.storageWords.get(address)?.has(slot) === true, () => this.loadStorage(address, slot)))
        .finally(() => this.loadingWords.delete(key))
      this.loadingWords.set(key, loading)
    }
    return loading
  }

  /** A failed load's upstream error, as the {@link StateLoadError} of its key. */
  private failedLoad(loaded: () => boolean, loadAgain: () => Promise<void>): (error: unknown) => never {
    return (error) => {
      throw error instanceof UpstreamError ? new StateLoadError(error, loaded, loadAgain) : error
    }
  }

  private async fetchAccount(address: Address): Promise<void> {
    const upstream = this.access.upstream()
    const origin = (method: string) => ({ upstream: upstream.shownUrl, method })
    const [balance, nonce, code] = await Promise.all([
      this.call(upstream, 'eth_getBalance', address),
      this.call(upstream, 'eth_getTransactionCount', address),
      this.call(upstream, 'eth_getCode', address),
    ])
    const fields = { balance: quantityFrom(balance, origin('eth_getBalance')), nonce: quantityFrom(nonce, origin('eth_getTransactionCount')) }
    const bytes = dataFrom(code, origin('eth_getCode'))
    const exists = fields.balance !== 0n || fields.nonce !== 0n || bytes.length > 0
    const account = exists ? withAccountCode(withAccountFields(undefined, fields), bytes) : null
    this.recorder?.account(address, account)
    const funded = this.funded.get(address)
    this.accounts.set(address, funded === undefined ? account : withAccountFields(account ?? undefined, { balance: funded }))
  }

  private async fetchWord(address: Address, slot: bigint): Promise<void> {
    const upstream = this.access.upstream()
    const word = await this.call(upstream, 'eth_getStorageAt', address, `0x${slot.toString(16)}`)
    const value = quantityFrom(word, { upstream: upstream.shownUrl, method: 'eth_getStorageAt' })
    this.recorder?.storage(address, slot, value)
    let words = this.storageWords.get(address)
    if (words === undefined) this.storageWords.set(address, (words = new Map()))
    words.set(slot, value)
  }

  /** One call at the fork block; any failure is an {@link UpstreamError} naming the upstream and the call. */
  private async call(upstream: Upstream, method: string, ...params: string[]): Promise<unknown> {
    try {
      return await upstream.request(method, [...params, this.tag])
    } catch (error) {
      if (error instanceof UpstreamError) throw error
      const { code, message } = error as { code?: number; message?: string }
      throw new UpstreamError(`upstream ${upstream.shownUrl} failed on ${method}(${params.join(', ')}, ${this.tag}): ${code ?? ''} ${message ?? String(error)}`.replace(':  ', ': '))
    }
  }
}
