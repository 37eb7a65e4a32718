/**
 * The pre-confirmed block: the block being built on top of the head, as the list of its
 * pre-confirmations (each with its own state writes) and of the test-control edits made in
 * between, plus one merged overlay that `pending` reads go to in a single lookup. Its context
 * (number, timestamp, base fee) is fixed when it opens, so what a transaction saw when
 * pre-confirmed is what the sealed block records. The last pre-confirmations can be taken back
 * ({@link PendingBlock.truncate}): the overlay is then rebuilt from what remains, in order.
 */
import { assembleBlock, commitBody, type BlockParts } from '../blocks/assemble.ts'
import type { IncludedTransaction, SealedBlock } from '../blocks/block.ts'
import type { BlockContext } from '../execution/block-context.ts'
import type { StateReads } from '../state/read-recorder.ts'
import { SievedLayer, StateLayer } from '../state/state-layer.ts'
import type { StateChanges, StateView } from '../state/state-view.ts'
import type { UndoLog } from '../snapshots/undo-log.ts'
import type { Hash } from '../types.ts'
import { GrowingOrderedTrie } from '../trie/ordered-trie.ts'

/** One pre-confirmation (a flashblock) of the pending block. */
export interface PreconfirmationRecord {
  /** The flashblock index: 0 for a block's first tick. */
  readonly index: number
  /** The transactions it added (possibly none). */
  readonly transactions: readonly IncludedTransaction[]
  /** Its state writes, over the block as it stood before it. */
  readonly changes: StateChanges
  /** What it read of the block as it stood before it (which it may not have written). */
  readonly reads: StateReads
  /** The block's gas used and log count once it was applied. */
  readonly gasUsed: bigint
  readonly logCount: number
}

/** A test-control edit: a write that reads the state it is applied to (so it replays after a truncation). */
export type StateEdit = (state: StateLayer) => void

/** A stretch of the block's history: a pre-confirmation, or test-control edits between two. */
type Segment = { readonly preconfirmation: PreconfirmationRecord } | { readonly edits: StateEdit[] }

/** The read-only face of the pending block that the chain's users see. */
export interface PendingBlockView {
  /** Number, timestamp, base fee, gas limit, coinbase and prevRandao of the block. */
  readonly context: BlockContext
  /** The head it builds on. */
  readonly parentHash: Hash
  /** The transactions pre-confirmed so far, in order. */
  readonly transactions: readonly IncludedTransaction[]
  /** Its pre-confirmations so far, in order. */
  readonly preconfirmations: readonly PreconfirmationRecord[]
  /** Gas used by the pre-confirmed transactions. */
  readonly gasUsed: bigint
  /** The block as it would seal now, but without a state root (32 zero bytes) and hence a hash of its own. */
  preview(): SealedBlock
}

/** What a pending block's header carries besides its context, fixed when it opens. */
export interface HeaderFields {
  readonly extraData: Uint8Array
  /** EIP-7685 requests hash (Prague on), undefined before. */
  readonly requestsHash: Uint8Array | undefined
}

const ZERO_STATE_ROOT = new Uint8Array(32)

/** The block under construction. */
export class PendingBlock implements PendingBlockView {
  /** The overlay: every write of the block so far, over the head state (what `pending` reads). */
  state: StateLayer
  /** The transactions pre-confirmed so far, in order. */
  readonly transactions: IncludedTransaction[] = []
  /** The pre-confirmed transactions by hash. */
  readonly transactionsByHash = new Map<Hash, IncludedTransaction>()
  readonly preconfirmations: PreconfirmationRecord[] = []
  private readonly segments: Segment[] = []
  private blockContext: BlockContext
  /** The transactions and receipts tries, grown tick after tick (each preview and the seal cost only what was added). */
  private readonly tries = { transactions: new GrowingOrderedTrie(), receipts: new GrowingOrderedTrie() }
  /** The last preview, and the state of the block it was made from. */
  private previewed: { count: number; last: IncludedTransaction | undefined; context: BlockContext; block: SealedBlock } | undefined
  /** The read-only view handed to users. */
  readonly view: PendingBlockView
  /** Counts the block's changes (ticks, edits, truncations, contexts, undos): equal revisions, the same block. */
  revision = 0

  constructor(
    context: BlockContext,
    /** The head it builds on. */
    readonly parentHash: Hash,
    private readonly header: HeaderFields,
    private readonly head: StateView,
    private readonly undoLog?: UndoLog,
  ) {
    this.blockContext = context
    this.state = new SievedLayer(head, undoLog)
    const block = this
    this.view = Object.freeze({
      get context() {
        return block.context
      },
      parentHash,
      get transactions() {
        return block.transactions as readonly IncludedTransaction[]
      },
      get preconfirmations() {
        return block.preconfirmations as readonly PreconfirmationRecord[]
      },
      get gasUsed() {
        return block.gasUsed
      },
      preview: () => block.preview(),
    })
  }

  /** The block as it seals with `stateRoot`. */
  parts(stateRoot: Uint8Array): BlockParts {
    const { context, transactions, gasUsed, parentHash, header } = this
    return { parentHash, context, transactions, gasUsed, stateRoot, extraData: header.extraData, requestsHash: header.requestsHash, blobGasUsed: daFootprint(transactions), tries: this.tries }
  }

  /**
   * The block as it would seal now, with 32 zero bytes for its state root; assembled once per
   * state of the block: reads and subscribers between two ticks share it, and so do the ticks
   * that add nothing (what the block holds is its context and its transactions, each executed
   * once: a truncation and a re-run make new ones).
   */
  preview(): SealedBlock {
    const { transactions, blockContext: context } = this
    const key = this.previewed
    if (key !== undefined && key.count === transactions.length && key.last === transactions.at(-1) && key.context === context) return key.block
    const block = assembleBlock(this.parts(ZERO_STATE_ROOT))
    this.previewed = { count: transactions.length, last: transactions.at(-1), context, block }
    return block
  }

