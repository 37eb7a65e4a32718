/**
 * When blocks happen: the mining modes, the clock's timeline of ticks and seals, and the
 * immediate controls (`preconf_tick`, `evm_mine`, `anvil_mine`). Every tick and seal goes through
 * here, so each emits its event once; here too the faults in force take effect: ticks skipped or
 * stalled (a stalled block is still built, silently, at its seal) and pre-confirmations dropped.
 */
import type { SealedBlock } from '../blocks/block.ts'
import type { BlockStore } from '../blocks/block-store.ts'
import type { BlockBuilder, Preconfirmation } from '../builder/builder.ts'
import type { BlockSchedule } from '../clock/block-schedule.ts'
import type { Timeline } from '../clock/clock.ts'
import type { Serializer } from '../clock/serializer.ts'
import type { PendingBlock } from '../builder/pending-block.ts'
import { listSource, type TransactionSource } from '../builder/sources.ts'
import type { DropRequest } from '../faults/drop-preconfirmations.ts'
import type { Faults } from '../faults/faults.ts'
import type { MiningMode } from '../options.ts'
import type { UserTransaction } from '../transactions/transaction.ts'
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
  /** The failure modes in force. */
  readonly faults: Faults
  /** Takes back pre-confirmations and announces it (the seed's drops at a seal). */
  readonly withdraw: (request: DropRequest) => void
  /** A copy of the pending block as it stands, over its parent's state (what a frozen `pending` reads). */
  readonly freezePending: () => PendingBlock
  /** Drops the mempool's queued transactions idle past their lifetime at this time (ms). */
  readonly expirePool: (now: number) => void
}

/** The chain's mining mode and its block production. */
export class Mining {
  private miningMode: MiningMode

  constructor(
    private readonly parts: MiningParts,
    /** The mode the chain was created with. */
    private readonly configuredMode: MiningMode,
  ) {
    this.miningMode = configuredMode
  }

  /** How accepted transactions become blocks (see {@link MiningMode}). */
  get mode(): MiningMode {
    return this.miningMode
  }

  /** What the clock drives: the schedule's ticks and seals (none under automine). */
  readonly timeline: Timeline = {
    nextDueAt: () => (this.miningMode === 'auto' || this.miningMode === 'off' ? Number.POSITIVE_INFINITY : this.parts.schedule.nextDueAt()),
    fireNext: async () => {
      if (this.parts.schedule.takeNext() === 'seal') await this.seal()
      else if (this.parts.faults.scheduledTick(this.parts.now())) await this.preconfirm()
    },
    moved: (now) => {
      this.parts.faults.stalledAt(now)
      void this.parts.serialize(async () => this.parts.expirePool(now))
      this.parts.events.emit('time', now)
    },
    // The next tick, drafted while the clock waits for it (a draft never changes what a tick takes).
    prepareNext: async () => {
      if (!this.followsClock || this.stalled || this.parts.builder.awaitsOpening) return
      const drafted = await this.parts.builder.prepareTick()
      if (drafted.length > 0) this.parts.events.emit('drafted', drafted)
    },
  }

  /** Switches the mining mode (`evm_setAutomine`); leaving `auto`, the schedule restarts from now rather than firing what it skipped. */
  setMode(mode: MiningMode): Promise<void> {
    return this.parts.serialize(async () => {
      const restarts = !this.followsClock && (mode === 'interval' || mode === 'instant')
      this.miningMode = mode
      if (restarts) this.restartSchedule()
    })
  }

  /** `evm_setAutomine`: on, `auto`; off, back to the mode the chain was created with, or, created with `auto`, no mining until asked for (as Hardhat, and Anvil without a block time). */
  setAutomine(enabled: boolean): Promise<void> {
    if (enabled) return this.setMode('auto')
    if (this.miningMode !== 'auto') return Promise.resolve()
    return this.setMode(this.configuredMode === 'auto' ? 'off' : this.configuredMode)
  }

