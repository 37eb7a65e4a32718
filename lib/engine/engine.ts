/**
 * The engine: every part of a chain, wired together. It works on typed values only (bigint,
 * bytes, lowercase addresses, parsed block selectors); the chain facade and the RPC method table
 * parse and format at the edge. Each concern is a part of its own:
 *
 * - `blocks` — the block resolver: which block (and state) a read is at;
 * - `reads` — balances, nonces, code and storage at a block; `calls` — eth_call, estimates;
 * - `intake` — transactions entering the mempool; `lookups` — where a transaction is;
 * - `mining` — mining modes, ticks and seals; `controls` — state edits, impersonation, time;
 * - `snapshot` / `revert` — the whole world.
 */
import { hexToBytes } from '@ethereumjs/util'
import { devAccounts, type DevAccount } from '../accounts/dev-accounts.ts'
import { BlockStore } from '../blocks/block-store.ts'
import { BlockSettings } from '../builder/block-settings.ts'
import { BlockBuilder } from '../builder/builder.ts'
import { poolSource, type TransactionSource } from '../builder/sources.ts'
import { BlockSchedule } from '../clock/block-schedule.ts'
import { createClock, type Clock } from '../clock/clock.ts'
import { createSerializer } from '../clock/serializer.ts'
import { createExecutionCommon, createTransactionCommon } from '../execution/common.ts'
import { CallLane } from '../execution/call-lane.ts'
import { historyFreezer } from '../execution/call-state.ts'
import { createDevnetEVM } from '../execution/devnet-evm.ts'
import type { ExecutionEnvironment } from '../execution/execution-environment.ts'
import { LiveChainId } from '../execution/live-chain-id.ts'
import { Faults } from '../faults/faults.ts'
import type { ResolvedChainOptions } from '../options.ts'
import { Snapshots, type SnapshotIds } from '../snapshots/snapshots.ts'
import type { UndoLog } from '../snapshots/undo-log.ts'
import { EVMStateAdapter } from '../state/evm-state-adapter.ts'
import { TrieStateCommitment, type StateCommitment } from '../state/state-commitment.ts'
import { StateHistory } from '../state/state-history.ts'
import { EMPTY_STATE_SOURCE, heldAccount } from '../state/state-source.ts'
import type { StateSource } from '../state/state-view.ts'
import type { SealedBlock } from '../blocks/block.ts'
import type { UserTransaction } from '../transactions/transaction.ts'
import type { Address } from '../types.ts'
import { TxPool } from '../txpool/txpool.ts'
import { BlockResolver, TAG } from './block-resolver.ts'
import { Calls } from './calls.ts'
import type { ChainEmitter } from './events.ts'
import { createGenesis } from './genesis.ts'
import { ETHEREUM_RULES, type ChainRules } from './chain-rules.ts'
import { opStackRules } from '../op-stack/op-stack-rules.ts'
import { TransactionIntake } from './intake.ts'
import { TransactionLookups } from './lookups.ts'
import { Mining } from './mining.ts'
import { StateReads } from './state-reads.ts'
import { Otterscan } from './otterscan.ts'
import { Proofs } from './proofs.ts'
import { rollBack } from './rollback.ts'
import { reorg, type ReorgPlacement } from './reorg.ts'
import { FaultControls } from './fault-controls.ts'
import { Simulation } from './simulation.ts'
import { TestControls } from './test-controls.ts'
import { TokenBalances } from './token-balances.ts'
import { Tracing } from './tracing.ts'
import { captureChainState, restoreChainState, type ChainState } from '../persistence/chain-state.ts'
import type { UpstreamChain } from './upstream-chain.ts'
import { Wallet } from './wallet.ts'

/**
 * What readers of one endpoint see of the chain: blocks, state, calls and transaction lookups.
 * The engine itself is the pre-confirmation view (`pending` is the pre-confirmed block); its
 * `sealed` view is the standard endpoint of the same chain (`pending` is the newest sealed
 * block and a receipt exists once sealed), as Base serves both.
 */
