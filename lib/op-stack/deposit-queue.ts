/**
 * An OP-stack chain's system source: what each block's first pre-confirmation (flashblock
 * index 0) holds. First the block's L1-attributes deposit, made from the L1 origin its parent
 * left in L1Block and the block's timestamp; then the deposits waiting from L1 (sent as raw
 * 0x7e envelopes, built by `eth_sendTransaction` with a `sourceHash`, or simulated with
 * `preconf_deposit`), in the order they arrived, as op-node derives them from L1 logs.
 */
import type { CandidateQueue, TransactionSource } from '../builder/sources.ts'
import type { BlockContext } from '../execution/block-context.ts'
import type { ResolvedOpStackOptions } from '../options.ts'
import type { UndoLog } from '../snapshots/undo-log.ts'
import { readStorage } from '../state/state-source.ts'
import type { StateView } from '../state/state-view.ts'
import { userDepositSourceHash } from '../transactions/deposit.ts'
import type { DepositTransaction, Transaction } from '../transactions/transaction.ts'
import type { Hash } from '../types.ts'
import { l1BlockHash, l1InfoDeposit, l1OriginAt, originInStorage, type L1Attributes } from './l1-attributes.ts'
import { L1_BLOCK } from './predeploys.ts'

/** The L1 attributes of the block in `context`, after a parent that left `state` (L1Block's slots 0 and 3). */
async function attributesFor(context: BlockContext, state: StateView, options: ResolvedOpStackOptions): Promise<L1Attributes> {
  const [slot0, slot3] = await Promise.all([readStorage(state, L1_BLOCK, 0n), readStorage(state, L1_BLOCK, 3n)])
  const parent = originInStorage(slot0, slot3)
  const origin = l1OriginAt(context.timestamp, parent.origin)
  const sequenceNumber = origin.number === parent.origin.number ? parent.sequenceNumber + 1n : 0n
  return { origin, sequenceNumber, options }
}

/** The deposits waiting for the next block, and each block's L1-attributes deposit. */
export class DepositQueue implements TransactionSource {
  readonly kind = 'system'
  private readonly waiting: DepositTransaction[] = []
  /** How many deposits were simulated while the pending block `block` was open (their source hashes' log indexes). */
  private simulated = { block: -1n, count: 0n }
  /** The L1-attributes deposits made for blocks (each from its block's context alone). */
  private readonly made = new WeakSet<Transaction>()

  constructor(
    private readonly options: ResolvedOpStackOptions,
    private readonly undoLog: UndoLog,
  ) {}

  /** Queues a deposit for the next block's first pre-confirmation. */
  submit(deposit: DepositTransaction): void {
    this.waiting.push(deposit)
    if (this.undoLog.recording) this.undoLog.record(() => void this.waiting.splice(this.waiting.indexOf(deposit), 1))
  }

  /** The waiting deposit with this hash. */
  get(hash: Hash): DepositTransaction | undefined {
    return this.waiting.find((deposit) => deposit.hash === hash)
  }

  /**
   * A fresh source hash for a deposit simulated while block `pendingNumber` is pending: a user
   * deposit's (domain 0) for a log of a synthetic L1 block named after the L2 block, so hashes
   * are unique along the chain and the same on every run.
   */
  nextSourceHash(pendingNumber: bigint): Uint8Array {
    const previous = this.simulated
    const count = previous.block === pendingNumber ? previous.count : 0n
    this.simulated = { block: pendingNumber, count: count + 1n }
    if (this.undoLog.recording) this.undoLog.record(() => (this.simulated = previous))
    return userDepositSourceHash(l1BlockHash(pendingNumber), count)
  }

  prune(): [] {
    return []
  }

  async candidates(context: BlockContext, state: StateView): Promise<CandidateQueue> {
    const attributes = l1InfoDeposit(await attributesFor(context, state, this.options))
    this.made.add(attributes)
    const list: Transaction[] = [attributes, ...this.waiting]
    let next = 0
    return { peek: () => list[next], next: () => next++, skipped: () => next++ }
  }

  remakes(transaction: Transaction): boolean {
    return this.made.has(transaction)
  }

  restore(transactions: readonly Transaction[]): void {
    const returned = transactions.filter((transaction): transaction is DepositTransaction => transaction.kind === 'deposit' && !this.made.has(transaction))
    if (returned.length === 0) return
    this.waiting.unshift(...returned)
    if (this.undoLog.recording) this.undoLog.record(() => void this.waiting.splice(0, returned.length))
  }

  remove(transaction: Transaction): void {
    const at = this.waiting.indexOf(transaction as DepositTransaction)
    if (at < 0) return // the L1-attributes deposit, made for its block alone
    this.waiting.splice(at, 1)
    if (this.undoLog.recording) this.undoLog.record(() => void this.waiting.splice(at, 0, transaction as DepositTransaction))
  }
}