  /** Anvil's `evm_setIntervalMining`: a block every `seconds` from now on (the clock's schedule); for 0, none until asked for. */
  setInterval(seconds: number): Promise<void> {
    return this.parts.serialize(async () => {
      if (seconds === 0) {
        this.miningMode = 'off'
        return
      }
      this.parts.schedule.setBlockTime(this.parts.now(), seconds * 1000)
      this.miningMode = 'interval'
      this.restampIfUntouched()
    })
  }

  /** The seconds between interval-mined blocks, or undefined when blocks do not follow the clock (`anvil_getIntervalMining`). */
  get intervalSeconds(): number | undefined {
    return this.followsClock ? this.parts.schedule.blockTime / 1000 : undefined
  }

  /** Whether ticks and seals follow the clock (`interval`, `instant`); under `auto` and `off` blocks are made when asked for. */
  private get followsClock(): boolean {
    return this.miningMode === 'interval' || this.miningMode === 'instant'
  }

  /**
   * Runs a pre-confirmation tick now (`preconf_tick`), outside the clock's schedule; during a
   * stall it pre-confirms nothing (the result names the index the next tick would take).
   */
  tick(): Promise<Preconfirmation> {
    return this.parts.serialize(async () => {
      const { faults, builder } = this.parts
      if (this.stalled) return { blockNumber: builder.pending.context.number, index: builder.pending.ticks, transactions: [], dropped: [] }
      faults.explicitTick()
      return this.preconfirm()
    })
  }

