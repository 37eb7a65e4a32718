/** The soak's summaries of samples: nearest-rank percentiles and the maximum, in one shape. */

/** How a set of samples spreads (milliseconds unless said otherwise); null figures when there were none. */
export interface Spread {
  count: number
  p50: number | null
  p99: number | null
  max: number | null
}

/** The nearest-rank percentile `p` (0 to 100) of `sorted` (ascending). */
function percentile(sorted: Float64Array, p: number): number {
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length))
  return sorted[rank - 1]
}

/** Rounds to 0.1 (milliseconds are measured to well under that; the report stays readable). */
function round(value: number): number {
  return Math.round(value * 10) / 10
}

/** p50, p99 and the maximum of `samples`. */
export function spread(samples: readonly number[]): Spread {
  if (samples.length === 0) return { count: 0, p50: null, p99: null, max: null }
  const sorted = Float64Array.from(samples).sort()
  return { count: sorted.length, p50: round(percentile(sorted, 50)), p99: round(percentile(sorted, 99)), max: round(sorted[sorted.length - 1]) }
}

/** Counts of each distinct text (error messages), most frequent first. */
export class Tally {
  private readonly counts = new Map<string, number>()

  /** Counts one occurrence of `text`. */
  add(text: string): void {
    this.counts.set(text, (this.counts.get(text) ?? 0) + 1)
  }

  /** The total of every text. */
  get total(): number {
    let sum = 0
    for (const count of this.counts.values()) sum += count
    return sum
  }

  /** `{ text: count }`, most frequent first. */
  toJSON(): Record<string, number> {
    return Object.fromEntries([...this.counts].sort((a, b) => b[1] - a[1]))
  }
}
