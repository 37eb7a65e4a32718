/**
 * The block builder: a pre-confirmation tick takes executable transactions from the pool and
 * runs them on the pending block; a seal turns the pending block into the next sealed block
 * and opens a new one on top.
 */
import { hexToBytes } from '@ethereumjs/util'
import type { IncludedTransaction, SealedBlock } from './blocks/block.ts'
import type { BlockStore } from './blocks/block-store.ts'
import { blockSize } from './blocks/block-size.ts'
import { mergeBloom, BLOOM_BYTES } from './blocks/bloom.ts'
import { nextBaseFee } from './blocks/base-fee.ts'
import { emptyRequestsHash, EMPTY_TRIE_ROOT, hashHeader, type BlockHeader } from './blocks/header.ts'
import { encodeReceipt } from './blocks/receipt.ts'
import { keccak256 } from './crypto/keccak.ts'
import type { BlockContext } from './execution/block-context.ts'
import type { ExecutionEnvironment } from './execution/execution-environment.ts'
import { runTransaction, UnexecutableTransactionError } from './execution/run-transaction.ts'
import type { ResolvedChainOptions } from './options.ts'
import { PendingBlock } from './pending-block.ts'
import type { StateHistory } from './state/state-history.ts'
import { StateLayer } from './state/state-layer.ts'
import type { StateRoot } from './state/state-root.ts'
import { orderedTrieRoot } from './trie/ordered-trie.ts'
import type { PooledTransaction } from './txpool/pooled-transaction.ts'
import { TransactionQueue } from './txpool/transaction-queue.ts'
import type { TxPool } from './txpool/txpool.ts'
import type { UndoLog } from './snapshots/undo-log.ts'
import type { Address } from './types.ts'

/** What one tick pre-confirmed. */
export interface Preconfirmation {
  /** The pending block's number. */
  readonly blockNumber: bigint
  /** The flashblock index: 0 for a block's first tick. */
  readonly index: number
  /** The transactions new in this tick (possibly none). */
  readonly transactions: readonly IncludedTransaction[]
  /** Pool transactions dropped because they could not execute, with why. */
  readonly dropped: readonly DroppedTransaction[]
}

/** A transaction the builder took out of the pool without including it. */
export interface DroppedTransaction {
  readonly transaction: PooledTransaction
  /** e.g. `insufficient funds for gas * price + value`, `nonce below the state's`. */
  readonly reason: string
}

/** The parts of a chain the builder works on. */
export interface BuilderParts {
  readonly options: ResolvedChainOptions
  readonly pool: TxPool
  readonly blocks: BlockStore
  readonly history: StateHistory
  readonly stateRoot: StateRoot
  readonly environment: ExecutionEnvironment
  /** Records the builder's mutations while a snapshot is open. */
  readonly undoLog: UndoLog
}

/** Builds pre-confirmed blocks from the pool and seals them. */
export class BlockBuilder {
  /** The block being pre-confirmed. */
  pending: PendingBlock

  constructor(
    private readonly parts: BuilderParts,
    firstTimestamp: bigint,
  ) {
    this.pending = this.open(firstTimestamp)
  }

  /** Runs one pre-confirmation tick: executable pool transactions, best tip first, into the pending block. */
  async preconfirm(): Promise<Preconfirmation> {
    const { pool, environment } = this.parts
    const pending = this.pending
    const { context } = pending
    const tick = new StateLayer(pending.state)
    const nonceOf = (sender: Address) => tick.getAccount(sender)?.nonce ?? 0n
    const dropped = this.dropStale(nonceOf)
    const queue = new TransactionQueue(pool, context.baseFeePerGas, nonceOf)
    const included: IncludedTransaction[] = []
    let gasUsed = pending.gasUsed
    let logCount = pending.logCount

    for (let entry = queue.peek(); entry !== undefined; entry = queue.peek()) {
      const { transaction } = entry
      if (context.gasLimit - gasUsed < transaction.gasLimit) {
        queue.pop()
        continue
      }
      const scratch = new StateLayer(tick)
      try {
        const receipt = await runTransaction(transaction, scratch, context, { gasUsed, logCount }, environment)
        scratch.mergeInto(tick)
        included.push({ transaction, receipt, index: pending.transactions.length + included.length })
        gasUsed = receipt.cumulativeGasUsed
        logCount += receipt.logs.length
        queue.shift()
      } catch (error) {
        // Unexecutable now, or an execution the devnet cannot perform: either way it leaves the
        // pool rather than block every later tick.
        const reason = error instanceof UnexecutableTransactionError ? error.message : `execution failed: ${(error as Error).message}`
        dropped.push({ transaction, reason })
        queue.pop()
      }
    }

    // Commit the tick at once: readers see all of it or none of it.
    tick.mergeInto(pending.state)
    for (const { transaction } of included) pool.remove(transaction)
    for (const { transaction } of dropped) pool.remove(transaction)
    const index = pending.ticks
    pending.append(included, gasUsed, logCount)
    return { blockNumber: context.number, index, transactions: included, dropped }
  }