  /** Whether pre-confirmations are stalled now. */
  private get stalled(): boolean {
    return this.parts.faults.stalledAt(this.parts.now())
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
   * Seals `count` blocks now (`anvil_mine` / `hardhat_mine`): each as {@link mine} (the later
   * ones hold what the mempool still holds, usually nothing), each `intervalSeconds` after its
   * parent (default 1, as Hardhat).
   */
  mineBlocks(count: number, intervalSeconds = 1n): Promise<SealedBlock | undefined> {
    return this.parts.serialize(async () => {
      let block: SealedBlock | undefined
      for (let i = 0; i < count; i++) {
        if (i > 0) this.restamp(block!.header.timestamp + intervalSeconds)
        block = await this.mineNow()
      }
      return block
    })
  }

  /**
   * After an admission (in its serialized step), a test control's take-back into the mempool, or
   * a fork's held transaction able to run: per the mode, pre-confirm (and seal) at once; during a
   * stall nothing is pre-confirmed, and automine seals the block silently built.
   */
  async afterAdmission(): Promise<void> {
    if (this.miningMode === 'instant') {
      if (!this.stalled) await this.preconfirm()
    } else if (this.miningMode === 'auto') {
      if (this.stalled) await this.mineNow()
      else if ((await this.preconfirm()).transactions.length > 0) await this.sealNow()
    }
  }

  /** After a deposit was queued: under automine, a block with it is mined at once (the pending block's, if it has not opened yet, else the next one's); otherwise it waits for the next block's opening pre-confirmation. */
  async afterDeposit(): Promise<void> {
    if (this.miningMode !== 'auto') return
    if (!this.parts.builder.awaitsOpening) await this.sealNow()
    await this.mineNow()
  }

  /**
   * Gives the pending block its context anew (after a test control, or before `evm_mine` seals
   * it): timestamp `timestamp`, else with `atNow` the clock's time (the default under `auto` and
   * `off`, as Anvil and Hardhat stamp a block), else the schedule's; the current block settings.
   * Pre-confirmations the change affects are taken back (`withdrawn`, a flashblock reorg) and
   * requeued, to run again as Anvil and Hardhat mine pending transactions in a block with the
   * settings asked for; returns whether any were (then see {@link afterAdmission}).
   */
  restamp(timestamp: bigint | undefined, atNow = !this.followsClock): boolean {
    const { builder, withdraw } = this.parts
    const at = this.pendingTimestamp(timestamp, atNow)
    const touched = !builder.untouched
    if (touched && builder.keepsContextAt(at)) return false
    if (touched) withdraw({ count: builder.pending.preconfirmations.length, mode: 'requeue' })
    builder.refreshPending(at)
    return touched
  }

  /** The pending block's timestamp after a test control (see {@link restamp}): at the clock's time `atNow`, else at the scheduled seal. */
  private pendingTimestamp(timestamp: bigint | undefined, atNow: boolean): bigint {
    const { blocks, schedule, now } = this.parts
    if (timestamp !== undefined) schedule.setNextTimestamp(timestamp)
    return schedule.timestampAfter(blocks.head.header.timestamp, atNow ? now() : undefined)
  }

  /** The schedule counts from now; an untouched pending block takes the new schedule's timestamp. */
  private restartSchedule(): void {
    this.parts.schedule.restart(this.parts.now())
    this.restampIfUntouched()
  }

  /** Re-stamps the pending block (see {@link restamp}) if it is untouched (BlockBuilder.untouched). */
  private restampIfUntouched(): void {
    if (this.parts.builder.untouched) this.restamp(undefined)
  }

  /** The mode as it is now, and how to restore it (world snapshots). */
  capture(): () => void {
    const mode = this.miningMode
    return () => (this.miningMode = mode)
  }

  /**
   * Seals a block of `transactions` alone, in their order, leaving out any that cannot execute,
   * as Anvil does (`anvil_reorg`'s replacement blocks; no fault touches them). Runs inside the
   * caller's serialized step.
   */
  async mineWith(transactions: readonly UserTransaction[]): Promise<SealedBlock> {
    await this.preconfirm(true, listSource(transactions))
    return this.sealNow(false)
  }

  /**
   * A last tick, which may fill the block (announced unless stalled), then the seal; a block that
   * pre-confirmed nothing yet (not even an OP-stack block's opening deposit) is stamped with the
   * clock's time, as Anvil and Hardhat stamp a mined block (else it keeps its pre-confirmations').
   */
  private async mineNow(): Promise<SealedBlock> {
    if (this.parts.builder.pending.transactions.length === 0) this.restamp(undefined, true)
    this.parts.faults.lastTick()
    await this.preconfirm(!this.stalled)
    return this.sealNow()
  }

  /** Seals the pending block now ({@link seal}); the schedule restarts from this instant. */
  private sealNow(faulted = true): Promise<SealedBlock> {
    this.parts.schedule.restart(this.parts.now())
    return this.seal(faulted)
  }

  /**
   * A tick that takes the mempool (or `userSource` instead), after the block's opening
   * pre-confirmation if it still waits for one; `announce` false builds without telling anyone
   * (a stalled node's block).
   */
  private async preconfirm(announce = true, userSource?: TransactionSource): Promise<Preconfirmation> {
    if (!this.followsClock) this.restampIfUntouched()
    await this.open(announce)
    return this.runTick(announce, userSource)
  }

  /**
   * Runs the pending block's opening pre-confirmation if it waits for one (an OP-stack chain's
   * flashblock index 0: its system transactions), at the instant of the block's first tick or
   * seal, so test controls may still re-stamp the block until then.
   */
  private async open(announce = true): Promise<void> {
    if (this.parts.builder.awaitsOpening) await this.runTick(announce)
  }

  private async runTick(announce = true, userSource?: TransactionSource): Promise<Preconfirmation> {
    const preconfirmation = await this.parts.builder.preconfirm(userSource)
    if (announce) this.parts.events.emit('preconfirmation', preconfirmation)
    return preconfirmation
  }

  /**
   * Seals the pending block. During a stall the block is built at its seal, as a sequencer
   * without its flashblocks builder does, and no one hears of it before the seal; otherwise the
   * seed may first drop its last pre-confirmations (neither, unless `faulted`). Then the next
   * block opens, and the seed decides whether it starts late or stalls.
   */
  private async seal(faulted = true): Promise<SealedBlock> {
    const { builder, schedule, events, faults, now } = this.parts
    if (faulted && this.stalled) {
      faults.lastTick()
      await this.preconfirm(false)
    } else {
      await this.open()
      const depth = faulted ? faults.dropsAtSeal(builder.pending.context.number) : 0
      if (depth > 0) this.parts.withdraw({ count: depth, mode: faults.switches.dropMode })
    }
    const block = builder.seal(schedule.timestampAfter(builder.pending.context.timestamp))
    events.emit('block', block)
    faults.opened(builder.pending.context.number, now(), this.parts.freezePending)
    return block
  }
}
