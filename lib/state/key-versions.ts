/**
 * What sealed history keeps per key: the values one account or storage word took, by the block
 * that wrote them (and when two versions of an account are the same), and one account's
 * storage with the blocks that wiped it. Both can be pruned
 * (`--prune-history`): what no read at the oldest kept block or later can return is dropped,
 * with its undo while a snapshot is open, so a revert puts it back.
 */
import { equalsBytes } from '@ethereumjs/util'
import type { UndoLog } from '../snapshots/undo-log.ts'
import type { AccountState } from './account.ts'

/** The values one key took, by the block that wrote them (ascending; never empty). */
export interface KeyVersions<T> {
  readonly blocks: readonly number[]
  readonly values: readonly T[]
}

/** Whether two versions of an account read the same (the same fields and code; undefined: no account). */
export function sameAccount(a: AccountState | undefined, b: AccountState | undefined): boolean {
  if (a === b) return true
  if (a === undefined || b === undefined) return false
  return a.nonce === b.nonce && a.balance === b.balance && (a.code === b.code || equalsBytes(a.codeHash, b.codeHash))
}

/** History that pruning trims: a key's versions, or an account's storage and its wipes. */
export interface Prunable {
  /** Drops what no read at block `floor` or later returns. */
  prune(floor: number, undoLog: UndoLog | undefined): void
}

/** The values one key took, by the block that wrote them (ascending). */
export class Versions<T> implements KeyVersions<T>, Prunable {
  readonly blocks: number[]
  readonly values: T[]

  constructor(block: number, value: T) {
    this.blocks = [block]
    this.values = [value]
  }

  get latest(): T {
    return this.values[this.values.length - 1]
  }

  get latestBlock(): number {
    return this.blocks[this.blocks.length - 1]
  }

  /** The index of the value in force at the end of `block`, or -1 if the key was not yet written. */
  indexAt(block: number): number {
    const { blocks } = this
    let high = blocks.length - 1
    if (blocks[high] <= block) return high
    if (blocks[0] > block) return -1
    let low = 0
    while (low < high) {
      const middle = (low + high + 1) >> 1
      if (blocks[middle] <= block) low = middle
      else high = middle - 1
    }
    return low
  }

  /**
   * Records `value` as of `block` (overwriting a value already written in that block); with
   * `undoable`, returns how to take the write back.
   */
  write(block: number, value: T, undoable: boolean): (() => void) | undefined {
    const last = this.blocks.length - 1
    if (this.blocks[last] === block) {
      const previous = this.values[last]
      this.values[last] = value
      return undoable ? () => (this.values[last] = previous) : undefined
    }
    this.blocks.push(block)
    this.values.push(value)
    return undoable
      ? () => {
          this.blocks.pop()
          this.values.pop()
        }
      : undefined
  }

  /** Drops the versions written after `block` (`anvil_rollback`); false if none is left. */
  dropAfter(block: number, undoLog: UndoLog | undefined): boolean {
    let kept = this.blocks.length
    while (kept > 0 && this.blocks[kept - 1] > block) kept--
    if (kept < this.blocks.length) {
      const blocks = this.blocks.splice(kept)
      const values = this.values.splice(kept)
      if (undoLog?.recording) {
        undoLog.record(() => {
          this.blocks.push(...blocks)
          this.values.push(...values)
        })
      }
    }
    return kept > 0
  }

  /** Drops the versions before the newest at or before `floor`: a read there or later never returns them. */
  prune(floor: number, undoLog: UndoLog | undefined): void {
    const index = this.indexAt(floor)
    if (index > 0) this.dropFirst(index, undoLog)
  }

  /** Drops the versions written before `block` (a wipe there hides them); false, dropping nothing, if that is all of them. */
  dropBelow(block: number, undoLog: UndoLog | undefined): boolean {
    const { blocks } = this
    let count = 0
    while (count < blocks.length && blocks[count] < block) count++
    if (count === blocks.length) return false
    if (count > 0) this.dropFirst(count, undoLog)
    return true
  }

  private dropFirst(count: number, undoLog: UndoLog | undefined): void {
    const blocks = this.blocks.splice(0, count)
    const values = this.values.splice(0, count)
    if (undoLog?.recording) {
      undoLog.record(() => {
        this.blocks.unshift(...blocks)
        this.values.unshift(...values)
      })
    }
  }
}

/** One account's storage history: each word's versions, and the blocks that wiped them all. */
export class StorageHistory implements Prunable {
  readonly slots = new Map<bigint, Versions<bigint>>()
  /** Blocks in which the storage was wiped (before that block's own writes), ascending. */
  wipes: number[] | undefined

  /** The latest wipe at or before `block`, or -1. */
  wipeAt(block: number): number {
    const wipes = this.wipes
    if (wipes === undefined) return -1
    for (let i = wipes.length - 1; i >= 0; i--) if (wipes[i] <= block) return wipes[i]
    return -1
  }

  /** The latest wipe, or -1. */
  get lastWipe(): number {
    return this.wipes === undefined ? -1 : this.wipes[this.wipes.length - 1]
  }

  /**
   * Drops the wipes before the newest at or before `floor`, and every word's versions written
   * before that wipe (reads at `floor` or later see it): a look at each word of the account,
   * once per wipe that falls behind the floor.
   */
  prune(floor: number, undoLog: UndoLog | undefined): void {
    const wipes = this.wipes
    const wipe = this.wipeAt(floor)
    if (wipes === undefined || wipe === -1) return
    if (wipes[0] < wipe) {
      this.wipes = wipes.filter((block) => block >= wipe)
      if (undoLog?.recording) undoLog.record(() => (this.wipes = wipes))
    }
    for (const [slot, versions] of this.slots) {
      if (versions.blocks[0] >= wipe || versions.dropBelow(wipe, undoLog)) continue
      this.slots.delete(slot)
      if (undoLog?.recording) undoLog.record(() => this.slots.set(slot, versions))
    }
  }

  /** Drops the wipes and word versions written after `block` (`anvil_rollback`); false if nothing is left. */
  dropAfter(block: number, undoLog: UndoLog | undefined): boolean {
    const wipes = this.wipes
    if (wipes !== undefined && wipes[wipes.length - 1] > block) {
      const kept = wipes.filter((wipe) => wipe <= block)
      this.wipes = kept.length === 0 ? undefined : kept
      if (undoLog?.recording) undoLog.record(() => (this.wipes = wipes))
    }
    for (const [slot, versions] of this.slots) {
      if (versions.dropAfter(block, undoLog)) continue
      this.slots.delete(slot)
      if (undoLog?.recording) undoLog.record(() => this.slots.set(slot, versions))
    }
    return this.slots.size > 0 || this.wipes !== undefined
  }
}
