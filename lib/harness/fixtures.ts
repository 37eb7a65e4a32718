/**
 * Hardhat's `loadFixture` on a devnet chain: the first call runs the fixture and snapshots the
 * world; every later call reverts to that snapshot (and takes a fresh one) instead of running
 * it again, and returns the first call's result. Reverting to an older fixture discards the
 * snapshots of fixtures loaded after it, as snapshots themselves do.
 */
import type { Chain } from '../index.ts'

/** A fixture: named, so it can be recognised on later calls (Hardhat refuses anonymous ones). */
export type Fixture<T> = () => Promise<T>

interface Loaded {
  readonly fixture: Fixture<unknown>
  readonly result: unknown
  snapshot: number
}

/** `loadFixture` bound to `chain`. */
export function createFixtureLoader(chain: Chain): <T>(fixture: Fixture<T>) => Promise<T> {
  const loaded: Loaded[] = []
  return async <T>(fixture: Fixture<T>): Promise<T> => {
    if (fixture.name === '') {
      throw new TypeError('loadFixture needs a named function (an anonymous one is new on every call, so it would never be reused)')
    }
    const index = loaded.findIndex((entry) => entry.fixture === fixture)
    if (index === -1) {
      const result = await fixture()
      loaded.push({ fixture, result, snapshot: await chain.snapshot() })
      return result
    }
    const entry = loaded[index]
    if (!(await chain.revert(entry.snapshot))) throw new Error(`the snapshot of fixture ${fixture.name} is gone (reverted past it)`)
    loaded.length = index + 1
    entry.snapshot = await chain.snapshot()
    return entry.result as T
  }
}
