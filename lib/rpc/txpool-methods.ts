/** geth's `txpool_*` namespace: the mempool's pending (executable) and queued transactions. */
import type { UserTransaction } from '../transactions/transaction.ts'
import { formatTransaction } from './format-transaction.ts'
import { parseAddress, toQuantity } from './hex.ts'
import { method, required, type MethodDefinition } from './method-definition.ts'

type BySender<T> = Record<string, Record<string, T>>

/** `{ sender: { nonce: entry } }`, as geth groups the pool. */
function bySender<T>(transactions: readonly UserTransaction[], entry: (transaction: UserTransaction) => T): BySender<T> {
  const grouped: BySender<T> = {}
  for (const transaction of transactions) (grouped[transaction.sender] ??= {})[transaction.nonce.toString()] = entry(transaction)
  return grouped
}

/** geth's one-line summary: `to: value wei + gas gas × price wei` (the fee cap for EIP-1559). */
function summary(transaction: UserTransaction): string {
  const to = transaction.to ?? 'contract creation'
  return `${to}: ${transaction.value} wei + ${transaction.gasLimit} gas × ${transaction.maxFeePerGas} wei`
}

const asJson = (transaction: UserTransaction) => formatTransaction(transaction, undefined)

/** The txpool methods, by name. */
export const txpoolMethods: Readonly<Record<string, MethodDefinition>> = {
  txpool_status: method([], ({ engine }) => {
    const { pending, queued } = engine.lookups.poolContent()
    return { pending: toQuantity(pending.length), queued: toQuantity(queued.length) }
  }),
  txpool_content: method([], ({ engine }) => {
    const { pending, queued } = engine.lookups.poolContent()
    return { pending: bySender(pending, asJson), queued: bySender(queued, asJson) }
  }),
  txpool_contentFrom: method([required('0 (address)', parseAddress)], ({ engine }, sender) => {
    const { pending, queued } = engine.lookups.poolContent(sender)
    return { pending: bySender(pending, asJson)[sender] ?? {}, queued: bySender(queued, asJson)[sender] ?? {} }
  }),
  txpool_inspect: method([], ({ engine }) => {
    const { pending, queued } = engine.lookups.poolContent()
    return { pending: bySender(pending, summary), queued: bySender(queued, summary) }
  }),
}
