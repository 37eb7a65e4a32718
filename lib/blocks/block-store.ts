/** The sealed chain: blocks by number and hash, transactions by hash. */
import type { UndoLog } from '../snapshots/undo-log.ts'
import type { Hash } from '../types.ts'
import type { IncludedTransaction, SealedBlock } from './block.ts'

/** Where a sealed transaction is. */
export interface SealedTransaction {
  /** The block that holds it. */
  readonly block: SealedBlock
  /** The transaction, its receipt and its index there. */
  readonly included: IncludedTransaction
}

/** Every sealed block, from the first (genesis, or a fork's block) to the head. */
export class BlockStore {
  private readonly blocks: SealedBlock[] = []
  /** The first block's number. */
  private firstNumber = 0
  private readonly blocksByHash = new Map<Hash, SealedBlock>()
  private readonly transactions = new Map<Hash, SealedTransaction>()

  constructor(private readonly undoLog?: UndoLog) {}

  /** The newest sealed block. */
  get head(): SealedBlock {
    return this.blocks[this.blocks.length - 1]
  }

  /** The first block: genesis, or the block a fork starts from. */
  get first(): SealedBlock {
    return this.blocks[0]
  }

  /** The block at `number`, if sealed. */
  byNumber(number: number): SealedBlock | undefined {
    return this.blocks[number - this.firstNumber]
  }

  /** Every block, first to head. */
  all(): readonly SealedBlock[] {
    return this.blocks
  }

  /** The block with `hash`, if sealed. */
  byHash(hash: Hash): SealedBlock | undefined {
    return this.blocksByHash.get(hash)
  }

  /** The sealed transaction with `hash`. */
  transaction(hash: Hash): SealedTransaction | undefined {
    return this.transactions.get(hash)
  }

  /** Drops the blocks after `number` and their transactions (`anvil_rollback`); undone with a snapshot's revert. */
  dropAfter(number: number): void {
    const dropped = this.blocks.splice(number - this.firstNumber + 1)
    for (const block of dropped) this.forget(block)
    if (this.undoLog?.recording) {
      this.undoLog.record(() => {
        for (const block of dropped) {
          this.blocks.push(block)
          this.index(block)
        }
      })
    }
  }

  /** Appends the next block (the first may have any number). */
  append(block: SealedBlock): void {
    if (this.blocks.length === 0) this.firstNumber = Number(block.header.number)
    this.blocks.push(block)
    this.index(block)
    if (this.undoLog?.recording) {
      this.undoLog.record(() => {
        this.blocks.pop()
        this.forget(block)
      })
    }
  }

  /** Finds `block` and its transactions by hash. */
  private index(block: SealedBlock): void {
    this.blocksByHash.set(block.hash, block)
    for (const included of block.transactions) this.transactions.set(included.transaction.hash, { block, included })
  }

  /** No longer finds `block` or its transactions by hash. */
  private forget(block: SealedBlock): void {
    this.blocksByHash.delete(block.hash)
    for (const included of block.transactions) this.transactions.delete(included.transaction.hash)
  }
}
