/**
 * Blocks and what they hold: by number, tag or hash, their transaction counts, transactions by
 * index, receipts, uncles (none since the merge) and logs.
 */
import { formatIncluded, formatReceipt } from './format-transaction.ts'
import { getLogs, getLogsAcrossFork } from './get-logs.ts'
import { parseHash, parseSmallQuantity, toData, toQuantity } from './hex.ts'
import { parseLogQuery } from './log-filter.ts'
import { method, optional, required, type MethodDefinition } from './method-definition.ts'
import { blockAt, blockWithHash } from './named-block.ts'
import { parseBlockOrHash, parseBlockTag, parseBoolean } from './params.ts'

const blockHash = required('0 (hash)', parseHash)
const blockTag = required('0 (block)', parseBlockTag)
const index = required('1 (index)', parseSmallQuantity)
const full = optional('1 (full transactions)', parseBoolean, () => false)

/** The block methods, by name. */
export const blockMethods: Readonly<Record<string, MethodDefinition>> = {
  eth_blockNumber: method([], ({ view }) => toQuantity(view.blocks.headNumber)),
  eth_getBlockByNumber: method([blockTag, full], ({ view }, selector, full) => blockAt(view, selector)?.json(full) ?? null),
  eth_getBlockByHash: method([blockHash, full], ({ view }, hash, full) => blockWithHash(view, hash)?.json(full) ?? null),
  eth_getBlockTransactionCountByNumber: method([blockTag], ({ view }, selector) => {
    const found = blockAt(view, selector)
    return found === undefined ? null : toQuantity(found.transactions.length)
  }),
  eth_getBlockTransactionCountByHash: method([blockHash], ({ view }, hash) => {
    const found = blockWithHash(view, hash)
    return found === undefined ? null : toQuantity(found.transactions.length)
  }),
  eth_getTransactionByBlockNumberAndIndex: method([blockTag, index], ({ view }, selector, position) => {
    const found = blockAt(view, selector)
    const included = found?.transactions[position]
    return included === undefined ? null : formatIncluded(included, found!.ref)
  }),
  eth_getTransactionByBlockHashAndIndex: method([blockHash, index], ({ view }, hash, position) => {
    const found = blockWithHash(view, hash)
    const included = found?.transactions[position]
    return included === undefined ? null : formatIncluded(included, found!.ref)
  }),
  // The signed envelope at a position, as Anvil answers it (null where there is none).
  eth_getRawTransactionByBlockNumberAndIndex: method([blockTag, index], ({ view }, selector, position) => {
    const included = blockAt(view, selector)?.transactions[position]
    return included === undefined ? null : toData(included.transaction.raw)
  }),
  eth_getRawTransactionByBlockHashAndIndex: method([blockHash, index], ({ view }, hash, position) => {
    const included = blockWithHash(view, hash)?.transactions[position]
    return included === undefined ? null : toData(included.transaction.raw)
  }),
  eth_getBlockReceipts: method([required('0 (block)', parseBlockOrHash)], ({ view }, selector) => {
    const found = 'hash' in selector ? blockWithHash(view, selector.hash) : blockAt(view, selector)
    return found === undefined ? null : found.transactions.map((included) => formatReceipt(included, found.ref))
  }),
  eth_getUncleCountByBlockNumber: method([blockTag], ({ view }, selector) => (blockAt(view, selector) === undefined ? null : '0x0')),
  eth_getUncleCountByBlockHash: method([blockHash], ({ view }, hash) => (blockWithHash(view, hash) === undefined ? null : '0x0')),
  eth_getUncleByBlockNumberAndIndex: method([blockTag, index], () => null),
  eth_getUncleByBlockHashAndIndex: method([blockHash, index], () => null),
  eth_getLogs: method([required('0 (filter)', parseLogQuery)], ({ engine, view }, query) =>
    engine.upstream === undefined ? getLogs(view.blocks, query) : getLogsAcrossFork(view.blocks, engine.upstream, query),
  ),
}
