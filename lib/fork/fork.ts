/**
 * A fork of a live chain: the upstream client, the fork block (fetched with the upstream's chain
 * id in one round trip at start), the upstream's state at that block as the chain's state source
 * (kept in the disk cache between runs), and the reads of earlier blocks, which go to the
 * upstream as they were sent.
 */
import { hexToBytes } from '@ethereumjs/util'
import type { SealedBlock } from '../blocks/block.ts'
import type { UpstreamChain } from '../engine/upstream-chain.ts'
import { RPCError, UpstreamError } from '../errors.ts'
import type { ResolvedForkOptions } from '../options.ts'
import type { Address, Hash } from '../types.ts'
import { ForkCache } from './fork-cache.ts'
import { forkBlockFrom } from './fork-block.ts'
import { Upstream } from './upstream.ts'
import { UpstreamState } from './upstream-state.ts'
import { hashFrom, objectOrNullFrom, quantityFrom } from './upstream-values.ts'

const hex = (value: bigint): string => `0x${value.toString(16)}`

/** A forked chain's upstream and the block it was forked at. */
export class Fork implements UpstreamChain {
  private client: Upstream
  private readonly cache: ForkCache | undefined
  private readonly hashes = new Map<bigint, Promise<Uint8Array | undefined>>()
  private readonly numbers = new Map<Hash, Promise<bigint | undefined>>()

  private constructor(
    private readonly options: ResolvedForkOptions,
    client: Upstream,
    /** The upstream's chain id. */
    readonly chainId: number,
    /** The fork block, as the upstream sent its header. */
    readonly block: SealedBlock,
  ) {
    this.client = client
    this.cache = options.cache === false ? undefined : ForkCache.open(options.cache, { chainId, blockNumber: block.header.number, blockHash: block.hash })
  }

  /** Connects to the upstream of `options` and fetches its chain id and the fork block (one round trip). */
  static async open(options: ResolvedForkOptions): Promise<Fork> {
    const client = new Upstream({ url: options.url, retries: options.retries, timeoutMs: options.timeoutMs })
    try {
      const tag = options.blockNumber === undefined ? 'latest' : hex(options.blockNumber)
      // The upstream's own error names it and the call, as every fault of a running fork does.
      const ask = (method: string, params: unknown[]) =>
        client.request(method, params).catch((error: unknown) => {
          if (error instanceof RPCError && !(error instanceof UpstreamError)) throw new UpstreamError(`upstream ${client.shownUrl} failed on ${method}: ${error.code} ${error.message}`)
          throw error
        })
      const [chainId, block] = await Promise.all([ask('eth_chainId', []), ask('eth_getBlockByNumber', [tag, false])])
      const origin = { upstream: client.shownUrl, method: `eth_getBlockByNumber(${tag})` }
      if (block === null) throw new UpstreamError(`upstream ${client.shownUrl} has no block ${options.blockNumber ?? tag} to fork at`)
      return new Fork(options, client, Number(quantityFrom(chainId, { upstream: client.shownUrl, method: 'eth_chainId' })), forkBlockFrom(block, origin))
    } catch (error) {
      client.close()
      throw error
    }
  }

  /** The endpoint the fork was opened with (before any {@link setUrl}). */
  get openedUrl(): string {
    return this.options.url
  }

  /** The upstream's endpoint, as given. */
  get url(): string {
    return this.client.url
  }

  /** The fork block's number. */
  get forkNumber(): bigint {
    return this.block.header.number
  }

  /** The upstream's state at the fork block, with the `funded` accounts' balances on top: the forked chain's state source. */
  state(funded: ReadonlyMap<Address, bigint>): UpstreamState {
    const fetched = this.cache?.fetched ?? { accounts: new Map(), storage: new Map() }
    return new UpstreamState({ upstream: () => this.client }, this.forkNumber, funded, fetched, this.cache)
  }

  blockHash(number: bigint): Promise<Uint8Array | undefined> {
    let hash = this.hashes.get(number)
    if (hash === undefined) {
      hash = this.blockJson('eth_getBlockByNumber', hex(number)).then((block) => (block === null ? undefined : hexToBytes(hashFrom(block.hash, this.origin('eth_getBlockByNumber')))))
      this.remember(this.hashes, number, hash)
    }
    return hash
  }

  numberOf(hash: Hash): Promise<bigint | undefined> {
    let number = this.numbers.get(hash)
    if (number === undefined) {
      number = this.blockJson('eth_getBlockByHash', hash).then((block) => (block === null ? undefined : quantityFrom(block.number, this.origin('eth_getBlockByHash'))))
      this.remember(this.numbers, hash, number)
    }
    return number
  }

  async blockOfTransaction(hash: Hash): Promise<bigint | undefined> {
    const transaction = objectOrNullFrom(await this.client.request('eth_getTransactionByHash', [hash]), this.origin('eth_getTransactionByHash'))
    if (transaction === null || transaction.blockNumber === null || transaction.blockNumber === undefined) return undefined
    return quantityFrom(transaction.blockNumber, this.origin('eth_getTransactionByHash'))
  }

  async storageRoot(address: Address): Promise<Uint8Array> {
    const proof = objectOrNullFrom(await this.client.request('eth_getProof', [address, [], hex(this.forkNumber)]), this.origin('eth_getProof'))
    return hexToBytes(hashFrom(proof?.storageHash, this.origin('eth_getProof')))
  }

  forward(method: string, params: readonly unknown[]): Promise<unknown> {
    return this.client.request(method, params)
  }

  /** Points the fork at another endpoint of the same chain (`anvil_setRpcUrl`); what was fetched stays. */
  setUrl(url: string): void {
    const client = new Upstream({ url, retries: this.options.retries, timeoutMs: this.options.timeoutMs })
    this.client.close()
    this.client = client
  }

  /** Writes what the disk cache still holds and closes the upstream's connections. */
  close(): void {
    this.cache?.flush()
    this.client.close()
  }

  private async blockJson(method: string, block: string): Promise<Record<string, unknown> | null> {
    return objectOrNullFrom(await this.client.request(method, [block, false]), this.origin(method))
  }

  /** Keeps a lookup's answer, but not its failure (the next read asks again). */
  private remember<K, V>(map: Map<K, Promise<V>>, key: K, value: Promise<V>): void {
    map.set(key, value)
    value.catch(() => map.delete(key))
  }

  private origin(method: string) {
    return { upstream: this.client.shownUrl, method }
  }
}
