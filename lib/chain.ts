/**
 * The chain object users hold: sealed history, the pre-confirmed block, the mempool and the
 * clock, wired together. It exposes the node's operations as plain async functions and as an
 * EIP-1193 `request`; the RPC method table lives in rpc/methods.ts.
 */
import { EventEmitter } from 'node:events'
import { createAddressFromString, hexToBytes } from '@ethereumjs/util'
import { devAccounts, type DevAccount } from './accounts/dev-accounts.ts'
import type { SealedBlock } from './blocks/block.ts'
import { BlockStore, type SealedTransaction } from './blocks/block-store.ts'
import { BlockBuilder, type Preconfirmation } from './builder.ts'
import { BlockSchedule } from './block-schedule.ts'
import { setBalance, setCode, setNonce, setStorage, type EditTarget } from './cheats.ts'
import { createClock, type ChainClock, type Clock, type Timeline } from './clock.ts'
import { Snapshots } from './snapshots/snapshots.ts'
import {
  HeaderNotFoundError,
  InvalidInputError,
  InvalidParamsError,
  ResourceNotFoundError,
  TransactionRejectedError,
  TransactionRejection,
  TransactionTimeoutError,
} from './errors.ts'
import { SUGGESTED_PRIORITY_FEE, suggestedFeeCap } from './fees.ts'
import { impersonatedTransaction, signTransaction } from './accounts/sign-transaction.ts'
import type { BlockContext } from './execution/block-context.ts'
import { createExecutionCommon, createTransactionCommon } from './execution/common.ts'
import { createDevnetEVM } from './execution/devnet-evm.ts'
import type { ExecutionEnvironment } from './execution/execution-environment.ts'
import { estimateGas } from './execution/estimate-gas.ts'
import { callResultOrThrow, runCall, type CallOutcome, type CallRequest } from './execution/run-call.ts'
import { createGenesis } from './genesis.ts'
import { resolveChainOptions, type ChainOptions, type MiningMode, type ResolvedChainOptions } from './options.ts'
import type { PendingBlock } from './pending-block.ts'
import { parseAddress, parseData, toData, toWord } from './rpc/hex.ts'
import { parseBlockTag, parseCallRequest, parseQuantityLike, type BlockSelector } from './rpc/params.ts'
import { handleRequest, type RequestArguments } from './rpc/request.ts'
import { EVMStateAdapter } from './state/evm-state-adapter.ts'
import { StateHistory } from './state/state-history.ts'
import { StateRoot } from './state/state-root.ts'
import type { StateView } from './state/state-view.ts'
import { checkAgainstState, checkIntrinsic } from './txpool/admission.ts'
import { decodeTransaction, hashTransaction, toPooledTransaction } from './txpool/decode.ts'
import type { PooledTransaction } from './txpool/pooled-transaction.ts'
import { TxPool } from './txpool/txpool.ts'
import { ZERO_ADDRESS, type Address, type BlockTag, type Hash, type Hex } from './types.ts'

/** The events of a chain (the server turns them into subscriptions). */
export interface ChainEvents {
  /** A transaction entered the mempool. */
  transaction: [transaction: PooledTransaction]
  /** A pre-confirmation tick ran; `transactions` holds only the ones new in this tick. */
  preconfirmation: [preconfirmation: Preconfirmation]
  /** A block was sealed. */
  block: [block: SealedBlock]
  /** The clock finished moving (to `now`, ms), after the ticks and seals on the way. */
  time: [now: number]
}

/** A block a read resolves to: the pre-confirmed one, or a sealed one. */
export type ResolvedBlock = { readonly pending: PendingBlock; readonly sealed?: undefined } | { readonly sealed: SealedBlock; readonly pending?: undefined }

/** Where a transaction is: mempool, pre-confirmed block or sealed block. */
export type TransactionLocation =
  | { readonly status: 'mempool'; readonly transaction: PooledTransaction }
  | ({ readonly status: 'preconfirmed'; readonly transaction: PooledTransaction; readonly pending: PendingBlock } & Pick<SealedTransaction, 'included'>)
  | ({ readonly status: 'sealed'; readonly transaction: PooledTransaction } & SealedTransaction)

