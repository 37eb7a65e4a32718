/**
 * The realtime clock fires each event at its time on the wall clock (lib/clock/clock.ts), however
 * long the events before it took: it used to time its next wake from the virtual time of the last
 * one, so every tick fired late by as long as the previous wake's work (a tick that pre-confirmed
 * a full block made the next one that much late).
 */
import { expect } from 'chai'
import { createClock, wallTimeMs, type Timeline } from '../../lib/clock/clock.ts'
import { createSerializer } from '../../lib/clock/serializer.ts'

/** Holds the thread for `ms`, as a tick executing transactions does. */
function busyFor(ms: number): void {
  const end = performance.now() + ms
  while (performance.now() < end);
}

describe('realtime clock: events fire on the wall clock, not late by the work before them', function () {
  this.timeout(10_000)

  it('events every 100 ms, each taking 40 ms of work: each fires within 20 ms of its time (was: 40 ms late after the first)', async () => {
    const start = wallTimeMs()
    const interval = 100
    const work = 40
    let next = start + interval
    const lateness: number[] = []
    let finished: () => void
    const done = new Promise<void>((resolve) => (finished = resolve))
    const timeline: Timeline = {
      nextDueAt: () => next,
      async fireNext() {
        lateness.push(wallTimeMs() - next)
        next += interval
        busyFor(work)
        if (lateness.length === 6) finished()
      },
      moved: () => {},
      prepareNext: async () => {},
    }
    const clock = createClock('realtime', start, timeline, createSerializer())
    await done
    clock.stop()
    // The first wake has no work before it; every later one follows a 40 ms event.
    expect(lateness.slice(1).every((ms) => ms < 20), `lateness of each event (ms): ${lateness.join(', ')}`).to.equal(true)
  })
})