export interface ChainView {
  readonly blocks: BlockResolver
  readonly reads: StateReads
  readonly calls: Calls
  readonly lookups: TransactionLookups
}

/** A chain's engine: its parts, by concern. */
export interface Engine extends ChainView {
  /** The options in effect, defaults applied. */
  readonly options: ResolvedChainOptions
  /** The chain id in effect: the options' until `anvil_setChainId` changes it. */
  readonly chainId: bigint
  /** The funded dev accounts (their keys sign `eth_sendTransaction`). */
  readonly accounts: readonly DevAccount[]
  /** The chain's clock: advancing it fires every tick and seal that falls due. */
  readonly clock: Clock
  /** The standard endpoint's view of the same chain. */
  readonly sealed: ChainView
  readonly intake: TransactionIntake
  /** The dev-account wallet: signs transactions, messages and typed data for the dev accounts. */
  readonly wallet: Wallet
  readonly mining: Mining
  readonly controls: TestControls
  /** `anvil_dealERC20`, `anvil_setERC20Allowance`. */
  readonly tokens: TokenBalances
  /** `debug_trace*`: re-executes transactions and calls with a tracer. */
  readonly tracing: Tracing
  /** Otterscan's searches of the sealed blocks (`ots_*`). */
  readonly otterscan: Otterscan
  /** `eth_getProof`, `eth_getAccount`. */
  readonly proofs: Proofs
  /** `eth_simulateV1`. */
  readonly simulation: Simulation
  /** A forked chain's upstream (undefined for a fresh chain). */
  readonly upstream: UpstreamChain | undefined
  /** The chain's rules: Ethereum's, or an OP stack's (a preset). */
  readonly rules: ChainRules
  /** The addresses of the precompiles the EVM runs: the hardfork's and the rules' own. */
  readonly precompiles: readonly Address[]
  /** The failure modes in force (`--profile`, the fault switches, stalls and skipped ticks). */
  readonly faults: Faults
  /** Drops and stalls on request (`preconf_dropPreconfirmations`, `preconf_stall`). */
  readonly faultControls: FaultControls
  /** The chain's sealed state, as a dump holds it (`anvil_dumpState`). */
  dumpState(): Promise<ChainState>
  /** Stops the realtime clock and closes a fork's upstream. */
  close(): void
  /** Snapshots the whole world (state, history, pending block, mempool, clock); returns its id. */
  snapshot(): Promise<number>
  /** Returns the world to snapshot `id` (discarding it and every later one); false if it is not open. */
  revert(id: number): Promise<boolean>
  /** Takes the last `depth` blocks away (`anvil_rollback`). */
  rollback(depth: number): Promise<void>
  /** Replaces the last `depth` blocks with new ones holding `placements` (`anvil_reorg`). */
  reorg(depth: number, placements: readonly ReorgPlacement[]): Promise<void>
}

/** Where a chain's state comes from, beyond what it writes itself (a fresh chain: nothing). */
export interface EngineSetup {
  /** What reads of keys the chain never wrote fall through to (a fork's upstream, a test double; a loaded dump is restored into the history instead). */
  readonly source: StateSource
  /** What computes the state roots of sealed blocks (a trie over the state the chain wrote, or a fixed root). */
  readonly commitment: (undoLog: UndoLog) => StateCommitment
  /** The block the chain starts from instead of a genesis of its own (a fork's block), its dev accounts funded by the source. */
  readonly origin?: SealedBlock
  /** A forked chain's upstream: reads of its blocks go there. */
  readonly upstream?: UpstreamChain
  /** A dumped state to start from (its blocks and versions; with the manual clock, its clock too). */
  readonly state?: ChainState
}

/** A fresh chain: an empty source, real state roots. */
const FRESH_CHAIN: EngineSetup = { source: EMPTY_STATE_SOURCE, commitment: (undoLog) => new TrieStateCommitment(undoLog) }