/** Where an executed transaction is: the pre-confirmed block or a sealed one. */
export type ExecutedLocation = Exclude<TransactionLocation, { readonly status: 'mempool' }>

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
  accessList?: ReadonlyArray<{ address: Address; storageKeys: readonly Hex[] }>
}

/** Runs tasks one after another, so no two engine mutations (or EVM runs) interleave. */
function createSerializer() {
  let tail: Promise<unknown> = Promise.resolve()
  return <T>(task: () => Promise<T>): Promise<T> => {
    const run = tail.then(task)
    tail = run.catch(() => undefined)
    return run
  }
}

/** An in-process chain with pre-confirmations. Create one with {@link createChain}. */
export class Chain extends EventEmitter<ChainEvents> {
  /** The options in effect, defaults applied. */
  readonly options: ResolvedChainOptions
  /** The funded dev accounts (their keys sign `eth_sendTransaction`). */
  readonly accounts: readonly DevAccount[]
  /** The clock: `await chain.clock.advance(ms)` fires every tick and seal that falls due. */
  readonly clock: Clock
  /** The same clock, with the control a snapshot revert needs. */
  private readonly controlledClock: ChainClock

  private miningMode: MiningMode

  private readonly snapshots = new Snapshots()
  private readonly pool = new TxPool(this.snapshots.log)
  private readonly blocks = new BlockStore(this.snapshots.log)
  private readonly history = new StateHistory(this.snapshots.log)
  private readonly stateRoot = new StateRoot(this.snapshots.log)
  private readonly environment: ExecutionEnvironment
  private readonly builder: BlockBuilder
  private readonly schedule: BlockSchedule
  private readonly serialize = createSerializer()
  private readonly codeHex = new WeakMap<Uint8Array, Hex>()
  /** Addresses whose transactions `eth_sendTransaction` accepts without a key. */
  private readonly impersonated = new Set<Address>()

  /** Use {@link createChain}. */
  constructor(options: ResolvedChainOptions) {
    super()
    // Subscriptions and pending sync sends each listen; there is no leak to warn about.
    this.setMaxListeners(0)
    this.options = options
    this.miningMode = options.mining
    this.accounts = devAccounts(options.mnemonic, options.accounts)
    const chainId = BigInt(options.chainId)
    const state = new EVMStateAdapter()
    this.environment = {
      evm: createDevnetEVM(createExecutionCommon(options.chainId, options.hardfork), state, (number) => {
        const block = this.blocks.byNumber(number)
        return block === undefined ? undefined : hexToBytes(block.hash)
      }),
      state,
      transactionCommon: createTransactionCommon(options.chainId, options.hardfork),
      chainId,
    }
    this.blocks.append(createGenesis(options, this.accounts, this.history, this.stateRoot))

    const start = options.genesisTimestamp * 1000
    this.schedule = new BlockSchedule(start, options.preconfIntervalMs, options.blockTimeMs)
    this.builder = new BlockBuilder(
      {
        options,
        pool: this.pool,
        blocks: this.blocks,
        history: this.history,
        stateRoot: this.stateRoot,
        environment: this.environment,
        undoLog: this.snapshots.log,
      },
      this.schedule.timestampAfter(this.blocks.head.header.timestamp),
    )
    const timeline: Timeline = {
      nextDueAt: () => (this.miningMode === 'auto' ? Number.POSITIVE_INFINITY : this.schedule.nextDueAt()),
      fireNext: () => this.fireNext(),
      moved: (now) => this.emit('time', now),
    }
    this.controlledClock = createClock(options.clock, start, timeline, this.serialize)
    this.clock = this.controlledClock
  }

  /** EIP-1193: `await chain.request({ method: 'eth_getBalance', params: [address, 'pending'] })`. */
  request(args: RequestArguments): Promise<unknown> {
    return handleRequest(this, args)
  }

  /** The newest sealed block's number. */
  blockNumber(): bigint {
    return this.blocks.head.header.number
  }

