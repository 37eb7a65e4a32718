/**
 * Virtual time in milliseconds since the Unix epoch. The engine reads time only from here.
 * `manual`: time moves when the caller advances it. `realtime`: a driver advances it from the
 * wall clock (the only wall-clock reads that move chain time are in this file; pacing, budgets
 * and HTTP headers read wall time elsewhere), and its timer keeps
 * the process alive until `stop()`, so a script awaiting a seal is not cut short. Either way,
 * moving time fires every event that falls due, in order.
 */
import type { Serializer } from './serializer.ts'

/** `manual`: time moves only when advanced (tests). `realtime`: it follows the wall clock (the CLI). */
export type ClockMode = 'manual' | 'realtime'

/** What the clock drives: the chain's schedule of pre-confirmation ticks and seals. */
export interface Timeline {
  /** When the next event is due (ms). */
  nextDueAt(): number
  /** Runs the next event; the clock has just been moved to its due time. */
  fireNext(): Promise<void>
  /** The clock has finished moving to `now` (after the events on the way). */
  moved(now: number): void
  /** Does ahead what it can of the next event, in the time before it falls due (the realtime driver's idle time). */
  prepareNext(): Promise<void>
}

/** The chain's clock. */
export interface Clock {
  /** `manual` or `realtime`. */
  readonly mode: ClockMode
  /** Current virtual time, ms since the Unix epoch. */
  now(): number
  /** When the next tick or seal falls due (ms); Infinity when none is scheduled (automine). */
  nextDueAt(): number
  /** Moves time forward by `ms`, firing each tick and seal that falls due, in order. */
  advance(ms: number): Promise<void>
  /**
   * Moves time to the next tick or seal and fires that one alone; false when none is scheduled
   * (automine). A tick due at a seal's instant runs first, and the seal then waits, due now, for
   * the next step or advance: what the last tick of a block pre-confirmed can be seen unsealed.
   */
  step(): Promise<boolean>
  /** Stops the realtime driver, which until then keeps the process alive (nothing to stop under the manual clock). */
  stop(): void
}

/** The clock with the controls only the chain uses. */
export interface ChainClock extends Clock {
  /** Sets the time back to `ms` (reverting a snapshot). */
  restore(ms: number): void
}

/** The wall clock: read by the realtime driver, and for a realtime genesis. */
export function wallTimeMs(): number {
  return Date.now()
}

/** A clock starting at `startMs`, driving `timeline`; `serialize` orders each event among other work. */
export function createClock(mode: ClockMode, startMs: number, timeline: Timeline, serialize: Serializer): ChainClock {
  let now = startMs
  /** Where the advances asked for so far end: concurrent advances add up rather than overlap. */
  let requested = startMs
  let driver: NodeJS.Timeout | undefined

  /** Moves time by `ms`; `first`: each event goes before the requests waiting (the realtime driver's, so ticks stay on time under load). */
  async function moveBy(ms: number, first: boolean): Promise<void> {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`cannot advance the clock by ${ms} ms`)
    requested = Math.max(requested, now) + ms
    const target = requested
    const run = first ? serialize.urgent : serialize
    for (;;) {
      const fired = await run(async () => {
        const due = timeline.nextDueAt()
        if (due > target) return false
        if (due > now) now = due
        await timeline.fireNext()
        return true
      })
      if (!fired) break
    }
    if (target > now) now = target
    timeline.moved(now)
  }

  const clock: ChainClock = {
    mode,
    now: () => now,
    nextDueAt: () => timeline.nextDueAt(),
    advance: (ms) => moveBy(ms, false),
    async step() {
      const fired = await serialize(async () => {
        const due = timeline.nextDueAt()
        if (!Number.isFinite(due)) return false
        if (due > now) now = due
        await timeline.fireNext()
        return true
      })
      requested = Math.max(requested, now)
      timeline.moved(now)
      return fired
    },
    restore(ms) {
      now = ms
      requested = ms
    },
    stop() {
      if (driver !== undefined) clearTimeout(driver)
      driver = undefined
    },
  }

  if (mode === 'realtime') {
    let wallAtNow = wallTimeMs()
    // Wake at the next due event, or within a second when nothing is scheduled (automine). The
    // time the last wake's events took has passed on the wall clock but not yet on `now` (the next
    // wake catches it up): counted here, or every event would fire that much late.
    const delay = (): number => {
      const virtualNow = now + (wallTimeMs() - wallAtNow)
      return Math.min(Math.max(1, timeline.nextDueAt() - virtualNow), 1000)
    }
    const wake = async (): Promise<void> => {
      const wall = wallTimeMs()
      const elapsed = wall - wallAtNow
      wallAtNow = wall
      try {
        if (elapsed > 0) await moveBy(elapsed, true)
      } catch (error) {
        // A failing tick must not stop time; report it and carry on.
        process.emitWarning(error as Error)
      }
      if (driver === undefined) return
      // Behind the requests waiting, not before them: the next event is a whole interval away.
      serialize(() => timeline.prepareNext()).catch((error: Error) => process.emitWarning(error))
      driver = setTimeout(wake, delay())
    }
    // A ref'd timer: the process lives while the chain runs, as a server's socket keeps it alive.
    driver = setTimeout(wake, delay())
  }
  return clock
}
