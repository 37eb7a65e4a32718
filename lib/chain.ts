/**
 * The chain object users hold: typed plain functions over the engine its host holds. They
 * parse what callers pass (hex or bigint, tags or numbers) with the RPC layer's parsers and
 * call the engine; `request`, the events, resets and state dumps come from the host.
 */
import type { SealedBlock } from './blocks/block.ts'
import type { Preconfirmation } from './builder/builder.ts'
import type { PendingBlockView } from './builder/pending-block.ts'
import { ENGINE, EngineHost } from './engine-host.ts'
import type { BlockSelector } from './engine/block-resolver.ts'
import type { ExecutedLocation, TransactionLocation } from './engine/lookups.ts'
import { callResultOrThrow } from './execution/run-call.ts'
import { openChain, pinnedFork, reopenedOptions } from './open-chain.ts'
import type { ChainOptions, MiningMode } from './options.ts'
import { formatCode } from './rpc/format-transaction.ts'
import { parseAddress, parseData, parseHash, parseSmallQuantity, parseWord, toData, toQuantity, toWord } from './rpc/hex.ts'
import { parseBlockOrHash, parseCallRequest, parseDepositRequest, parseQuantityLike, parseTimestamp, parseUint64 } from './rpc/params.ts'
import { presentError } from './rpc/request.ts'
import type { AccessList } from './transactions/transaction.ts'
import type { Address, BlockTag, Hash, Hex } from './types.ts'

/** A call in the shape of `eth_call`'s first parameter; quantities may also be bigints. */
export type CallParameters = {
  from?: Address
  to?: Address
  gas?: Hex | bigint
  gasPrice?: Hex | bigint
  maxFeePerGas?: Hex | bigint
  maxPriorityFeePerGas?: Hex | bigint
  value?: Hex | bigint
  data?: Hex
  input?: Hex
  accessList?: AccessList
}

/** An L1→L2 deposit to simulate ({@link Chain.deposit}); quantities may be bigints. */
export type DepositParameters = {
  to: Address
  from?: Address
  mint?: Hex | bigint
  value?: Hex | bigint
  gas?: Hex | bigint
  data?: Hex
}

const address = (value: string): Address => parseAddress(value, '0 (address)')

/** A parameter as JSON-RPC spells it: bigints as quantities (in objects too), a parsed block as a tag, a number or `{ blockHash }`. */
function toJsonParameter(value: unknown): unknown {
  if (typeof value === 'bigint') return toQuantity(value)
  if (typeof value !== 'object' || value === null) return value
  if (Array.isArray(value)) return value.map(toJsonParameter)
  const { tag: name, number, hash } = value as { tag?: string; number?: bigint; hash?: Hash }
  if (name !== undefined || number !== undefined || hash !== undefined) return name ?? (number === undefined ? { blockHash: hash } : toQuantity(number))
  return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, toJsonParameter(entry)]))
}
const tag = (value: BlockTag) => parseBlockOrHash(value, '1 (block)')

/** An in-process chain with pre-confirmations. Create one with {@link createChain}. */
export class Chain extends EngineHost {
  /** The newest sealed block's number. */
  blockNumber(): bigint {
    return this[ENGINE].blocks.headNumber
  }

  /** The balance of `address` in wei at `block` (default `latest`). */
  async getBalance(address_: string, block: BlockTag = 'latest'): Promise<bigint> {
    const at = tag(block)
    const upstream = this.upstreamHolds(at)
    if (upstream !== false && (await upstream)) return BigInt((await this.forward('eth_getBalance', [address_, at])) as Hex)
    return this[ENGINE].reads.balance(address(address_), at)
  }

  /** The runtime code of `address` at `block`, as hex (`0x` for none). */
  async getCode(address_: string, block: BlockTag = 'latest'): Promise<Hex> {
    const at = tag(block)
    const upstream = this.upstreamHolds(at)
    if (upstream !== false && (await upstream)) return (await this.forward('eth_getCode', [address_, at])) as Hex
    const code = this[ENGINE].reads.code(address(address_), at)
    return formatCode(code instanceof Uint8Array ? code : await code)
  }

  /** The 32-byte storage word at `slot` of `address`, at `block`. */
  async getStorageAt(address_: string, slot: Hex | bigint, block: BlockTag = 'latest'): Promise<Hex> {
    const at = tag(block)
    const upstream = this.upstreamHolds(at)
    const key = parseQuantityLike(slot, '1 (slot)')
    if (upstream !== false && (await upstream)) return (await this.forward('eth_getStorageAt', [address_, toQuantity(key), at])) as Hex
    const word = this[ENGINE].reads.storage(address(address_), key, at)
    return toWord(typeof word === 'bigint' ? word : await word)
  }

