/**
 * `eth_subscribe` streams, fed by the chain's events. Base's pre-confirmation streams:
 * `newPreconfBlockTransactions` (alias `newFlashblockTransactions`) sends each transaction new
 * in a tick, once (a hash, or with `true` the transaction with its logs); `newFlashblocks` the
 * pending block after every tick; `pendingLogs` the logs of newly pre-confirmed transactions.
 * Standard streams: `newHeads` and `logs` on each seal, `newPendingTransactions` on admission.
 * Headers, pending blocks and transactions with logs are formatted once per event, whatever the
 * number of subscribers.
 */
import type { SealedBlock } from '../blocks/block.ts'
import type { Preconfirmation } from '../builder.ts'
import type { Chain } from '../chain.ts'
import { InvalidParamsError } from '../errors.ts'
import { formatHeader, formatLogs, formatPendingBlock, formatTransaction, formatTransactionWithLogs, PENDING_BLOCK_HASH } from '../rpc/format.ts'
import { parseBoolean } from '../rpc/method-definition.ts'
import { matchesLog, parseLogFilter, type LogFilter } from '../rpc/log-filter.ts'
import type { PooledTransaction } from '../txpool/pooled-transaction.ts'

/** Sends one notification's `result`. */
export type Notify = (result: unknown) => void

/** Ends a subscription. */
export type Unsubscribe = () => void

const headers = new WeakMap<SealedBlock, unknown>()
const transactionsWithLogs = new WeakMap<Preconfirmation, unknown[]>()
const pendingBlocks = new WeakMap<Preconfirmation, unknown>()

/** The cached value for `event`, computed on first use (events are shared by all subscribers). */
function once<E extends object, R>(cache: WeakMap<E, R>, event: E, compute: () => R): R {
  let value = cache.get(event)
  if (value === undefined) {
    value = compute()
    cache.set(event, value)
  }
  return value
}

/** An optional boolean parameter (false when omitted). */
function parseFlag(value: unknown, name: string): boolean {
  return value === undefined || value === null ? false : parseBoolean(value, name)
}

function listen<E extends 'block' | 'preconfirmation' | 'transaction'>(chain: Chain, event: E, listener: (...args: never[]) => void): Unsubscribe {
  chain.on(event, listener as never)
  return () => chain.off(event, listener as never)
}

function preconfirmedTransactions(chain: Chain, option: unknown, notify: Notify): Unsubscribe {
  const filter: LogFilter | undefined = typeof option === 'object' && option !== null ? parseLogFilter(option, '1 (filter)') : undefined
  const full = filter !== undefined || parseFlag(option, '1 (full transactions)')
  return listen(chain, 'preconfirmation', (preconfirmation: Preconfirmation) => {
    if (preconfirmation.transactions.length === 0) return
    const { blockNumber } = preconfirmation
    const baseFee = chain.pending.context.baseFeePerGas
    const objects = full
      ? once(transactionsWithLogs, preconfirmation, () => preconfirmation.transactions.map((included) => formatTransactionWithLogs(included, blockNumber, baseFee)))
      : undefined
    preconfirmation.transactions.forEach((included, i) => {
      if (filter !== undefined && !included.receipt.logs.some((log) => matchesLog(filter, log))) return
      notify(objects === undefined ? included.transaction.hash : objects[i])
    })
  })
}

/** Starts the subscription `params` asks for (`[kind, option?]`); every result goes to `notify`. */
export function subscribe(chain: Chain, params: unknown, notify: Notify): Unsubscribe {
  if (!Array.isArray(params) || typeof params[0] !== 'string') throw new InvalidParamsError('invalid argument 0 (subscription): expected a subscription name')
  const [kind, option] = params as [string, unknown]
  switch (kind) {
    case 'newHeads':
      return listen(chain, 'block', (block: SealedBlock) => notify(once(headers, block, () => formatHeader(block))))
    case 'logs': {
      const filter = parseLogFilter(option, '1 (filter)')
      return listen(chain, 'block', (block: SealedBlock) => {
        for (const included of block.transactions) {
          const logs = formatLogs(included, block.hash, block.header.number)
          included.receipt.logs.forEach((log, i) => matchesLog(filter, log) && notify(logs[i]))
        }
      })
    }
    case 'newPendingTransactions': {
      const full = parseFlag(option, '1 (full transactions)')
      return listen(chain, 'transaction', (transaction: PooledTransaction) => notify(full ? formatTransaction(transaction, undefined) : transaction.hash))
    }
    case 'newPreconfBlockTransactions':
    case 'newFlashblockTransactions':
      return preconfirmedTransactions(chain, option, notify)
    case 'newFlashblocks':
      return listen(chain, 'preconfirmation', (preconfirmation: Preconfirmation) =>
        notify(once(pendingBlocks, preconfirmation, () => formatPendingBlock(chain.pending, true))),
      )
    case 'pendingLogs': {
      const filter = parseLogFilter(option, '1 (filter)')
      return listen(chain, 'preconfirmation', (preconfirmation: Preconfirmation) => {
        for (const included of preconfirmation.transactions) {
          const logs = formatLogs(included, PENDING_BLOCK_HASH, preconfirmation.blockNumber)
          included.receipt.logs.forEach((log, i) => matchesLog(filter, log) && notify(logs[i]))
        }
      })
    }
    default:
      throw new InvalidParamsError(`invalid argument 0 (subscription): no "${kind}" subscription`)
  }
}
