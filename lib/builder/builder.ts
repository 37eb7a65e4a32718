/**
 * The block builder: a pre-confirmation tick takes transactions from its sources (system
 * first, then the pool) under its policy and runs them on the pending block; a seal turns the
 * pending block into the next sealed block and opens a new one on top.
 */
import { equalsBytes, hexToBytes } from '@ethereumjs/util'
import { assembleBlock } from '../blocks/assemble.ts'
import type { IncludedTransaction, SealedBlock } from '../blocks/block.ts'
import type { BlockStore } from '../blocks/block-store.ts'
import type { BlockRules } from '../blocks/block-rules.ts'
import { emptyRequestsHash } from '../blocks/header.ts'
import { keccak256 } from '../crypto/keccak.ts'
import type { ExecutionEnvironment } from '../execution/execution-environment.ts'
import { keepsBlockHashes, startBlock } from '../execution/system-contracts.ts'
import type { ResolvedChainOptions } from '../options.ts'
import type { UndoLog } from '../snapshots/undo-log.ts'
import type { StateCommitment } from '../state/state-commitment.ts'
import type { StateHistory } from '../state/state-history.ts'
import type { BlockContext } from '../execution/block-context.ts'
import type { BlockSettings } from './block-settings.ts'
import { PendingBlock } from './pending-block.ts'
import type { BuilderPolicy } from './policy.ts'
import type { ChoiceWatch, DroppedTransaction, TransactionSource } from './sources.ts'
import { fillTick, slicedPause, startTick, type TickParts, type TickWork } from './tick-work.ts'
import { UpstreamWaits } from './upstream-waits.ts'

/** What one tick pre-confirmed. */
export interface Preconfirmation {
  /** The pending block's number. */
  readonly blockNumber: bigint
  /** The flashblock index: 0 for a block's first tick. */
  readonly index: number
  /** The transactions new in this tick (possibly none). */
  readonly transactions: readonly IncludedTransaction[]
  /** Transactions dropped because they could not execute, with why. */
  readonly dropped: readonly DroppedTransaction[]
}

/** The parts of a chain the builder works on. */
export interface BuilderParts {
  readonly options: ResolvedChainOptions
  readonly blocks: BlockStore
  readonly history: StateHistory
  readonly commitment: StateCommitment
  readonly environment: ExecutionEnvironment
  /** Where transactions come from, in the order each tick takes them. */
  readonly sources: readonly TransactionSource[]
  /** Which ticks run, what they take and their gas budget. */
  readonly policy: BuilderPolicy
  /** The coinbase, gas limit and one-off values test controls set for new blocks. */
  readonly settings: BlockSettings
  /** Records the builder's mutations while a snapshot is open. */
  readonly undoLog: UndoLog
  /** The chain's base fee rule and extraData (Ethereum's, or an OP-stack chain's). */
  readonly rules: BlockRules
  /** On a fork: a transaction that waited for state its upstream failed to give can run now. */
  readonly upstreamRecovered?: () => void
}

/** A tick worked out ahead, on `pending` at `revision`, with the watches of the sources it took from. */
interface Draft {
  readonly pending: PendingBlock
  readonly revision: number
  readonly work: TickWork
  readonly watches: ReadonlyArray<readonly [TransactionSource, ChoiceWatch]>
}

/** Builds pre-confirmed blocks from its sources and seals them. */
export class BlockBuilder {
  /** The block being pre-confirmed. */
  pending: PendingBlock
  /** The next tick, worked out ahead (see {@link prepareTick}). */
  private draft: Draft | undefined
  /** On a fork: the transactions that sit out the ticks until the upstream gives the state they read. */
  private readonly waits: UpstreamWaits | undefined

  constructor(
    private readonly parts: BuilderParts,
    firstTimestamp: bigint,
  ) {
    this.pending = this.open(firstTimestamp)
    if (parts.options.fork !== undefined) this.waits = new UpstreamWaits(() => parts.upstreamRecovered?.())
  }

  /**
   * Whether the pending block still waits for its opening pre-confirmation: on a chain whose
   * first pre-confirmation of a block takes only system transactions (an OP-stack chain's
   * flashblock index 0), that one runs before any tick that takes the mempool, and before a seal.
   */
  get awaitsOpening(): boolean {
    return this.pending.ticks === 0 && !this.parts.policy.takes('user', 0)
  }

