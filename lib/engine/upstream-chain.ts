/**
 * The upstream of a forked chain, as the engine and the RPC layer see it: the blocks up to the
 * fork block are the upstream's, and reads of them go there.
 */
import type { Address, Hash } from '../types.ts'

/** A forked chain's upstream. */
export interface UpstreamChain {
  /** The upstream's endpoint, as given (or as `anvil_setRpcUrl` changed it). */
  readonly url: string
  /** The endpoint the fork was opened with. */
  readonly openedUrl: string
  /** The upstream's chain id. */
  readonly chainId: number
  /** The fork block's number: the state at it is local (upstream state, dev accounts funded); its contents and every earlier block are the upstream's. */
  readonly forkNumber: bigint
  /** The hash of upstream block `number` (for BLOCKHASH), undefined if it has none. */
  blockHash(number: bigint): Promise<Uint8Array | undefined>
  /** The number of the upstream's block with `hash`, undefined if it has none. */
  numberOf(hash: Hash): Promise<bigint | undefined>
  /** The number of the block holding the upstream's transaction `hash`, undefined if none does. */
  blockOfTransaction(hash: Hash): Promise<bigint | undefined>
  /** The root of `address`'s storage trie at the fork block (the upstream's `eth_getProof` storageHash). */
  storageRoot(address: Address): Promise<Uint8Array>
  /** Sends a request to the upstream as it was sent here. */
  forward(method: string, params: readonly unknown[]): Promise<unknown>
  /** Points the fork at another endpoint of the same chain (`anvil_setRpcUrl`). */
  setUrl(url: string): void
  /** Writes what is still to be cached and closes the upstream's connections. */
  close(): void
}
