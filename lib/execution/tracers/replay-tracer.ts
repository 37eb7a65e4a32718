/**
 * What `trace_replayBlockTransactions` asks of each transaction, as Anvil 1.7.1 answers it: its
 * output, and by request Parity's flat traces (`trace`) and its state diff (`stateDiff`).
 */
import type { StateLayer } from '../../state/state-layer.ts'
import type { StateView } from '../../state/state-view.ts'
import type { Address } from '../../types.ts'
import { ParityTracer, type ParityTrace } from './parity-tracer.ts'
import { CreationTracer, stateDiff, type StateDiff } from './state-diff.ts'
import type { FrameEnd, FrameStart, ReplayConfig, Tracer } from './tracer.ts'

/** One transaction replayed: its output, and what was asked for (undefined otherwise). */
export interface ReplayResult {
  /** The return data, revert data or deployed code; empty after any other failure. */
  readonly output: Uint8Array
  readonly trace: readonly ParityTrace[] | undefined
  readonly stateDiff: StateDiff | undefined
}

/**
 * Listens to a replayed transaction for its traces and its creations. The traces leave out the
 * calls to a precompile that move no value, as revm-inspectors' Parity builder does for a replay
 * (Anvil's `trace_transaction` lists them).
 */
export class ReplayTracer implements Tracer<ReplayResult> {
  private readonly traces: ParityTracer
  private readonly creations = new CreationTracer()
  private diff: StateDiff | undefined

  constructor(
    private readonly config: ReplayConfig,
    precompiles: ReadonlySet<Address>,
  ) {
    this.traces = new ParityTracer(precompiles)
  }

  onEnter(frame: FrameStart): void {
    this.traces.onEnter(frame)
    this.creations.onEnter(frame)
  }

  onExit(end: FrameEnd): void {
    this.traces.onExit(end)
    this.creations.onExit(end)
  }

  /** Once the run is over: diffs the state it wrote (`after`, a layer over `before`) when asked. */
  async diffState(before: StateView, after: StateLayer): Promise<void> {
    if (this.config.stateDiff) this.diff = await stateDiff(after, this.creations.result(), before)
  }

  result(): ReplayResult {
    return { output: this.creations.result().output, trace: this.config.trace ? this.traces.result() : undefined, stateDiff: this.diff }
  }
}
