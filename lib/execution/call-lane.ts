/**
 * Where runs at the RPC edge (`eth_call`, `eth_estimateGas`, `eth_createAccessList`,
 * `debug_trace*`, `eth_simulateV1`) execute: on paced EVMs of their own, never on the EVM the
 * builder runs transactions on, each run time-boxed (geth's `--rpc.evmtimeout`) and cut into
 * slices (call-pacer.ts's `CALL_SLICE_MS`) between which the event loop turns.
 *
 * A run starts in its turn on the engine's serializer, so it sees every change made before it.
 * Once it has run for a slice, its state is frozen (a copy of what later ticks, seals and edits
 * could change) and it lets go of the serializer: ticks, seals and admissions go on while it
 * finishes on the state it started on. The EVMs it runs on are the
 * chain's own (same rules, block hashes and precompiles), made once and reused; a run stopped at
 * its deadline leaves its EVM mid-run, and that EVM is dropped.
 */
import type { Serializer } from '../clock/serializer.ts'
import { EVMStateAdapter } from '../state/evm-state-adapter.ts'
import type { StateView } from '../state/state-view.ts'
import { CallPacer, timeoutError, type TimeoutText } from './call-pacer.ts'
import { CallBase, type ViewFreezer } from './call-state.ts'
import type { ExecutionEnvironment } from './execution-environment.ts'

/** What the lane needs. */
export interface CallLaneParts {
  /** The chain's environment: the lane's EVMs are made like its EVM. */
  readonly environment: ExecutionEnvironment
  /** The engine's serializer: a run starts in its turn. */
  readonly serialize: Serializer
  /** How long a run may take (ms); 0: no limit. */
  readonly timeoutMs: number
  /** Freezes the chain's views, so a long run can let go of the serializer. */
  readonly freeze: ViewFreezer
}

/** One run on the lane: the environment it executes in and the state it reads. */
export class CallRun {
  readonly pacer: CallPacer
  private readonly bases: CallBase[] = []
  private detached = false

  /**
   * @param environment the environment to execute in (a paced EVM of the lane)
   * @param release lets go of the serializer (once the run, having lasted a slice, has its state frozen)
   * @param limitMs how long the run may take (ms); 0: no limit
   */
  constructor(
    readonly environment: ExecutionEnvironment,
    text: TimeoutText,
    parts: CallLaneParts,
    release: () => void,
    limitMs: number,
  ) {
    const { freeze } = parts
    this.pacer = new CallPacer(limitMs, text, () => {
      if (this.detached) return
      for (const base of this.bases) base.freeze(freeze)
      this.detached = true
      release()
    })
    environment.evm.pacer = this.pacer
  }

  /** `view` (the chain's state at the run's block) as the run must read it: through a base frozen if the run lets go of the serializer. */
  base(view: StateView): StateView {
    const base = new CallBase(view)
    this.bases.push(base)
    return base
  }
}

/** Runs at the RPC edge, on the lane's EVMs. */
export class CallLane {
  /** Environments not in use. */
  private readonly idle: ExecutionEnvironment[] = []

  constructor(private readonly parts: CallLaneParts) {}

  /**
   * Runs `work` in its turn on the serializer, on an EVM of the lane, until it ends or its time is
   * up (then it throws geth's error for `text`: `execution aborted (timeout = 5s)` or `execution
   * timeout`). `work` must read the chain's state through {@link CallRun.base}. `limitMs` (a
   * trace's own `timeout`) replaces the chain's time box; 0 or less is over before the run starts.
   */
  async run<T>(text: TimeoutText, work: (run: CallRun) => Promise<T>, limitMs?: number): Promise<T> {
    if (limitMs !== undefined && limitMs <= 0) throw timeoutError(text, 0)
    let run: CallRun | undefined
    let done: Promise<T> | undefined
    // The serializer's turn lasts until the run ends or lets go of it.
    await this.parts.serialize(
      () =>
        new Promise<void>((release) => {
          run = new CallRun(this.idle.pop() ?? this.environment(), text, this.parts, release, limitMs ?? this.parts.timeoutMs)
          done = work(run)
          done.then(() => release(), () => release())
        }),
    )
    try {
      return await done!
    } finally {
      run!.environment.evm.pacer = undefined
      if (!run!.pacer.aborted) this.idle.push(run!.environment)
    }
  }

  /** A new environment: the chain's, on a paced EVM of its own. */
  private environment(): ExecutionEnvironment {
    const state = new EVMStateAdapter()
    return { ...this.parts.environment, evm: this.parts.environment.evm.pacedSibling(state), state }
  }
}
