/**
 * Tick jitter from the arrival times of a per-tick notification (`newFlashblocks`), and the same
 * measure for seals (`newHeads`).
 *
 * The method. The node's schedule is a fixed grid on its clock, which under the realtime clock is
 * the wall clock: block b opens at open + (b - b0) × blockTime and its ticks fall every
 * `interval` after that, the last one at the seal's instant (the tick first), so tick j (1..n, n =
 * blockTime / interval) of block b is due at open + (b - b0) × blockTime + j × interval. A
 * pending block's notification names b, and the j-th notification of b is its tick j: the
 * realtime driver never skips a due tick, it fires late ones in order. The grid's origin (`open`,
 * plus the fixed cost of formatting and delivering a notification) is not known to the client,
 * so it is taken as the smallest offset seen: jitter is each tick's lateness beyond the best
 * delivery of the run (0 for the best tick). Only blocks whose every tick arrived (not the first
 * and last, which the run cuts) are measured, so a missed tick cannot shift the count. A
 * missed tick is one a measured block lacks; bunched ticks are two arrivals less than half an
 * interval apart (a late tick delivered together with the next). Each subscriber is measured on
 * its own and the samples are pooled.
 */
import { spread, type Spread } from './soak-stats.ts'
import type { Arrival } from './soak-subscribers.ts'

/** What the arrivals say about the schedule. */
export interface TickReport {
  /** Lateness beyond the run's best delivery, ms. */
  jitter: Spread
  /** Time between consecutive arrivals, ms. */
  gaps: Spread
  /** Blocks measured (every tick present) per subscriber, summed. */
  blocksMeasured: number
  missed: number
  /** Blocks with more notifications than ticks (should never happen). */
  extra: number
  bunched: number
}

/**
 * Measures `streams` (one arrival list per subscriber) against a grid of `perBlock` events every
 * `stepMs`, blocks every `blockMs`. `opening`: each block also has an opening notification (an
 * OP-stack chain's flashblock index 0, its system transactions) due with its first tick, so a
 * block has `perBlock + 1`, the first two due together (not counted as bunched).
 */
export function measureTicks(streams: readonly Arrival[][], perBlock: number, stepMs: number, blockMs: number, opening = false): TickReport {
  const expected = opening ? perBlock + 1 : perBlock
  /** Tick j's (0-based among the block's notifications) due time after the block opens. */
  const dueAfterOpen = (j: number): number => (opening ? Math.max(j, 1) : j + 1) * stepMs
  const jitter: number[] = []
  const gaps: number[] = []
  let blocksMeasured = 0
  let missed = 0
  let extra = 0
  let bunched = 0
  for (const arrivals of streams) {
    for (let i = 1; i < arrivals.length; i++) {
      const gap = arrivals[i].at - arrivals[i - 1].at
      const pairedWithOpening = opening && arrivals[i].number === arrivals[i - 1].number && (i < 2 || arrivals[i - 2].number !== arrivals[i].number)
      if (pairedWithOpening) continue
      gaps.push(gap)
      if (gap < stepMs / 2) bunched++
    }
    const blocks = byBlock(arrivals)
    const numbers = [...blocks.keys()].sort((a, b) => a - b)
    const inner = numbers.slice(1, -1)
    if (inner.length === 0) continue
    const first = inner[0]
    const offsets: number[] = []
    for (const number of inner) {
      const times = blocks.get(number)!
      if (times.length < expected) missed += expected - times.length
      if (times.length > expected) extra++
      if (times.length !== expected) continue
      blocksMeasured++
      times.forEach((at, j) => offsets.push(at - ((number - first) * blockMs + dueAfterOpen(j))))
    }
    const origin = Math.min(...offsets)
    for (const offset of offsets) jitter.push(offset - origin)
  }
  return { jitter: spread(jitter), gaps: spread(gaps), blocksMeasured, missed, extra, bunched }
}

function byBlock(arrivals: readonly Arrival[]): Map<number, number[]> {
  const blocks = new Map<number, number[]>()
  for (const { at, number } of arrivals) {
    let times = blocks.get(number)
    if (times === undefined) blocks.set(number, (times = []))
    times.push(at)
  }
  return blocks
}
