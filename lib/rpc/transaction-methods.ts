/**
 * Sending transactions and finding them again: raw and wallet-signed sends, the EIP-7966 sync
 * sends, lookups by hash and by sender and nonce, receipts and Base's transaction status.
 */
import type { ChainView } from '../engine/engine.ts'
import type { ExecutedLocation } from '../engine/lookups.ts'
import type { Hash } from '../types.ts'
import { formatIncluded, formatReceipt, formatTransaction, pendingRef, sealedRef } from './format-transaction.ts'
import { invalidArgument, parseAddress, parseData, parseHash, parseSmallQuantity, toData } from './hex.ts'
import { method, optional, required, type MethodContext, type MethodDefinition } from './method-definition.ts'
import { parseCallRequest, parseDepositRequest, parseQuantityLike } from './params.ts'

/** EIP-7966: the longest (and default) wait of `eth_sendRawTransactionSync`, as Base's nodes allow. */
const MAX_SYNC_TIMEOUT_MS = 6000

const transactionHash = required('0 (hash)', parseHash)

/** The transaction `hash` as `eth_getTransactionByHash` answers it: pooled (no block), pre-confirmed or sealed; null if unknown. */
function transactionJson(view: ChainView, hash: Hash): Record<string, unknown> | null {
  const location = view.lookups.find(hash)
  if (location === undefined) return null
  if (location.status === 'mempool') return formatTransaction(location.transaction, undefined)
  return formatIncluded(location.included, location.status === 'preconfirmed' ? pendingRef(location.block) : sealedRef(location.block))
}

function parseSyncTimeout(value: unknown, name: string): number {
  const timeout = parseSmallQuantity(value, name)
  if (timeout > MAX_SYNC_TIMEOUT_MS) throw invalidArgument(name, `time out too long, timeout: ${timeout} ms, max: ${MAX_SYNC_TIMEOUT_MS} ms`)
  return timeout
}

/** The sync sends' wait for the receipt, in ms: {@link MAX_SYNC_TIMEOUT_MS} at most, and when omitted. */
const syncTimeout = optional('1 (timeout ms)', parseSyncTimeout, () => MAX_SYNC_TIMEOUT_MS)

/** The receipt of a pre-confirmed (block hash: 32 zero bytes) or sealed transaction. */
function formatLocationReceipt(location: ExecutedLocation): Record<string, unknown> {
  return formatReceipt(location.included, location.status === 'preconfirmed' ? pendingRef(location.block) : sealedRef(location.block))
}

/**
 * Base's transaction status: `Known` while the transaction is in the mempool or pre-confirmed
 * and not yet sealed, `Unknown` otherwise (sealed, dropped, or never seen); a deposit is always
 * `Unknown`, as on Base, whose pool a deposit never enters (it comes from L1).
 */
function transactionStatus({ engine }: MethodContext, hash: Hash): { status: 'Known' | 'Unknown' } {
  const location = engine.lookups.find(hash)
  const known = location !== undefined && location.status !== 'sealed' && location.transaction.kind !== 'deposit'
  return { status: known ? 'Known' : 'Unknown' }
}

/** The transaction methods, by name. */
export const transactionMethods: Readonly<Record<string, MethodDefinition>> = {
  eth_sendRawTransaction: method([required('0 (transaction)', parseData)], ({ engine }, raw) => engine.intake.submitRaw(raw)),
  // An OP-stack chain's simulated L1→L2 deposit: queued for the next block's first pre-confirmation; returns its hash.
  preconf_deposit: method([required('0 (deposit)', parseDepositRequest)], ({ engine }, request) => engine.intake.simulateDeposit(request)),
  eth_sendRawTransactionSync: method([required('0 (transaction)', parseData), syncTimeout], async ({ engine, view }, raw, timeoutMs) =>
    formatLocationReceipt(await view.lookups.waitForPreconfirmation(await engine.intake.submitRaw(raw), timeoutMs)),
  ),
  // Anvil's: eth_sendTransaction (a dev or impersonated account signs), then the wait of eth_sendRawTransactionSync.
  eth_sendTransactionSync: method([required('0 (transaction)', parseCallRequest), syncTimeout], async ({ engine, view }, request, timeoutMs) =>
    formatLocationReceipt(await view.lookups.waitForPreconfirmation(await engine.intake.submitRequest(request), timeoutMs)),
  ),
  eth_sendTransaction: method([required('0 (transaction)', parseCallRequest)], ({ engine }, request) => engine.intake.submitRequest(request)),

  eth_getTransactionByHash: method([transactionHash], ({ view }, hash) => transactionJson(view, hash)),
  // reth's and Anvil's (cast tx --from --nonce): the mempool's, a pre-confirmed or a sealed transaction.
  eth_getTransactionBySenderAndNonce: method([required('0 (address)', parseAddress), required('1 (nonce)', parseQuantityLike)], ({ view }, sender, nonce) => {
    const hash = view.lookups.bySenderAndNonce(sender, nonce)
    return hash === undefined ? null : transactionJson(view, hash)
  }),
  eth_getTransactionReceipt: method([transactionHash], ({ view }, hash) => {
    const location = view.lookups.find(hash)
    return location === undefined || location.status === 'mempool' ? null : formatLocationReceipt(location)
  }),
  eth_getRawTransactionByHash: method([transactionHash], ({ view }, hash) => {
    const location = view.lookups.find(hash)
    return location === undefined ? null : toData(location.transaction.raw)
  }),
  service_transactionStatus: method([transactionHash], transactionStatus),
  base_transactionStatus: method([transactionHash], transactionStatus),
}
