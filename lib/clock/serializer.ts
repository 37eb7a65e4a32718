/** Runs engine mutations one after another, so no two (or two EVM runs) interleave. */

/** Runs `task` after the previous task ended (FIFO). */
export type Serializer = <T>(task: () => Promise<T>) => Promise<T>

/** A serializer over one FIFO queue; a failing task does not stop the ones after it. */
export function createSerializer(): Serializer {
  let tail: Promise<unknown> = Promise.resolve()
  return <T>(task: () => Promise<T>): Promise<T> => {
    const run = tail.then(task)
    tail = run.catch(() => undefined)
    return run
  }
}
