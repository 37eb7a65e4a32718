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
import type { Faults } from '../faults/faults.ts'
import type { StateHistory } from '../state/state-history.ts'
import type { StateView } from '../state/state-view.ts'
import type { BlockTagName, Hash } from '../types.ts'
import type { UpstreamChain } from './upstream-chain.ts'

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
  /**
   * The builder: its pending block as it is now (a new one opens at every seal), the index of a
   * block's first pre-confirmation that takes user transactions (1 where index 0 holds only system
   * ones), and whether the pending block still awaits that opening (an OP-stack block's index 0);
   * until then `pending` reads `latest`, as Base's RPC node does until index 0 arrives. Read as
   * properties, not through closures: they are on every `pending` read's path.
   */
  readonly builder: { readonly pending: PendingBlock; readonly awaitsOpening: boolean; readonly firstUserIndex: number }
  readonly safeLag: number
  readonly finalizedLag: number
  /** A forked chain's upstream, which holds the blocks up to the fork block. */
  readonly upstream?: UpstreamChain
  /** The failure modes in force: what `pending` reads during a stall, and the context calls there run in. */
  readonly faults?: Faults
}

/** Maps selectors to blocks. */
export class BlockResolver {
  private readonly contexts = new WeakMap<SealedBlock, BlockContext>()
  /** The state at the head. */
  private readonly latest: StateView

  /** Whether `pending` reads the pre-confirmed block here. */
  readonly servesPending: boolean
  /** Whether each block opens with a pre-confirmation of system transactions alone (an OP-stack chain's index 0). */
  private readonly opensFirst: boolean

  constructor(
    private readonly parts: ResolverParts,
    /** What `pending` resolves to for this resolver's readers. */
    readonly pendingMeans: PendingMeaning = 'preconfirmed',
  ) {
    this.latest = parts.history.latest
    this.servesPending = pendingMeans === 'preconfirmed'
    this.opensFirst = parts.builder.firstUserIndex > 0
  }

  /** The same blocks, with `pending` meaning `pendingMeans` (a view of the chain for another endpoint). */
  withPending(pendingMeans: PendingMeaning): BlockResolver {
    return new BlockResolver(this.parts, pendingMeans)
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
    return this.parts.builder.pending
  }

  /** The pending block `pending` reads now, if any (see {@link pendingRead}): where a pre-confirmed transaction is served from. */
  get pendingServed(): PendingBlock | undefined {
    return this.pendingRead
  }

  /**
   * The pending block `pending` reads now: the pre-confirmed block, or during a stall a frozen
   * copy of it, or undefined where `pending` falls back to `latest` (a stall, a standard
   * endpoint, or a block that has not opened yet).
   */
  private get pendingRead(): PendingBlock | undefined {
    if (!this.servesPending) return undefined
    const override = this.parts.faults?.pendingOverride
    if (override !== undefined) return override === 'latest' ? undefined : override
    const { builder } = this.parts
    return this.opensFirst && builder.awaitsOpening ? undefined : builder.pending
  }

  /** The first block the chain holds: genesis, or a fork's block. */
  get firstNumber(): bigint {
    return this.parts.blocks.first.header.number
  }

  /** The first block whose contents the chain holds: genesis, or the block after a fork's. */
  get firstLocalNumber(): bigint {
    return this.parts.upstream === undefined ? 0n : this.parts.upstream.forkNumber + 1n
  }

  /** The sealed block at `number`, if the chain holds it. */
  byNumber(number: bigint): SealedBlock | undefined {
    return number > this.headNumber || number < this.firstNumber ? undefined : this.parts.blocks.byNumber(Number(number))
  }

  /**
   * Whether a read at `selector` is the upstream's to answer (a forked chain): a read of the
   * state before the fork block, or of the contents of a block up to the fork block (the fork
   * block's state is local, its transactions the upstream's). A hash the chain does not hold is
   * looked up on the upstream. Always false on a chain that is not a fork.
   */
  upstreamHolds(selector: BlockSelector, reads: 'state' | 'contents'): boolean | Promise<boolean> {
    const { upstream } = this.parts
    if (upstream === undefined) return false
    const last = reads === 'state' ? upstream.forkNumber - 1n : upstream.forkNumber
    if ('hash' in selector) {
      const local = this.parts.blocks.byHash(selector.hash)
      if (local !== undefined) return local.header.number <= last
      return upstream.numberOf(selector.hash).then((number) => number !== undefined && number <= last)
    }
    if ('number' in selector) return selector.number <= last
    if (selector.tag === 'pending' && this.pendingRead !== undefined) return false
    return this.numberOfTag(selector.tag) <= last
  }

