/**
 * The JSON-RPC method table: each method's parameter parsers and its handler, which calls the
 * chain and formats the result. Parsers name the argument they reject (-32602).
 */
import type { Chain, ExecutedLocation } from '../chain.ts'
import { method, optional, parseBoolean, required, type MethodDefinition } from './method-definition.ts'
import { testMethods } from './test-methods.ts'
import { SUGGESTED_PRIORITY_FEE } from '../fees.ts'
import { getLogs } from './get-logs.ts'
import { parseLogQuery } from './log-filter.ts'
import { callResultOrThrow } from '../execution/run-call.ts'
import type { BlockTag } from '../types.ts'
import { feeHistory } from './fee-history.ts'
import { formatBlock, formatPendingBlock, formatReceipt, formatTransaction, PENDING_BLOCK_HASH } from './format.ts'
import { describeValue, invalidArgument, parseAddress, parseData, parseHash, parseSmallQuantity, toData, toQuantity } from './hex.ts'
import { parseBlockTag, parseCallRequest, parseQuantityLike, type BlockSelector } from './params.ts'

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

/** The node's methods: what geth (and Base's flashblocks nodes) answer. */
const nodeMethods: Readonly<Record<string, MethodDefinition>> = {
  web3_clientVersion: method([], () => CLIENT_VERSION),
  net_version: method([], (chain) => String(chain.options.chainId)),
  eth_chainId: method([], (chain) => toQuantity(chain.options.chainId)),
  eth_blockNumber: method([], (chain) => toQuantity(chain.blockNumber())),
  eth_accounts: method([], (chain) => chain.accounts.map((account) => account.address)),

  eth_getBalance: method([address('0'), block(1)], async (chain, account, selector) =>
    toQuantity(await chain.getBalance(account, selectorToTag(selector))),
  ),
  eth_getCode: method([address('0'), block(1)], (chain, account, selector) => chain.getCode(account, selectorToTag(selector))),
  eth_getStorageAt: method(
    [address('0'), required('1 (slot)', parseQuantityLike), block(2)],
    (chain, account, slot, selector) => chain.getStorageAt(account, slot, selectorToTag(selector)),
  ),
  eth_getTransactionCount: method([address('0'), block(1)], (chain, account, selector) => toQuantity(chain.nonceAt(account, selector))),
  eth_call: method(
    [required('0 (call)', parseCallRequest), block(1), optional('2 (state overrides)', rejectStateOverrides, () => undefined)],
    async (chain, request, selector) => toData(callResultOrThrow(await chain.simulate(request, selector))),
  ),
  eth_estimateGas: method(
    [required('0 (call)', parseCallRequest), block(1, 'pending'), optional('2 (state overrides)', rejectStateOverrides, () => undefined)],
    async (chain, request, selector) => toQuantity(await chain.estimate(request, selector)),
  ),
  eth_sendRawTransaction: method([required('0 (transaction)', parseData)], (chain, raw) => chain.sendRawTransaction(raw)),
  eth_sendRawTransactionSync: method(
    [required('0 (transaction)', parseData), optional('1 (timeout ms)', parseSyncTimeout, () => MAX_SYNC_TIMEOUT_MS)],
    async (chain, raw, timeoutMs) => {
      const hash = await chain.sendRawTransaction(raw)
      return formatLocationReceipt(await chain.waitForPreconfirmation(hash, timeoutMs))
    },
  ),
  eth_sendTransaction: method([required('0 (transaction)', parseCallRequest)], (chain, request) => chain.submitTransaction(request)),
  eth_getLogs: method([required('0 (filter)', parseLogQuery)], (chain, query) => getLogs(chain, query)),

  eth_gasPrice: method([], (chain) => toQuantity(chain.pending.context.baseFeePerGas + SUGGESTED_PRIORITY_FEE)),
  eth_maxPriorityFeePerGas: method([], () => toQuantity(SUGGESTED_PRIORITY_FEE)),
  eth_feeHistory: method(
    [required('0 (block count)', parseSmallQuantity), required('1 (newest block)', parseBlockTag), optional('2 (reward percentiles)', parsePercentiles, () => [])],
    (chain, count, newest, percentiles) => feeHistory(chain, count, newest, percentiles),
  ),

  eth_getBlockByNumber: method([required('0 (block)', parseBlockTag), optional('1 (full transactions)', parseBoolean, () => false)], (chain, selector, full) => {
    if ('tag' in selector && selector.tag === 'pending') return formatPendingBlock(chain.pending, full)
    if ('number' in selector && selector.number > chain.blockNumber()) return null
    return formatBlock(chain.resolveBlock(selector).sealed!, full)
  }),
  eth_getBlockByHash: method([hash('0'), optional('1 (full transactions)', parseBoolean, () => false)], (chain, blockHash, full) => {
    const found = chain.blockByHash(blockHash)
    return found === undefined ? null : formatBlock(found, full)
  }),
  eth_getTransactionByHash: method([hash('0')], (chain, transactionHash) => {
    const location = chain.findTransaction(transactionHash)
    if (location === undefined) return null
    switch (location.status) {
      case 'mempool':
        return formatTransaction(location.transaction, undefined)
      case 'preconfirmed': {
        const { context } = location.pending
        return formatTransaction(location.transaction, {
          blockHash: null,
          blockNumber: context.number,
          index: location.included.index,
          baseFeePerGas: context.baseFeePerGas,
        })
      }
      case 'sealed': {
        const { header } = location.block
        return formatTransaction(location.transaction, {
          blockHash: location.block.hash,
          blockNumber: header.number,
          index: location.included.index,
          baseFeePerGas: header.baseFeePerGas,
        })
      }
    }
  }),
  eth_getTransactionReceipt: method([hash('0')], (chain, transactionHash) => {
    const location = chain.findTransaction(transactionHash)
    return location === undefined || location.status === 'mempool' ? null : formatLocationReceipt(location)
  }),

  service_transactionStatus: method([hash('0')], (chain, transactionHash) => transactionStatus(chain, transactionHash)),
  base_transactionStatus: method([hash('0')], (chain, transactionHash) => transactionStatus(chain, transactionHash)),

}

