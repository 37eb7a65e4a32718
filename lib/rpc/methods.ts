/**
 * The JSON-RPC method table: each method's parameter parsers and its handler, which calls the
 * engine with typed values and formats the result. Parsers name the argument they reject (-32602).
 */
import type { ExecutedLocation } from '../engine/lookups.ts'
import { callResultOrThrow } from '../execution/run-call.ts'
import { SUGGESTED_PRIORITY_FEE } from '../fees.ts'
import type { Hash } from '../types.ts'
import { feeHistory } from './fee-history.ts'
import { formatBlock, formatCode, formatPendingBlock, formatReceipt, formatTransaction, PENDING_BLOCK_HASH } from './format.ts'
import { getLogs } from './get-logs.ts'
import { describeValue, invalidArgument, parseAddress, parseData, parseHash, parseSmallQuantity, toData, toQuantity, toWord } from './hex.ts'
import { parseLogQuery } from './log-filter.ts'
import { method, optional, required, type MethodContext, type MethodDefinition } from './method-definition.ts'
import { parseBlockTag, parseBoolean, parseCallRequest, parseQuantityLike } from './params.ts'
import { testMethods } from './test-methods.ts'

function parsePercentiles(value: unknown, name: string): number[] {
  if (!Array.isArray(value)) throw invalidArgument(name, 'expected an array of percentiles')
  let previous = -1
  return value.map((entry, i) => {
    if (typeof entry !== 'number' || !Number.isFinite(entry) || entry < 0 || entry > 100 || entry < previous) {
      throw invalidArgument(name, `invalid reward percentile at index ${i}: ${describeValue(entry)} (need ascending values in 0..100)`)
    }
    previous = entry
    return entry
  })
}

function rejectStateOverrides(value: unknown, name: string): undefined {
  if (value === null || (typeof value === 'object' && Object.keys(value as object).length === 0)) return undefined
  throw invalidArgument(name, 'state overrides are not supported by preconf-devnet')
}

const address = (name: string) => required(`${name} (address)`, parseAddress)
const block = (index: number, fallback: 'latest' | 'pending' = 'latest') =>
  optional(`${index} (block)`, parseBlockTag, () => parseBlockTag(fallback, `${index} (block)`))
const hash = (name: string) => required(`${name} (hash)`, parseHash)

/** geth's client version string, with our name. */
export const CLIENT_VERSION = 'preconf-devnet/v0.1.0'

/** EIP-7966: the longest (and default) wait of `eth_sendRawTransactionSync`, as Base's nodes allow. */
const MAX_SYNC_TIMEOUT_MS = 6000

/** A value now, or once its state has loaded, formatted. */
function formatted<T>(value: T | Promise<T>, format: (value: T) => unknown): unknown {
  return value instanceof Promise ? value.then(format) : format(value)
}

