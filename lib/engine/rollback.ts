/**
 * `anvil_rollback`: the chain's last blocks taken away, as Anvil unwinds them. The blocks and
 * their transactions go (they are not pooled again, as in Anvil), every key's versions written
 * in them go, the state root is rebuilt from what is left, and a new pending block opens on
 * the new head; what the old one had pre-confirmed goes back to the mempool (on the old head's
 * state it may now wait behind a nonce gap). Inside a snapshot, a revert brings it all back.
 */
import type { BlockStore } from '../blocks/block-store.ts'
import type { BlockBuilder } from '../builder/builder.ts'
import type { BlockSchedule } from '../clock/block-schedule.ts'
import { InvalidParamsError } from '../errors.ts'
import type { StateCommitment } from '../state/state-commitment.ts'
import type { StateHistory } from '../state/state-history.ts'
import type { UserTransaction } from '../transactions/transaction.ts'
import type { Mining } from './mining.ts'

/** What a rollback changes. */
export interface RollbackParts {
  readonly blocks: BlockStore
  readonly history: StateHistory
  readonly commitment: StateCommitment
  readonly builder: BlockBuilder
  readonly mining: Mining
  readonly schedule: BlockSchedule
  /** The clock's current time (ms). */
  readonly now: () => number
  /** Puts a pre-confirmed transaction back in the mempool. */
  readonly requeue: (transaction: UserTransaction) => void
}

/** What takes blocks away: `Rollback` or `Reorg` (Anvil's texts name it). */
export type Unwinding = 'Rollback' | 'Reorg'

/**
 * The block left as the head once the last `depth` go: Anvil's -32602 when they are more than
 * the chain holds after its first block; a pruned chain refuses to go below the oldest state it keeps.
 */
export function unwindTarget({ blocks, history }: Pick<RollbackParts, 'blocks' | 'history'>, depth: number, unwinding: Unwinding): number {
  const head = Number(blocks.head.header.number)
  const height = head - Number(blocks.first.header.number)
  if (depth > height) throw new InvalidParamsError(`${unwinding} depth must not exceed current chain height: current height ${height}, depth ${depth}`)
  const target = head - depth
  const keptFrom = history.keptFrom
  if (keptFrom !== undefined && target < keptFrom) throw new InvalidParamsError(`BlockOutOfRangeError: block height is ${head} but requested was ${target}`)
  return target
}

/** Takes the last `depth` blocks away (see {@link unwindTarget} for the limits). */
export function rollBack(parts: RollbackParts, depth: number, unwinding: Unwinding = 'Rollback'): void {
  const { blocks, history, commitment, builder } = parts
  const target = unwindTarget(parts, depth, unwinding)
  if (depth === 0) return
  for (const { transaction } of builder.pending.transactions) if (transaction.kind !== 'deposit') parts.requeue(transaction)
  blocks.dropAfter(target)
  history.dropAfter(target)
  commitment.rebuild(() => history.keys())
  builder.reopen(blocks.head.header.timestamp)
  parts.schedule.restart(parts.now())
  parts.mining.restamp(undefined)
}