  /** The index of the block's first pre-confirmation that takes user transactions (1 where index 0 holds only system ones). */
  get firstUserIndex(): number {
    return this.parts.policy.takes('user', 0) ? 0 : 1
  }

  /**
   * Runs one pre-confirmation tick: transactions from each source the policy allows, best first,
   * into the pending block. A draft of this tick that still holds is taken up where it stopped.
   * `userSource` stands in for the mempool in this tick alone (no draft is taken then).
   */
  async preconfirm(userSource?: TransactionSource): Promise<Preconfirmation> {
    let draft: TickWork | undefined
    let parts = this.tickParts
    if (userSource === undefined) {
      draft = this.takeDraft()
    } else {
      this.discardDraft()
      parts = { ...parts, sources: this.parts.sources.map((source) => (source.kind === 'user' ? userSource : source)) }
    }
    const work = draft ?? startTick(this.pending)
    await fillTick(work, parts, draft === undefined)

    // Commit the tick at once: readers see all of it or none of it.
    const { pending } = this
    for (const [source, transaction] of work.taken) source.remove(transaction)
    pending.append({ index: work.index, transactions: work.included, changes: work.tick, reads: work.reads, gasUsed: work.gasUsed, logCount: work.logCount })
    return { blockNumber: pending.context.number, index: work.index, transactions: work.included, dropped: work.dropped }
  }

  /**
   * Works out the next tick ahead of its instant (a draft; returns the transactions it took),
   * so that the tick itself only adds what arrived since: its transactions run and its tries
   * grow now, while the node has time.
   * The tick takes the draft up only if nothing it rests on changed (see {@link takeDraft}), so
   * a tick gives the same block with a draft or without. A long draft lets the event loop turn
   * every few milliseconds. No draft is made where a source the tick takes from cannot be
   * watched (an OP-stack chain's deposits), nor on a forked chain: its draft could wait on the
   * upstream while holding the serializer, and the tick would wait again if the upstream failed.
   */
  async prepareTick(): Promise<readonly IncludedTransaction[]> {
    if (this.draft !== undefined) {
      if (this.draftHolds(this.draft)) return []
      this.discardDraft()
    }
    const { policy, sources, options } = this.parts
    if (options.fork !== undefined) return []
    const pending = this.pending
    const index = pending.ticks
    const taking = sources.filter((source) => policy.takes(source.kind, index))
    if (taking.some((source) => source.watch === undefined)) return []
    const revision = pending.revision
    const work = startTick(pending)
    const watches = taking.map((source) => [source, source.watch!(pending.context)] as const)
    try {
      await fillTick(work, this.tickParts, true, slicedPause())
    } catch (error) {
      for (const [, watch] of watches) watch.end()
      throw error
    }
    if (work.stalled || pending !== this.pending || pending.revision !== revision) {
      for (const [, watch] of watches) watch.end()
      return []
    }
    pending.growCommitments(work.included)
    this.draft = { pending, revision, work, watches }
    return work.included
  }

  private get tickParts(): TickParts {
    const { sources, policy, environment } = this.parts
    return { pending: this.pending, sources, policy, environment, waits: this.waits }
  }

  /** Stops what runs in the background (a fork's fetches for waiting transactions). */
  close(): void {
    this.waits?.close()
  }

  /** The draft, if it still holds for the tick about to run; the draft is used up either way. */
  private takeDraft(): TickWork | undefined {
    const draft = this.draft
    if (draft === undefined) return undefined
    const holds = this.draftHolds(draft)
    this.discardDraft()
    return holds ? draft.work : undefined
  }

  /**
   * Whether a tick run now would begin as `draft` did: the same pending block, unchanged (no
   * tick, edit, truncation or new context since), and each watched source's first choices the
   * same.
   */
  private draftHolds(draft: Draft): boolean {
    const { pending, revision, work, watches } = draft
    if (pending !== this.pending || pending.revision !== revision) return false
    return watches.every(([source, watch]) => watch.holds(work.tried.get(source) ?? []))
  }

