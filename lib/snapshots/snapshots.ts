/**
 * Snapshots of the whole simulated world (state, history, overlay, mempool, blocks, clock),
 * as `evm_snapshot` / `evm_revert` give them in Hardhat and Anvil: ids count up from 1 and are
 * never reused; reverting to one restores the world as it was when it was taken and discards
 * it together with every later snapshot (a reverted id cannot be reverted to again).
 */
import { UndoLog } from './undo-log.ts'

/** Restores the values a snapshot captured outright (the clock and the schedule). */
export type RestoreCaptured = () => void

interface Snapshot {
  readonly id: number
  readonly position: number
  readonly restore: RestoreCaptured
}

/** The open snapshots of one chain, over its undo log. */
export class Snapshots {
  /** The log every world mutation records into while a snapshot is open. */
  readonly log = new UndoLog()
  private readonly open: Snapshot[] = []
  private nextId = 1

  /** Takes a snapshot; `capture` saves what is restored outright and returns how to restore it. */
  take(capture: () => RestoreCaptured): number {
    const id = this.nextId++
    this.open.push({ id, position: this.log.open(), restore: capture() })
    return id
  }

  /** Reverts to snapshot `id`; false if there is no such open snapshot. */
  revert(id: number): boolean {
    const index = this.open.findIndex((snapshot) => snapshot.id === id)
    if (index === -1) return false
    const snapshot = this.open[index]
    this.log.rollback(snapshot.position)
    snapshot.restore()
    this.log.close(this.open.length - index)
    this.open.length = index
    return true
  }
}
