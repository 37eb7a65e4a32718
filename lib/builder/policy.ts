/**
 * How the builder fills the pending block: which sources a tick takes from and how much gas the
 * block may have used once a tick is done. The default is an ideal pre-confirmation node: every
 * tick may fill the block. (Which ticks run at all is the faults' call: lib/faults/faults.ts.)
 */
import type { BlockContext } from '../execution/block-context.ts'

/** What kind of transactions a source offers. */
export type SourceKind = 'system' | 'user'

/** The builder's rules for each pre-confirmation (flashblock) of a block. */
export interface BuilderPolicy {
  /** Whether pre-confirmation `index` takes transactions from sources of `kind`. */
  takes(kind: SourceKind, index: number): boolean
  /** The most gas the block may have used once pre-confirmation `index` is done. */
  gasBudget(context: BlockContext, index: number): bigint
}

/** Every tick takes from every source, and may fill the block. */
export const IDEAL_POLICY: BuilderPolicy = {
  takes: () => true,
  gasBudget: (context) => context.gasLimit,
}

/**
 * An OP-stack chain's (Base's flashblocks): the block's first pre-confirmation (index 0) holds
 * only its system transactions (the L1-attributes deposit and the deposits from L1), and user
 * transactions start at index 1.
 */
export const SYSTEM_FIRST_POLICY: BuilderPolicy = {
  takes: (kind, index) => (kind === 'system') === (index === 0),
  gasBudget: (context) => context.gasLimit,
}
