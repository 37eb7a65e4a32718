/**
 * Where a transaction is — the mempool, the pre-confirmed block or a sealed block — and the
 * wait for its pre-confirmation (`eth_sendRawTransactionSync`, EIP-7966).
 */
import type { IncludedTransaction, SealedBlock } from '../blocks/block.ts'
import type { BlockStore } from '../blocks/block-store.ts'
import type { BlockBuilder } from '../builder/builder.ts'
import type { PendingBlock, PendingBlockView } from '../builder/pending-block.ts'
import type { Clock } from '../clock/clock.ts'
import { TransactionTimeoutError } from '../errors.ts'
import { heldAccount } from '../state/state-source.ts'
import type { Transaction, UserTransaction } from '../transactions/transaction.ts'
import type { TxPool } from '../txpool/txpool.ts'
import type { DepositQueue } from '../op-stack/deposit-queue.ts'
import type { Address, Hash } from '../types.ts'
import type { ChainEmitter } from './events.ts'

/** Where a transaction is: mempool, pre-confirmed block or sealed block. */
export type TransactionLocation =
  | { readonly status: 'mempool'; readonly transaction: Transaction }
  | { readonly status: 'preconfirmed'; readonly transaction: Transaction; readonly included: IncludedTransaction; readonly block: PendingBlockView }
  | { readonly status: 'sealed'; readonly transaction: Transaction; readonly included: IncludedTransaction; readonly block: SealedBlock }

/** Whether `transaction` is `sender`'s with `nonce` (a deposit has no nonce). */
function sentWith(transaction: Transaction, sender: Address, nonce: bigint): boolean {
  return transaction.kind !== 'deposit' && transaction.sender === sender && transaction.nonce === nonce
}

/** The mempool by state: `pending` can execute now (each sender's gapless run), `queued` waits behind a nonce gap. */
export interface PoolContent {
  readonly pending: readonly UserTransaction[]
  readonly queued: readonly UserTransaction[]
}

/** Where an executed transaction is: the pre-confirmed block or a sealed one. */
export type ExecutedLocation = Exclude<TransactionLocation, { readonly status: 'mempool' }>

/** The waits for transactions a chain's lookups have open, ended together when its engine retires (a reset, a load, `close`). */
class OpenWaits {
  private readonly ends = new Set<() => void>()
  private ended = false

  /** Registers `end`, to run if the engine retires first (at once, in a microtask, if it has already); returns the unregistering. */
  add(end: () => void): () => void {
    if (this.ended) {
      queueMicrotask(end)
      return () => undefined
    }
    this.ends.add(end)
    return () => this.ends.delete(end)
  }

  /** Ends every wait still open, and every later one. */
  endAll(): void {
    this.ended = true
    const ends = [...this.ends]
    this.ends.clear()
    for (const end of ends) end()
  }
}

/** Finds transactions, and waits for them. */
export class TransactionLookups {
  constructor(
    private readonly pool: TxPool,
    /** An OP-stack chain's deposits waiting for their block (they count as in the mempool). */
    private readonly deposits: DepositQueue | undefined,
    private readonly builder: BlockBuilder,
    private readonly blocks: BlockStore,
    private readonly clock: Clock,
    private readonly events: ChainEmitter,
    /**
     * The pending block readers see now, whose transactions count as executed (a flashblocks
     * endpoint's; none during a stall that serves `latest`, or on a standard endpoint): a
     * pre-confirmed transaction it does not hold is still pending, as Base's node answers without
     * a pending snapshot.
     */
    private readonly served: () => PendingBlock | undefined,
    /** The waits open on this chain, shared with its standard endpoint's lookups. */
    private readonly waits = new OpenWaits(),
  ) {}

  /** The same lookups for a standard endpoint: a pre-confirmed transaction is still pending there. */
  sealedOnly(): TransactionLookups {
    return new TransactionLookups(this.pool, this.deposits, this.builder, this.blocks, this.clock, this.events, () => undefined, this.waits)
  }

  /** Ends every wait still open as a timeout (code 4): the engine is retiring, its transactions will never run (a reset, a load, `close`). */
  endWaits(): void {
    this.waits.endAll()
  }

