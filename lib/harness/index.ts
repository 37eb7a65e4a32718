/**
 * `preconf-devnet/harness`: helpers for contract tests on an in-process chain — Hardhat's
 * `loadFixture` (by snapshot), time helpers for pre-confirmations and seals, fault helpers that
 * replay the failure modes of real pre-confirmation nodes, and chai matchers.
 *
 * ```ts
 * import { createChain } from 'preconf-devnet'
 * import { createHarness } from 'preconf-devnet/harness'
 *
 * const chain = await createChain()
 * const { loadFixture, time, faults, chaiMatchers } = createHarness(chain)
 * chai.use(chaiMatchers)
 * ```
 */
import type { Chain } from '../index.ts'
import { createChaiMatchers, type ChaiPlugin } from './chai-matchers.ts'
import { createFaultHelpers, type FaultHelpers } from './faults.ts'
import { createFixtureLoader, type Fixture } from './fixtures.ts'
import { createTimeHelpers, type TimeHelpers } from './time.ts'

/** The helpers of one chain. */
export interface Harness {
  /** Runs `fixture` once and snapshots; later calls revert to that snapshot and return its result. */
  loadFixture<T>(fixture: Fixture<T>): Promise<T>
  /** Steps through pre-confirmations, seals and timestamps. */
  readonly time: TimeHelpers
  /** Replays the failure modes of real pre-confirmation nodes: drops, stalls, skipped ticks, switches. */
  readonly faults: FaultHelpers
  /** chai plugin: `chai.use(chaiMatchers)`. */
  readonly chaiMatchers: ChaiPlugin
}

/** The test helpers for `chain`. */
export function createHarness(chain: Chain): Harness {
  return { loadFixture: createFixtureLoader(chain), time: createTimeHelpers(chain), faults: createFaultHelpers(chain), chaiMatchers: createChaiMatchers(chain) }
}

export type { ChaiPlugin, CustomErrorAssertion, ErrorDecoder } from './chai-matchers.ts'
export type { DropResult, FaultHelpers, FaultsInForce } from './faults.ts'
export type { Fixture } from './fixtures.ts'
export type { TimeHelpers } from './time.ts'
export { decodePanicCode, decodeRevertReason, revertDataOf } from './revert-data.ts'
