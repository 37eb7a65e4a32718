/**
 * `--prune-history N`: sealed history keeps the state of the head and the N blocks before it,
 * as Anvil does. Reads before them are refused with Anvil's error. What is dropped costs what
 * changed: every key given a new version in a block is queued under that block, and when the
 * block falls to the oldest kept one (the floor) its keys drop the versions before their newest
 * at or before the floor (that one stays: it is what the floor and later blocks read until the
 * next). No seal scans the state. Every step records its undo while a snapshot is open, so a
 * revert restores the history (and the floor) exactly as it was: memory stays bounded only while
 * no snapshot is open, as the undo log itself grows with every write then.
 */
import { InvalidParamsError } from '../errors.ts'
import type { UndoLog } from '../snapshots/undo-log.ts'
import type { Prunable } from './key-versions.ts'

/** Drops the versions reads at kept blocks no longer need, block by block as the head moves. */
export class HistoryPruner {
  /** Keys given a new version in a block while holding older ones, by that block: what the floor's passing trims. */
  private readonly written = new Map<number, Prunable[]>()
  /** The oldest block whose state is kept: reads before it are refused (-1 until the first seal). */
  private floor = -1
  /** The newest sealed block, as the error names it. */
  private head = 0

  constructor(
    /** Blocks kept before the head (0: the head's state alone, Anvil's bare `--prune-history`; Infinity: all, a floor only). */
    readonly keep: number,
    private readonly undoLog?: UndoLog,
  ) {}

  /** Throws Anvil's error (-32602 `BlockOutOfRangeError`) for a read at `block`, if its state is pruned. */
  check(block: number): void {
    if (block < this.floor) throw new InvalidParamsError(`BlockOutOfRangeError: block height is ${this.head} but requested was ${block}`)
  }

  /** The oldest block whose state is kept (-1 until the first seal). */
  get oldestKept(): number {
    return this.floor
  }

  /** Refuses reads before `floor` from now on (a loaded dump's history starts there); `head` is the newest sealed block. */
  raiseFloor(floor: number, head: number): void {
    this.floor = Math.max(this.floor, floor)
    this.head = head
  }

  /** Notes that `key` took a new version in `block` while it held older ones (trimmed at once if the floor is already there). */
  noteWrite(block: number, key: Prunable): void {
    // A chain that keeps every block (a floor from a loaded dump alone) never trims: nothing to queue.
    if (this.keep === Infinity) return
    if (block <= this.floor) {
      key.prune(this.floor, this.undoLog)
      return
    }
    let keys = this.written.get(block)
    if (keys === undefined) {
      keys = []
      this.written.set(block, keys)
    }
    keys.push(key)
    if (this.undoLog?.recording) this.undoLog.record(() => keys.pop())
  }

  /** Block `head` was sealed: the floor moves to `head - keep`, and the keys written in the blocks it passes are trimmed. */
  sealed(head: number): void {
    const [previousFloor, previousHead] = [this.floor, this.head]
    const floor = head - this.keep
    this.head = head
    if (floor > this.floor) {
      this.floor = floor
      for (const block of this.passedBlocks(previousFloor, floor)) this.trim(block, floor)
    }
    if (this.undoLog?.recording) {
      this.undoLog.record(() => {
        this.floor = previousFloor
        this.head = previousHead
      })
    }
  }

  /** The blocks after `from` up to `to` with queued keys, without walking a long empty range (a fork, a loaded state). */
  private passedBlocks(from: number, to: number): number[] {
    if (to - from <= this.written.size) {
      const blocks: number[] = []
      for (let block = from + 1; block <= to; block++) if (this.written.has(block)) blocks.push(block)
      return blocks
    }
    return [...this.written.keys()].filter((block) => block > from && block <= to)
  }

  /** Trims the keys queued under `block` to what reads at `floor` and later need. */
  private trim(block: number, floor: number): void {
    const keys = this.written.get(block)!
    this.written.delete(block)
    if (this.undoLog?.recording) this.undoLog.record(() => this.written.set(block, keys))
    for (const key of keys) key.prune(floor, this.undoLog)
  }
}
