/**
 * The holder of a chain's engine: it serves EIP-1193 `request` over the method table (the same
 * one the servers use; subscriptions made through it arrive as `message` events), emits the
 * engine's events, and replaces the engine when the chain starts over (`anvil_reset`) or loads
 * a state (`anvil_loadState`), subscriptions and listeners carrying on.
 */
import { randomBytes } from 'node:crypto'
import { EventEmitter } from 'node:events'
import type { DevAccount } from './accounts/dev-accounts.ts'
import { toHex } from './bytes.ts'
import type { Clock } from './clock/clock.ts'
import { createEngine, type ChainView, type Engine, type EngineSetup } from './engine/engine.ts'
import type { ChainEvents } from './engine/events.ts'
import type { Mining } from './engine/mining.ts'
import { InvalidInputError } from './errors.ts'
import type { LiveFork, OpenedChain, Reopening, ResetTarget } from './open-chain.ts'
import type { ResolvedChainOptions } from './options.ts'
import { stateToHex, stateToText, type StateInput } from './persistence/state-encoding.ts'
import { stateToJson } from './persistence/state-file.ts'
import { Filters } from './rpc/filters.ts'
import type { MethodContext } from './rpc/method-definition.ts'
import { handleRequest, type RequestArguments } from './rpc/request.ts'
import { Subscriptions } from './rpc/subscriptions.ts'
import { SnapshotIds } from './snapshots/snapshots.ts'
import type { Hex } from './types.ts'

/**
 * Gives `next` (a new chain's mining) the mode `previous` was switched to at run time
 * (`evm_setAutomine`, `evm_setIntervalMining`), as Anvil's miner keeps its mode through
 * `anvil_reset` and `anvil_loadState`.
 */
/** A fresh run id: 32 random bytes, as Hardhat's (not the chain's: nothing in it depends on this). */
function newInstanceId(): Hex {
  return toHex(randomBytes(32))
}

function keepMiningMode(previous: Mining, next: Mining): Promise<void> {
  const { mode, intervalSeconds } = previous
  if (mode === next.mode && intervalSeconds === next.intervalSeconds) return Promise.resolve()
  return mode === 'interval' && intervalSeconds !== undefined ? next.setInterval(intervalSeconds) : next.setMode(mode)
}

/**
 * The key of a host's engine. Only the library's modules import it (lib/index.ts does not
 * export it), so user code reaches the chain through `request` and the facade, never past the
 * serializer to the engine's state.
 */
export const ENGINE = Symbol('engine')

/** Holds a chain's engine and serves requests over it; the chain facade ({@link Chain}) builds on it. */
export class EngineHost extends EventEmitter<ChainEvents> {
  /**
   * The standard endpoint of the same chain, as an EIP-1193 provider: `pending` is the newest
   * sealed block and a receipt exists once its block seals (as on a node without
   * pre-confirmations, which Base serves beside its flashblocks endpoint). Tools that read a
   * receipt and then the nonce at `latest` (Foundry's cast and forge) want this one.
   */
  readonly sealed: { request(args: RequestArguments): Promise<unknown> }
  #engine: Engine
  #instanceId = newInstanceId()
  #context: MethodContext
  #sealedContext: MethodContext
  /** Snapshot ids go on counting across a reset or a load, as Anvil's: an id from before one never names a later snapshot. */
  readonly #snapshotIds = new SnapshotIds()
  readonly #subscriptions: Subscriptions
  readonly #filters: Filters
  /** Opens the chain anew: as created or forking another block (`anvil_reset`), or from a state (`anvil_loadState`). */
  readonly #reopen: (change: Reopening) => Promise<OpenedChain>

