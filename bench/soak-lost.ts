/**
 * Why acknowledged transactions were lost, asked of the node before it stops: for the senders
 * that lost some (the first five), which nonces, where the node's nonces stand, what the pool
 * still holds for them, and what the node says of the first lost transaction.
 */
import type { RpcClient } from './soak-http.ts'
import type { Lane } from './soak-senders.ts'

/** What the node says about one sender's lost transactions. */
export interface LostSender {
  sender: string
  lost: number
  nonces: { firstLost: number; lastLost: number; latest: number; pending: number }
  /** The nonces the pool holds for the sender: executable and gapped. */
  pool: { pending: number[]; queued: number[] }
  firstLost: { hash: string; transaction: unknown; status: unknown }
}

/** Asks the node about the senders of `lost` (at most `limit` of them). */
export async function explainLost(client: RpcClient, lanes: readonly Lane[], lost: readonly string[], limit = 5): Promise<{ senders: number; details: LostSender[] }> {
  const missing = new Set(lost)
  const affected = lanes.map((lane) => ({ lane, txs: lane.txs.filter(({ hash }) => missing.has(hash)) })).filter(({ txs }) => txs.length > 0)
  const details: LostSender[] = []
  for (const { lane, txs } of affected.slice(0, limit)) {
    const [latest, pending, content, transaction, status] = await Promise.all([
      client.call<string>('eth_getTransactionCount', [lane.sender, 'latest']),
      client.call<string>('eth_getTransactionCount', [lane.sender, 'pending']),
      client.call<{ pending: Record<string, unknown>; queued: Record<string, unknown> }>('txpool_contentFrom', [lane.sender]),
      client.call('eth_getTransactionByHash', [txs[0].hash]),
      client.call('service_transactionStatus', [txs[0].hash]),
    ])
    details.push({
      sender: lane.sender,
      lost: txs.length,
      nonces: { firstLost: Number(txs[0].nonce), lastLost: Number(txs[txs.length - 1].nonce), latest: Number(latest), pending: Number(pending) },
      pool: { pending: Object.keys(content.pending).map(Number), queued: Object.keys(content.queued).map(Number) },
      firstLost: { hash: txs[0].hash, transaction, status },
    })
  }
  return { senders: affected.length, details }
}
