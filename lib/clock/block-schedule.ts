/**
 * When blocks happen and what time they say: the schedule of pre-confirmation ticks and seals
 * on the chain's clock, and block timestamps, with the time controls tests use
 * (`evm_increaseTime`'s offset, `evm_setNextBlockTimestamp`, a fixed timestamp interval).
 * Each block opens right after its parent seals; its ticks fall every `preconfIntervalMs`
 * (each moved by its jitter, if any) and it seals `blockTimeMs` after it opened; a tick due at
 * the seal's instant runs first.
 */
import { maxTickJitterMs } from '../faults/fault-options.ts'

/** How far (ms) the tick scheduled at `nominalMs` falls from its time; a pure function of it. */
export type TickJitter = (nominalMs: number) => number

/**
 * The latest timestamp a block takes: the largest `evm_setNextBlockTimestamp` accepts (a header
 * holds a uint64, and Anvil refuses its largest value). Blocks that reach it stay at it, as
 * Anvil's do, rather than pass 2^64.
 */
export const MAX_BLOCK_TIMESTAMP = 2n ** 64n - 2n

/** What the schedule fires next. */
export type ScheduledEvent = 'tick' | 'seal'

/** The schedule's state, as a snapshot keeps it. */
export interface ScheduleState {
  readonly preconfIntervalMs: number
  readonly blockTimeMs: number
  /** The next tick's scheduled time, before its jitter. */
  readonly nextTickAt: number
  readonly sealAt: number
  readonly offsetMs: number
  readonly nextTimestamp: bigint | undefined
  readonly openOverride: bigint | undefined
  readonly timestampInterval: bigint | undefined
}

/** The tick and seal schedule of a chain, and its block timestamps. */
export class BlockSchedule {
  /** The next tick's scheduled time, and the time it falls due (its jitter applied). */
  private nominalTickAt!: number
  private nextTickAt!: number
  private sealAt: number
  /** Added to seal times to get block times (`evm_increaseTime`, `evm_setNextBlockTimestamp`). */
  private offsetMs = 0
  /** A one-off timestamp for the next block to open. */
  private nextTimestamp: bigint | undefined
  /** The override the open block took: when it seals, later blocks follow on from it. */
  private openOverride: bigint | undefined
  /** Seconds between block timestamps, regardless of the clock (`anvil_setBlockTimestampInterval`). */
  private timestampInterval: bigint | undefined

  constructor(
    startMs: number,
    private preconfIntervalMs: number,
    private blockTimeMs: number,
    private readonly jitter: TickJitter = () => 0,
  ) {
    this.sealAt = startMs + blockTimeMs
    this.scheduleTick(startMs + preconfIntervalMs)
  }

  /** Milliseconds between ticks. */
  get tickInterval(): number {
    return this.preconfIntervalMs
  }

  /** Milliseconds between seals. */
  get blockTime(): number {
    return this.blockTimeMs
  }

  /**
   * Seals every `blockTimeMs` from now on (`evm_setIntervalMining`); ticks stay at their interval,
   * or at the block time if that is shorter.
   */
  setBlockTime(nowMs: number, blockTimeMs: number): void {
    this.blockTimeMs = blockTimeMs
    if (this.preconfIntervalMs > blockTimeMs) this.preconfIntervalMs = blockTimeMs
    this.restart(nowMs)
  }

  /** When the next tick or seal is due (ms). */
  nextDueAt(): number {
    return Math.min(this.nextTickAt, this.sealAt)
  }

  /** The event due next, with the schedule moved past it. */
  takeNext(): ScheduledEvent {
    if (this.nextTickAt <= this.sealAt) {
      this.scheduleTick(this.nominalTickAt + this.preconfIntervalMs)
      return 'tick'
    }
    this.restart(this.sealAt)
    return 'seal'
  }

  /**
   * A block sealed at `nowMs`: the next one opens now, its ticks and seal counted from here. If
   * the sealed block carried an override timestamp, block times continue from it (Hardhat's and
   * Anvil's offset: timestamp − now).
   */
  restart(nowMs: number): void {
    if (this.openOverride !== undefined) {
      this.offsetMs = Number(this.openOverride) * 1000 - nowMs
      this.openOverride = undefined
    }
    this.sealAt = nowMs + this.blockTimeMs
    this.scheduleTick(nowMs + this.preconfIntervalMs)
  }

