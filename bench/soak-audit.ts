/**
 * After the timed run: drain (wait until the pool holds no executable transaction, then for two
 * more seals, so that whatever was pre-confirmed is sealed), then read every block sealed since
 * the run began and find each acknowledged transaction in one of them. An acknowledged
 * transaction found in no sealed block is lost.
 */
import type { RpcClient } from './soak-http.ts'

const POLL_MS = 250

/** How the drain went. */
export interface Drain {
  ms: number
  /** The pool when the drain ended (queued: gapped transactions, which never drain). */
  pool: { pending: number; queued: number }
  /** Whether it ended by its time limit rather than an empty pool. */
  timedOut: boolean
}

/** Waits for the pool's executable transactions to be taken and two more blocks to seal (at most `limitMs`). */
export async function drain(client: RpcClient, limitMs: number): Promise<Drain> {
  const start = performance.now()
  const deadline = start + limitMs
  let pool = await poolStatus(client)
  while (pool.pending > 0 && performance.now() < deadline) {
    await sleep(POLL_MS)
    pool = await poolStatus(client)
  }
  const timedOut = pool.pending > 0
  const target = (await blockNumber(client)) + 2
  while ((await blockNumber(client)) < target && performance.now() < deadline + 10_000) await sleep(POLL_MS)
  return { ms: Math.round(performance.now() - start), pool: await poolStatus(client), timedOut }
}

/** The head's number. */
export async function blockNumber(client: RpcClient): Promise<number> {
  return Number(await client.call<string>('eth_blockNumber'))
}

/** The hashes of every transaction in blocks `from` to `to`. */
export async function sealedHashes(client: RpcClient, from: number, to: number): Promise<Set<string>> {
  const hashes = new Set<string>()
  for (let number = from; number <= to; number++) {
    const block = await client.call<{ transactions: string[] }>('eth_getBlockByNumber', [`0x${number.toString(16)}`, false])
    for (const hash of block.transactions) hashes.add(hash)
  }
  return hashes
}

async function poolStatus(client: RpcClient): Promise<{ pending: number; queued: number }> {
  const { pending, queued } = await client.call<{ pending: string; queued: string }>('txpool_status')
  return { pending: Number(pending), queued: Number(queued) }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
