/**
 * The time box of one run at the RPC edge (`eth_call`, `eth_estimateGas`, `debug_trace*`,
 * `eth_simulateV1`): geth's `--rpc.evmtimeout` deadline, and the slices a long run is cut into so
 * it never holds the event loop for long. Wall time is read here only to bound how long a request
 * runs: a run that ends before its deadline has the result it would have without one.
 */
import { ExecutionFailedError } from '../errors.ts'
import type { Pacer } from './evm-pacing.ts'

/** How long a run holds the event loop at a time before it lets other work in (ms). */
const CALL_SLICE_MS = 10

/** What a run that reaches its deadline answers: `eth_call`'s text (also estimates and simulations), or the tracers'. */
export type TimeoutText = 'call' | 'trace'

/** A duration in milliseconds as Go prints a `time.Duration` (geth's texts show it): `500ms`, `5s`, `1.5s`, `1m30s`, `1h0m0s`. */
export function goDuration(ms: number): string {
  if (ms === 0) return '0s'
  if (ms < 1000) return `${ms}ms`
  const hours = Math.floor(ms / 3_600_000)
  const minutes = Math.floor((ms % 3_600_000) / 60_000)
  const rest = ms % 60_000
  const fraction = rest % 1000 === 0 ? '' : `.${String(rest % 1000).padStart(3, '0').replace(/0+$/, '')}`
  const seconds = `${Math.floor(rest / 1000)}${fraction}s`
  if (hours > 0) return `${hours}h${minutes}m${seconds}`
  return minutes > 0 ? `${minutes}m${seconds}` : seconds
}

/** geth's error for a run stopped at its deadline: doCall's `execution aborted (timeout = 5s)`, or the tracers' `execution timeout`. */
export function timeoutError(text: TimeoutText, limitMs: number): ExecutionFailedError {
  return new ExecutionFailedError(text === 'call' ? `execution aborted (timeout = ${goDuration(limitMs)})` : 'execution timeout')
}

/**
 * When the current stretch of work (from the event loop's last turn) began, as far as runs know:
 * the start of the first run that asked in it. Cleared at the loop's next turn.
 */
let stretchStart: number | undefined

/** The start of the current stretch of work, `start` if no run has asked in it yet: a slice counts from there, however many runs share the stretch. */
function stretchStartedAt(start: number): number {
  if (stretchStart === undefined) {
    stretchStart = start
    setImmediate(() => (stretchStart = undefined))
  }
  return stretchStart
}

/** Paused runs, oldest first: one resumes at each turn of the event loop, so runs take turns and the loop turns between them. */
const waiting: (() => void)[] = []

/** Resolves when it is the caller's turn to run again (one paused run a turn). */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve)
    if (waiting.length === 1) setImmediate(resumeOne)
  })
}

function resumeOne(): void {
  waiting.shift()!()
  if (waiting.length > 0) setImmediate(resumeOne)
}

/**
 * Paces one run: pauses it at the end of each slice (its turn comes again after the other paused
 * runs') and stops it at its deadline. A slice counts from the start of the stretch of work it is
 * part of, so runs started back to back in one stretch do not hold the event loop a slice each.
 */
export class CallPacer implements Pacer {
  /** Where the run's slice counts from (known at its first question: most runs never ask). */
  private sliceStart: number | undefined
  private started: number
  private deadline: number
  /** Whether the run was stopped at its deadline (its EVM is left mid-run). */
  aborted = false

  /**
   * @param limitMs the time the run may take from now; 0: no limit
   * @param text which of geth's errors the run ends with at its deadline
   * @param lasting told before each pause once the run has lasted a slice itself (a long run, not
   *   one that started late in a stretch)
   */
  constructor(
    private readonly limitMs: number,
    private readonly text: TimeoutText,
    private readonly lasting: () => void,
  ) {
    this.started = performance.now()
    this.deadline = limitMs === 0 ? Infinity : this.started + limitMs
  }

  /** Lifts the deadline until {@link renew}: geth replays a traced transaction's predecessors before its time box starts. */
  suspend(): void {
    this.deadline = Infinity
  }

  /** Gives the run its whole time again from now: geth times each transaction of a block trace (and a traced transaction, not its replayed predecessors) on its own. */
  renew(): void {
    this.started = performance.now()
    this.deadline = this.limitMs === 0 ? Infinity : this.started + this.limitMs
  }

  /** Go on (undefined), pause until the run's next turn (its slice is over), or throw geth's error (the deadline has passed). */
  pace(): Promise<void> | undefined {
    const now = performance.now()
    if (now >= this.deadline) {
      this.aborted = true
      throw timeoutError(this.text, this.limitMs)
    }
    this.sliceStart ??= stretchStartedAt(this.started)
    if (now - this.sliceStart < CALL_SLICE_MS) return undefined
    if (now - this.started >= CALL_SLICE_MS) this.lasting()
    return nextTurn().then(() => {
      this.sliceStart = stretchStartedAt(performance.now())
    })
  }
}
