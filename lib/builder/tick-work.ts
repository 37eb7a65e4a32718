/**
 * One pre-confirmation tick's work: the candidates of each source, best first, run on a layer
 * over the pending block while the gas budget lasts, with what each source gives up and why.
 * The builder runs it at the tick, or ahead of it as a draft that the tick then continues.
 */
import type { IncludedTransaction } from '../blocks/block.ts'
import { UpstreamError } from '../errors.ts'
import type { ExecutionEnvironment } from '../execution/execution-environment.ts'
import { runTransaction, StaleNonceError, UnexecutableTransactionError } from '../execution/run-transaction.ts'
import { SLICE_MS } from '../clock/serializer.ts'
import { ReadRecorder } from '../state/read-recorder.ts'
import { StateLayer } from '../state/state-layer.ts'
import { StateLoadError } from '../state/state-source.ts'
import type { Transaction } from '../transactions/transaction.ts'
import { daFootprint, type PendingBlock } from './pending-block.ts'
import type { BuilderPolicy } from './policy.ts'
import type { CandidateQueue, DroppedTransaction, TransactionSource } from './sources.ts'
import type { UpstreamWaits } from './upstream-waits.ts'

/** A tick in progress: its writes, and what it took from its sources and why. */
export interface TickWork {
  /** The flashblock index it will have. */
  readonly index: number
  /** Its writes, over the pending block. */
  readonly tick: StateLayer
  /** What it read of the pending block, accounts and storage (its own writes aside). */
  readonly reads: ReadRecorder
  readonly included: IncludedTransaction[]
  readonly dropped: DroppedTransaction[]
  /** What leaves each source once the tick commits (included or dropped), in order, and as a set. */
  readonly taken: Array<readonly [TransactionSource, Transaction]>
  readonly takenSet: Set<Transaction>
  /** Each source's transactions tried (pruned, skipped, dropped or included), in order: what a draft's choices rest on. */
  readonly tried: Map<TransactionSource, Transaction[]>
  /** The block's gas used, log count and DA footprint (an OP-stack block's, Jovian) with the tick so far. */
  gasUsed: bigint
  logCount: number
  daFootprint: bigint
  /** Set when a forked chain's upstream could not give state the tick needed other than a user transaction's (a system source's): the tick ends there, what needed it stays. */
  stalled: boolean
}

/** A tick on `pending` as it stands, with nothing done yet. */
export function startTick(pending: PendingBlock): TickWork {
  const reads = new ReadRecorder(pending.state)
  return {
    index: pending.ticks,
    tick: new StateLayer(reads),
    reads,
    included: [],
    dropped: [],
    taken: [],
    takenSet: new Set(),
    tried: new Map(),
    gasUsed: pending.gasUsed,
    logCount: pending.logCount,
    daFootprint: daFootprint(pending.transactions),
    stalled: false,
  }
}

/** What a tick runs on: the block, its sources and rules, and the EVM. */
export interface TickParts {
  readonly pending: PendingBlock
  readonly sources: readonly TransactionSource[]
  readonly policy: BuilderPolicy
  readonly environment: ExecutionEnvironment
  /** On a fork: the user transactions waiting for state the upstream failed to give, which sit out the tick. */
  readonly waits?: UpstreamWaits
}

/**
 * Runs `work` on: the candidates of each source the policy allows, best first, while the gas
 * budget lasts (and, on an OP-stack chain, the block's DA footprint stays within its gas limit). `prune`: take out first what can never execute (a continued draft did that).
 * `pause`, after each transaction taken: a wait to sit out, if any.
 */
export async function fillTick(work: TickWork, { pending, sources, policy, environment, waits }: TickParts, prune: boolean, pause?: () => Promise<void> | undefined): Promise<void> {
  const { context } = pending
  const { tick, included, dropped, taken, takenSet } = work
  const budget = policy.gasBudget(context, work.index)
  const take = (source: TransactionSource, transaction: Transaction): void => {
    taken.push([source, transaction])
    takenSet.add(transaction)
  }

  for (const source of sources) {
    if (work.stalled) break
    if (!policy.takes(source.kind, work.index)) continue
    let tried = work.tried.get(source)
    if (tried === undefined) work.tried.set(source, (tried = []))
    if (prune) {
      for (const stale of source.prune(tick)) {
        dropped.push(stale)
        take(source, stale.transaction)
        tried.push(stale.transaction)
      }
    }
    let queue: CandidateQueue
    try {
      const candidates = source.candidates(context, tick)
      queue = candidates instanceof Promise ? await candidates : candidates
    } catch (error) {
      if (!(error instanceof UpstreamError)) throw error
      work.stalled = true
      break
    }
    for (let transaction = queue.peek(); transaction !== undefined; transaction = queue.peek()) {
      // A continued draft meets again what it dropped (still in its source until the commit): as then, it and its sender wait.
      if (takenSet.has(transaction) || budget - work.gasUsed < transaction.gasLimit || waits?.holds(transaction) === true) {
        queue.skipped()
        tried.push(transaction)
        continue
      }
      const scratch = new StateLayer(tick)
      try {
        const receipt = await runTransaction(transaction, scratch, context, { gasUsed: work.gasUsed, logCount: work.logCount }, environment)
        // Jovian: a block's DA footprint stays within its gas limit; a transaction past it waits, as one past the gas does,
        // and one past it alone can never be included.
        const footprint = receipt.l1?.daFootprint
        if (footprint !== undefined && footprint > context.gasLimit) throw new UnexecutableTransactionError(`DA footprint ${footprint} exceeds the block gas limit ${context.gasLimit}`)
        if (footprint !== undefined && work.daFootprint + footprint > context.gasLimit) {
          queue.skipped()
          tried.push(transaction)
          continue
        }
        work.daFootprint += footprint ?? 0n
        tick.apply(scratch)
        included.push({ transaction, receipt, index: pending.transactions.length + included.length })
        work.gasUsed = receipt.cumulativeGasUsed
        work.logCount += receipt.logs.length
        queue.next()
      } catch (error) {
        if (error instanceof StateLoadError && waits !== undefined && source.kind === 'user') {
          // It and its sender's later transactions wait for that state; the other senders' go on.
          waits.add(transaction, error, () => source.holds?.(transaction) === true)
          queue.skipped()
          tried.push(transaction)
          continue
        }
        if (error instanceof UpstreamError) {
          work.stalled = true
          break
        }
        // Unexecutable now, or an execution the devnet cannot perform: either way it leaves its
        // source rather than block every later tick.
        const reason = error instanceof UnexecutableTransactionError ? error.message : `execution failed: ${(error as Error).message}`
        dropped.push({ transaction, reason })
        // As geth's miner shifts past a nonce too low: the sender's next transaction may run now.
        if (error instanceof StaleNonceError) queue.next()
        else queue.skipped()
      }
      tried.push(transaction)
      take(source, transaction)
      const turn = pause?.()
      if (turn !== undefined) await turn
    }
  }
}

/**
 * A draft's pause: once {@link SLICE_MS} has passed since the last turn of the event loop, a
 * turn (still holding the serializer: reads, `eth_chainId` and timers are served meanwhile, and
 * nothing that could change the tick's inputs runs).
 */
export function slicedPause(): () => Promise<void> | undefined {
  let since = performance.now()
  return () => {
    if (performance.now() - since < SLICE_MS) return undefined
    return new Promise<void>((resume) => setImmediate(resume)).then(() => {
      since = performance.now()
    })
  }
}