  /** Seals the pending block as the next block and opens a new pending block at `nextTimestamp` (seconds). */
  seal(nextTimestamp: bigint): SealedBlock {
    const { blocks, history, stateRoot } = this.parts
    const pending = this.pending
    const { context } = pending
    const number = Number(context.number)
    history.apply(number, pending.state)
    stateRoot.markChanges(pending.state)

    const logsBloom = new Uint8Array(BLOOM_BYTES)
    for (const { receipt } of pending.transactions) mergeBloom(logsBloom, receipt.logsBloom)
    const rawTransactions = pending.transactions.map(({ transaction }) => transaction.raw)
    const header: BlockHeader = {
      parentHash: hexToBytes(pending.parentHash),
      coinbase: context.coinbase,
      stateRoot: stateRoot.compute(history.latest),
      transactionsRoot: orderedTrieRoot(rawTransactions),
      receiptsRoot: orderedTrieRoot(pending.transactions.map(({ transaction, receipt }) => encodeReceipt(transaction.type, receipt))),
      logsBloom,
      number: context.number,
      gasLimit: context.gasLimit,
      gasUsed: pending.gasUsed,
      timestamp: context.timestamp,
      extraData: new Uint8Array(0),
      mixHash: context.prevRandao,
      baseFeePerGas: context.baseFeePerGas,
      withdrawalsRoot: EMPTY_TRIE_ROOT,
      blobGasUsed: 0n,
      excessBlobGas: 0n,
      parentBeaconBlockRoot: new Uint8Array(32),
      requestsHash: emptyRequestsHash(this.parts.options.hardfork),
    }
    const { hash, encodedLength } = hashHeader(header)
    const block: SealedBlock = { header, hash, transactions: pending.transactions, size: blockSize(encodedLength, rawTransactions) }
    blocks.append(block)
    const sealed = this.pending
    this.pending = this.open(nextTimestamp)
    if (this.parts.undoLog.recording) this.parts.undoLog.record(() => (this.pending = sealed))
    return block
  }

  /** Removes pool transactions whose nonce the pending state has passed (e.g. after `setNonce`). */
  private dropStale(nonceOf: (sender: Address) => bigint): DroppedTransaction[] {
    const stale: DroppedTransaction[] = []
    const { pool } = this.parts
    for (const sender of pool.senders()) {
      const nonce = nonceOf(sender)
      for (const { transaction } of pool.fromSender(sender)) {
        if (transaction.nonce < nonce) stale.push({ transaction, reason: `nonce ${transaction.nonce} below the state's ${nonce}` })
      }
    }
    return stale
  }

  /** A new pending block on top of the head. */
  private open(timestamp: bigint): PendingBlock {
    const { blocks, history, options } = this.parts
    const parent = blocks.head
    const context: BlockContext = {
      number: parent.header.number + 1n,
      timestamp,
      baseFeePerGas: nextBaseFee(parent.header.baseFeePerGas, parent.header.gasUsed, parent.header.gasLimit),
      gasLimit: options.blockGasLimit,
      coinbase: options.coinbase,
      prevRandao: keccak256(hexToBytes(parent.hash)),
    }
    return new PendingBlock(context, parent.hash, history.latest, this.parts.undoLog)
  }
}