  /**
   * Use `createChain`. `setup` is the engine's state source and commitment (a fork's, say);
   * `reopen` opens the chain anew for a reset or a load (by default, a reset gives a fresh
   * engine with `options`, and a load is refused).
   */
  constructor(options: ResolvedChainOptions, setup?: EngineSetup, reopen?: (change: Reopening) => Promise<OpenedChain>) {
    super()
    // Subscriptions and pending sync sends each listen; there is no leak to warn about.
    this.setMaxListeners(0)
    this.#engine = createEngine(options, this, setup, this.#snapshotIds)
    this.#subscriptions = new Subscriptions(() => this.#engine, this)
    this.#filters = new Filters(() => this.#engine, this)
    this.#reopen =
      reopen ??
      (async (change) => {
        if ('state' in change) throw new InvalidInputError('loading a state needs a chain made by createChain')
        return { options, setup: undefined }
      })
    this.#context = this.#contextOf(this.#engine, this.#engine)
    this.#sealedContext = this.#contextOf(this.#engine, this.#engine.sealed)
    this.sealed = { request: (args) => handleRequest(this.#sealedContext, args) }
  }

  /** The engine as it is now (a reset or a load replaces it). */
  protected get [ENGINE](): Engine {
    return this.#engine
  }

  /** This run's id (`hardhat_metadata`'s `instanceId`): random, new at each start, reset and load. */
  get instanceId(): Hex {
    return this.#instanceId
  }

  /** The options in effect, defaults applied. */
  get options(): ResolvedChainOptions {
    return this.#engine.options
  }

  /** The funded dev accounts (their keys sign `eth_sendTransaction`). */
  get accounts(): readonly DevAccount[] {
    return this.#engine.accounts
  }

  /** The clock: `await chain.clock.advance(ms)` fires every tick and seal that falls due. */
  get clock(): Clock {
    return this.#engine.clock
  }

  /** EIP-1193: `await chain.request({ method: 'eth_getBalance', params: [address, 'pending'] })`. */
  request(args: RequestArguments): Promise<unknown> {
    return handleRequest(this.#context, args)
  }

  /**
   * Starts the chain over (`anvil_reset`, `hardhat_reset`): as it was created, or forking
   * `target` (its url, or the current fork's; its block, or the upstream's latest). Snapshots
   * end; subscriptions, listeners and the mining mode switched at run time carry on with the
   * new chain (Anvil keeps its miner's mode).
   */
  async reset(target?: ResetTarget): Promise<void> {
    await this.#replaceEngine(await this.#reopen({ reset: target, live: this.#liveFork() }))
  }

  /**
   * The chain's sealed state as a dump: blocks, every account's history, the clock. As hex of
   * the gzipped JSON (what `anvil_dumpState` answers), or with `'json'` the JSON text (what
   * `--dump-state` writes). Either loads back with {@link loadState} or `createChain({ state })`.
   */
  async dumpState(encoding: 'hex' | 'json' = 'hex'): Promise<string> {
    const json = stateToJson(await this.#engine.dumpState())
    return encoding === 'hex' ? stateToHex(json) : stateToText(json)
  }

  /**
   * Replaces the chain with the state `input` holds (`anvil_loadState`): its blocks, accounts
   * and, under the manual clock, its time. A dump that cannot be read whole is refused and the
   * chain stays as it was. On a fork, the dump must start at the fork block.
   */
  async loadState(input: StateInput): Promise<void> {
    await this.#replaceEngine(await this.#reopen({ state: input, live: this.#liveFork() }))
  }

  #liveFork(): LiveFork | undefined {
    const { upstream } = this.#engine
    return upstream === undefined ? undefined : { url: upstream.url, openedUrl: upstream.openedUrl, blockNumber: upstream.forkNumber }
  }

  /** Swaps in the opened chain; the mining mode and the activity log's switch, set at run time, carry over, as Anvil's do (its logger is the node's). */
  async #replaceEngine({ options, setup }: OpenedChain): Promise<void> {
    const previous = this.#engine
    const engine = createEngine(options, this, setup, this.#snapshotIds)
    await keepMiningMode(previous.mining, engine.mining)
    engine.controls.setLoggingEnabled(previous.controls.loggingEnabled)
    this.#engine = engine
    this.#instanceId = newInstanceId()
    this.#context = this.#contextOf(this.#engine, this.#engine)
    this.#sealedContext = this.#contextOf(this.#engine, this.#engine.sealed)
    previous.close()
  }

  #contextOf(engine: Engine, view: ChainView): MethodContext {
    return { engine, view, subscriptions: this.#subscriptions, filters: this.#filters, lifecycle: this }
  }

  /** Stops the realtime clock driver and closes a fork's upstream connections; the chain keeps answering reads of what it holds. */
  close(): void {
    this.#engine.close()
  }
}