  /** The balance of `address` in wei at `block` (default `latest`). */
  async getBalance(address: string, block: BlockTag = 'latest'): Promise<bigint> {
    return this.stateAt(block).getAccount(parseAddress(address, '0 (address)'))?.balance ?? 0n
  }

  /** The runtime code of `address` at `block`, as hex (`0x` for none). */
  async getCode(address: string, block: BlockTag = 'latest'): Promise<Hex> {
    const code = this.stateAt(block).getAccount(parseAddress(address, '0 (address)'))?.code
    if (code === undefined || code.length === 0) return '0x'
    let hex = this.codeHex.get(code)
    if (hex === undefined) {
      hex = toData(code)
      this.codeHex.set(code, hex)
    }
    return hex
  }

  /** The 32-byte storage word at `slot` of `address`, at `block`. */
  async getStorageAt(address: string, slot: Hex | bigint, block: BlockTag = 'latest'): Promise<Hex> {
    const key = parseAddress(address, '0 (address)')
    const position = parseQuantityLike(slot, '1 (slot)')
    return toWord(this.stateAt(block).getStorage(key, position))
  }

  /**
   * The nonce of `address` at `block`, as a number (as viem returns it). At `pending` it also
   * counts the sender's mempool transactions without a gap, as geth's pending nonce does.
   */
  async getTransactionCount(address: string, block: BlockTag = 'latest'): Promise<number> {
    return Number(this.nonceAt(parseAddress(address, '0 (address)'), parseBlockTag(block, '1 (block)')))
  }

  /** The nonce of `address` at a parsed block (`eth_getTransactionCount`, exact). */
  nonceAt(address: Address, block: BlockSelector): bigint {
    const resolved = this.resolveBlock(block)
    const nonce = this.viewOf(resolved).getAccount(address)?.nonce ?? 0n
    return resolved.pending === undefined ? nonce : this.pool.pendingNonce(address, nonce)
  }

  /**
   * Runs a call at `block` (default `latest`) and returns its output. A revert throws
   * -32000 `execution reverted` with the revert data as `data`.
   */
  async call(request: CallParameters, block: BlockTag = 'latest'): Promise<Hex> {
    const outcome = await this.simulate(parseCallRequest(request, '0 (call)'), parseBlockTag(block, '1 (block)'))
    return toData(callResultOrThrow(outcome))
  }

  /** Runs a parsed call on a throwaway copy of the state at `block`. */
  simulate(request: CallRequest, block: BlockSelector): Promise<CallOutcome> {
    return this.serialize(async () => {
      const resolved = this.resolveBlock(block)
      return runCall(request, this.viewOf(resolved), this.contextOf(resolved), this.environment)
    })
  }

  /** The least gas `request` needs at `block` (default `pending`), found as geth's eth_estimateGas does. */
  estimateGas(request: CallParameters, block: BlockTag = 'pending'): Promise<bigint> {
    return this.estimate(parseCallRequest(request, '0 (call)'), parseBlockTag(block, '1 (block)'))
  }

  /** {@link estimateGas} for a parsed request and block (the RPC layer's entry). */
  estimate(request: CallRequest, block: BlockSelector): Promise<bigint> {
    return this.serialize(async () => {
      const resolved = this.resolveBlock(block)
      const view = this.viewOf(resolved)
      const context = this.contextOf(resolved)
      const from = request.from ?? ZERO_ADDRESS
      return estimateGas(
        {
          request,
          blockGasLimit: context.gasLimit,
          balance: view.getAccount(from)?.balance ?? 0n,
          recipientHasCode: request.to !== undefined && (view.getAccount(request.to)?.code.length ?? 0) > 0,
        },
        (gas) => runCall({ ...request, gas }, view, context, this.environment),
      )
    })
  }