/** Every method the devnet answers, by name. */
export const methods: Readonly<Record<string, MethodDefinition>> = { ...nodeMethods, ...testMethods }

/** The receipt of a pre-confirmed (block hash: 32 zero bytes) or sealed transaction. */
function formatLocationReceipt(location: ExecutedLocation): Record<string, unknown> {
  if (location.status === 'preconfirmed') return formatReceipt(location.included, PENDING_BLOCK_HASH, location.pending.context.number)
  return formatReceipt(location.included, location.block.hash, location.block.header.number)
}

function parseSyncTimeout(value: unknown, name: string): number {
  const timeout = parseSmallQuantity(value, name)
  if (timeout > MAX_SYNC_TIMEOUT_MS) throw invalidArgument(name, `time out too long, timeout: ${timeout} ms, max: ${MAX_SYNC_TIMEOUT_MS} ms`)
  return timeout
}

/**
 * Base's transaction status: `Known` while the transaction is in the mempool or pre-confirmed
 * and not yet sealed, `Unknown` otherwise (sealed, dropped, or never seen).
 */
function transactionStatus(chain: Chain, transactionHash: `0x${string}`): { status: 'Known' | 'Unknown' } {
  const location = chain.findTransaction(transactionHash)
  return { status: location !== undefined && location.status !== 'sealed' ? 'Known' : 'Unknown' }
}

/** A parsed selector back as the chain's block argument. */
function selectorToTag(selector: BlockSelector): BlockTag {
  if ('tag' in selector) return selector.tag
  if ('number' in selector) return selector.number
  return { blockHash: selector.hash }
}
