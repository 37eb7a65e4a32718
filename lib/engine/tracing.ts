/**
 * Transaction and call tracing (`debug_trace*`, `trace_*`): geth's struct logger, callTracer and
 * prestateTracer (and its diffMode), Parity's flat traces and replays. A transaction is traced by re-executing its block on throwaway state layers:
 * from the state its block started on (the end of the block before; the head for the
 * pre-confirmed block) and the system calls it opened with, the block's earlier transactions are
 * replayed in its context, then the
 * transaction runs with the tracer attached. A call runs as `eth_call` does, with the tracer
 * attached. Nothing here writes chain state; every trace runs on the call lane (its turn on the
 * serializer, an EVM of its own, geth's time box and its `execution timeout`).
 */
import type { IncludedTransaction, SealedBlock } from '../blocks/block.ts'
import type { BlockStore } from '../blocks/block-store.ts'
import type { TransactionReceipt } from '../blocks/receipt.ts'
import type { BlockBuilder } from '../builder/builder.ts'
import type { PendingBlockView } from '../builder/pending-block.ts'
import { toHex } from '../bytes.ts'
import { ExecutionFailedError, ResourceNotFoundError } from '../errors.ts'
import type { BlockContext } from '../execution/block-context.ts'
import type { CallLane, CallRun } from '../execution/call-lane.ts'
import type { Hardfork } from '../execution/common.ts'
import type { CallRequest } from '../execution/run-call.ts'
import { runTransaction, UnexecutableTransactionError } from '../execution/run-transaction.ts'
import { startBlock } from '../execution/system-contracts.ts'
import type { BlockPosition } from '../execution/transaction-outcome.ts'
import { CallTracer, type CallFrame } from '../execution/tracers/call-tracer.ts'
import { FourByteTracer } from '../execution/tracers/four-byte-tracer.ts'
import { prestateDiff, type PrestateDiff } from '../execution/tracers/prestate-diff.ts'
import { ParityTracer, type ParityTrace } from '../execution/tracers/parity-tracer.ts'
import { PrestateTracer, type Prestate } from '../execution/tracers/prestate-tracer.ts'
import { ReplayTracer, type ReplayResult } from '../execution/tracers/replay-tracer.ts'
import { StructLogger, type StructLoggerResult } from '../execution/tracers/struct-logger.ts'
import { traceCall, traceTransaction } from '../execution/tracers/traced-run.ts'
import type { TracerHooks, TracerSpec } from '../execution/tracers/tracer.ts'
import type { StateHistory } from '../state/state-history.ts'
import { StateLayer } from '../state/state-layer.ts'
import { withOverrides, type CallOverrides } from '../state/state-overrides.ts'
import type { StateView } from '../state/state-view.ts'
import type { Address, Hash } from '../types.ts'
import type { BlockResolver, BlockSelector } from './block-resolver.ts'
import type { TransactionLookups } from './lookups.ts'

/** What tracing reads and re-executes. */
export interface TracingParts {
  readonly blocks: BlockResolver
  readonly store: BlockStore
  readonly history: StateHistory
  readonly builder: BlockBuilder
  readonly lookups: TransactionLookups
  /** Where the traces run: the engine's call lane (its own EVMs, time-boxed). */
  readonly lane: CallLane
  /** The chain's hardfork: which system calls a re-executed block opens with. */
  readonly hardfork: Hardfork
  /** The precompiles' addresses: a replay's flat traces leave out calls to them. */
  readonly precompiles: ReadonlySet<Address>
}

/** Where tracing finds transactions and blocks: the engine's own view, or an endpoint's (the sealed one). */
export interface TracingView {
  readonly blocks: BlockResolver
  readonly lookups: TransactionLookups
}

/** What a tracer produced, by tracer. */
export type TraceResult =
  | { readonly tracer: 'structLogger'; readonly result: StructLoggerResult }
  | { readonly tracer: 'callTracer'; readonly result: CallFrame }
  | { readonly tracer: 'prestateTracer'; readonly result: Prestate }
  | { readonly tracer: 'prestateDiff'; readonly result: PrestateDiff }
  | { readonly tracer: '4byteTracer'; readonly result: Map<string, number> }
  | { readonly tracer: 'noopTracer' }
  | { readonly tracer: 'parity'; readonly result: ParityTrace[] }
  | { readonly tracer: 'replay'; readonly result: ReplayResult }

/** The frames of a trace run with the Parity tracer (`{ tracer: 'parity' }`). */
export function parityFrames(trace: TraceResult): ParityTrace[] {
  if (trace.tracer !== 'parity') throw new Error(`expected parity traces, got ${trace.tracer}`)
  return trace.result
}

