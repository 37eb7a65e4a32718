/**
 * Polled filters (`eth_newFilter`, `eth_newBlockFilter`, `eth_newPendingTransactionFilter`,
 * `eth_getFilterChanges`, `eth_getFilterLogs`, `eth_uninstallFilter`), kept as geth keeps them.
 * One set per chain, shared by its pre-confirmation and standard endpoints.
 *
 * - A block filter reports the hashes of the blocks sealed since the last poll; a
 *   pending-transaction filter the transactions that entered the mempool since then (hashes, or
 *   with geth's `fullTx` the objects); a log filter the matching logs of the blocks sealed since
 *   then within its range. Only numbers (and `earliest`, block 0) bound that range: a tag
 *   (`latest`, `pending`, `safe`, `finalized`) leaves the side open, so a new filter never
 *   reports blocks sealed before it was installed (geth; Anvil also reports the logs from an
 *   explicit `fromBlock` up to the head on the first poll). `toBlock: 'pending'` is accepted (as
 *   Anvil does; geth refuses it) and reports the same as `latest`: polled filters never report
 *   pre-confirmed logs (they come through the `pendingLogs` subscription), only sealed ones, once.
 *   A `blockHash` filter reports no changes; `eth_getFilterLogs` gives its block's logs.
 * - `eth_getFilterLogs` answers what `eth_getLogs` with the filter's object answers now on the
 *   endpoint asked (tags resolve at the call, as in geth).
 * - A filter not polled with `eth_getFilterChanges` for 5 minutes of the chain's clock is
 *   uninstalled (geth's timeout); `evm_increaseTime` moves block timestamps, not the clock.
 * - Snapshots do not hold filters (neither geth nor Anvil has the notion): after `evm_revert`
 *   they stay installed, queued blocks the revert discarded are not reported (checked by identity
 *   against the chain at the poll), blocks sealed after it are. Transactions that entered the
 *   mempool stay reported even if a revert took them back out. Logs never come with
 *   `removed: true`.
 * - Cost: the chain's `block` and `transaction` events are listened to only while a filter that
 *   needs them is installed.
 */
import type { SealedBlock } from '../blocks/block.ts'
import type { BlockResolver, BlockSelector } from '../engine/block-resolver.ts'
import type { Engine } from '../engine/engine.ts'
import type { ChainEmitter } from '../engine/events.ts'
import { InvalidParamsError, ResourceNotFoundError } from '../errors.ts'
import type { Transaction } from '../transactions/transaction.ts'
import type { Hex } from '../types.ts'
import { formatTransaction } from './format-transaction.ts'
import { getLogs, getLogsAcrossFork } from './get-logs.ts'
import { bloomMayMatch, type LogQuery } from './log-filter.ts'

/** geth's filter timeout: a filter not polled for this long (ms of the chain's clock) is gone. */
const FILTER_TIMEOUT_MS = 5 * 60 * 1000

interface Polled {
  /** When the filter was installed or last polled (chain clock, ms). */
  polledAt: number
}

interface BlockFilter extends Polled {
  readonly kind: 'blocks'
  blocks: SealedBlock[]
}

interface TransactionFilter extends Polled {
  readonly kind: 'transactions'
  readonly full: boolean
  transactions: Transaction[]
}

interface LogFilter extends Polled {
  readonly kind: 'logs'
  readonly query: LogQuery
  /** The lowest and highest block numbers whose logs the filter reports (undefined: open). */
  readonly from: bigint | undefined
  readonly to: bigint | undefined
  /** Blocks sealed since the last poll that may hold a matching log. */
  blocks: SealedBlock[]
}

type InstalledFilter = BlockFilter | TransactionFilter | LogFilter

/** The number a range side is fixed at, or undefined when it moves with the chain (a tag or a hash). */
function fixedNumber(selector: BlockSelector): bigint | undefined {
  if ('number' in selector) return selector.number
  if ('tag' in selector && selector.tag === 'earliest') return 0n
  return undefined
}

/** Whether a range side is `pending`. */
function isPending(selector: BlockSelector): boolean {
  return 'tag' in selector && selector.tag === 'pending'
}

/** Whether `block` may hold a log `filter` reports. */
function mayReport(filter: LogFilter, block: SealedBlock): boolean {
  const { number } = block.header
  if (filter.query.blockHash !== undefined) return false
  if ((filter.from !== undefined && number < filter.from) || (filter.to !== undefined && number > filter.to)) return false
  return block.transactions.length > 0 && bloomMayMatch(filter.query, block.header.logsBloom)
}

/** The installed filters of one chain. */
export class Filters {
  private readonly installed = new Map<string, InstalledFilter>()
  private count = 0
  /** Installed filters fed by `block` events (block and log filters) and by `transaction` events. */
  private blockWatchers = 0
  private transactionWatchers = 0

  constructor(
    /** The chain's engine as it is now (a reset replaces it; subscriptions and filters carry on). */
    private readonly currentEngine: () => Engine,
    private readonly events: ChainEmitter,
  ) {}

