/**
 * Runs engine mutations one after another, so no two (or two EVM runs) interleave. Work waits in
 * two queues: the realtime clock's ticks and seals go before every request waiting (so an
 * overloaded node still pre-confirms and seals on time, and admission slows down instead), and
 * after {@link SLICE_MS} of back-to-back tasks the queue lets the event loop turn, so timers fire
 * and cheap requests (`eth_chainId`, reads) are answered between them.
 */

/** How long queued tasks may run back to back before the event loop gets a turn (ms). */
export const SLICE_MS = 5

/** Runs `task` after the tasks queued before it (FIFO); `urgent` runs its task before every queued one. */
export interface Serializer {
  <T>(task: () => Promise<T>): Promise<T>
  /** Runs `task` as soon as the task running now ends, before the queued ones (the realtime clock's events). */
  urgent<T>(task: () => Promise<T>): Promise<T>
}

interface Job {
  readonly task: () => Promise<unknown>
  readonly resolve: (value: unknown) => void
  readonly reject: (reason: unknown) => void
}

/** A serializer over an urgent and a plain FIFO queue; a failing task does not stop the ones after it. */
export function createSerializer(): Serializer {
  const urgentJobs: Job[] = []
  const jobs: Job[] = []
  let draining = false

  async function drain(): Promise<void> {
    let sliceStart = performance.now()
    for (;;) {
      const job = urgentJobs.shift() ?? jobs.shift()
      if (job === undefined) break
      try {
        job.resolve(await job.task())
      } catch (error) {
        job.reject(error)
      }
      // The caller's code right after its await runs before the next task starts (as on a
      // promise chain): it can act on the outcome, e.g. start waiting for an event, first.
      await undefined
      if (performance.now() - sliceStart >= SLICE_MS && urgentJobs.length + jobs.length > 0) {
        await new Promise((resume) => setImmediate(resume))
        sliceStart = performance.now()
      }
    }
    draining = false
  }

  const enqueue =
    (queue: Job[]) =>
    <T>(task: () => Promise<T>): Promise<T> =>
      new Promise<T>((resolve, reject) => {
        queue.push({ task, resolve: resolve as (value: unknown) => void, reject })
        if (draining) return
        // As a promise chain would, the first task starts on a microtask, never inside the caller.
        draining = true
        queueMicrotask(() => void drain())
      })

  return Object.assign(enqueue(jobs), { urgent: enqueue(urgentJobs) })
}