/** What a replay found (`{ tracer: 'replay' }`). */
export function replayed(trace: TraceResult): ReplayResult {
  if (trace.tracer !== 'replay') throw new Error(`expected a replay, got ${trace.tracer}`)
  return trace.result
}

/** One transaction's trace within a block trace. */
export interface TransactionTrace {
  readonly hash: Hash
  readonly trace: TraceResult
  /** Where it was traced: its block's number and hash (none for the pre-confirmed block), and its index there. */
  readonly place: { readonly blockNumber: bigint; readonly blockHash: Hash | undefined; readonly index: number }
}

/** A block as re-execution needs it: its transactions, the state before it, its context and its parent's hash (and, once sealed, its own). */
interface ExecutedBlock {
  readonly transactions: readonly IncludedTransaction[]
  readonly parent: StateView
  readonly context: BlockContext
  readonly parentHash: Hash
  readonly hash: Hash | undefined
}

/** Where the transaction at `index` of `block` is, as a trace reports it. */
function placeOf(block: ExecutedBlock, index: number): TransactionTrace['place'] {
  return { blockNumber: block.context.number, blockHash: block.hash, index }
}

/** Where a receipt's transaction sat in its block. */
function positionOf(receipt: TransactionReceipt): BlockPosition {
  return { gasUsed: receipt.cumulativeGasUsed - receipt.gasUsed, logCount: receipt.firstLogIndex }
}

/**
 * Runs `run` with the tracer `spec` names, and takes its result: `before` is the state the run
 * starts on, and `run` resolves to the layer of what it wrote over it (what diffs compare).
 */
async function withTracer(spec: TracerSpec, before: StateView, run: (tracer: TracerHooks) => Promise<StateLayer>, precompiles: ReadonlySet<Address>): Promise<TraceResult> {
  switch (spec.tracer) {
    case 'structLogger': {
      const tracer = new StructLogger(spec.config)
      await run(tracer)
      return { tracer: 'structLogger', result: tracer.result() }
    }
    case 'callTracer': {
      const tracer = new CallTracer(spec.config)
      await run(tracer)
      return { tracer: 'callTracer', result: tracer.result() }
    }
    case '4byteTracer': {
      const tracer = new FourByteTracer(precompiles)
      await run(tracer)
      return { tracer: '4byteTracer', result: tracer.result() }
    }
    case 'noopTracer':
      await run({})
      return { tracer: 'noopTracer' }
    case 'parity': {
      const tracer = new ParityTracer()
      await run(tracer)
      return { tracer: 'parity', result: tracer.result() }
    }
    case 'prestateTracer': {
      const tracer = new PrestateTracer(spec.config, before)
      const after = await run(tracer)
      if (spec.config.diffMode) return { tracer: 'prestateDiff', result: await prestateDiff(await tracer.touched(), before, after, spec.config) }
      return { tracer: 'prestateTracer', result: await tracer.result() }
    }
    case 'replay': {
      const tracer = new ReplayTracer(spec.config, precompiles)
      await tracer.diffState(before, await run(tracer))
      return { tracer: 'replay', result: tracer.result() }
    }
  }
}

/** Traces transactions, blocks and calls. */
export class Tracing {

  constructor(readonly parts: TracingParts) {}

  /** The trace of the pre-confirmed or sealed transaction `hash`; -32000 `transaction not found` otherwise (geth). */
  traceTransaction(hash: Hash, spec: TracerSpec, view: TracingView = this.parts): Promise<TransactionTrace> {
    return this.parts.lane.run('trace', async (run) => {
      const location = view.lookups.find(hash)
      if (location === undefined || location.status === 'mempool') throw new ResourceNotFoundError('transaction not found')
      const block = location.status === 'sealed' ? this.sealed(location.block) : this.preconfirmed(location.block)
      const { index } = location.included
      // geth's time box is the traced transaction's (traceTx), not the replay's before it.
      run.pacer.suspend()
      const state = await this.replay(block, index, run)
      run.pacer.renew()
      return { hash, trace: await this.trace(block, state, block.transactions[index], spec, run), place: placeOf(block, index) }
    }, spec.timeoutMs)
  }

  /**
   * The traces of every transaction of a block, in order (geth's debug_traceBlockBy*): each
   * transaction has the whole time box (geth's traceTx per transaction); one that outlasts it
   * fails the block's trace, as geth's does.
   */
  traceBlock(selector: BlockSelector, spec: TracerSpec, view: TracingView = this.parts): Promise<TransactionTrace[]> {
    return this.parts.lane.run('trace', async (run) => {
      const block = this.blockOf(selector, view)
      const state = this.start(block, run)
      const traces: TransactionTrace[] = []
      for (const [index, included] of block.transactions.entries()) {
        run.pacer.renew()
        traces.push({ hash: included.transaction.hash, trace: await this.trace(block, state, included, spec, run), place: placeOf(block, index) })
      }
      return traces
    }, spec.timeoutMs)
  }

