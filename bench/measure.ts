/** Recording figures beside their targets, and the timing helpers every bench section uses. */

/** One measured figure beside its target. */
export interface Figure {
  name: string
  value: number
  unit: string
  target: string
  met: boolean | null
  note?: string
}

/** Every figure recorded so far, in order. */
export const figures: Figure[] = []
/** Records a figure and prints it to stderr. */
export function record(name: string, value: number, unit: string, target?: { atLeast?: number; atMost?: number }, note?: string): void {
  const rounded = Number(value.toPrecision(4))
  const met = target === undefined ? null : target.atLeast !== undefined ? value >= target.atLeast : value <= target.atMost!
  const targetText = target === undefined ? 'n/a' : target.atLeast !== undefined ? `>= ${target.atLeast}` : `<= ${target.atMost}`
  figures.push({ name, value: rounded, unit, target: targetText, met, ...(note === undefined ? {} : { note }) })
  process.stderr.write(`${name}: ${rounded} ${unit} (target ${targetText})\n`)
}

/** Operations per second of `operation`, run for at least `ms` after a warm-up (and a full GC, if exposed). */
export async function rate(operation: () => unknown, ms = 600): Promise<number> {
  ;(globalThis as { gc?: () => void }).gc?.()
  for (let i = 0; i < 2000; i++) await operation()
  let count = 0
  const start = performance.now()
  let elapsed = 0
  while (elapsed < ms) {
    for (let i = 0; i < 1000; i++) await operation()
    count += 1000
    elapsed = performance.now() - start
  }
  return (count / elapsed) * 1000
}

/**
 * How fast `second` runs against `first`, measured side by side: runs of 1000 calls alternate
 * between them for at least `ms` in all, after a warm-up of both, so that the two see the same
 * compiled code, collector and machine load. Two windows measured one after the other compare the
 * JIT's and the machine's moods as much as the operations: a read measured so came out 10% slower
 * or 10% faster than its twin depending on the chain it ran on. Each pair of neighbouring runs
 * gives a ratio of rates, and the median of those is the answer: a collection or a recompilation
 * that lands in one run moves one ratio, not the answer.
 */
export async function sideBySide(first: () => unknown, second: () => unknown, ms = 1200): Promise<number> {
  ;(globalThis as { gc?: () => void }).gc?.()
  for (let i = 0; i < 2000; i++) {
    await first()
    await second()
  }
  const timeRun = async (operation: () => unknown): Promise<number> => {
    const start = performance.now()
    for (let i = 0; i < 1000; i++) await operation()
    return performance.now() - start
  }
  const ratios: number[] = []
  const start = performance.now()
  while (performance.now() - start < ms) {
    const firstMs = await timeRun(first)
    ratios.push(firstMs / (await timeRun(second)))
  }
  return median(ratios)
}

/** The median of `values`. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

/** Milliseconds `task` takes. */
export async function timed(task: () => Promise<unknown>): Promise<number> {
  const start = performance.now()
  await task()
  return performance.now() - start
}