  /** The sealed block with `hash`, if any. */
  byHash(hash: Hash): SealedBlock | undefined {
    return this.parts.blocks.byHash(hash)
  }

  /**
   * The block `selector` names; -32000 `header not found` beyond the head, `header for hash not
   * found` for an unknown hash, and, on a fork, one naming the upstream for a block before the
   * fork block. A sealed block's state is looked up when read: a block whose state is pruned
   * (`--prune-history`) still resolves, and reading its `state` throws Anvil's -32602
   * `BlockOutOfRangeError`.
   */
  resolve(selector: BlockSelector): ResolvedBlock {
    const pending = 'tag' in selector && selector.tag === 'pending'
    if (pending) {
      const block = this.pendingRead
      if (block !== undefined) return { kind: 'pending', block, state: block.state, context: this.pendingCallContext(block) }
    }
    const block = this.sealed(selector)
    const sealedState = (): StateView => this.sealedState(block)
    // Before an OP-stack block's index 0, `pending` reads `latest`; calls there still run in the
    // pending block's context (its number, time and base fee), so an estimate holds for the block
    // the transaction goes into, as on a plain chain and in Anvil's optimism mode.
    const opening = pending && this.servesPending && this.parts.faults?.pendingOverride === undefined && this.opensFirst
    return {
      kind: 'sealed',
      block,
      get state() {
        return sealedState()
      },
      context: opening ? this.pendingCallContext(this.parts.builder.pending) : this.contextOf(block),
    }
  }

  /** The state at `selector` (the fast path of reads: no block lookups for `latest` and `pending`); -32602 where it is pruned. */
  stateAt(selector: BlockSelector): StateView {
    // Parsed tags are the shared TAG selectors: identity is the cheapest test.
    if (selector === TAG.latest) return this.latest
    if (selector === TAG.pending) return this.pendingRead?.state ?? this.latest
    return this.sealedState(this.sealed(selector))
  }

  /**
   * The number `selector` names, for ranges (`eth_getLogs`, `eth_feeHistory`): `pending` is the
   * block after the head, and a number stands as given (beyond the head, or before a fork).
   */
  numberOf(selector: BlockSelector): bigint {
    if ('number' in selector) return selector.number
    if ('hash' in selector) return this.sealed(selector).header.number
    if (selector.tag === 'pending') return this.pendingRead?.context.number ?? this.headNumber
    return this.numberOfTag(selector.tag)
  }

  /**
   * The context calls at `pending` run in: the pending block's own, or, with a pending context
   * lag of K, that of the sealed block K behind the head (Base's node runs pending calls in an
   * older block's header with the pre-confirmed state as overrides: base/base#1439).
   */
  private pendingCallContext(block: PendingBlock): BlockContext {
    const lag = this.parts.faults?.switches.pendingContextLag ?? 0
    if (lag === 0) return block.context
    const number = this.headNumber - BigInt(lag)
    return this.contextOf(this.parts.blocks.byNumber(Number(number < this.firstNumber ? this.firstNumber : number))!)
  }

  /** The number a tag other than `pending` names among sealed blocks (`safe` and `finalized` trail the head, never below genesis). */
  numberOfTag(tag: BlockTagName): bigint {
    const head = this.headNumber
    switch (tag) {
      case 'latest':
      case 'pending':
        return head
      case 'safe':
        return head > BigInt(this.parts.safeLag) ? head - BigInt(this.parts.safeLag) : 0n
      case 'finalized':
        return head > BigInt(this.parts.finalizedLag) ? head - BigInt(this.parts.finalizedLag) : 0n
      case 'earliest':
        return 0n
    }
  }

  /**
   * The sealed block `selector` names (not `pending`). On a fork, a tag naming a block before
   * the fork block names the fork block (reads that the upstream answers never get here).
   */
  private sealed(selector: BlockSelector): SealedBlock {
    const { blocks } = this.parts
    if ('tag' in selector) {
      const number = this.numberOfTag(selector.tag)
      return blocks.byNumber(Number(number < this.firstNumber ? this.firstNumber : number))!
    }
    if ('hash' in selector) {
      const block = blocks.byHash(selector.hash)
      if (block === undefined) throw new ResourceNotFoundError('header for hash not found')
      return block
    }
    if (selector.number > this.headNumber) throw new HeaderNotFoundError()
    if (selector.number < this.firstNumber) {
      // A fork's dump loaded alone holds no block before its first, and no upstream does either.
      if (this.parts.upstream === undefined) throw new HeaderNotFoundError()
      throw new ResourceNotFoundError(`block ${selector.number} is before the fork block ${this.firstNumber}: only the upstream holds it`)
    }
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
