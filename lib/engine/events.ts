/** The events a chain emits as it runs: what subscriptions, waits and logs listen to. */
import type { EventEmitter } from 'node:events'
import type { IncludedTransaction, SealedBlock } from '../blocks/block.ts'
import type { Preconfirmation } from '../builder/builder.ts'
import type { PreconfirmationRecord } from '../builder/pending-block.ts'
import type { Transaction } from '../transactions/transaction.ts'
import type { Hex } from '../types.ts'

/** Pre-confirmations taken back from the pending block (a dropped pre-confirmation, or a test control that changed the block). */
export interface WithdrawnPreconfirmations {
  /** The pending block's number. */
  readonly blockNumber: bigint
  /** The withdrawn pre-confirmations, in order (their transactions left the block). */
  readonly preconfirmations: readonly PreconfirmationRecord[]
}

/** An EIP-1193 provider message carrying one notification of a subscription made through `request`. */
export interface SubscriptionMessage {
  readonly type: 'eth_subscription'
  readonly data: { readonly subscription: Hex; readonly result: unknown }
}

/** The events of a chain, with their payloads. */
export interface ChainEvents {
  /** A transaction entered the mempool. */
  transaction: [transaction: Transaction]
  /**
   * The next tick was worked out ahead: these transactions go into it unless something changes
   * first (nothing is pre-confirmed yet). Formatting may start on them; users are not told.
   */
  drafted: [transactions: readonly IncludedTransaction[]]
  /** A pre-confirmation tick ran; `transactions` holds only the ones new in this tick. */
  preconfirmation: [preconfirmation: Preconfirmation]
  /** Pre-confirmations were taken back before the seal; as on Base, no subscription retracts them. */
  withdrawn: [withdrawn: WithdrawnPreconfirmations]
  /** A block was sealed. */
  block: [block: SealedBlock]
  /** The clock finished moving (to `now`, ms), after the ticks and seals on the way. */
  time: [now: number]
  /** EIP-1193: a notification of a subscription made with `request({ method: 'eth_subscribe' })`. */
  message: [message: SubscriptionMessage]
}

/** What a chain's events are emitted and listened to on (the chain facade). */
export type ChainEmitter = EventEmitter<ChainEvents>
