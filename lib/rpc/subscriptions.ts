/**
 * `eth_subscribe` streams, fed by the chain's events and delivered as EIP-1193 `message`
 * events (`{ type: 'eth_subscription', data: { subscription, result } }`), which the WebSocket
 * server routes to the connection that subscribed. Base's pre-confirmation streams:
 * `newPreconfBlockTransactions` (alias `newFlashblockTransactions`) sends each transaction new
 * in a tick, once (a hash, or with `true` the transaction with its logs); `newFlashblocks` the
 * pending block after every tick; `pendingLogs` the logs of newly pre-confirmed transactions.
 * Standard streams: `newHeads` and `logs` on each seal, `newPendingTransactions` on admission.
 * Headers and transactions with logs are formatted once per event, whatever the number of
 * subscribers; the pending block once per state (each of its transactions once per block).
 */
import type { IncludedTransaction, SealedBlock } from '../blocks/block.ts'
import type { Preconfirmation } from '../builder/builder.ts'
import type { Engine } from '../engine/engine.ts'
import type { ChainEmitter, ChainEvents, SubscriptionMessage } from '../engine/events.ts'
import { InvalidParamsError } from '../errors.ts'
import type { Transaction } from '../transactions/transaction.ts'
import type { Hex } from '../types.ts'
import type { PendingBlockView } from '../builder/pending-block.ts'
import { formatHeader, formatPendingBlock } from './format-block.ts'
import { formatIncluded, formatLogs, formatTransaction, formatTransactionWithLogs, pendingRef, sealedRef, type BlockRef } from './format-transaction.ts'
import { knowJsonText } from './json-text.ts'
import { matchesLog, parseLogFilter, type LogFilter } from './log-filter.ts'
import { parseBoolean } from './params.ts'

/** The streams of pre-confirmations (Base's), which a node without them does not have. */
const PRECONFIRMATION_STREAMS: ReadonlySet<string> = new Set(['newPreconfBlockTransactions', 'newFlashblockTransactions', 'newFlashblocks', 'pendingLogs'])

function unknownSubscription(kind: string): InvalidParamsError {
  return new InvalidParamsError(`invalid argument 0 (subscription): no "${kind}" subscription`)
}

type Notify = (result: unknown) => void
type Unsubscribe = () => void

const headers = new WeakMap<SealedBlock, unknown>()
const transactionsWithLogs = new WeakMap<Preconfirmation, unknown[]>()
/** The pending block's JSON by its preview: a tick that adds nothing streams the same block. */
const pendingBlocks = new WeakMap<SealedBlock, unknown>()
/**
 * Each pre-confirmed transaction's JSON in the pending block and its text, made at the first
 * tick that streams it (or at the draft of that tick): it stays in the block, at its index and
 * in its context, until the seal (a truncation re-runs transactions as new ones), so later ticks
 * stream the same. Kept per pending block (by its view), and let go with it once it seals.
 */
const pendingFormats = new WeakMap<PendingBlockView, PendingFormats>()

/** The JSON objects and texts of one pending block's transactions. */
interface PendingFormats {
  readonly objects: Map<IncludedTransaction, unknown>
  readonly texts: Map<IncludedTransaction, string>
}

function formatsOf(view: PendingBlockView): PendingFormats {
  let formats = pendingFormats.get(view)
  if (formats === undefined) pendingFormats.set(view, (formats = { objects: new Map(), texts: new Map() }))
  return formats
}

/** The JSON of `included`, a transaction of the pending block `view` (formatted once per block). */
function pendingTransactionJson(view: PendingBlockView, included: IncludedTransaction, ref: BlockRef): unknown {
  return once(formatsOf(view).objects, included, () => formatIncluded(included, ref))
}

/** The JSON text of `included`, a transaction of the pending block `view` (serialized once per block). */
function pendingTransactionText(view: PendingBlockView, included: IncludedTransaction, ref: BlockRef): string {
  return once(formatsOf(view).texts, included, () => JSON.stringify(pendingTransactionJson(view, included, ref)))
}

/**
 * The pending block's JSON with full transactions, its text written from its transactions' texts
 * (each serialized once per block): a tick serializes what it added, not the whole block again.
 */
function formatPendingBlockWithText(view: PendingBlockView): Record<string, unknown> {
  const block = formatPendingBlock(view, true, (included, ref) => pendingTransactionJson(view, included, ref))
  const ref = pendingRef(view)
  const head = JSON.stringify({ ...block, transactions: [] })
  const list = view.transactions.map((included) => pendingTransactionText(view, included, ref)).join(',')
  knowJsonText(block, head.replace('"transactions":[]', `"transactions":[${list}]`))
  return block
}

