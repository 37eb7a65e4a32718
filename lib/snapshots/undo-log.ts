/**
 * The world's undo log: while a snapshot is open, every mutation of persistent world data
 * (history, overlay, blocks, pool, state tries) records how to undo itself, so reverting costs
 * what changed since the snapshot, never a copy of the world. With no snapshot open nothing is
 * recorded (writers check {@link UndoLog.recording} before building an undo closure).
 */
export class UndoLog {
  private readonly undos: Array<() => void> = []
  private openSnapshots = 0

  /** Whether mutations must record their undo. */
  get recording(): boolean {
    return this.openSnapshots > 0
  }

  /** Records how to undo a mutation that just happened. */
  record(undo: () => void): void {
    if (this.openSnapshots > 0) this.undos.push(undo)
  }

  /** Starts recording for a new snapshot; returns its position in the log. */
  open(): number {
    this.openSnapshots++
    return this.undos.length
  }

  /** Undoes every mutation recorded after `position`, newest first. */
  rollback(position: number): void {
    while (this.undos.length > position) this.undos.pop()!()
  }

  /** `count` snapshots were discarded; with none left, the log empties and stops recording. */
  close(count: number): void {
    this.openSnapshots -= count
    if (this.openSnapshots === 0) this.undos.length = 0
  }
}
