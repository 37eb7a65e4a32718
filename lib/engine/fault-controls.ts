/**
 * The failure modes applied on demand: pre-confirmations taken back
 * (`preconf_dropPreconfirmations`, and the seed's drops at a seal) and stalls started
 * (`preconf_stall`).
 */
import type { BlockBuilder } from '../builder/builder.ts'
import type { PendingBlock } from '../builder/pending-block.ts'
import type { Serializer } from '../clock/serializer.ts'
import { dropPreconfirmations, type DropRequest, type DroppedPreconfirmations } from '../faults/drop-preconfirmations.ts'
import type { StallPending } from '../faults/fault-options.ts'
import type { Faults } from '../faults/faults.ts'
import type { UserTransaction } from '../transactions/transaction.ts'
import type { ChainEmitter } from './events.ts'

/** What the fault controls act on. */
export interface FaultControlParts {
  readonly builder: BlockBuilder
  readonly events: ChainEmitter
  readonly serialize: Serializer
  readonly faults: Faults
  /** The clock's current time (ms). */
  readonly now: () => number
  /** Puts a dropped pre-confirmation's transaction back in the mempool. */
  readonly requeue: (transaction: UserTransaction) => void
  /** A copy of the pending block as it stands, over its parent's state (what a frozen `pending` reads). */
  readonly freezePending: () => PendingBlock
}

/** Drops and stalls, on request. */
export class FaultControls {
  constructor(private readonly parts: FaultControlParts) {}

  /** Takes back pre-confirmations now (`preconf_dropPreconfirmations`): the last `count`, or all from the first holding one of `transactions`. */
  dropPreconfirmations(request: DropRequest): Promise<DroppedPreconfirmations> {
    return this.parts.serialize(async () => this.withdraw(request))
  }

  /**
   * Stalls pre-confirmations for `ms` from now (0 ends a stall): ticks stop while blocks keep
   * sealing, and `pending` reads `latest`, or the pending block as it stands now (`frozen`).
   */
  stall(ms: number, pending: StallPending): Promise<void> {
    return this.parts.serialize(async () => this.parts.faults.startStall(this.parts.now(), ms, pending, this.parts.freezePending))
  }

  /** Drops pre-confirmations (never the block's opening system one) and announces it; runs inside the caller's serialized step. */
  withdraw(request: DropRequest): DroppedPreconfirmations {
    const { builder, requeue, events } = this.parts
    const dropped = dropPreconfirmations(builder.pending, request, builder.firstUserIndex, requeue)
    if (dropped.preconfirmations.length > 0) events.emit('withdrawn', { blockNumber: dropped.blockNumber, preconfirmations: dropped.preconfirmations })
    return dropped
  }
}
