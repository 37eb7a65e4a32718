/**
 * The peer section's figures that have no peer: our reads as plain functions (chain.getBalance,
 * …), and what a `pending` read costs against a `latest` one while the pre-confirmed block
 * holds 200 or 2000 transfers.
 */
import type { Chain } from 'preconf-devnet'
import { rate, sideBySide } from '../measure.ts'
import { syntheticAddress, transfers } from '../signing.ts'
import { createOurs } from './settings.ts'
import type { Workload } from './transactions.ts'

/** The three reads, as plain functions, at `tag`. */
function reads(chain: Chain, workload: Workload, tag: 'latest' | 'pending'): Record<'getBalance' | 'getStorageAt' | 'getCode', () => unknown> {
  const { holder, token } = workload
  return {
    getBalance: () => chain.getBalance(holder, tag),
    getStorageAt: () => chain.getStorageAt(token, '0x2', tag),
    getCode: () => chain.getCode(token, tag),
  }
}

/** Plain-function reads per second at `latest` on `chain` (which holds the workload's token). */
export async function plainReads(chain: Chain, workload: Workload): Promise<Record<string, number>> {
  const figures: Record<string, number> = {}
  for (const [name, read] of Object.entries(reads(chain, workload, 'latest'))) figures[name] = await rate(read)
  return figures
}

/**
 * For each read, its rate at `pending` over its rate at `latest`, measured side by side, on a chain whose pending block holds `count` pre-confirmed transfers, one from the holder.
 */
export async function pendingOverLatest(workload: Workload, count: number): Promise<Record<string, number>> {
  const chain = await createOurs()
  await chain.request({ method: 'eth_sendRawTransaction', params: [workload.deploys[0]] })
  await chain.mine()
  for (const raw of transfers(chain, count, (sender) => (sender === 0 ? 1n : 0n), syntheticAddress)) await chain.sendRawTransaction(raw)
  await chain.tick()
  const pending = (await chain.request({ method: 'eth_getBlockByNumber', params: ['pending', false] })) as { transactions: string[] }
  if (pending.transactions.length !== count) throw new Error(`the pending block holds ${pending.transactions.length} transactions, not ${count}`)
  const latestReads = reads(chain, workload, 'latest')
  const pendingReads = reads(chain, workload, 'pending')
  const ratios: Record<string, number> = {}
  for (const name of Object.keys(latestReads) as Array<keyof typeof latestReads>) {
    ratios[name] = await sideBySide(latestReads[name], pendingReads[name])
  }
  return ratios
}
