/**
 * The `trace_*` methods Anvil serves (Parity's, as Erigon and Reth have them): a transaction's
 * flat traces, a block's, and a filter over a range of blocks. Traces re-execute as debug_trace*
 * do (engine/tracing.ts); a pre-confirmed transaction is traced in the pending block, whose
 * hash is zero as its JSON shows.
 */
import type { ChainView, Engine } from '../engine/engine.ts'
import { TAG, type BlockSelector } from '../engine/block-resolver.ts'
import type { TraceResult } from '../engine/tracing.ts'
import type { ParityTrace } from '../execution/tracers/parity-tracer.ts'
import type { TracerSpec } from '../execution/tracers/tracer.ts'
import type { Address, Hash } from '../types.ts'
import { formatParityTraces, type TracePlace } from './format-parity.ts'
import { PENDING_BLOCK_HASH } from './format-transaction.ts'
import { invalidArgument, parseAddress, parseHash, parseSmallQuantity } from './hex.ts'
import { method, required, type MethodDefinition } from './method-definition.ts'
import { parseBlockTag } from './params.ts'

const PARITY: TracerSpec = { tracer: 'parity' }

/** The flat list a trace with {@link PARITY} produced. */
function flat(trace: TraceResult): readonly ParityTrace[] {
  if (trace.tracer !== 'parity') throw new Error(`expected parity traces, got ${trace.tracer}`)
  return trace.result
}

/** A `trace_filter` request: a block range, the callers and callees to keep, and a window of the matches. */
interface TraceFilter {
  readonly fromBlock: BlockSelector
  readonly toBlock: BlockSelector
  readonly fromAddress: ReadonlySet<Address> | undefined
  readonly toAddress: ReadonlySet<Address> | undefined
  /** Matches to skip. */
  readonly after: number
  /** The most matches to answer. */
  readonly count: number
}

function parseAddresses(value: unknown, name: string): ReadonlySet<Address> | undefined {
  if (value === undefined || value === null) return undefined
  if (!Array.isArray(value)) throw invalidArgument(name, 'expected an array of addresses')
  return new Set(value.map((address, i) => parseAddress(address, `${name}[${i}]`)))
}

function parseTraceFilter(value: unknown, name: string): TraceFilter {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalidArgument(name, 'expected a trace filter object')
  const filter = value as Record<string, unknown>
  const optional = <T>(key: string, parse: (value: unknown, name: string) => T, fallback: T): T =>
    filter[key] === undefined || filter[key] === null ? fallback : parse(filter[key], `${name}.${key}`)
  return {
    fromBlock: optional('fromBlock', parseBlockTag, TAG.earliest),
    toBlock: optional('toBlock', parseBlockTag, TAG.latest),
    fromAddress: parseAddresses(filter.fromAddress, `${name}.fromAddress`),
    toAddress: parseAddresses(filter.toAddress, `${name}.toAddress`),
    after: optional('after', parseSmallQuantity, 0),
    count: optional('count', parseSmallQuantity, Number.MAX_SAFE_INTEGER),
  }
}

/** A transaction's place: the block it is in (the pre-confirmed one's hash is zero) and its index. */
function placeOf(hash: Hash, blockHash: Hash, blockNumber: bigint, index: number): TracePlace {
  return { blockHash, blockNumber, transactionHash: hash, transactionPosition: index }
}

/** The traces of every transaction of block `number` (the pending block's when it is beyond the head), each with its place. */
async function blockTraces(engine: Engine, view: ChainView, number: bigint): Promise<Record<string, unknown>[]> {
  const { blocks } = view
  const pending = number > blocks.headNumber
  const selector: BlockSelector = pending ? TAG.pending : { number }
  const block = pending ? undefined : blocks.byNumber(number)
  if (!pending && (block === undefined || block.transactions.length === 0)) return []
  const traced = await engine.tracing.traceBlock(selector, PARITY, view)
  const blockHash = block?.hash ?? PENDING_BLOCK_HASH
  return traced.flatMap(({ hash, trace }, index) => formatParityTraces(flat(trace), placeOf(hash, blockHash, number, index)))
}

/** Whether `trace` passes the filter's callers and callees (for a self-destruct: the account destroyed and its beneficiary). */
function passes(trace: Record<string, unknown>, filter: TraceFilter): boolean {
  const action = trace.action as { from?: Address; to?: Address; address?: Address; refundAddress?: Address }
  const result = trace.result as { address?: Address } | null
  const from = action.from ?? action.address
  const to = trace.type === 'create' ? result?.address : (action.to ?? action.refundAddress)
  return (filter.fromAddress === undefined || (from !== undefined && filter.fromAddress.has(from))) && (filter.toAddress === undefined || (to !== undefined && filter.toAddress.has(to)))
}

/** Parity's trace methods, by name. */
export const parityTraceMethods: Readonly<Record<string, MethodDefinition>> = {
  // An unknown (or only pooled) transaction has no traces: [] as Anvil answers.
  trace_transaction: method([required('0 (hash)', parseHash)], async ({ engine, view }, hash) => {
    const location = view.lookups.find(hash)
    if (location === undefined || location.status === 'mempool') return []
    const trace = await engine.tracing.traceTransaction(hash, PARITY, view)
    const blockHash = location.status === 'sealed' ? location.block.hash : PENDING_BLOCK_HASH
    const number = location.status === 'sealed' ? location.block.header.number : location.block.context.number
    return formatParityTraces(flat(trace), placeOf(hash, blockHash, number, location.included.index))
  }),
  // Genesis and blocks beyond the head have none: [] as Anvil answers.
  trace_block: method([required('0 (block)', parseBlockTag)], ({ engine, view }, selector) => {
    const number = view.blocks.numberOf(selector)
    if (number === 0n || number > view.blocks.headNumber + (view.blocks.servesPending ? 1n : 0n)) return []
    return blockTraces(engine, view, number)
  }),
  trace_filter: method([required('0 (filter)', parseTraceFilter)], async ({ engine, view }, filter) => {
    const { blocks } = view
    const from = blocks.numberOf(filter.fromBlock)
    const to = blocks.numberOf(filter.toBlock)
    if (from > to) throw invalidArgument('0 (filter)', 'invalid block range, ensure that to block is greater than from block')
    const matches: Record<string, unknown>[] = []
    const last = to < blocks.headNumber ? to : blocks.headNumber
    const first = from > blocks.firstLocalNumber ? from : blocks.firstLocalNumber
    for (let number = first > 1n ? first : 1n; number <= last && matches.length < filter.after + filter.count; number++) {
      for (const trace of await blockTraces(engine, view, number)) if (passes(trace, filter)) matches.push(trace)
    }
    return matches.slice(filter.after, filter.after + filter.count)
  }),
}