/** Builds the engine of a chain with `options`, emitting its events on `events`, its snapshots numbered by `snapshotIds`. */
export function createEngine(options: ResolvedChainOptions, events: ChainEmitter, setup: EngineSetup = FRESH_CHAIN, snapshotIds?: SnapshotIds): Engine {
  const serialize = createSerializer()
  const snapshots = new Snapshots(snapshotIds)
  const undoLog = snapshots.log
  const accounts = devAccounts(options.mnemonic, options.accounts)
  const pool = new TxPool(undoLog, options.txpool)
  const store = new BlockStore(undoLog)
  const history = new StateHistory(setup.source, undoLog, options.pruneHistory)
  const commitment = setup.commitment(undoLog)
  const rules: ChainRules = options.opStack === undefined ? ETHEREUM_RULES : opStackRules(options.opStack, undoLog)
  const evmState = new EVMStateAdapter()
  const chainId = new LiveChainId(BigInt(options.chainId))
  const environment: ExecutionEnvironment = {
    evm: createDevnetEVM(chainId.bind(createExecutionCommon(options.chainId, options.hardfork)), evmState, (number) => {
      const block = store.byNumber(number)
      if (block !== undefined) return hexToBytes(block.hash)
      return setup.upstream?.blockHash(BigInt(number))
    }, rules.precompiles),
    state: evmState,
    transactionCommon: chainId.bind(createTransactionCommon(options.chainId, options.hardfork, options.opStack?.transactionGasCap === true)),
    chainId,
    fees: rules.fees,
  }
  const restored = setup.state
  if (restored !== undefined) restoreChainState(restored, { blocks: store, history, commitment })
  else store.append(setup.origin ?? createGenesis(options, accounts, rules, history, commitment))

  // A loaded state continues its own clock under the manual clock; the realtime clock goes on from now.
  const continues = restored !== undefined && options.clock === 'manual'
  const start = continues ? restored.clockMs : options.genesisTimestamp * 1000
  const faults = new Faults(options.profile, options.seed, { ...options.faults }, {
    ticksPerBlock: () => Math.max(1, Math.floor(schedule.blockTime / schedule.tickInterval)),
  })
  const schedule = new BlockSchedule(start, options.preconfIntervalMs, options.blockTimeMs, (nominalMs) => faults.tickJitter(nominalMs))
  if (continues) schedule.resume(restored.schedule, start)
  const settings = new BlockSettings(options.coinbase, options.blockGasLimit)
  // A loaded state's settings win over the options, as Anvil's dumped block environment does.
  if (restored?.settings !== undefined) settings.resume(restored.settings)
  // System transactions (an OP-stack chain's deposits) first, then the mempool.
  const sources: TransactionSource[] = rules.deposits === undefined ? [poolSource(pool)] : [rules.deposits, poolSource(pool)]
  const builder = new BlockBuilder(
    {
      options,
      blocks: store,
      history,
      commitment,
      environment,
      sources,
      policy: faults.policyOver(rules.policy),
      rules: rules.blocks,
      settings,
      undoLog,
      // Under automine (or instant mining) a transaction the upstream held back is mined once it
      // can run; a failure there has no request to answer, and the next tick meets it again.
      upstreamRecovered: () => void serialize(() => mining.afterAdmission()).catch(() => undefined),
    },
    schedule.timestampAfter(store.head.header.timestamp),
  )
  const now = (): number => clock.now()
  const freezePending = () => builder.pending.copyOver(history.at(Number(store.head.header.number)))
  const requeue = (transaction: UserTransaction) => pool.insert(transaction)
  // The pool's queued transactions expire on the chain's clock, as it moves (geth's eviction ticker).
  const expirePool = (at: number): void => pool.expire({ nonceOf: (sender) => heldAccount(builder.pending.state, sender)?.nonce ?? 0n, now: at })
  const faultControls = new FaultControls({ builder, events, serialize, faults, now, requeue, freezePending })
  const withdraw = faultControls.withdraw.bind(faultControls)
  const mining = new Mining({ builder, blocks: store, schedule, events, serialize, now, faults, withdraw, freezePending, expirePool }, options.mining)
  const clock = createClock(options.clock, start, mining.timeline, serialize)
  faults.opened(builder.pending.context.number, start, freezePending)
  const blocks = new BlockResolver({
    blocks: store,
    history,
    builder,
    safeLag: options.safeLag,
    finalizedLag: options.finalizedLag,
    upstream: setup.upstream,
    faults,
  })
  // Calls, estimates, traces and simulations run on one lane: EVMs of their own, time-boxed, frozen state once long.
  const lane = new CallLane({ environment, serialize, timeoutMs: options.callTimeoutMs, freeze: historyFreezer(history, () => store.head.header.number) })
  const calls = new Calls(blocks, lane)
  const reads = new StateReads(blocks, pool, faults.switches)
  const lookups = new TransactionLookups(pool, rules.deposits, builder, store, clock, events, () => blocks.pendingServed)
  const sealedBlocks = blocks.withPending('latest')
  const sealed: ChainView = {
    blocks: sealedBlocks,
    reads: new StateReads(sealedBlocks, pool),
    calls: new Calls(sealedBlocks, lane),
    lookups: lookups.sealedOnly(),
  }
  const wallet = new Wallet(accounts, environment.transactionCommon)

  const controls = new TestControls({ history, pool, settings, clock, blocks: store, builder, commitment, schedule, mining, wallet, chainId, serialize, withdraw })
  snapshots.register(() => {
    const time = clock.now()
    return () => clock.restore(time)
  })
  // Before the schedule's: a tick's jitter is recomputed with the switches restored.
  snapshots.register(() => faults.capture())
  snapshots.register(() => {
    const state = schedule.capture()
    return () => schedule.restore(state)
  })
  snapshots.register(() => mining.capture())
  snapshots.register(() => settings.capture())
  snapshots.register(() => wallet.capture())

  const precompiles = [...environment.evm.precompiles.keys()].map((key): Address => `0x${key}`)
  const tracing = new Tracing({ blocks, store, history, builder, lookups, lane, hardfork: options.hardfork, precompiles: new Set(precompiles) })
  const intake = new TransactionIntake({ pool, builder, environment, wallet, calls, mining, events, settings, serialize, deposits: rules.deposits, poolNonce: (address) => reads.poolNonce(address), pendingNonce: (address) => reads.nonce(address, TAG.pending), now, filledTip: () => rules.blocks.filledTip(blocks.head) })
  const rollbackParts = { blocks: store, history, commitment, builder, mining, schedule, now, requeue }

  return {
    options,
    get chainId() {
      return chainId.value
    },
    accounts,
    clock,
    blocks,
    reads,
    calls,
    lookups,
    sealed,
    intake,
    wallet,
    mining,
    controls,
    tokens: new TokenBalances({ blocks, environment, controls, serialize }),
    tracing,
    otterscan: new Otterscan({ history, tracing }),
    proofs: new Proofs({ blocks, history, commitment, upstream: setup.upstream }),
    simulation: new Simulation({ blocks, environment, rules: rules.blocks, lane, hardfork: options.hardfork }),
    upstream: setup.upstream,
    rules,
    precompiles,
    faults,
    faultControls,
    dumpState: () => serialize(async () => captureChainState({ blocks: store, history, commitment }, setup.source, { chainId: Number(chainId.value), preset: options.preset }, clock.now(), schedule.capture(), settings.saved)),
    close() {
      clock.stop()
      lookups.endWaits()
      builder.close()
      setup.upstream?.close()
    },
    snapshot: () => serialize(async () => snapshots.take()),
    revert: (id) => serialize(async () => snapshots.revert(id)),
    rollback: (depth) => serialize(async () => rollBack(rollbackParts, depth)),
    reorg: (depth, placements) => reorg({ rollback: rollbackParts, intake, reads, wallet, serialize }, depth, placements),
  }
}