  /** Submits a signed transaction to the mempool; returns its hash (geth's admission rules). */
  sendRawTransaction(raw: Hex | Uint8Array): Promise<Hash> {
    const bytes = typeof raw === 'string' ? parseData(raw, '0 (transaction)') : raw.slice()
    return this.serialize(async () => {
      const hash = hashTransaction(bytes)
      this.rejectKnown(hash)
      return this.admit(decodeTransaction(bytes, hash, this.environment.transactionCommon, this.environment.chainId))
    })
  }

  /**
   * Signs `request` with the key of its `from` dev account (or, for an impersonated account,
   * without one) and submits it (`eth_sendTransaction`). Missing fields are filled as wallets
   * do: the pending nonce, an estimate at `pending`, a 1 gwei tip and a fee cap of twice the
   * pending base fee plus the tip (or a legacy transaction when `gasPrice` is given).
   */
  sendTransaction(request: CallParameters & { readonly nonce?: Hex | bigint }): Promise<Hash> {
    return this.submitTransaction(parseCallRequest(request, '0 (transaction)'))
  }

  /** {@link sendTransaction} for a parsed request (the RPC layer's entry). */
  async submitTransaction(request: CallRequest & { readonly nonce?: bigint }): Promise<Hash> {
    const from = request.from
    if (from === undefined) throw new InvalidParamsError('invalid argument 0 (transaction): from is required')
    const account = this.accounts.find((candidate) => candidate.address.toLowerCase() === from)
    if (account === undefined && !this.impersonated.has(from)) throw new ResourceNotFoundError('unknown account')
    const gas = request.gas ?? (await this.estimate(request, { tag: 'pending' }))
    // Nonce and fees are chosen, and the transaction admitted, in one step: two concurrent
    // sends from one account get consecutive nonces.
    return this.serialize(async () => {
      const pending = this.builder.pending
      const cap = request.maxFeePerGas
      const tip = request.maxPriorityFeePerGas ?? (cap !== undefined && cap < SUGGESTED_PRIORITY_FEE ? cap : SUGGESTED_PRIORITY_FEE)
      if (cap !== undefined && tip > cap) throw new TransactionRejectedError(TransactionRejection.tipAboveFeeCap)
      const fields = {
        nonce: request.nonce ?? this.pool.pendingNonce(from, pending.state.getAccount(from)?.nonce ?? 0n),
        to: request.to,
        value: request.value ?? 0n,
        data: request.data ?? new Uint8Array(0),
        gas,
        gasPrice: request.gasPrice,
        maxFeePerGas: cap ?? suggestedFeeCap(pending.context.baseFeePerGas, tip),
        maxPriorityFeePerGas: tip,
        accessList: request.accessList ?? [],
      }
      const common = this.environment.transactionCommon
      let tx
      try {
        tx = account !== undefined ? signTransaction(fields, account.privateKey, common) : impersonatedTransaction(fields, from, common)
      } catch (error) {
        // ethereumjs refuses out-of-range fields (nonce ≥ 2^64 - 1, gas × fee cap ≥ 2^256, …).
        throw new InvalidParamsError(`invalid argument 0 (transaction): ${(error as Error).message.replace(/ \(tx type=.*$/, '')}`)
      }
      const raw = tx.serialize()
      const hash = hashTransaction(raw)
      this.rejectKnown(hash)
      // The sender is known (we signed, or it is impersonated): no recovery needed.
      return this.admit(toPooledTransaction(raw, hash, tx, createAddressFromString(from), account === undefined))
    })
  }

  /**
   * Resolves when the transaction `hash` is pre-confirmed (or sealed). Rejects with code 4
   * (EIP-7966) once the chain's clock has moved `timeoutMs` past now without it (checked at
   * every tick, seal and clock move), or as soon as the transaction leaves the mempool
   * unexecuted. Time is the chain's clock: under the manual clock the wait ends only as the
   * clock is advanced.
   */
  waitForPreconfirmation(hash: Hash, timeoutMs: number): Promise<ExecutedLocation> {
    const deadline = this.clock.now() + timeoutMs
    return new Promise((resolve, reject) => {
      const check = (): void => {
        const location = this.findTransaction(hash)
        if (location !== undefined && location.status !== 'mempool') {
          stop()
          resolve(location)
        } else if (location === undefined || this.clock.now() >= deadline) {
          stop()
          reject(new TransactionTimeoutError(hash, timeoutMs))
        }
      }
      const stop = (): void => {
        this.off('preconfirmation', check)
        this.off('block', check)
        this.off('time', check)
      }
      this.on('preconfirmation', check)
      this.on('block', check)
      this.on('time', check)
      check()
    })
  }