  private get engine(): Engine {
    return this.currentEngine()
  }

  /** Installs a block filter; returns its id. */
  newBlockFilter(): Hex {
    return this.install({ kind: 'blocks', polledAt: this.now(), blocks: [] })
  }

  /** Installs a pending-transaction filter (hashes, or transaction objects when `full`); returns its id. */
  newPendingTransactionFilter(full: boolean): Hex {
    return this.install({ kind: 'transactions', polledAt: this.now(), full, transactions: [] })
  }

  /**
   * Installs a log filter; -32602 `invalid block range params` when its range is reversed, as
   * `eth_getLogs` would refuse it (and geth at install): its numbers, or from `pending` to a tag
   * before it (`latest`, the default).
   */
  newLogFilter(query: LogQuery): Hex {
    const from = fixedNumber(query.fromBlock)
    const to = fixedNumber(query.toBlock)
    const fromPending = isPending(query.fromBlock) && 'tag' in query.toBlock && !isPending(query.toBlock)
    if (fromPending || (from !== undefined && to !== undefined && from > to)) throw new InvalidParamsError('invalid block range params')
    return this.install({ kind: 'logs', polledAt: this.now(), query, from, to, blocks: [] })
  }

  /** What filter `id` has seen since its last poll; -32000 `filter not found` for an unknown or expired id. */
  changes(id: string): unknown[] {
    const filter = this.find(id)
    filter.polledAt = this.now()
    switch (filter.kind) {
      case 'blocks': {
        const hashes = this.stillSealed(filter.blocks).map((block) => block.hash)
        filter.blocks = []
        return hashes
      }
      case 'transactions': {
        const { transactions } = filter
        filter.transactions = []
        return transactions.map((transaction) => (filter.full ? formatTransaction(transaction, undefined) : transaction.hash))
      }
      case 'logs': {
        const logs = this.stillSealed(filter.blocks).flatMap((block) => getLogs(this.engine.blocks, { ...filter.query, blockHash: block.hash }))
        filter.blocks = []
        return logs
      }
    }
  }

  /**
   * Every log that log filter `id` selects now, read through `blocks` (the asking endpoint's),
   * a fork's upstream's included as `eth_getLogs` gives them; -32000 `filter not found` otherwise.
   */
  logs(id: string, blocks: BlockResolver): unknown[] | Promise<unknown[]> {
    const filter = this.find(id)
    if (filter.kind !== 'logs') throw new ResourceNotFoundError('filter not found')
    const { upstream } = this.engine
    return upstream === undefined ? getLogs(blocks, filter.query) : getLogsAcrossFork(blocks, upstream, filter.query)
  }

  /** Uninstalls filter `id`; false if there is none. */
  uninstall(id: string): boolean {
    this.sweep(this.now())
    const filter = this.installed.get(id)
    if (filter === undefined) return false
    this.remove(id, filter)
    return true
  }

  private now(): number {
    return this.engine.clock.now()
  }

  private find(id: string): InstalledFilter {
    this.sweep(this.now())
    const filter = this.installed.get(id)
    if (filter === undefined) throw new ResourceNotFoundError('filter not found')
    return filter
  }

  /** The blocks of `queued` still on the chain (a revert may have discarded some). */
  private stillSealed(queued: readonly SealedBlock[]): SealedBlock[] {
    return queued.filter((block) => this.engine.blocks.byNumber(block.header.number) === block)
  }

  /** Uninstalls the filters not polled within the timeout. */
  private sweep(now: number): void {
    for (const [id, filter] of this.installed) if (now - filter.polledAt >= FILTER_TIMEOUT_MS) this.remove(id, filter)
  }

  private install(filter: InstalledFilter): Hex {
    this.sweep(filter.polledAt)
    const id = `0x${(++this.count).toString(16).padStart(32, '0')}` as Hex
    this.installed.set(id, filter)
    if (filter.kind === 'transactions') {
      if (this.transactionWatchers++ === 0) this.events.on('transaction', this.onTransaction)
    } else if (this.blockWatchers++ === 0) this.events.on('block', this.onBlock)
    return id
  }

  private remove(id: string, filter: InstalledFilter): void {
    this.installed.delete(id)
    if (filter.kind === 'transactions') {
      if (--this.transactionWatchers === 0) this.events.off('transaction', this.onTransaction)
    } else if (--this.blockWatchers === 0) this.events.off('block', this.onBlock)
  }

  private readonly onBlock = (block: SealedBlock): void => {
    this.sweep(this.now())
    for (const filter of this.installed.values()) {
      if (filter.kind === 'blocks' || (filter.kind === 'logs' && mayReport(filter, block))) filter.blocks.push(block)
    }
  }

  private readonly onTransaction = (transaction: Transaction): void => {
    this.sweep(this.now())
    for (const filter of this.installed.values()) if (filter.kind === 'transactions') filter.transactions.push(transaction)
  }
}