/** The cached value for `event`, computed on first use (events are shared by all subscribers). */
function once<E extends object, R>(cache: WeakMap<E, R> | Map<E, R>, event: E, compute: () => R): R {
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

/** The open subscriptions of one chain. */
export class Subscriptions {
  private readonly active = new Map<Hex, Unsubscribe>()
  private count = 0

  constructor(
    /** The chain's engine as it is now (a reset replaces it; subscriptions and filters carry on). */
    private readonly currentEngine: () => Engine,
    private readonly events: ChainEmitter,
  ) {}

  private get engine(): Engine {
    return this.currentEngine()
  }

  /**
   * Starts a `kind` subscription (with its option: a filter or a flag); returns its id (16 bytes
   * of hex, as geth's). Without `preconfirmations` (the sealed endpoint, a node without them),
   * the pre-confirmation streams are unknown, as on such a node.
   */
  subscribe(kind: string, option: unknown, preconfirmations = true): Hex {
    if (!preconfirmations && PRECONFIRMATION_STREAMS.has(kind)) throw unknownSubscription(kind)
    const id = `0x${(this.count + 1).toString(16).padStart(32, '0')}` as Hex
    const notify: Notify = (result) => this.events.emit('message', { type: 'eth_subscription', data: { subscription: id, result } } satisfies SubscriptionMessage)
    const unsubscribe = this.start(kind, option, notify)
    this.count++
    this.active.set(id, unsubscribe)
    return id
  }

  /** Ends subscription `id`; false if there is none. */
  unsubscribe(id: string): boolean {
    const key = id.toLowerCase() as Hex
    const unsubscribe = this.active.get(key)
    if (unsubscribe === undefined) return false
    unsubscribe()
    this.active.delete(key)
    return true
  }

  /** Calls `listener` on each `event`; `first`: before the listeners already there. */
  private listen<E extends 'block' | 'drafted' | 'preconfirmation' | 'transaction'>(event: E, listener: (...args: ChainEvents[E]) => void, first = false): Unsubscribe {
    // EventEmitter's conditional listener type does not narrow on a generic event name.
    const untyped = listener as (...args: unknown[]) => void
    if (first) this.events.prependListener(event, untyped as never)
    else this.events.on(event, untyped as never)
    return () => this.events.off(event, untyped as never)
  }

  private start(kind: string, option: unknown, notify: Notify): Unsubscribe {
    switch (kind) {
      case 'newHeads':
        return this.listen('block', (block) => notify(once(headers, block, () => formatHeader(block))))
      case 'logs': {
        const filter = parseLogFilter(option, '1 (filter)')
        return this.listen('block', (block) => {
          for (const included of block.transactions) {
            const logs = formatLogs(included, sealedRef(block))
            included.receipt.logs.forEach((log, i) => matchesLog(filter, log) && notify(logs[i]))
          }
        })
      }
      case 'newPendingTransactions': {
        const full = parseFlag(option, '1 (full transactions)')
        return this.listen('transaction', (transaction: Transaction) => notify(full ? formatTransaction(transaction, undefined) : transaction.hash))
      }
      case 'newPreconfBlockTransactions':
      case 'newFlashblockTransactions':
        return this.preconfirmedTransactions(option, notify)
      case 'newFlashblocks': {
        // A drafted tick's transactions are serialized while the node waits for the tick.
        const stopDrafts = this.listen('drafted', (transactions) => {
          const { view } = this.engine.blocks.pending
          const ref = pendingRef(view)
          for (const included of transactions) pendingTransactionText(view, included, ref)
        })
        // First among a tick's notifications: one message a subscriber, the tick's own signal,
        // before the per-transaction streams (thousands of messages after a full tick).
        const stopTicks = this.listen(
          'preconfirmation',
          () => {
            const { view } = this.engine.blocks.pending
            notify(once(pendingBlocks, view.preview(), () => formatPendingBlockWithText(view)))
          },
          true,
        )
        return () => {
          stopDrafts()
          stopTicks()
        }
      }
      case 'pendingLogs': {
        const filter = parseLogFilter(option, '1 (filter)')
        return this.listen('preconfirmation', (preconfirmation) => {
          const block = pendingRef(this.engine.blocks.pending.view)
          for (const included of preconfirmation.transactions) {
            const logs = formatLogs(included, block)
            included.receipt.logs.forEach((log, i) => matchesLog(filter, log) && notify(logs[i]))
          }
        })
      }
      default:
        throw unknownSubscription(kind)
    }
  }

  private preconfirmedTransactions(option: unknown, notify: Notify): Unsubscribe {
    const filter: LogFilter | undefined = typeof option === 'object' && option !== null ? parseLogFilter(option, '1 (filter)') : undefined
    const full = filter !== undefined || parseFlag(option, '1 (full transactions)')
    return this.listen('preconfirmation', (preconfirmation) => {
      if (preconfirmation.transactions.length === 0) return
      const objects = full
        ? once(transactionsWithLogs, preconfirmation, () => {
            const block = pendingRef(this.engine.blocks.pending.view)
            return preconfirmation.transactions.map((included) => formatTransactionWithLogs(included, block))
          })
        : undefined
      preconfirmation.transactions.forEach((included, i) => {
        if (filter !== undefined && !included.receipt.logs.some((log) => matchesLog(filter, log))) return
        notify(objects === undefined ? included.transaction.hash : objects[i])
      })
    })
  }
}
