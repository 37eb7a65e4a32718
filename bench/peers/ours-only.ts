/**
 * The peer section's figures that have no peer: our reads as plain functions (chain.getBalance,
 * …), and what a `pending` read costs against a `latest` one while the pre-confirmed block
 * holds 200 or 2000 transfers.
 */
import { fileURLToPath } from 'node:url'
import type { Chain } from 'preconf-devnet'
import { jsonFromChild } from '../child-json.ts'
import { median, rate } from '../measure.ts'
import { READS, reads, type ReadName } from './reads.ts'
import type { Workload } from './transactions.ts'

/** Fresh processes the pending/latest ratios are measured in; each figure is the median of theirs. */
export const PROCESSES = 5

/** Plain-function reads per second at `latest` on `chain` (which holds the workload's token). */
export async function plainReads(chain: Chain, workload: Workload): Promise<Record<ReadName, number>> {
  const figures = {} as Record<ReadName, number>
  const latest = reads(chain, workload, 'latest')
  for (const name of READS) figures[name] = await rate(latest[name])
  return figures
}

/**
 * For each read, its rate at `pending` over its rate at `latest`, measured side by side on a
 * chain whose pending block holds `count` pre-confirmed transfers, one from the holder. Each
 * measurement runs in a fresh process (pending-read-cost.ts), the median of {@link PROCESSES}:
 * in the bench's own process, after Hardhat's rounds, the JIT's state moved a ratio by ±10%
 * from one run to the next, while the engine's own extra work for `pending` is a few nanoseconds of ~200.
 */
export async function pendingOverLatest(workload: Workload, count: number): Promise<Record<ReadName, number>> {
  const script = fileURLToPath(new URL('pending-read-cost.ts', import.meta.url))
  const args = ['--expose-gc', '--import', 'tsx', script, String(count), workload.deploys[0], workload.token, workload.holder]
  const runs: Array<Record<ReadName, number>> = []
  for (let i = 0; i < PROCESSES; i++) runs.push(await jsonFromChild<Record<ReadName, number>>(args))
  const ratios = {} as Record<ReadName, number>
  for (const name of READS) ratios[name] = median(runs.map((run) => run[name]))
  return ratios
}
