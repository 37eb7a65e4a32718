/**
 * How the builder fills the pending block: which ticks run, which sources a tick takes from and
 * how much gas the block may have used once a tick is done. The default is an ideal
 * pre-confirmation node: every tick runs and may fill the block.
 */
import type { BlockContext } from '../execution/block-context.ts'

/** What kind of transactions a source offers. */
export type SourceKind = 'system' | 'user'

/** The builder's rules for each pre-confirmation (flashblock) of a block. */
export interface BuilderPolicy {
  /** Whether the tick due as pre-confirmation `index` of the block in `context` runs. */
  runsTick(context: BlockContext, index: number): boolean
  /** Whether pre-confirmation `index` takes transactions from sources of `kind`. */
  takes(kind: SourceKind, index: number): boolean
  /** The most gas the block may have used once pre-confirmation `index` is done. */
  gasBudget(context: BlockContext, index: number): bigint
}

/** Every tick runs, takes from every source, and may fill the block. */
export const IDEAL_POLICY: BuilderPolicy = {
  runsTick: () => true,
  takes: () => true,
  gasBudget: (context) => context.gasLimit,
}
