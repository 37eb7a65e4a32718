/**
 * Snapshots of the whole simulated world (state, history, pending block, mempool, blocks,
 * clock), as `evm_snapshot` / `evm_revert` give them in Anvil and Hardhat: ids count up from 0
 * (Anvil's; Hardhat's from 1) over the chain's whole life, a reset or a load included, and are
 * never reused; reverting to one restores the world as it was when it was taken and
 * discards it together with every later snapshot (a reverted id cannot be reverted to again).
 * What lives in the undo log costs only what changed since; the rest (the clock, the schedule,
 * the mining mode, …) is captured outright by the parts that registered a capture.
 */
import { UndoLog } from './undo-log.ts'

/** Captures a part's state as it is now and returns how to restore it. */
export type Capture = () => () => void

interface Snapshot {
  readonly id: number
  readonly position: number
  readonly restores: ReadonlyArray<() => void>
}

/** A chain's snapshot ids, counted across the engines a reset or a load replaces. */
export class SnapshotIds {
  private next = 0

  /** The next id. */
  take(): number {
    return this.next++
  }
}

/** The open snapshots of one chain, over its undo log. */
export class Snapshots {
  /** The log every world mutation records into while a snapshot is open. */
  readonly log = new UndoLog()
  private readonly captures: Capture[] = []
  private readonly open: Snapshot[] = []

  constructor(private readonly ids = new SnapshotIds()) {}

  /** Adds a part's capture: it runs at every snapshot, its restore at the revert. */
  register(capture: Capture): void {
    this.captures.push(capture)
  }

  /** Takes a snapshot; returns its id. */
  take(): number {
    const id = this.ids.take()
    this.open.push({ id, position: this.log.open(), restores: this.captures.map((capture) => capture()) })
    return id
  }

  /** Reverts to snapshot `id`; false if there is no such open snapshot. */
  revert(id: number): boolean {
    const index = this.open.findIndex((snapshot) => snapshot.id === id)
    if (index === -1) return false
    const snapshot = this.open[index]
    this.log.rollback(snapshot.position)
    for (const restore of snapshot.restores) restore()
    this.log.close(this.open.length - index)
    this.open.length = index
    return true
  }
}