  /**
   * Grows the block's tries by `transactions` as if they were appended (a drafted tick's), so
   * that the preview after the tick costs only what the tick adds besides; if the tick turns out
   * otherwise, the next preview rebuilds them.
   */
  growCommitments(transactions: readonly IncludedTransaction[]): void {
    if (transactions.length > 0) commitBody([...this.transactions, ...transactions], this.tries)
  }

  /** Number, timestamp, base fee, … of the block: what its transactions execute in. */
  get context(): BlockContext {
    return this.blockContext
  }

  /** Gas used by the pre-confirmed transactions. */
  get gasUsed(): bigint {
    return this.preconfirmations.at(-1)?.gasUsed ?? 0n
  }

  /** Logs emitted by the pre-confirmed transactions (the next log's index). */
  get logCount(): number {
    return this.preconfirmations.at(-1)?.logCount ?? 0
  }

  /** Pre-confirmation ticks run so far; the next one gets this flashblock index. */
  get ticks(): number {
    return this.preconfirmations.length
  }

  /** Gives the block a new context (time, coinbase, base fee, …); only while it has pre-confirmed nothing (test controls). */
  updateContext(context: BlockContext): void {
    if (this.transactions.length > 0) throw new Error('a block with pre-confirmed transactions keeps its context')
    const previous = this.blockContext
    this.blockContext = context
    this.revision++
    if (this.undoLog?.recording) {
      this.undoLog.record(() => {
        this.blockContext = previous
        this.revision++
      })
    }
  }

  /** Appends one pre-confirmation: its writes go into the overlay at once (readers see all of it or none). */
  append(preconfirmation: PreconfirmationRecord): void {
    this.state.apply(preconfirmation.changes)
    this.revision++
    this.segments.push({ preconfirmation })
    this.preconfirmations.push(preconfirmation)
    for (const included of preconfirmation.transactions) {
      this.transactions.push(included)
      this.transactionsByHash.set(included.transaction.hash, included)
    }
    if (this.undoLog?.recording) this.undoLog.record(() => this.removeLast(1))
  }

  /** Applies a test-control edit to the block's state; it is replayed in place after a later {@link truncate}. */
  edit(edit: StateEdit): void {
    edit(this.state)
    this.revision++
    const last = this.segments.at(-1)
    if (last !== undefined && 'edits' in last) {
      last.edits.push(edit)
      if (this.undoLog?.recording) {
        this.undoLog.record(() => {
          last.edits.pop()
          this.revision++
        })
      }
    } else {
      this.segments.push({ edits: [edit] })
      if (this.undoLog?.recording) {
        this.undoLog.record(() => {
          this.segments.pop()
          this.revision++
        })
      }
    }
  }

  /**
   * Takes back every pre-confirmation from index `keep` on: their transactions leave the block
   * and the overlay is rebuilt from the head, the kept pre-confirmations and the edits, in order.
   * Returns the withdrawn pre-confirmations.
   */
  truncate(keep: number): PreconfirmationRecord[] {
    if (keep >= this.preconfirmations.length) return []
    const before = { state: this.state, segments: [...this.segments], preconfirmations: [...this.preconfirmations], transactions: [...this.transactions] }
    const withdrawn = this.preconfirmations.slice(keep)
    this.removeLast(withdrawn.length)
    this.state = new SievedLayer(this.head, this.undoLog)
    for (const segment of this.segments) {
      if ('edits' in segment) for (const edit of segment.edits) edit(this.state)
      else this.state.apply(segment.preconfirmation.changes)
    }
    if (this.undoLog?.recording) {
      this.undoLog.record(() => {
        this.revision++
        this.state = before.state
        this.segments.splice(0, Infinity, ...before.segments)
        this.preconfirmations.splice(0, Infinity, ...before.preconfirmations)
        this.transactions.splice(0, Infinity, ...before.transactions)
        for (const included of before.transactions) this.transactionsByHash.set(included.transaction.hash, included)
      })
    }
    return withdrawn
  }

  /**
   * A copy of the block as it stands, over `base` (the state of its parent, fixed): what a
   * stalled node keeps serving as `pending` while the chain moves on. Later changes to this
   * block do not reach the copy.
   */
  copyOver(base: StateView): PendingBlock {
    const copy = new PendingBlock(this.blockContext, this.parentHash, this.header, base)
    for (const segment of this.segments) {
      if ('edits' in segment) for (const edit of segment.edits) copy.edit(edit)
      else copy.append(segment.preconfirmation)
    }
    return copy
  }

  /** Drops the last `count` pre-confirmations from the lists (not from the overlay). */
  private removeLast(count: number): void {
    this.revision++
    for (let i = 0; i < count; i++) {
      const preconfirmation = this.preconfirmations.pop()!
      this.segments.splice(this.segments.findLastIndex((segment) => 'preconfirmation' in segment && segment.preconfirmation === preconfirmation), 1)
      for (const { transaction } of preconfirmation.transactions) {
        this.transactions.pop()
        this.transactionsByHash.delete(transaction.hash)
      }
    }
  }
}

/** A block's blob gas used: none on a plain chain; on an OP-stack chain its DA footprint, the sum of its user transactions' (Jovian). */
export function daFootprint(transactions: readonly IncludedTransaction[]): bigint {
  let total = 0n
  for (const { receipt } of transactions) total += receipt.l1?.daFootprint ?? 0n
  return total
}
