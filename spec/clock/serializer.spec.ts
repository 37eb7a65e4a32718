/**
 * The serializer: one task at a time in FIFO order, the realtime clock's events first, and the
 * event loop let in between tasks once they have run back to back for a slice (issue 13: ticks
 * first under overload, and cheap requests answered between queued ones).
 */
import { expect } from 'chai'
import { createSerializer, SLICE_MS } from '../../lib/clock/serializer.ts'

/** Holds the thread for `ms` (a task doing CPU work). */
function busy(ms: number): void {
  const end = performance.now() + ms
  while (performance.now() < end);
}

describe('serializer', () => {
  it('runs tasks one at a time in the order given, each starting on a microtask, not inside the caller', async () => {
    const serialize = createSerializer()
    const order: string[] = []
    let running = 0
    const task = (name: string) => async () => {
      running++
      expect(running).to.equal(1)
      await new Promise((resolve) => setTimeout(resolve, 1))
      order.push(name)
      running--
      return name
    }
    const results = [serialize(task('a')), serialize(task('b')), serialize(task('c'))]
    order.push('caller')
    expect(await Promise.all(results)).to.deep.equal(['a', 'b', 'c'])
    expect(order).to.deep.equal(['caller', 'a', 'b', 'c'])
  })

  it("a caller's code right after its await runs before the next task starts (as on a promise chain)", async () => {
    const serialize = createSerializer()
    const order: string[] = []
    const first = (async () => {
      await serialize(async () => void order.push('task 1'))
      order.push('after task 1')
    })()
    const second = serialize(async () => void order.push('task 2'))
    await Promise.all([first, second])
    expect(order).to.deep.equal(['task 1', 'after task 1', 'task 2'])
  })

  it('a failing task rejects its own promise and the next ones still run', async () => {
    const serialize = createSerializer()
    const failed = serialize(async () => {
      throw new Error('boom')
    })
    const next = serialize(async () => 'next')
    let error: unknown
    await failed.catch((caught: unknown) => (error = caught))
    expect(String(error)).to.equal('Error: boom')
    expect(await next).to.equal('next')
  })

  it('an urgent task runs as soon as the running one ends, before every queued one', async () => {
    const serialize = createSerializer()
    const order: string[] = []
    let release!: () => void
    const first = serialize(() => new Promise<void>((resolve) => (release = resolve)).then(() => void order.push('running')))
    const queued = [1, 2, 3].map((n) => serialize(async () => void order.push(`queued ${n}`)))
    await Promise.resolve()
    const urgent = serialize.urgent(async () => void order.push('urgent'))
    release()
    await Promise.all([first, urgent, ...queued])
    expect(order).to.deep.equal(['running', 'urgent', 'queued 1', 'queued 2', 'queued 3'])
  })

  it(`lets the event loop turn once tasks have run back to back for ${SLICE_MS} ms: a timer due meanwhile fires between them`, async () => {
    const serialize = createSerializer()
    const order: string[] = []
    let timerFired = false
    setTimeout(() => {
      timerFired = true
      order.push('timer')
    }, 0)
    const tasks = Array.from({ length: 6 }, (_, n) =>
      serialize(async () => {
        busy(SLICE_MS / 2 + 1)
        order.push(`task ${n}`)
      }),
    )
    await Promise.all(tasks)
    expect(timerFired).to.equal(true)
    // Two tasks fill a slice; the timer runs at the first turn after it, long before the last task.
    const timerAt = order.indexOf('timer')
    expect(timerAt).to.be.within(1, 4)
  })
})