  /** Runs a pre-confirmation tick now (`preconf_tick`), outside the clock's schedule. */
  tick(): Promise<Preconfirmation> {
    return this.serialize(() => this.preconfirm())
  }

  /**
   * Seals a block now (`evm_mine`): a last tick pre-confirms what the mempool can execute, as
   * Anvil and Hardhat mine pending transactions, then the block seals and the schedule
   * restarts from this instant.
   */
  mine(): Promise<SealedBlock> {
    return this.serialize(() => this.mineNow())
  }

  /**
   * Seals `count` blocks now (`anvil_mine` / `hardhat_mine`): the first as {@link mine}, the
   * others empty, each `intervalSeconds` after its parent (default 1, as Hardhat).
   */
  mineBlocks(count: number, intervalSeconds = 1n): Promise<SealedBlock | undefined> {
    return this.serialize(async () => {
      let block: SealedBlock | undefined
      for (let i = 0; i < count; i++) {
        if (i > 0) this.restampPending(block!.header.timestamp + intervalSeconds)
        block = await this.mineNow()
      }
      return block
    })
  }

  /** Snapshots the whole world (`evm_snapshot`): state, history, overlay, mempool, clock. */
  snapshot(): Promise<number> {
    return this.serialize(async () =>
      this.snapshots.take(() => {
        const now = this.clock.now()
        const schedule = this.schedule.capture()
        const mining = this.miningMode
        const impersonated = [...this.impersonated]
        return () => {
          this.controlledClock.restore(now)
          this.schedule.restore(schedule)
          this.miningMode = mining
          this.impersonated.clear()
          for (const address of impersonated) this.impersonated.add(address)
        }
      }),
    )
  }

  /**
   * Returns the world to snapshot `id` (`evm_revert`), at the cost of what changed since. The
   * snapshot and every later one are discarded, as in Hardhat and Anvil; false if `id` is not
   * an open snapshot.
   */
  revert(id: number): Promise<boolean> {
    return this.serialize(async () => this.snapshots.revert(id))
  }

  /** How accepted transactions become blocks (see {@link MiningMode}). */
  get mining(): MiningMode {
    return this.miningMode
  }

  /**
   * Switches the mining mode (`evm_setAutomine`). Leaving `auto`, the clock's schedule restarts
   * from now rather than firing every tick and seal it skipped.
   */
  setMining(mode: MiningMode): Promise<void> {
    return this.serialize(async () => {
      if (this.miningMode === 'auto' && mode !== 'auto') this.schedule.restart(this.clock.now())
      this.miningMode = mode
    })
  }

  /** Sets the balance of `address` in wei, at `latest` and `pending` at once (no block is sealed). */
  setBalance(address: string, balance: bigint): Promise<void> {
    return this.edit((target) => setBalance(target, parseAddress(address, '0 (address)'), balance))
  }

  /** Sets the nonce of `address`, at `latest` and `pending` at once. */
  setNonce(address: string, nonce: bigint): Promise<void> {
    return this.edit((target) => setNonce(target, parseAddress(address, '0 (address)'), nonce))
  }

  /** Replaces the runtime code of `address`, at `latest` and `pending` at once. */
  setCode(address: string, code: Hex | Uint8Array): Promise<void> {
    const bytes = typeof code === 'string' ? parseData(code, '1 (code)') : code
    return this.edit((target) => setCode(target, parseAddress(address, '0 (address)'), bytes))
  }

  /** Sets one storage word of `address`, at `latest` and `pending` at once. */
  setStorageAt(address: string, slot: Hex | bigint, value: Hex | bigint): Promise<void> {
    const position = parseQuantityLike(slot, '1 (slot)')
    const word = parseQuantityLike(value, '2 (value)')
    return this.edit((target) => setStorage(target, parseAddress(address, '0 (address)'), position, word))
  }

