/**
 * The block builder: a pre-confirmation tick takes transactions from its sources (system
 * first, then the pool) under its policy and runs them on the pending block; a seal turns the
 * pending block into the next sealed block and opens a new one on top.
 */
import { hexToBytes } from '@ethereumjs/util'
import { assembleBlock } from '../blocks/assemble.ts'
import type { IncludedTransaction, SealedBlock } from '../blocks/block.ts'
import type { BlockStore } from '../blocks/block-store.ts'
import type { BlockRules } from '../blocks/block-rules.ts'
import { emptyRequestsHash } from '../blocks/header.ts'
import { UpstreamError } from '../errors.ts'
import { keccak256 } from '../crypto/keccak.ts'
import type { ExecutionEnvironment } from '../execution/execution-environment.ts'
import { runTransaction, UnexecutableTransactionError } from '../execution/run-transaction.ts'
import type { ResolvedChainOptions } from '../options.ts'
import type { UndoLog } from '../snapshots/undo-log.ts'
import type { StateCommitment } from '../state/state-commitment.ts'
import type { StateHistory } from '../state/state-history.ts'
import { StateLayer } from '../state/state-layer.ts'
import type { BlockContext } from '../execution/block-context.ts'
import type { BlockSettings } from './block-settings.ts'
import { PendingBlock } from './pending-block.ts'
import type { BuilderPolicy } from './policy.ts'
import type { Transaction } from '../transactions/transaction.ts'
import type { CandidateQueue, DroppedTransaction, TransactionSource } from './sources.ts'

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
}

/** Builds pre-confirmed blocks from its sources and seals them. */
export class BlockBuilder {
  /** The block being pre-confirmed. */
  pending: PendingBlock

  constructor(
    private readonly parts: BuilderParts,
    firstTimestamp: bigint,
  ) {
    this.pending = this.open(firstTimestamp)
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

  /** Runs one pre-confirmation tick: transactions from each source the policy allows, best first, into the pending block. */
  async preconfirm(): Promise<Preconfirmation> {
    const { environment, policy, sources } = this.parts
    const pending = this.pending
    const { context } = pending
    const index = pending.ticks
    const tick = new StateLayer(pending.state)
    const dropped: DroppedTransaction[] = []
    const included: IncludedTransaction[] = []
    /** What leaves each source once the tick commits. */
    const taken: Array<readonly [TransactionSource, Transaction]> = []
    const budget = policy.gasBudget(context, index)
    let gasUsed = pending.gasUsed
    let logCount = pending.logCount

    /** Set when a forked chain's upstream could not give state a transaction needed: the tick ends there, the transaction stays. */
    let stalled = false
    for (const source of sources) {
      if (stalled) break
      if (!policy.takes(source.kind, index)) continue
      for (const stale of source.prune(tick)) {
        dropped.push(stale)
        taken.push([source, stale.transaction])
      }
      let queue: CandidateQueue
      try {
        const candidates = source.candidates(context, tick)
        queue = candidates instanceof Promise ? await candidates : candidates
      } catch (error) {
        if (!(error instanceof UpstreamError)) throw error
        stalled = true
        break
      }
      for (let transaction = queue.peek(); transaction !== undefined; transaction = queue.peek()) {
        if (budget - gasUsed < transaction.gasLimit) {
          queue.skipped()
          continue
        }
        const scratch = new StateLayer(tick)
        try {
          const receipt = await runTransaction(transaction, scratch, context, { gasUsed, logCount }, environment)
          tick.apply(scratch)
          included.push({ transaction, receipt, index: pending.transactions.length + included.length })
          gasUsed = receipt.cumulativeGasUsed
          logCount += receipt.logs.length
          queue.included()
        } catch (error) {
          if (error instanceof UpstreamError) {
            stalled = true
            break
          }
          // Unexecutable now, or an execution the devnet cannot perform: either way it leaves its
          // source rather than block every later tick.
          const reason = error instanceof UnexecutableTransactionError ? error.message : `execution failed: ${(error as Error).message}`
          dropped.push({ transaction, reason })
          queue.skipped()
        }
        taken.push([source, transaction])
      }
    }

    // Commit the tick at once: readers see all of it or none of it.
    for (const [source, transaction] of taken) source.remove(transaction)
    pending.append({ index, transactions: included, changes: tick, gasUsed, logCount })
    return { blockNumber: context.number, index, transactions: included, dropped }
  }

  /** Seals the pending block as the next block and opens a new pending block at `nextTimestamp` (seconds). */
  seal(nextTimestamp: bigint): SealedBlock {
    const { blocks, history, commitment } = this.parts
    const pending = this.pending
    history.apply(Number(pending.context.number), pending.state)
    commitment.markChanges(pending.state)
    const block = assembleBlock(pending.parts(commitment.compute(history.latest)))
    blocks.append(block)
    this.pending = this.open(nextTimestamp)
    if (this.parts.undoLog.recording) this.parts.undoLog.record(() => (this.pending = pending))
    return block
  }

  /**
   * Gives the pending block, which has pre-confirmed nothing, the context it would open with now
   * at `timestamp` (after a test control changed the time or a block setting).
   */
  refreshPending(timestamp: bigint): void {
    this.pending.updateContext(this.contextAt(timestamp))
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

  /** A new pending block on top of the head. */
  private open(timestamp: bigint): PendingBlock {
    const { blocks, history, options } = this.parts
    return new PendingBlock(
      this.contextAt(timestamp),
      blocks.head.hash,
      { extraData: this.parts.rules.extraData, requestsHash: emptyRequestsHash(options.hardfork) },
      history.latest,
      this.parts.undoLog,
    )
  }
}