  /** The trace of `request` run as `eth_call` at `selector`, with geth's state and block overrides (the prestate is the overridden state). */
  traceCall(request: CallRequest, selector: BlockSelector, spec: TracerSpec, view: TracingView = this.parts, overrides: CallOverrides = {}): Promise<TraceResult> {
    return this.parts.lane.run('trace', async (run) => {
      const resolved = view.blocks.resolve(selector)
      const { environment } = run
      return withOverrides(environment, run.base(resolved.state), resolved.context, overrides, (state, context) =>
        withTracer(spec, state, async (tracer) => (await traceCall(request, state, context, environment, tracer)).state, this.parts.precompiles),
      )
    }, spec.timeoutMs)
  }

  /** The block `selector` names, ready to re-execute; geth's errors for a missing block and for genesis. */
  private blockOf(selector: BlockSelector, view: TracingView): ExecutedBlock {
    const { blocks } = view
    if ('hash' in selector && blocks.byHash(selector.hash) === undefined) throw new ResourceNotFoundError(`block ${selector.hash} not found`)
    if ('number' in selector && selector.number > blocks.headNumber) throw new ResourceNotFoundError(`block #${selector.number} not found`)
    const resolved = blocks.resolve(selector)
    if (resolved.kind === 'pending') return this.pending()
    const { block } = resolved
    if (block.header.number === 0n) throw new ResourceNotFoundError('genesis is not traceable')
    return this.sealed(block)
  }

  /** The state `block`'s first transaction ran on: the state before it, then the system calls it opened with. */
  private start(block: ExecutedBlock, run: CallRun): StateLayer {
    const state = new StateLayer(run.base(block.parent))
    startBlock(state, this.parts.hardfork, block.context.number, block.parentHash)
    return state
  }

  /** A sealed block: it started on the state at the end of the block before. */
  private sealed(block: SealedBlock): ExecutedBlock {
    const { header, hash, transactions } = block
    const { context } = this.parts.blocks.resolve({ hash })
    return { transactions, parent: this.parts.history.at(Number(header.number) - 1), context, parentHash: toHex(header.parentHash) as Hash, hash }
  }

  /**
   * The pre-confirmed block a transaction was found in: the pending block as it stands, or a
   * frozen stall's copy of it (which may hold a transaction taken back since, and may build on
   * an older head).
   */
  private preconfirmed(view: PendingBlockView): ExecutedBlock {
    if (view === this.parts.builder.pending.view) return this.pending()
    const { transactions, context, parentHash } = view
    return { transactions: [...transactions], parent: this.parts.history.at(Number(context.number) - 1), context, parentHash, hash: undefined }
  }

  /** The pre-confirmed block as it stands (a trace may outlast the next tick): it builds on the head. */
  private pending(): ExecutedBlock {
    const { view, parentHash } = this.parts.builder.pending
    return { transactions: [...view.transactions], parent: this.parts.history.latest, context: view.context, parentHash, hash: undefined }
  }

  /** The state after the block's first `count` transactions, replayed on a throwaway layer. */
  private async replay(block: ExecutedBlock, count: number, run: CallRun): Promise<StateLayer> {
    const state = this.start(block, run)
    for (const included of block.transactions.slice(0, count)) {
      const scratch = new StateLayer(state)
      await this.rerun(() => runTransaction(included.transaction, scratch, block.context, positionOf(included.receipt), run.environment), included)
      state.apply(scratch)
    }
    return state
  }

  /** Traces `included` on `state` (then applies its writes to `state`, for the transactions after it). */
  private async trace(block: ExecutedBlock, state: StateLayer, included: IncludedTransaction, spec: TracerSpec, run: CallRun): Promise<TraceResult> {
    const scratch = new StateLayer(state)
    const { transaction, receipt } = included
    const result = await withTracer(spec, state, async (tracer) => {
      await this.rerun(() => traceTransaction(transaction, scratch, block.context, positionOf(receipt), run.environment, tracer), included)
      return scratch
    }, this.parts.precompiles)
    state.apply(scratch)
    return result
  }

  /** Runs a re-execution; a transaction that no longer fits the state it replays on is a -32000, not a crash. */
  private async rerun(run: () => Promise<TransactionReceipt>, included: IncludedTransaction): Promise<TransactionReceipt> {
    try {
      return await run()
    } catch (error) {
      if (error instanceof UnexecutableTransactionError) throw new ExecutionFailedError(`could not replay transaction ${included.transaction.hash}: ${error.message}`)
      throw error
    }
  }
}