  /** Lets `eth_sendTransaction` send from `address` without its key (until stopped). */
  impersonateAccount(address: string): void {
    this.impersonated.add(parseAddress(address, '0 (address)'))
  }

  /** Ends {@link impersonateAccount} for `address`. */
  stopImpersonatingAccount(address: string): void {
    this.impersonated.delete(parseAddress(address, '0 (address)'))
  }

  /**
   * Moves block timestamps `seconds` ahead of the clock (`evm_increaseTime`); the pending block
   * takes the new time at once if it has pre-confirmed nothing yet. Returns the total offset.
   */
  increaseTime(seconds: number): Promise<number> {
    return this.serialize(async () => {
      const total = this.schedule.increaseTime(seconds)
      if (this.builder.pending.transactions.length === 0) this.restampPending(undefined)
      return total
    })
  }

  /**
   * Gives the next block `timestamp` (`evm_setNextBlockTimestamp`): the pending block at once
   * if it has pre-confirmed nothing yet, else the block after it. Later blocks follow on.
   */
  setNextBlockTimestamp(timestamp: bigint): Promise<void> {
    return this.serialize(async () => {
      const pending = this.builder.pending
      const floor = pending.transactions.length === 0 ? this.blocks.head.header.timestamp : pending.context.timestamp
      if (timestamp <= floor) {
        throw new InvalidInputError(`Timestamp ${timestamp} is lower than or equal to previous block's timestamp ${floor}`)
      }
      if (pending.transactions.length === 0) this.restampPending(timestamp)
      else this.schedule.setNextTimestamp(timestamp)
    })
  }

  /**
   * Steps each new block's timestamp by `seconds` from its parent (undefined: follow the clock
   * again), from the pending block on if it has pre-confirmed nothing. Returns whether an
   * interval was set before.
   */
  setBlockTimestampInterval(seconds: bigint | undefined): Promise<boolean> {
    return this.serialize(async () => {
      const hadInterval = this.schedule.setTimestampInterval(seconds)
      if (this.builder.pending.transactions.length === 0) this.restampPending(undefined)
      return hadInterval
    })
  }

  /** Stops the realtime clock driver; the chain keeps answering reads. */
  close(): void {
    this.clock.stop()
  }

  /** The block `selector` names; -32000 `header not found` beyond the head. */
  resolveBlock(selector: BlockSelector): ResolvedBlock {
    const head = Number(this.blocks.head.header.number)
    if ('tag' in selector) {
      switch (selector.tag) {
        case 'pending':
          return { pending: this.builder.pending }
        case 'latest':
          return { sealed: this.blocks.head }
        case 'safe':
          return { sealed: this.blocks.byNumber(Math.max(0, head - this.options.safeLag))! }
        case 'finalized':
          return { sealed: this.blocks.byNumber(Math.max(0, head - this.options.finalizedLag))! }
        case 'earliest':
          return { sealed: this.blocks.byNumber(0)! }
      }
    }
    if ('hash' in selector) {
      const block = this.blocks.byHash(selector.hash)
      if (block === undefined) throw new ResourceNotFoundError(`header for hash not found`)
      return { sealed: block }
    }
    if (selector.number > BigInt(head)) throw new HeaderNotFoundError()
    return { sealed: this.blocks.byNumber(Number(selector.number))! }
  }

  /** The state at a resolved block. */
  viewOf(block: ResolvedBlock): StateView {
    if (block.pending !== undefined) return block.pending.state
    const number = Number(block.sealed.header.number)
    return number === Number(this.blocks.head.header.number) ? this.history.latest : this.history.at(number)
  }

  /** The block context a call at a resolved block runs in. */
  contextOf(block: ResolvedBlock): BlockContext {
    if (block.pending !== undefined) return block.pending.context
    const { header } = block.sealed
    return {
      number: header.number,
      timestamp: header.timestamp,
      baseFeePerGas: header.baseFeePerGas,
      gasLimit: header.gasLimit,
      coinbase: header.coinbase,
      prevRandao: header.mixHash,
    }
  }

