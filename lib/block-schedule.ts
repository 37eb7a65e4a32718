/**
 * When blocks happen and what time they say: the schedule of pre-confirmation ticks and seals
 * on the chain's clock, and block timestamps, with the time controls tests use
 * (`evm_increaseTime`'s offset, `evm_setNextBlockTimestamp`, a fixed timestamp interval).
 * Each block opens right after its parent seals; its ticks fall every `preconfIntervalMs`
 * and it seals `blockTimeMs` after it opened; a tick due at the seal's instant runs first.
 */

/** What the schedule fires next. */
export type ScheduledEvent = 'tick' | 'seal'

/** The schedule's state, as a snapshot keeps it. */
export interface ScheduleState {
  readonly nextTickAt: number
  readonly sealAt: number
  readonly offsetMs: number
  readonly nextTimestamp: bigint | undefined
  readonly timestampInterval: bigint | undefined
}

/** The tick and seal schedule of a chain, and its block timestamps. */
export class BlockSchedule {
  private nextTickAt: number
  private sealAt: number
  /** Added to seal times to get block times (`evm_increaseTime`, `evm_setNextBlockTimestamp`). */
  private offsetMs = 0
  /** A one-off timestamp for the next block to open. */
  private nextTimestamp: bigint | undefined
  /** Seconds between block timestamps, regardless of the clock (`anvil_setBlockTimestampInterval`). */
  private timestampInterval: bigint | undefined

  constructor(
    startMs: number,
    private readonly preconfIntervalMs: number,
    private readonly blockTimeMs: number,
  ) {
    this.nextTickAt = startMs + preconfIntervalMs
    this.sealAt = startMs + blockTimeMs
  }

  /** When the next tick or seal is due (ms). */
  nextDueAt(): number {
    return Math.min(this.nextTickAt, this.sealAt)
  }

  /** The event due next, with the schedule moved past it. */
  takeNext(): ScheduledEvent {
    if (this.nextTickAt <= this.sealAt) {
      this.nextTickAt += this.preconfIntervalMs
      return 'tick'
    }
    this.restart(this.sealAt)
    return 'seal'
  }

  /** A block sealed at `nowMs`: the next one opens now, its ticks and seal counted from here. */
  restart(nowMs: number): void {
    this.nextTickAt = nowMs + this.preconfIntervalMs
    this.sealAt = nowMs + this.blockTimeMs
  }

  /**
   * The timestamp (seconds) of the block opening now, after a parent stamped `parentTimestamp`:
   * a one-off override if set, else parent + interval if set, else its scheduled seal time plus
   * the offset; never at or before its parent's.
   */
  timestampAfter(parentTimestamp: bigint): bigint {
    if (this.nextTimestamp !== undefined) {
      const timestamp = this.nextTimestamp
      this.nextTimestamp = undefined
      this.offsetMs = Number(timestamp) * 1000 - this.sealAt
      return timestamp
    }
    if (this.timestampInterval !== undefined) return parentTimestamp + this.timestampInterval
    const seconds = BigInt(Math.floor((this.sealAt + this.offsetMs) / 1000))
    return seconds > parentTimestamp ? seconds : parentTimestamp + 1n
  }

  /** Moves block times `seconds` ahead of the clock (cumulative); returns the total offset in seconds. */
  increaseTime(seconds: number): number {
    this.offsetMs += seconds * 1000
    return Math.floor(this.offsetMs / 1000)
  }

  /** The next block to open gets `timestamp`, and later blocks follow on from it. */
  setNextTimestamp(timestamp: bigint): void {
    this.nextTimestamp = timestamp
  }

  /** Blocks step by `seconds` from their parent (undefined: back to the clock). */
  setTimestampInterval(seconds: bigint | undefined): void {
    this.timestampInterval = seconds
  }

  /** The schedule's state, to restore with {@link restore}. */
  capture(): ScheduleState {
    const { nextTickAt, sealAt, offsetMs, nextTimestamp, timestampInterval } = this
    return { nextTickAt, sealAt, offsetMs, nextTimestamp, timestampInterval }
  }

  /** Returns to a captured state. */
  restore(state: ScheduleState): void {
    ;({ nextTickAt: this.nextTickAt, sealAt: this.sealAt, offsetMs: this.offsetMs, nextTimestamp: this.nextTimestamp, timestampInterval: this.timestampInterval } =
      state)
  }
}
