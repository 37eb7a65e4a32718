/**
 * A block as a method's parameter names it (a tag, a number or a hash), with what its answer
 * is made of: its transactions, their block reference and its JSON. `pending` is the
 * pre-confirmed block.
 */
import type { IncludedTransaction } from '../blocks/block.ts'
import type { BlockSelector } from '../engine/block-resolver.ts'
import type { ChainView } from '../engine/engine.ts'
import type { Hash } from '../types.ts'
import { formatBlock, formatPendingBlock } from './format-block.ts'
import { pendingRef, sealedRef, type BlockRef } from './format-transaction.ts'

/** A block found: its transactions, the reference their JSON carries, and its own JSON. */
export interface NamedBlock {
  readonly transactions: readonly IncludedTransaction[]
  readonly ref: BlockRef
  /** The block's JSON, as eth_getBlockBy* answer it. */
  json(fullTransactions: boolean): Record<string, unknown>
}

/** The block `selector` names; undefined beyond the head or before the first block held (a fork's dump loaded alone) (geth: null). */
export function blockAt(view: ChainView, selector: BlockSelector): NamedBlock | undefined {
  if ('number' in selector && (selector.number > view.blocks.headNumber || selector.number < view.blocks.firstNumber)) return undefined
  const resolved = view.blocks.resolve(selector)
  if (resolved.kind === 'pending') {
    const pending = resolved.block.view
    return { transactions: pending.transactions, ref: pendingRef(pending), json: (full) => formatPendingBlock(pending, full) }
  }
  const block = resolved.block
  return { transactions: block.transactions, ref: sealedRef(block), json: (full) => formatBlock(block, full) }
}

/** The sealed block with `hash`, as {@link blockAt} gives it. */
export function blockWithHash(view: ChainView, hash: Hash): NamedBlock | undefined {
  const block = view.blocks.byHash(hash)
  return block === undefined ? undefined : { transactions: block.transactions, ref: sealedRef(block), json: (full) => formatBlock(block, full) }
}