  /** The pre-confirmed block. */
  get pending(): PendingBlock {
    return this.builder.pending
  }

  /** The sealed block at `number`. */
  blockByNumber(number: number): SealedBlock | undefined {
    return this.blocks.byNumber(number)
  }

  /** The sealed block with `hash`. */
  blockByHash(hash: Hash): SealedBlock | undefined {
    return this.blocks.byHash(hash)
  }

  /** Where the transaction with `hash` is, if anywhere. */
  findTransaction(hash: Hash): TransactionLocation | undefined {
    const pooled = this.pool.get(hash)
    if (pooled !== undefined) return { status: 'mempool', transaction: pooled }
    const pending = this.builder.pending
    const included = pending.transactionsByHash.get(hash)
    if (included !== undefined) return { status: 'preconfirmed', transaction: included.transaction, included, pending }
    const sealed = this.blocks.transaction(hash)
    if (sealed !== undefined) return { status: 'sealed', transaction: sealed.included.transaction, ...sealed }
    return undefined
  }

  private stateAt(block: BlockTag): StateView {
    if (block === 'latest') return this.history.latest
    if (block === 'pending') return this.builder.pending.state
    return this.viewOf(this.resolveBlock(parseBlockTag(block, '1 (block)')))
  }

  private async fireNext(): Promise<void> {
    if (this.schedule.takeNext() === 'tick') await this.preconfirm()
    else this.seal()
  }

  /** Rejects a transaction already in the mempool or pre-confirmed (geth checks this first). */
  private rejectKnown(hash: Hash): void {
    if (this.pool.get(hash) !== undefined || this.builder.pending.transactionsByHash.has(hash)) {
      throw new TransactionRejectedError(TransactionRejection.alreadyKnown)
    }
  }

  /** Admission against pending state; then, per the mining mode, pre-confirms (and seals) at once. */
  private async admit(transaction: PooledTransaction): Promise<Hash> {
    const { blockGasLimit } = this.options
    checkIntrinsic(transaction, blockGasLimit)
    checkAgainstState(transaction, { pool: this.pool, pending: this.builder.pending.state, blockGasLimit })
    this.pool.insert(transaction)
    this.emit('transaction', transaction)
    if (this.miningMode === 'instant') await this.preconfirm()
    else if (this.miningMode === 'auto' && (await this.preconfirm()).transactions.length > 0) this.sealNow()
    return transaction.hash
  }

  private async mineNow(): Promise<SealedBlock> {
    await this.preconfirm()
    return this.sealNow()
  }

  /** Seals the pending block now; the schedule restarts from this instant. */
  private sealNow(): SealedBlock {
    this.schedule.restart(this.clock.now())
    return this.seal()
  }

  /** Re-stamps the pending block (which has pre-confirmed nothing): with `timestamp`, or by the schedule. */
  private restampPending(timestamp: bigint | undefined): void {
    const pending = this.builder.pending
    if (timestamp !== undefined) this.schedule.setNextTimestamp(timestamp)
    pending.restamp(this.schedule.timestampAfter(this.blocks.head.header.timestamp))
  }

  /** Runs `edit` on the sealed head and the overlay together. */
  private edit(edit: (target: EditTarget) => void): Promise<void> {
    return this.serialize(async () =>
      edit({ history: this.history, headNumber: Number(this.blocks.head.header.number), overlay: this.builder.pending.state, stateRoot: this.stateRoot }),
    )
  }

  private async preconfirm(): Promise<Preconfirmation> {
    const preconfirmation = await this.builder.preconfirm()
    this.emit('preconfirmation', preconfirmation)
    return preconfirmation
  }

  private seal(): SealedBlock {
    const block = this.builder.seal(this.schedule.timestampAfter(this.builder.pending.context.timestamp))
    this.emit('block', block)
    return block
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
  return new Chain(resolveChainOptions(options))
}
