/**
 * Which block a read is at: the one place that maps a block selector (a tag, a number, an
 * EIP-1898 hash) to the pending block or a sealed one, with its state and block context.
 * Every read (state, calls, fee history, logs, blocks) resolves here.
 */
import type { SealedBlock } from '../blocks/block.ts'
import type { BlockStore } from '../blocks/block-store.ts'
import type { PendingBlock } from '../builder/pending-block.ts'
import { HeaderNotFoundError, ResourceNotFoundError } from '../errors.ts'
import type { BlockContext } from '../execution/block-context.ts'
import type { StateHistory } from '../state/state-history.ts'
import type { StateView } from '../state/state-view.ts'
import type { BlockTagName, Hash } from '../types.ts'

/** A block selector after parsing: a named tag, a number, or a hash (EIP-1898). */
export type BlockSelector = { readonly tag: BlockTagName } | { readonly number: bigint } | { readonly hash: Hash }

/** One shared selector per tag (selectors are immutable, so parsing a tag allocates nothing). */
export const TAG: { readonly [T in BlockTagName]: { readonly tag: T } } = Object.freeze({
  latest: { tag: 'latest' },
  pending: { tag: 'pending' },
  safe: { tag: 'safe' },
  finalized: { tag: 'finalized' },
  earliest: { tag: 'earliest' },
})

/** A block a read resolves to, with the state and context reads and calls there use. */
export type ResolvedBlock =
  | { readonly kind: 'pending'; readonly block: PendingBlock; readonly state: StateView; readonly context: BlockContext }
  | { readonly kind: 'sealed'; readonly block: SealedBlock; readonly state: StateView; readonly context: BlockContext }

/**
 * What `pending` means to a reader: the pre-confirmed block (a flashblocks endpoint), or the
 * newest sealed block (a standard endpoint of the same chain, as Base serves both).
 */
export type PendingMeaning = 'preconfirmed' | 'latest'

/** What the resolver reads: the sealed blocks, their state, the pending block and the tag lags. */
export interface ResolverParts {
  readonly blocks: BlockStore
  readonly history: StateHistory
  /** The pending block as it is now (a new one opens at every seal). */
  readonly pending: () => PendingBlock
  readonly safeLag: number
  readonly finalizedLag: number
}

/** Maps selectors to blocks. */
export class BlockResolver {
  private readonly contexts = new WeakMap<SealedBlock, BlockContext>()
  /** The state at the head. */
  private readonly latest: StateView

  constructor(
    private readonly parts: ResolverParts,
    /** What `pending` resolves to for this resolver's readers. */
    readonly pendingMeans: PendingMeaning = 'preconfirmed',
  ) {
    this.latest = parts.history.latest
  }

  /** The same blocks, with `pending` meaning `pendingMeans` (a view of the chain for another endpoint). */
  withPending(pendingMeans: PendingMeaning): BlockResolver {
    return new BlockResolver(this.parts, pendingMeans)
  }

  /** Whether `pending` reads the pre-confirmed block here. */
  get servesPending(): boolean {
    return this.pendingMeans === 'preconfirmed'
  }

  /** The newest sealed block. */
  get head(): SealedBlock {
    return this.parts.blocks.head
  }

  /** The newest sealed block's number. */
  get headNumber(): bigint {
    return this.parts.blocks.head.header.number
  }

  /** The pending (pre-confirmed) block, whatever `pending` means to readers. */
  get pending(): PendingBlock {
    return this.parts.pending()
  }

  /** The sealed block at `number`, if any. */
  byNumber(number: bigint): SealedBlock | undefined {
    return number > this.headNumber || number < 0n ? undefined : this.parts.blocks.byNumber(Number(number))
  }

  /** The sealed block with `hash`, if any. */
  byHash(hash: Hash): SealedBlock | undefined {
    return this.parts.blocks.byHash(hash)
  }

  /** The block `selector` names; -32000 `header not found` beyond the head, or for an unknown hash. */
  resolve(selector: BlockSelector): ResolvedBlock {
    if ('tag' in selector && selector.tag === 'pending' && this.servesPending) {
      const block = this.pending
      return { kind: 'pending', block, state: block.state, context: block.context }
    }
    const block = this.sealed(selector)
    return { kind: 'sealed', block, state: this.sealedState(block), context: this.contextOf(block) }
  }

  /** The state at `selector` (the fast path of reads: no block lookups for `latest` and `pending`). */
  stateAt(selector: BlockSelector): StateView {
    // Parsed tags are the shared TAG selectors: identity is the cheapest test.
    if (selector === TAG.latest) return this.latest
    if (selector === TAG.pending && this.servesPending) return this.parts.pending().state
    return this.sealedState(this.sealed(selector))
  }

  /**
   * The number `selector` names, for ranges (`eth_getLogs`, `eth_feeHistory`): `pending` is the
   * block after the head, and a number beyond the head stands as given.
   */
  numberOf(selector: BlockSelector): bigint {
    if ('tag' in selector && selector.tag === 'pending') return this.servesPending ? this.headNumber + 1n : this.headNumber
    if ('number' in selector && selector.number > this.headNumber) return selector.number
    return this.sealed(selector).header.number
  }

  /** The sealed block `selector` names (not `pending`). */
  private sealed(selector: BlockSelector): SealedBlock {
    const { blocks } = this.parts
    const head = Number(this.headNumber)
    if ('tag' in selector) {
      switch (selector.tag) {
        case 'latest':
        case 'pending':
          return blocks.head
        case 'safe':
          return blocks.byNumber(Math.max(0, head - this.parts.safeLag))!
        case 'finalized':
          return blocks.byNumber(Math.max(0, head - this.parts.finalizedLag))!
        case 'earliest':
          return blocks.byNumber(0)!
      }
    }
    if ('hash' in selector) {
      const block = blocks.byHash(selector.hash)
      if (block === undefined) throw new ResourceNotFoundError('header for hash not found')
      return block
    }
    if (selector.number > BigInt(head)) throw new HeaderNotFoundError()
    return blocks.byNumber(Number(selector.number))!
  }

  private sealedState(block: SealedBlock): StateView {
    const number = block.header.number
    return number === this.headNumber ? this.parts.history.latest : this.parts.history.at(Number(number))
  }

  /** The block context a call at a sealed block runs in (built once per block). */
  private contextOf(block: SealedBlock): BlockContext {
    let context = this.contexts.get(block)
    if (context === undefined) {
      const { header } = block
      context = {
        number: header.number,
        timestamp: header.timestamp,
        baseFeePerGas: header.baseFeePerGas,
        gasLimit: header.gasLimit,
        coinbase: header.coinbase,
        prevRandao: header.mixHash,
      }
      this.contexts.set(block, context)
    }
    return context
  }
}
