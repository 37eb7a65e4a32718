/**
 * The test controls of Anvil and Hardhat: state edits on `latest` and `pending` at once,
 * impersonation, and block-time controls (`evm_increaseTime`, `evm_setNextBlockTimestamp`,
 * a fixed timestamp interval). None of them seals a block.
 */
import type { BlockStore } from '../blocks/block-store.ts'
import type { BlockBuilder } from '../builder/builder.ts'
import type { BlockSchedule } from '../clock/block-schedule.ts'
import type { Serializer } from '../clock/serializer.ts'
import { InvalidInputError } from '../errors.ts'
import type { StateCommitment } from '../state/state-commitment.ts'
import type { StateHistory } from '../state/state-history.ts'
import { ensureAccounts } from '../state/state-source.ts'
import type { Address } from '../types.ts'
import type { Mining } from './mining.ts'
import { setBalance, setCode, setNonce, setStorage, type EditTarget } from './state-edits.ts'
import type { Wallet } from './wallet.ts'

/** What the controls act on. */
export interface ControlParts {
  readonly history: StateHistory
  readonly blocks: BlockStore
  readonly builder: BlockBuilder
  readonly commitment: StateCommitment
  readonly schedule: BlockSchedule
  readonly mining: Mining
  readonly wallet: Wallet
  readonly serialize: Serializer
}

/** State edits, impersonation and time controls. */
export class TestControls {
  constructor(private readonly parts: ControlParts) {}

  /** Sets the balance of `address` in wei, at `latest` and `pending` at once (no block is sealed). */
  setBalance(address: Address, balance: bigint): Promise<void> {
    return this.edit(address, (target) => setBalance(target, address, balance))
  }

  /** Sets the nonce of `address`, at `latest` and `pending` at once. */
  setNonce(address: Address, nonce: bigint): Promise<void> {
    return this.edit(address, (target) => setNonce(target, address, nonce))
  }

  /** Replaces the runtime code of `address`, at `latest` and `pending` at once. */
  setCode(address: Address, code: Uint8Array): Promise<void> {
    return this.edit(address, (target) => setCode(target, address, code))
  }

  /** Sets one storage word of `address`, at `latest` and `pending` at once. */
  setStorageAt(address: Address, slot: bigint, value: bigint): Promise<void> {
    return this.edit(address, (target) => setStorage(target, address, slot, value))
  }

  /** Lets `eth_sendTransaction` send from `address` without its key (until stopped). */
  impersonate(address: Address): void {
    this.parts.wallet.impersonate(address)
  }

  /** Ends {@link impersonate} for `address`. */
  stopImpersonating(address: Address): void {
    this.parts.wallet.stopImpersonating(address)
  }

  /**
   * Moves block timestamps `seconds` ahead of the clock (`evm_increaseTime`); the pending block
   * takes the new time at once if it has pre-confirmed nothing yet. Returns the total offset.
   */
  increaseTime(seconds: number): Promise<number> {
    return this.parts.serialize(async () => {
      const total = this.parts.schedule.increaseTime(seconds)
      this.restampIfUntouched()
      return total
    })
  }

  /**
   * Gives the next block `timestamp` (`evm_setNextBlockTimestamp`): the pending block at once
   * if it has pre-confirmed nothing yet, else the block after it. Later blocks follow on.
   */
  setNextBlockTimestamp(timestamp: bigint): Promise<void> {
    return this.parts.serialize(async () => {
      const { builder, blocks, schedule, mining } = this.parts
      const pending = builder.pending
      const untouched = pending.transactions.length === 0
      const floor = untouched ? blocks.head.header.timestamp : pending.context.timestamp
      if (timestamp <= floor) {
        throw new InvalidInputError(`Timestamp ${timestamp} is lower than or equal to previous block's timestamp ${floor}`)
      }
      if (untouched) mining.restampPending(timestamp)
      else schedule.setNextTimestamp(timestamp)
    })
  }

  /**
   * Steps each new block's timestamp by `seconds` from its parent (undefined: follow the clock
   * again), from the pending block on if it has pre-confirmed nothing. Returns whether an
   * interval was set before.
   */
  setBlockTimestampInterval(seconds: bigint | undefined): Promise<boolean> {
    return this.parts.serialize(async () => {
      const hadInterval = this.parts.schedule.setTimestampInterval(seconds)
      this.restampIfUntouched()
      return hadInterval
    })
  }

  private restampIfUntouched(): void {
    if (this.parts.builder.pending.transactions.length === 0) this.parts.mining.restampPending(undefined)
  }

  /** Runs `edit` on the sealed head and the pending block together, once `address` is loaded. */
  private edit(address: Address, edit: (target: EditTarget) => void): Promise<void> {
    const { history, blocks, builder, commitment } = this.parts
    return this.parts.serialize(async () => {
      await ensureAccounts(history.latest, [address])
      edit({ history, headNumber: Number(blocks.head.header.number), pending: builder.pending, commitment })
    })
  }
}
