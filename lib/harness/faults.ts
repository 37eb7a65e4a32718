/**
 * Fault helpers for tests: replay the failure modes of real pre-confirmation nodes on demand
 * (drop pre-confirmations, stall them, skip ticks, change any fault switch), over the chain's
 * `preconf_*` methods.
 *
 * ```ts
 * const { faults } = createHarness(chain)
 * await faults.drop({ transactions: [hash] })   // a flashblock reorg takes it back
 * await faults.stall(4000, 'frozen')             // the stale-node bug for two blocks
 * await faults.set({ pendingNonce: 'preconfirmed' })
 * ```
 */
import type { Chain, FaultOptions } from '../index.ts'

/** What a drop took back: the block, the indexes of its withdrawn pre-confirmations, and the transactions' fates. */
export interface DropResult {
  readonly blockNumber: `0x${string}`
  readonly preconfirmations: readonly number[]
  readonly discarded: readonly `0x${string}`[]
  readonly requeued: readonly `0x${string}`[]
}

/** The faults in force: the profile, the seed, every switch, the stall under way and the ticks still to skip. */
export type FaultsInForce = Required<FaultOptions> & {
  readonly profile: 'ideal' | 'base'
  readonly seed: number
  readonly stall: { readonly untilMs: number; readonly pending: 'latest' | 'frozen' } | null
  readonly ticksToSkip: number
}

/** The fault helpers of a harness. */
export interface FaultHelpers {
  /**
   * Drops pre-confirmations of the pending block now: the last `count` (default 1), or every one
   * from the first holding one of `transactions`; dropped transactions are requeued or discarded
   * (default: the chain's `dropMode`), others taken back are requeued.
   */
  drop(request?: { count?: number; transactions?: readonly string[]; mode?: 'requeue' | 'discard' }): Promise<DropResult>
  /** Stalls pre-confirmations for `ms` from now: `pending` reads `latest`, or stays `frozen` (default: the chain's `stallPending`). */
  stall(ms: number, pending?: 'latest' | 'frozen'): Promise<void>
  /** Ends a stall now. */
  resume(): Promise<void>
  /** The next `count` scheduled ticks do not run (a block start arriving late). */
  skipTicks(count: number): Promise<void>
  /** Sets fault switches; returns what is in force. */
  set(switches: FaultOptions): Promise<FaultsInForce>
  /** What is in force. */
  get(): Promise<FaultsInForce>
  /** Runs `body` with `switches` set, then puts the switches it changed back, even if it throws. */
  with<T>(switches: FaultOptions, body: () => Promise<T>): Promise<T>
}

/** Fault helpers bound to `chain`. */
export function createFaultHelpers(chain: Chain): FaultHelpers {
  const request = <T>(method: string, params: unknown[] = []) => chain.request({ method, params }) as Promise<T>
  const helpers: FaultHelpers = {
    drop: (drop = {}) => request<DropResult>('preconf_dropPreconfirmations', [drop]),
    stall: async (ms, pending) => {
      await request('preconf_stall', pending === undefined ? [ms] : [ms, pending])
    },
    resume: async () => {
      await request('preconf_stall', [0])
    },
    skipTicks: async (count) => {
      await request('preconf_skipTicks', [count])
    },
    set: (switches) => request<FaultsInForce>('preconf_setFaults', [switches]),
    get: () => request<FaultsInForce>('preconf_getFaults'),
    async with(switches, body) {
      const before = await helpers.get()
      const restore = Object.fromEntries(Object.keys(switches).map((key) => [key, before[key as keyof FaultOptions]]))
      await helpers.set(switches)
      try {
        return await body()
      } finally {
        await helpers.set(restore)
      }
    },
  }
  return helpers
}
