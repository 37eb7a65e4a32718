/**
 * `eth_subscribe` streams, fed by the chain's events. Base's pre-confirmation streams:
 * `newPreconfBlockTransactions` (alias `newFlashblockTransactions`) sends each transaction new
 * in a tick, once (a hash, or with `true` the transaction with its logs); `newFlashblocks` the
 * pending block after every tick; `pendingLogs` the logs of newly pre-confirmed transactions.
 * Standard streams: `newHeads` and `logs` on each seal, `newPendingTransactions` on admission.
 * Each event is formatted once, whatever the number of subscribers.
 */
import type { SealedBlock } from '../blocks/block.ts'
import type { Preconfirmation } from '../builder.ts'
import type { Chain } from '../chain.ts'
import { InvalidParamsError } from '../errors.ts'
import { formatHeader, formatLogs, formatPendingBlock, formatTransaction, formatTransactionWithLogs, PENDING_BLOCK_HASH } from '../rpc/format.ts'
import { invalidArgument } from '../rpc/hex.ts'
import { matchesLog, parseLogFilter, type LogFilter } from '../rpc/log-filter.ts'
import type { PooledTransaction } from '../txpool/pooled-transaction.ts'

/** Sends one notification's `result`. */
export type Notify = (result: unknown) => void

/** Ends a subscription. */
export type Unsubscribe = () => void

const headers = new WeakMap<SealedBlock, unknown>()
const withLogs = new WeakMap<Preconfirmation, unknown[]>()

function header(block: SealedBlock): unknown {
  let json = headers.get(block)
  if (json === undefined) {
    json = formatHeader(block)
    headers.set(block, json)
  }
  return json
}

function transactionsWithLogs(chain: Chain, preconfirmation: Preconfirmation): unknown[] {
  let json = withLogs.get(preconfirmation)
  if (json === undefined) {
    const baseFee = chain.pending.context.baseFeePerGas
    json = preconfirmation.transactions.map((included) => formatTransactionWithLogs(included, preconfirmation.blockNumber, baseFee))
    withLogs.set(preconfirmation, json)
  }
  return json
}

function parseFlag(value: unknown, name: string): boolean {
  if (value === undefined || value === null) return false
  if (typeof value !== 'boolean') throw invalidArgument(name, 'expected a boolean')
  return value
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
    const objects = full ? transactionsWithLogs(chain, preconfirmation) : undefined
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
      return listen(chain, 'block', (block: SealedBlock) => notify(header(block)))
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
      return listen(chain, 'preconfirmation', () => notify(formatPendingBlock(chain.pending, true)))
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
