/**
 * When blocks happen: the mining modes, the clock's timeline of ticks and seals, and the
 * immediate controls (`preconf_tick`, `evm_mine`, `anvil_mine`). Every tick and seal goes
 * through here, so each emits its event once.
 */
import type { SealedBlock } from '../blocks/block.ts'
import type { BlockStore } from '../blocks/block-store.ts'
import type { BlockBuilder, Preconfirmation } from '../builder/builder.ts'
import type { BlockSchedule } from '../clock/block-schedule.ts'
import type { Timeline } from '../clock/clock.ts'
import type { Serializer } from '../clock/serializer.ts'
import type { MiningMode } from '../options.ts'
import type { ChainEmitter } from './events.ts'

/** What mining drives and reports to. */
export interface MiningParts {
  readonly builder: BlockBuilder
  readonly blocks: BlockStore
  readonly schedule: BlockSchedule
  readonly events: ChainEmitter
  readonly serialize: Serializer
  /** The clock's current time (ms). */
  readonly now: () => number
}

/** The chain's mining mode and its block production. */
export class Mining {
  private miningMode: MiningMode

  constructor(
    private readonly parts: MiningParts,
    mode: MiningMode,
  ) {
    this.miningMode = mode
  }

  /** How accepted transactions become blocks (see {@link MiningMode}). */
  get mode(): MiningMode {
    return this.miningMode
  }

  /** What the clock drives: the schedule's ticks and seals (none under automine). */
  readonly timeline: Timeline = {
    nextDueAt: () => (this.miningMode === 'auto' || this.miningMode === 'off' ? Number.POSITIVE_INFINITY : this.parts.schedule.nextDueAt()),
    fireNext: async () => {
      if (this.parts.schedule.takeNext() === 'tick') await this.preconfirm()
      else this.seal()
    },
    moved: (now) => this.parts.events.emit('time', now),
  }

  /**
   * Switches the mining mode (`evm_setAutomine`). Leaving `auto`, the clock's schedule restarts
   * from now rather than firing every tick and seal it skipped.
   */
  setMode(mode: MiningMode): Promise<void> {
    return this.parts.serialize(async () => {
      if ((this.miningMode === 'auto' || this.miningMode === 'off') && (mode === 'interval' || mode === 'instant')) this.parts.schedule.restart(this.parts.now())
      this.miningMode = mode
    })
  }

  /**
   * Anvil's `evm_setIntervalMining`: a block every `seconds` from now on (the clock's schedule),
   * or, for 0, no blocks at all until one is asked for.
   */
  setInterval(seconds: number): Promise<void> {
    return this.parts.serialize(async () => {
      if (seconds === 0) {
        this.miningMode = 'off'
        return
      }
      this.parts.schedule.setBlockTime(this.parts.now(), seconds * 1000)
      this.miningMode = 'interval'
    })
  }

  /** The seconds between interval-mined blocks, or undefined when blocks do not follow the clock (`anvil_getIntervalMining`). */
  get intervalSeconds(): number | undefined {
    return this.miningMode === 'interval' || this.miningMode === 'instant' ? this.parts.schedule.blockTime / 1000 : undefined
  }

  /** Runs a pre-confirmation tick now (`preconf_tick`), outside the clock's schedule. */
  tick(): Promise<Preconfirmation> {
    return this.parts.serialize(() => this.preconfirm())
  }

  /**
   * Seals a block now (`evm_mine`): a last tick pre-confirms what the mempool can execute, as
   * Anvil and Hardhat mine pending transactions, then the block seals and the schedule
   * restarts from this instant.
   */
  mine(): Promise<SealedBlock> {
    return this.parts.serialize(() => this.mineNow())
  }

  /**
   * Seals `count` blocks now (`anvil_mine` / `hardhat_mine`): the first as {@link mine}, the
   * others empty, each `intervalSeconds` after its parent (default 1, as Hardhat).
   */
  mineBlocks(count: number, intervalSeconds = 1n): Promise<SealedBlock | undefined> {
    return this.parts.serialize(async () => {
      let block: SealedBlock | undefined
      for (let i = 0; i < count; i++) {
        if (i > 0) this.refreshPending(block!.header.timestamp + intervalSeconds)
        block = await this.mineNow()
      }
      return block
    })
  }

  /** After an admission (inside its serialized step): per the mining mode, pre-confirm (and seal) at once. */
  async afterAdmission(): Promise<void> {
    if (this.miningMode === 'instant') await this.preconfirm()
    else if (this.miningMode === 'auto' && (await this.preconfirm()).transactions.length > 0) this.sealNow()
  }

  /**
   * Gives the pending block (which has pre-confirmed nothing) its context anew: timestamp
   * `timestamp`, or the schedule's, and the current block settings.
   */
  refreshPending(timestamp: bigint | undefined): void {
    const { builder, blocks, schedule } = this.parts
    if (timestamp !== undefined) schedule.setNextTimestamp(timestamp)
    builder.refreshPending(schedule.timestampAfter(blocks.head.header.timestamp))
  }

  /** The mode as it is now, and how to restore it (world snapshots). */
  capture(): () => void {
    const mode = this.miningMode
    return () => (this.miningMode = mode)
  }

  private async mineNow(): Promise<SealedBlock> {
    await this.preconfirm()
    return this.sealNow()
  }

  /** Seals the pending block now; the schedule restarts from this instant. */
  private sealNow(): SealedBlock {
    this.parts.schedule.restart(this.parts.now())
    return this.seal()
  }

  private async preconfirm(): Promise<Preconfirmation> {
    const preconfirmation = await this.parts.builder.preconfirm()
    this.parts.events.emit('preconfirmation', preconfirmation)
    return preconfirmation
  }

  private seal(): SealedBlock {
    const { builder, schedule, events } = this.parts
    const block = builder.seal(schedule.timestampAfter(builder.pending.context.timestamp))
    events.emit('block', block)
    return block
  }
}