  /**
   * The nonce of `address` at `block`, as a number (as viem returns it). At `pending` it also
   * counts the sender's mempool transactions without a gap, as geth's pending nonce does.
   */
  async getTransactionCount(address_: string, block: BlockTag = 'latest'): Promise<number> {
    const at = tag(block)
    const upstream = this.upstreamHolds(at)
    if (upstream !== false && (await upstream)) return Number((await this.forward('eth_getTransactionCount', [address_, at])) as Hex)
    const nonce = this[ENGINE].reads.nonce(address(address_), at)
    return Number(typeof nonce === 'bigint' ? nonce : await nonce)
  }

  /**
   * Runs a call at `block` (default `latest`) and returns its output. A revert throws
   * -32000 `execution reverted` with the revert data as `data`.
   */
  async call(request: CallParameters, block: BlockTag = 'latest'): Promise<Hex> {
    const at = tag(block)
    const upstream = this.upstreamHolds(at)
    if (upstream !== false && (await upstream)) return (await this.forward('eth_call', [request, at])) as Hex
    const outcome = await this[ENGINE].calls.call(parseCallRequest(request, '0 (call)'), at)
    try {
      return toData(callResultOrThrow(outcome))
    } catch (error) {
      throw presentError(error, this.options.revertCode)
    }
  }

  /** The least gas `request` needs at `block` (default `pending`), found as geth's eth_estimateGas does. */
  async estimateGas(request: CallParameters, block: BlockTag = 'pending'): Promise<bigint> {
    const at = tag(block)
    const upstream = this.upstreamHolds(at)
    if (upstream !== false && (await upstream)) return BigInt((await this.forward('eth_estimateGas', [request, at])) as Hex)
    return this[ENGINE].calls.estimateGas(parseCallRequest(request, '0 (call)'), at).catch((error: unknown) => {
      throw presentError(error, this.options.revertCode)
    })
  }

  /**
   * Whether a read at `at` is the upstream's: on a fork, a block before the fork block (false at
   * once on a chain that is no fork). Such reads go through `request`, which forwards them, as
   * they do over RPC.
   */
  private upstreamHolds(at: BlockSelector): boolean | Promise<boolean> {
    const engine = this[ENGINE]
    return engine.upstream !== undefined && engine.blocks.upstreamHolds(at, 'state')
  }

  /** `method` through `request` (which forwards a read of what only the upstream holds), with `at` and any bigint spelled as JSON-RPC spells them. */
  private forward(method: string, params: readonly unknown[]): Promise<unknown> {
    return this.request({ method, params: params.map(toJsonParameter) })
  }

  /** Submits a signed transaction to the mempool; returns its hash (geth's admission rules). */
  sendRawTransaction(raw: Hex | Uint8Array): Promise<Hash> {
    return this[ENGINE].intake.submitRaw(typeof raw === 'string' ? parseData(raw, '0 (transaction)') : raw.slice())
  }

  /**
   * Signs `request` with the key of its `from` dev account (or, for an impersonated account,
   * without one) and submits it (`eth_sendTransaction`). Missing fields are filled as wallets
   * do: the pending nonce, an estimate at `pending`, a 1 gwei tip and a fee cap of twice the
   * pending base fee plus the tip (or a legacy transaction when `gasPrice` is given).
   */
  sendTransaction(request: CallParameters & { readonly nonce?: Hex | bigint }): Promise<Hash> {
    return this[ENGINE].intake.submitRequest(parseCallRequest(request, '0 (transaction)'))
  }

  /**
   * On an OP-stack chain (a `preset`), simulates an L1→L2 deposit (`preconf_deposit`): `mint`
   * wei credited to `from` (by default `to`), then a call of `gas` (default 100,000) from it to
   * `to` with `value` and `data`, in the next block's first pre-confirmation. Returns the
   * deposit's hash.
   */
  async deposit(request: DepositParameters): Promise<Hash> {
    return this[ENGINE].intake.simulateDeposit(parseDepositRequest(request, '0 (deposit)'))
  }

  /**
   * Resolves when the transaction `hash` is pre-confirmed (or sealed); rejects with code 4
   * (EIP-7966) once the chain's clock has moved `timeoutMs` past now without it.
   */
  waitForPreconfirmation(hash: string, timeoutMs: number): Promise<ExecutedLocation> {
    return this[ENGINE].lookups.waitForPreconfirmation(parseHash(hash, '0 (hash)'), timeoutMs)
  }

  /** Where the transaction with `hash` is — mempool, pre-confirmed or sealed — if anywhere. */
  findTransaction(hash: string): TransactionLocation | undefined {
    return this[ENGINE].lookups.find(parseHash(hash, '0 (hash)'))
  }

  /** The pre-confirmed block as it stands (read-only). */
  get pending(): PendingBlockView {
    return this[ENGINE].blocks.pending.view
  }

  /** The sealed block at `number`. */
  blockByNumber(number: number | bigint): SealedBlock | undefined {
    return this[ENGINE].blocks.byNumber(BigInt(number))
  }

  /** The sealed block with `hash`. */
  blockByHash(hash: string): SealedBlock | undefined {
    return this[ENGINE].blocks.byHash(parseHash(hash, '0 (hash)'))
  }

