/**
 * The failure modes of a chain in force: its fault switches (which test controls may change),
 * the stall under way, the ticks to skip, and the seeded decisions taken as blocks open, tick
 * and seal. Mining asks it whether a tick runs and what to drop at a seal; the block resolver
 * asks it what `pending` reads; the builder's policy asks it each tick's gas budget.
 */
import type { BlockContext } from '../execution/block-context.ts'
import type { BuilderPolicy } from '../builder/policy.ts'
import type { PendingBlock } from '../builder/pending-block.ts'
import type { FaultSwitches, ProfileName, StallPending } from './fault-options.ts'
import { seededFraction } from './seeded-chance.ts'

/** A stall of pre-confirmations: ticks stop until `untilMs` while blocks keep sealing. */
export interface Stall {
  /** The clock time (ms) the stall ends at: the first tick due then runs. */
  readonly untilMs: number
  /** What `pending` reads meanwhile. */
  readonly pending: StallPending
  /** The pending block as it was when the stall began (what a frozen `pending` reads). */
  readonly frozen: PendingBlock
}

/** What the faults read of the chain. */
export interface FaultParts {
  /** Scheduled ticks per block (block time / tick interval, at least 1). */
  readonly ticksPerBlock: () => number
}

/** The failure modes in force, and the decisions they take. */
export class Faults {
  private stallState: Stall | undefined
  /** Ticks a late block skips still to come (seeded as it opens). */
  private lateSkips = 0
  /** Ticks still to skip on request (`preconf_skipTicks`), across blocks. */
  private requestedSkips = 0
  /** Tick slots of the pending block so far, run or skipped: its share of the gas budget. */
  private slots = 0

  constructor(
    /** The profile the chain was created with. */
    readonly profile: ProfileName,
    /** The seed of every seeded decision. */
    readonly seed: number,
    /** The switches in force (test controls change them in place). */
    readonly switches: FaultSwitches,
    private readonly parts: FaultParts,
  ) {}

  /** The stall under way, if any. */
  get stall(): Stall | undefined {
    return this.stallState
  }

  /**
   * What `pending` reads instead of the pending block: `latest` or a frozen pending block
   * during a stall, else undefined (the pending block itself).
   */
  get pendingOverride(): PendingBlock | 'latest' | undefined {
    const stall = this.stallState
    return stall === undefined ? undefined : stall.pending === 'latest' ? 'latest' : stall.frozen
  }

  /** Whether pre-confirmations are stalled at `nowMs` (a stall whose time is up ends here). */
  stalledAt(nowMs: number): boolean {
    if (this.stallState !== undefined && nowMs >= this.stallState.untilMs) this.stallState = undefined
    return this.stallState !== undefined
  }

  /** Stalls pre-confirmations from `nowMs` for `ms` (0 ends a stall); `frozen` is the pending block as it stands. */
  startStall(nowMs: number, ms: number, pending: StallPending, frozen: () => PendingBlock): void {
    this.stallState = ms === 0 ? undefined : { untilMs: nowMs + ms, pending, frozen: frozen() }
  }

  /** The next `count` scheduled ticks do not run (`preconf_skipTicks`). */
  skipTicks(count: number): void {
    this.requestedSkips += count
  }

  /** Scheduled ticks still to be skipped (on request and by a late block). */
  get ticksToSkip(): number {
    return this.requestedSkips + this.lateSkips
  }

  /**
   * Block `number` opened at `nowMs`: its tick slots start from zero, and the seed decides
   * whether it starts late (its first ticks skipped) and whether pre-confirmations stall.
   */
  opened(number: bigint, nowMs: number, frozen: () => PendingBlock): void {
    const { switches, seed } = this
    this.slots = 0
    this.lateSkips = switches.lateBlockRate > 0 && seededFraction(seed, 'late', number) < switches.lateBlockRate ? 1 + Math.floor(seededFraction(seed, 'lateTicks', number) * switches.lateTicks) : 0
    if (switches.stallRate > 0 && !this.stalledAt(nowMs) && seededFraction(seed, 'stall', number) < switches.stallRate) {
      this.startStall(nowMs, switches.stallMs, switches.stallPending, frozen)
    }
  }

  /** A scheduled tick fell due at `nowMs`: whether it runs (not during a stall, nor while ticks are to be skipped). */
  scheduledTick(nowMs: number): boolean {
    this.slots++
    if (this.stalledAt(nowMs)) return false
    if (this.requestedSkips > 0) {
      this.requestedSkips--
      return false
    }
    if (this.lateSkips > 0) {
      this.lateSkips--
      return false
    }
    return true
  }

  /** A tick asked for outside the schedule (`preconf_tick`) takes the next slot. */
  explicitTick(): void {
    this.slots++
  }

  /** The tick before a seal may fill the block: it takes the block's last slot. */
  lastTick(): void {
    this.slots = Math.max(this.slots, this.parts.ticksPerBlock())
  }

  /** How many of the last pre-confirmations of block `number` the seed drops at its seal (0: none). */
  dropsAtSeal(number: bigint): number {
    const { dropRate, dropDepth } = this.switches
    return dropRate > 0 && seededFraction(this.seed, 'drop', number) < dropRate ? dropDepth : 0
  }

  /** How far (ms, seeded) the tick scheduled at `nominalMs` falls from its time. */
  tickJitter(nominalMs: number): number {
    const bound = this.switches.tickJitterMs
    return bound === 0 ? 0 : Math.round((seededFraction(this.seed, 'jitter', nominalMs) * 2 - 1) * bound)
  }

  /** `policy` with each tick's gas budget capped at its share of the block (with `tickGasBudget`). */
  policyOver(policy: BuilderPolicy): BuilderPolicy {
    return {
      takes: policy.takes,
      gasBudget: (context, index) => {
        const budget = policy.gasBudget(context, index)
        if (!this.switches.tickGasBudget) return budget
        const share = this.tickShare(context)
        return share < budget ? share : budget
      },
    }
  }

  /** The state a snapshot keeps, and how to return to it. */
  capture(): () => void {
    const switches = { ...this.switches }
    const { stallState, lateSkips, requestedSkips, slots } = this
    return () => {
      Object.assign(this.switches, switches)
      this.stallState = stallState
      this.lateSkips = lateSkips
      this.requestedSkips = requestedSkips
      this.slots = slots
    }
  }

  /** Pre-confirmation j of a block's n (its slot) may have used j/n of its gas limit. */
  private tickShare(context: BlockContext): bigint {
    const ticks = this.parts.ticksPerBlock()
    const slot = Math.min(Math.max(this.slots, 1), ticks)
    return (context.gasLimit * BigInt(slot)) / BigInt(ticks)
  }
}
