/**
 * Otterscan's searches of the sealed chain (the `ots_*` methods Anvil serves): the transactions
 * that touch an address, a page at a time, and the transaction that created a contract. Blocks
 * are re-executed with the Parity tracer as `trace_block` does; a block without transactions is
 * never traced, and a contract's creator is looked for only in the blocks where its code arrived
 * (the state history knows them), not in every block.
 */
import type { ParityTrace } from '../execution/tracers/parity-tracer.ts'
import { PARITY_TRACER } from '../execution/tracers/tracer.ts'
import type { StateHistory } from '../state/state-history.ts'
import type { Address, Hash } from '../types.ts'
import { parityFrames, type Tracing, type TracingView } from './tracing.ts'

/** What the searches read: the state history (where code arrived) and the tracer. */
export interface OtterscanParts {
  readonly history: StateHistory
  readonly tracing: Tracing
}

/** One page of the transactions that touch an address, newest first, and whether it is the newest or the oldest page. */
export interface AddressPage {
  readonly hashes: readonly Hash[]
  readonly firstPage: boolean
  readonly lastPage: boolean
}

/** One traced frame and the transaction it ran in. */
interface PlacedTrace {
  readonly hash: Hash
  readonly trace: ParityTrace
}

/**
 * Whether `trace` touches `address` as Anvil judges it (`mentions_address`): the caller or the
 * callee of a call, the creator or the created address of a creation.
 */
function mentions(trace: ParityTrace, address: Address): boolean {
  if (trace.type === 'call') return trace.from === address || trace.to === address
  if (trace.type === 'create') return trace.from === address || (trace.hasResult && trace.to === address)
  return false
}

/** Otterscan's searches over the sealed blocks a chain holds itself (on a fork, those after the fork block). */
export class Otterscan {
  constructor(private readonly parts: OtterscanParts) {}

  /**
   * The page of transactions touching `address` in the blocks before `block` (0: from the
   * head down), whole blocks at a time until it holds `pageSize` or more, as Anvil pages them.
   */
  async before(address: Address, block: bigint, pageSize: number, view: TracingView): Promise<AddressPage> {
    const head = view.blocks.headNumber
    const from = block === 0n ? head : block - 1n
    const oldest = this.oldestSearched(view)
    const hashes: Hash[] = []
    let lastPage = false
    for (let number = from < head ? from : head; number >= oldest; number--) {
      if (hashes.length >= pageSize) break
      hashes.push(...(await this.touching(address, number, view)).reverse())
      if (number === oldest) lastPage = true
    }
    return { hashes, firstPage: from >= head, lastPage }
  }

  /**
   * The page of transactions touching `address` in the blocks after `block` (0: from the
   * first), whole blocks at a time until it holds `pageSize` or more, newest first as the
   * Otterscan spec orders every page (Anvil orders a block's own transactions oldest first here).
   */
  async after(address: Address, block: bigint, pageSize: number, view: TracingView): Promise<AddressPage> {
    const head = view.blocks.headNumber
    const oldest = this.oldestSearched(view)
    const from = block === 0n ? oldest : block + 1n
    const byBlock: Hash[][] = []
    let found = 0
    let firstPage = from >= head
    let lastPage = false
    for (let number = from; number <= head; number++) {
      if (number === oldest) lastPage = true
      if (found >= pageSize) break
      const hashes = await this.touching(address, number, view)
      byBlock.push(hashes)
      found += hashes.length
      if (number === head) firstPage = true
    }
    return { hashes: byBlock.reverse().flatMap((hashes) => hashes.reverse()), firstPage, lastPage }
  }

  /** The newest transaction whose creation frame deployed `address`, and the account that created it. */
  async contractCreator(address: Address, view: TracingView): Promise<{ readonly hash: Hash; readonly creator: Address } | undefined> {
    const oldest = this.oldestSearched(view)
    for (const block of this.parts.history.codeArrivals(address)) {
      if (BigInt(block) < oldest) break
      const traced = await this.traces(BigInt(block), view)
      for (let i = traced.length - 1; i >= 0; i--) {
        const { hash, trace } = traced[i]
        if (trace.type === 'create' && trace.hasResult && trace.to === address) return { hash, creator: trace.from }
      }
    }
    return undefined
  }

  /** The transactions of sealed block `number` that touch `address`, in block order, each once. */
  private async touching(address: Address, number: bigint, view: TracingView): Promise<Hash[]> {
    const hashes = new Set<Hash>()
    for (const { hash, trace } of await this.traces(number, view)) if (mentions(trace, address)) hashes.add(hash)
    return [...hashes]
  }

  /** Every frame of sealed block `number`'s transactions, in order (none for a block without transactions). */
  private async traces(number: bigint, view: TracingView): Promise<PlacedTrace[]> {
    if ((view.blocks.byNumber(number)?.transactions.length ?? 0) === 0) return []
    const traced = await this.parts.tracing.traceBlock({ number }, PARITY_TRACER, view)
    return traced.flatMap(({ hash, trace }) => parityFrames(trace).map((frame) => ({ hash, trace: frame })))
  }

  /** The oldest block searched: the first the chain holds itself, never genesis (it has no transactions). */
  private oldestSearched(view: TracingView): bigint {
    const first = view.blocks.firstLocalNumber
    return first > 1n ? first : 1n
  }
}