/** The node's methods: what geth (and Base's flashblocks nodes) answer. */
const nodeMethods: Readonly<Record<string, MethodDefinition>> = {
  web3_clientVersion: method([], () => CLIENT_VERSION),
  net_version: method([], ({ engine }) => String(engine.options.chainId)),
  eth_chainId: method([], ({ engine }) => toQuantity(engine.options.chainId)),
  eth_blockNumber: method([], ({ engine }) => toQuantity(engine.blocks.headNumber)),
  eth_accounts: method([], ({ engine }) => engine.accounts.map((account) => account.address)),

  eth_getBalance: method([address('0'), block(1)], ({ engine }, account, selector) => formatted(engine.reads.balance(account, selector), toQuantity)),
  eth_getCode: method([address('0'), block(1)], ({ engine }, account, selector) => formatted(engine.reads.code(account, selector), formatCode)),
  eth_getStorageAt: method([address('0'), required('1 (slot)', parseQuantityLike), block(2)], ({ engine }, account, slot, selector) =>
    formatted(engine.reads.storage(account, slot, selector), toWord),
  ),
  eth_getTransactionCount: method([address('0'), block(1)], ({ engine }, account, selector) => formatted(engine.reads.nonce(account, selector), toQuantity)),
  eth_call: method(
    [required('0 (call)', parseCallRequest), block(1), optional('2 (state overrides)', rejectStateOverrides, () => undefined)],
    async ({ engine }, request, selector) => toData(callResultOrThrow(await engine.calls.call(request, selector))),
  ),
  eth_estimateGas: method(
    [required('0 (call)', parseCallRequest), block(1, 'pending'), optional('2 (state overrides)', rejectStateOverrides, () => undefined)],
    async ({ engine }, request, selector) => toQuantity(await engine.calls.estimateGas(request, selector)),
  ),
  eth_sendRawTransaction: method([required('0 (transaction)', parseData)], ({ engine }, raw) => engine.intake.submitRaw(raw)),
  eth_sendRawTransactionSync: method(
    [required('0 (transaction)', parseData), optional('1 (timeout ms)', parseSyncTimeout, () => MAX_SYNC_TIMEOUT_MS)],
    async ({ engine }, raw, timeoutMs) => {
      const hash = await engine.intake.submitRaw(raw)
      return formatLocationReceipt(await engine.lookups.waitForPreconfirmation(hash, timeoutMs))
    },
  ),
  eth_sendTransaction: method([required('0 (transaction)', parseCallRequest)], ({ engine }, request) => engine.intake.submitRequest(request)),
  eth_getLogs: method([required('0 (filter)', parseLogQuery)], ({ engine }, query) => getLogs(engine.blocks, query)),

  eth_gasPrice: method([], ({ engine }) => toQuantity(engine.blocks.pending.context.baseFeePerGas + SUGGESTED_PRIORITY_FEE)),
  eth_maxPriorityFeePerGas: method([], () => toQuantity(SUGGESTED_PRIORITY_FEE)),
  eth_feeHistory: method(
    [required('0 (block count)', parseSmallQuantity), required('1 (newest block)', parseBlockTag), optional('2 (reward percentiles)', parsePercentiles, () => [])],
    ({ engine }, count, newest, percentiles) => feeHistory(engine.blocks, count, newest, percentiles),
  ),

  eth_getBlockByNumber: method([required('0 (block)', parseBlockTag), optional('1 (full transactions)', parseBoolean, () => false)], ({ engine }, selector, full) => {
    if ('tag' in selector && selector.tag === 'pending') return formatPendingBlock(engine.blocks.pending.view, full)
    if ('number' in selector && selector.number > engine.blocks.headNumber) return null
    const resolved = engine.blocks.resolve(selector)
    return resolved.kind === 'sealed' ? formatBlock(resolved.block, full) : null
  }),
  eth_getBlockByHash: method([hash('0'), optional('1 (full transactions)', parseBoolean, () => false)], ({ engine }, blockHash, full) => {
    const found = engine.blocks.byHash(blockHash)
    return found === undefined ? null : formatBlock(found, full)
  }),
  eth_getTransactionByHash: method([hash('0')], ({ engine }, transactionHash) => {
    const location = engine.lookups.find(transactionHash)
    if (location === undefined) return null
    if (location.status === 'mempool') return formatTransaction(location.transaction, undefined)
    const pending = location.status === 'preconfirmed'
    const context = pending ? location.block.context : location.block.header
    return formatTransaction(location.transaction, {
      blockHash: pending ? null : location.block.hash,
      blockNumber: context.number,
      index: location.included.index,
      baseFeePerGas: context.baseFeePerGas,
    })
  }),
  eth_getTransactionReceipt: method([hash('0')], ({ engine }, transactionHash) => {
    const location = engine.lookups.find(transactionHash)
    return location === undefined || location.status === 'mempool' ? null : formatLocationReceipt(location)
  }),

  service_transactionStatus: method([hash('0')], (context, transactionHash) => transactionStatus(context, transactionHash)),
  base_transactionStatus: method([hash('0')], (context, transactionHash) => transactionStatus(context, transactionHash)),
}

/** Every request-response method the devnet answers, by name (any transport). */
export const methods: Readonly<Record<string, MethodDefinition>> = { ...nodeMethods, ...testMethods }

/**
 * The subscription methods: answered in-process (notifications as EIP-1193 `message` events)
 * and over WebSocket; HTTP has no channel for notifications, so it does not offer them.
 */
export const subscriptionMethods: Readonly<Record<string, MethodDefinition>> = {
  eth_subscribe: method([required('0 (subscription)', parseSubscriptionName), optional('1 (options)', (value) => value, () => undefined)], ({ subscriptions }, kind, option) =>
    subscriptions.subscribe(kind, option),
  ),
  eth_unsubscribe: method([required('0 (subscription id)', parseSubscriptionId)], ({ subscriptions }, id) => subscriptions.unsubscribe(id)),
}

/** The receipt of a pre-confirmed (block hash: 32 zero bytes) or sealed transaction. */
function formatLocationReceipt(location: ExecutedLocation): Record<string, unknown> {
  if (location.status === 'preconfirmed') return formatReceipt(location.included, PENDING_BLOCK_HASH, location.block.context.number)
  return formatReceipt(location.included, location.block.hash, location.block.header.number)
}

function parseSyncTimeout(value: unknown, name: string): number {
  const timeout = parseSmallQuantity(value, name)
  if (timeout > MAX_SYNC_TIMEOUT_MS) throw invalidArgument(name, `time out too long, timeout: ${timeout} ms, max: ${MAX_SYNC_TIMEOUT_MS} ms`)
  return timeout
}

function parseSubscriptionName(value: unknown, name: string): string {
  if (typeof value !== 'string') throw invalidArgument(name, 'expected a subscription name')
  return value
}

function parseSubscriptionId(value: unknown, name: string): string {
  if (typeof value !== 'string') throw invalidArgument(name, 'expected a string')
  return value
}

/**
 * Base's transaction status: `Known` while the transaction is in the mempool or pre-confirmed
 * and not yet sealed, `Unknown` otherwise (sealed, dropped, or never seen).
 */
function transactionStatus({ engine }: MethodContext, transactionHash: Hash): { status: 'Known' | 'Unknown' } {
  const location = engine.lookups.find(transactionHash)
  return { status: location !== undefined && location.status !== 'sealed' ? 'Known' : 'Unknown' }
}