  /** Drops the draft, if any. */
  private discardDraft(): void {
    for (const [, watch] of this.draft?.watches ?? []) watch.end()
    this.draft = undefined
  }

  /** Seals the pending block as the next block and opens a new pending block at `nextTimestamp` (seconds). */
  seal(nextTimestamp: bigint): SealedBlock {
    const { blocks, history, commitment } = this.parts
    const pending = this.pending
    this.discardDraft()
    history.apply(Number(pending.context.number), pending.state)
    commitment.markChanges(pending.state)
    const stateRoot = commitment.compute(history.latest)
    const { withdrawalsAccount } = this.parts.rules
    const withdrawalsRoot = withdrawalsAccount === undefined ? undefined : commitment.storageRoot(history.latest, withdrawalsAccount)
    const block = assembleBlock({ ...pending.parts(stateRoot), withdrawalsRoot })
    blocks.append(block)
    this.pending = this.open(nextTimestamp)
    if (this.parts.undoLog.recording) this.parts.undoLog.record(() => (this.pending = pending))
    return block
  }

  /** Discards the pending block and opens a new one on the head, which changed under it (`anvil_rollback`). */
  reopen(timestamp: bigint): void {
    const pending = this.pending
    this.discardDraft()
    this.pending = this.open(timestamp)
    if (this.parts.undoLog.recording) this.parts.undoLog.record(() => (this.pending = pending))
  }

  /**
   * Whether the pending block holds nothing a test control must keep: no transaction, or only
   * those its sources make afresh for each block (an OP-stack chain's opening L1-attributes
   * deposit, which a new timestamp changes). Test controls re-stamp such a block.
   */
  get untouched(): boolean {
    return this.pending.transactions.every(({ transaction }) => this.parts.sources.some((source) => source.remakes?.(transaction) === true))
  }

  /**
   * Gives the pending block, which holds no user pre-confirmation (its opening one at most), the
   * context it would open with now at `timestamp` (after a test control changed the time or a
   * block setting). A block holding its opening pre-confirmation opens anew, to run it again for
   * that context: the queued deposits it held go back to their source first, ahead of the rest.
   */
  refreshPending(timestamp: bigint): void {
    if (this.pending.transactions.length === 0) {
      this.pending.updateContext(this.contextAt(timestamp))
      return
    }
    const held = this.pending.transactions.map(({ transaction }) => transaction)
    for (const source of this.parts.sources) source.restore?.(held)
    this.reopen(timestamp)
  }

  /** Whether the pending block's context is the one it would open with now at `timestamp` (a test control changed nothing it reads). */
  keepsContextAt(timestamp: bigint): boolean {
    const now = this.pending.context
    const then = this.contextAt(timestamp)
    return (
      now.timestamp === then.timestamp &&
      now.baseFeePerGas === then.baseFeePerGas &&
      now.gasLimit === then.gasLimit &&
      now.coinbase === then.coinbase &&
      equalsBytes(now.prevRandao, then.prevRandao)
    )
  }

  /** The context of the block after the head, at `timestamp`, under the block settings. */
  private contextAt(timestamp: bigint): BlockContext {
    const { blocks, settings } = this.parts
    const parent = blocks.head
    const number = parent.header.number + 1n
    return {
      number,
      timestamp,
      baseFeePerGas: settings.baseFeeFor(number) ?? this.parts.rules.nextBaseFee(parent.header),
      gasLimit: settings.gasLimit,
      coinbase: settings.coinbase,
      prevRandao: settings.prevRandaoFor(number) ?? keccak256(hexToBytes(parent.hash)),
    }
  }

  /** A new pending block on top of the head; from Prague, it opens with EIP-2935's system call (kept through a truncation, as an edit is). */
  private open(timestamp: bigint): PendingBlock {
    const { blocks, history, options } = this.parts
    const context = this.contextAt(timestamp)
    const parentHash = blocks.head.hash
    const pending = new PendingBlock(context, parentHash, { extraData: this.parts.rules.extraData, requestsHash: emptyRequestsHash(options.hardfork) }, history.latest, this.parts.undoLog)
    if (keepsBlockHashes(options.hardfork)) pending.edit((state) => startBlock(state, options.hardfork, context.number, parentHash))
    return pending
  }
}