  /**
   * The next tick at `nominalMs`, moved by its jitter (at most half an interval either way, so
   * ticks keep their order); a tick due by the seal is not pushed past it.
   */
  private scheduleTick(nominalMs: number): void {
    this.nominalTickAt = nominalMs
    if (nominalMs > this.sealAt) {
      this.nextTickAt = nominalMs
      return
    }
    const bound = maxTickJitterMs(this.preconfIntervalMs)
    const jitter = Math.max(-bound, Math.min(bound, this.jitter(nominalMs)))
    this.nextTickAt = Math.min(nominalMs + jitter, this.sealAt)
  }

  /**
   * The timestamp (seconds) of the block opening now (or re-stamped), after a parent stamped
   * `parentTimestamp`: a one-off override if set (or the one the open block already took), else
   * parent + interval if set, else the block time at `atMs` (by default its scheduled seal
   * time) plus the offset; after its parent's, up to `MAX_BLOCK_TIMESTAMP`.
   */
  timestampAfter(parentTimestamp: bigint, atMs: number = this.sealAt): bigint {
    let timestamp: bigint
    if (this.nextTimestamp !== undefined) {
      timestamp = this.nextTimestamp
      this.nextTimestamp = undefined
      this.openOverride = timestamp
    } else if (this.openOverride !== undefined) {
      // Re-stamping the open block: an explicit timestamp it was given stays.
      timestamp = this.openOverride
    } else if (this.timestampInterval !== undefined) {
      timestamp = parentTimestamp + this.timestampInterval
    } else {
      timestamp = BigInt(Math.floor((atMs + this.offsetMs) / 1000))
    }
    if (timestamp <= parentTimestamp) timestamp = parentTimestamp + 1n
    return timestamp < MAX_BLOCK_TIMESTAMP ? timestamp : MAX_BLOCK_TIMESTAMP
  }

  /** The block time (seconds) the clock's `nowMs` corresponds to, the offset applied. */
  blockTimeAt(nowMs: number): bigint {
    return BigInt(Math.floor((nowMs + this.offsetMs) / 1000))
  }

  /** Sets the offset so that the clock's `nowMs` is block time `timestamp` (seconds; `evm_setTime`). */
  setTimeAt(nowMs: number, timestamp: bigint): void {
    this.offsetMs = Number(timestamp) * 1000 - nowMs
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

  /** Blocks step by `seconds` from their parent (undefined: back to the clock); returns whether one was set before. */
  setTimestampInterval(seconds: bigint | undefined): boolean {
    const hadInterval = this.timestampInterval !== undefined
    this.timestampInterval = seconds
    return hadInterval
  }

  /** The schedule's state, to restore with {@link restore}. */
  capture(): ScheduleState {
    const { preconfIntervalMs, blockTimeMs, nominalTickAt, sealAt, offsetMs, nextTimestamp, openOverride, timestampInterval } = this
    return { preconfIntervalMs, blockTimeMs, nextTickAt: nominalTickAt, sealAt, offsetMs, nextTimestamp, openOverride, timestampInterval }
  }

  /**
   * Goes on from a state captured at `nowMs` (a loaded dump): as captured when its next tick and
   * seal fall due after `nowMs` and within an interval of it; else with its intervals, offset and
   * overrides, ticks and seals counted afresh from `nowMs` (never a backlog of blocks to seal).
   */
  resume(state: ScheduleState, nowMs: number): void {
    this.restore(state)
    const fits = (at: number, interval: number) => at > nowMs && at <= nowMs + interval
    if (!fits(this.nominalTickAt, this.preconfIntervalMs) || !fits(this.sealAt, this.blockTimeMs)) {
      this.sealAt = nowMs + this.blockTimeMs
      this.scheduleTick(nowMs + this.preconfIntervalMs)
    }
  }

  /** Returns to a captured state. */
  restore(state: ScheduleState): void {
    this.preconfIntervalMs = state.preconfIntervalMs
    this.blockTimeMs = state.blockTimeMs
    this.sealAt = state.sealAt
    this.scheduleTick(state.nextTickAt)
    this.offsetMs = state.offsetMs
    this.nextTimestamp = state.nextTimestamp
    this.openOverride = state.openOverride
    this.timestampInterval = state.timestampInterval
  }
}