  /**
   * Where the transaction with `hash` is, if anywhere: sealed; else pre-confirmed in the pending
   * block readers see (during a frozen stall, the block as the stall found it, even if a test
   * control has since taken the transaction back or dropped it); else in the mempool, a
   * pre-confirmed transaction readers do not see counting as pending.
   */
  find(hash: Hash): TransactionLocation | undefined {
    const sealed = this.blocks.transaction(hash)
    if (sealed !== undefined) return { status: 'sealed', transaction: sealed.included.transaction, included: sealed.included, block: sealed.block }
    const served = this.served()
    const shown = served?.transactionsByHash.get(hash)
    if (served !== undefined && shown !== undefined) return { status: 'preconfirmed', transaction: shown.transaction, included: shown, block: served.view }
    const waiting = this.pool.get(hash) ?? this.deposits?.get(hash) ?? this.builder.pending.transactionsByHash.get(hash)?.transaction
    return waiting === undefined ? undefined : { status: 'mempool', transaction: waiting }
  }

  /**
   * The hash of the transaction `sender` sent with `nonce`: in the mempool, pre-confirmed or
   * sealed (`eth_getTransactionBySenderAndNonce`, as Anvil and reth look it up); with
   * `sealedOnly`, in sealed blocks only (`ots_getTransactionBySenderAndNonce`). A fork's blocks
   * before its own are not searched.
   */
  bySenderAndNonce(sender: Address, nonce: bigint, sealedOnly = false): Hash | undefined {
    if (!sealedOnly) {
      const pooled = this.pool.atNonce(sender, nonce)
      if (pooled !== undefined) return pooled.transaction.hash
      for (const { transaction } of this.builder.pending.transactions) if (sentWith(transaction, sender, nonce)) return transaction.hash
    }
    // The first block (genesis, or a fork's block) holds none of the chain's own transactions.
    const blocks = this.blocks.all()
    for (let i = blocks.length - 1; i > 0; i--) {
      for (const { transaction } of blocks[i].transactions) if (sentWith(transaction, sender, nonce)) return transaction.hash
    }
    return undefined
  }

  /** The mempool's transactions, pending and queued, each sender's in nonce order (`txpool_content`). */
  poolContent(sender?: Address): PoolContent {
    const pending: UserTransaction[] = []
    const queued: UserTransaction[] = []
    const state = this.builder.pending.state
    for (const from of sender === undefined ? this.pool.senders() : [sender]) {
      const { start, end } = this.pool.executableRun(from, heldAccount(state, from)?.nonce ?? 0n)
      const transactions = [...this.pool.fromSender(from)].map(({ transaction }) => transaction).sort((a, b) => (a.nonce < b.nonce ? -1 : 1))
      for (const transaction of transactions) (transaction.nonce >= start && transaction.nonce < end ? pending : queued).push(transaction)
    }
    return { pending, queued }
  }

  /**
   * Resolves when the transaction `hash` is pre-confirmed (or sealed; only sealed for a standard
   * endpoint's lookups). Rejects with code 4
   * (EIP-7966) once the chain's clock has moved `timeoutMs` past now without it (checked at
   * every tick, seal and clock move), or as soon as the transaction leaves the mempool
   * unexecuted, or the chain starts over or closes ({@link endWaits}). Time is the chain's clock:
   * under the manual clock the wait ends only as the clock is advanced.
   */
  waitForPreconfirmation(hash: Hash, timeoutMs: number): Promise<ExecutedLocation> {
    const deadline = this.clock.now() + timeoutMs
    const { events } = this
    return new Promise((resolve, reject) => {
      const check = (): void => {
        const location = this.find(hash)
        if (location !== undefined && location.status !== 'mempool') {
          stop()
          resolve(location)
        } else if (location === undefined || this.clock.now() >= deadline) {
          stop()
          reject(new TransactionTimeoutError(hash, timeoutMs))
        }
      }
      const stop = (): void => {
        events.off('preconfirmation', check)
        events.off('block', check)
        events.off('time', check)
        unregister()
      }
      const unregister = this.waits.add(() => {
        stop()
        reject(new TransactionTimeoutError(hash, timeoutMs))
      })
      events.on('preconfirmation', check)
      events.on('block', check)
      events.on('time', check)
      check()
    })
  }
}
