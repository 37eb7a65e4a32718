/**
 * What a `pending` read costs against a `latest` one, measured in a process of its own (see
 * `pendingOverLatest` in ours-only.ts, which runs it): `node --expose-gc --import tsx
 * pending-read-cost.ts COUNT DEPLOY TOKEN HOLDER` deploys the token, pre-confirms COUNT transfers
 * (one from the holder) and prints, as JSON, each read's rate at `pending` over its rate at `latest`.
 */
import type { Address, Hex } from '../../lib/types.ts'
import { sideBySide } from '../measure.ts'
import { syntheticAddress, transfers } from '../signing.ts'
import { READS, reads } from './reads.ts'
import { createOurs } from './settings.ts'

const [count, deploy, token, holder] = [Number(process.argv[2]), process.argv[3] as Hex, process.argv[4] as Address, process.argv[5] as Address]
const chain = await createOurs()
await chain.request({ method: 'eth_sendRawTransaction', params: [deploy] })
await chain.mine()
for (const raw of transfers(chain, count, (sender) => (sender === 0 ? 1n : 0n), syntheticAddress)) await chain.sendRawTransaction(raw)
await chain.tick()
const pending = (await chain.request({ method: 'eth_getBlockByNumber', params: ['pending', false] })) as { transactions: string[] }
if (pending.transactions.length !== count) throw new Error(`the pending block holds ${pending.transactions.length} transactions, not ${count}`)
const latestReads = reads(chain, { token, holder }, 'latest')
const pendingReads = reads(chain, { token, holder }, 'pending')
const ratios: Record<string, number> = {}
for (const name of READS) ratios[name] = await sideBySide(latestReads[name], pendingReads[name])
process.stdout.write(JSON.stringify(ratios))