  /** Runs a pre-confirmation tick now (`preconf_tick`), outside the clock's schedule. */
  tick(): Promise<Preconfirmation> {
    return this[ENGINE].mining.tick()
  }

  /** Seals a block now (`evm_mine`), after a last tick; the schedule restarts from this instant. */
  mine(): Promise<SealedBlock> {
    return this[ENGINE].mining.mine()
  }

  /** Seals `count` blocks now (`anvil_mine`), each `intervalSeconds` after its parent (default 1). */
  async mineBlocks(count: number, intervalSeconds: bigint | number = 1n): Promise<SealedBlock | undefined> {
    return this[ENGINE].mining.mineBlocks(parseSmallQuantity(count, '0 (blocks)'), parseUint64(intervalSeconds, '1 (interval seconds)'))
  }

  /** How accepted transactions become blocks (see {@link MiningMode}). */
  get mining(): MiningMode {
    return this[ENGINE].mining.mode
  }

  /** Switches the mining mode (`evm_setAutomine`); leaving `auto`, the schedule restarts from now. */
  setMining(mode: MiningMode): Promise<void> {
    return this[ENGINE].mining.setMode(mode)
  }

  /** Whether the node's activity log writes lines; `anvil_setLoggingEnabled` switches it (on by default). */
  get loggingEnabled(): boolean {
    return this[ENGINE].controls.loggingEnabled
  }

  /** Snapshots the whole world (`evm_snapshot`): state, history, pending block, mempool, clock. */
  snapshot(): Promise<number> {
    return this[ENGINE].snapshot()
  }

  /** Returns the world to snapshot `id` (`evm_revert`), discarding it and every later one; false if not open. */
  revert(id: number): Promise<boolean> {
    return this[ENGINE].revert(id)
  }

  /** Sets the balance of `address` in wei, at `latest` and `pending` at once (no block is sealed). */
  async setBalance(address_: string, balance: bigint): Promise<void> {
    return this[ENGINE].controls.setBalance(address(address_), parseQuantityLike(balance, '1 (balance)'))
  }

  /** Sets the nonce of `address`, at `latest` and `pending` at once. */
  async setNonce(address_: string, nonce: bigint): Promise<void> {
    return this[ENGINE].controls.setNonce(address(address_), parseUint64(nonce, '1 (nonce)'))
  }

  /** Replaces the runtime code of `address`, at `latest` and `pending` at once. */
  async setCode(address_: string, code: Hex | Uint8Array): Promise<void> {
    return this[ENGINE].controls.setCode(address(address_), typeof code === 'string' ? parseData(code, '1 (code)') : code)
  }

  /** Sets one storage word of `address` (a bigint, or hex of a whole 32-byte word), at `latest` and `pending` at once. */
  async setStorageAt(address_: string, slot: Hex | bigint, value: Hex | bigint): Promise<void> {
    return this[ENGINE].controls.setStorageAt(address(address_), parseQuantityLike(slot, '1 (slot)'), typeof value === 'string' ? parseWord(value, '2 (value)') : parseQuantityLike(value, '2 (value)'))
  }

  /** Lets `eth_sendTransaction` send from `address` without its key (until stopped). */
  impersonateAccount(address_: string): void {
    this[ENGINE].controls.impersonate(address(address_))
  }

  /** Ends {@link impersonateAccount} for `address`. */
  stopImpersonatingAccount(address_: string): void {
    this[ENGINE].controls.stopImpersonating(address(address_))
  }

  /** Moves block timestamps `seconds` ahead of the clock (`evm_increaseTime`); returns the total offset. */
  async increaseTime(seconds: number): Promise<number> {
    return this[ENGINE].controls.increaseTime(parseSmallQuantity(seconds, '0 (seconds)'))
  }

  /** Gives the next block `timestamp` (`evm_setNextBlockTimestamp`); later blocks follow on. */
  async setNextBlockTimestamp(timestamp: bigint): Promise<void> {
    return this[ENGINE].controls.setNextBlockTimestamp(parseTimestamp(timestamp, '0 (timestamp)'))
  }

  /** Steps each new block's timestamp by `seconds` from its parent (undefined: follow the clock again). */
  setBlockTimestampInterval(seconds: bigint | undefined): Promise<boolean> {
    return this[ENGINE].controls.setBlockTimestampInterval(seconds)
  }

}

/**
 * Creates an in-process chain.
 *
 * ```ts
 * const chain = await createChain({ clock: 'manual' })
 * const hash = await chain.sendRawTransaction(signed)
 * await chain.clock.advance(200) // pre-confirmed: visible at 'pending'
 * ```
 */
export async function createChain(options: ChainOptions = {}): Promise<Chain> {
  const opened = await openChain(options)
  const created = pinnedFork(options, opened.setup?.upstream?.forkNumber)
  return new Chain(opened.options, opened.setup, (change) => openChain(reopenedOptions(created, change)))
}
