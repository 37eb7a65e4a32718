/**
 * The `trace_*` methods Anvil serves (Parity's, as Erigon and Reth have them): a transaction's
 * flat traces, a block's, a filter over a range of blocks, and a block's transactions replayed. Traces re-execute as debug_trace*
 * do (engine/tracing.ts); a pre-confirmed transaction is traced in the pending block, whose
 * hash is zero as its JSON shows.
 */
import type { ChainView, Engine } from '../engine/engine.ts'
import { TAG, type BlockSelector } from '../engine/block-resolver.ts'
import { parityFrames, replayed, type TransactionTrace } from '../engine/tracing.ts'
import type { ParityTrace } from '../execution/tracers/parity-tracer.ts'
import { PARITY_TRACER, type ReplayConfig, type TracerSpec } from '../execution/tracers/tracer.ts'
import type { Address } from '../types.ts'
import { formatParityTraces, formatReplay } from './format-parity.ts'
import { PENDING_BLOCK_HASH } from './format-transaction.ts'
import { describeValue, invalidArgument, parseAddress, parseHash, parseSmallQuantity } from './hex.ts'
import { method, required, type MethodDefinition } from './method-definition.ts'
import { parseBlockTag } from './params.ts'

/** Anvil's limit on the blocks one `trace_filter` may span. */
const MAX_FILTER_BLOCKS = 300n

/** A `trace_filter` request: a block range, the callers and callees to keep, and a window of the matches. */
interface TraceFilter {
  readonly fromBlock: BlockSelector
  readonly toBlock: BlockSelector
  /** Undefined (or empty, as given): any caller. */
  readonly fromAddress: ReadonlySet<Address> | undefined
  /** Undefined (or empty, as given): any callee. */
  readonly toAddress: ReadonlySet<Address> | undefined
  /** With both address lists: a trace must match one of them (`union`, the default) or both (`intersection`). */
  readonly mode: 'union' | 'intersection'
  /** Matches to skip. */
  readonly after: number
  /** The most matches to answer. */
  readonly count: number
}

function parseAddresses(value: unknown, name: string): ReadonlySet<Address> | undefined {
  if (value === undefined || value === null) return undefined
  if (!Array.isArray(value)) throw invalidArgument(name, 'expected an array of addresses')
  return value.length === 0 ? undefined : new Set(value.map((address, i) => parseAddress(address, `${name}[${i}]`)))
}

function parseMode(value: unknown, name: string): TraceFilter['mode'] {
  if (value !== 'union' && value !== 'intersection') throw invalidArgument(name, 'expected "union" or "intersection"')
  return value
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
    mode: optional('mode', parseMode, 'union'),
    after: optional('after', parseSmallQuantity, 0),
    count: optional('count', parseSmallQuantity, Number.MAX_SAFE_INTEGER),
  }
}

/** What `traced` (one block's transactions, or one transaction) lists, in order, with each transaction's place. */
function formatTraced(traced: readonly TransactionTrace[], keep: (trace: ParityTrace) => boolean = () => true): Record<string, unknown>[] {
  return traced.flatMap(({ hash, trace, place }) => {
    const where = { blockHash: place.blockHash ?? PENDING_BLOCK_HASH, blockNumber: place.blockNumber, transactionHash: hash, transactionPosition: place.index }
    return formatParityTraces(parityFrames(trace).filter(keep), where)
  })
}

/**
 * Whether `trace` passes the filter's callers and callees, as Anvil judges them: the caller is
 * the account destroyed for a self-destruct; the callee is the created address for a creation
 * and the beneficiary for a self-destruct.
 */
function passes(trace: ParityTrace, filter: TraceFilter): boolean {
  const { fromAddress, toAddress } = filter
  const fromMatches = fromAddress !== undefined && fromAddress.has(trace.from)
  const toMatches = toAddress !== undefined && trace.to !== undefined && toAddress.has(trace.to)
  if (fromAddress === undefined) return toAddress === undefined || toMatches
  if (toAddress === undefined) return fromMatches
  return filter.mode === 'union' ? fromMatches || toMatches : fromMatches && toMatches
}

/** Each transaction of the block `selector` names, traced with `spec`: `pending` is the pre-confirmed block; genesis, a block beyond the head and an empty block have none. */
async function blockTraces(engine: Engine, view: ChainView, selector: BlockSelector, spec: TracerSpec): Promise<TransactionTrace[]> {
  if (selector === TAG.pending) return engine.tracing.traceBlock(selector, spec, view)
  if ('number' in selector && selector.number > view.blocks.headNumber) return []
  const number = view.blocks.numberOf(selector)
  if (number === 0n || (view.blocks.byNumber(number)?.transactions.length ?? 0) === 0) return []
  return engine.tracing.traceBlock({ number }, spec, view)
}

/** What a replay asks for besides the output; Parity's `vmTrace` is not served. */
function parseTraceTypes(value: unknown, name: string): ReplayConfig {
  if (!Array.isArray(value)) throw invalidArgument(name, 'expected an array of trace types')
  const types = new Set<unknown>(value)
  if (types.has('vmTrace')) throw invalidArgument(name, 'vmTrace is not supported: ask for trace and stateDiff')
  for (const type of types) if (type !== 'trace' && type !== 'stateDiff') throw invalidArgument(name, `unknown trace type ${describeValue(type)}: expected "trace", "stateDiff" or "vmTrace"`)
  return { trace: types.has('trace'), stateDiff: types.has('stateDiff') }
}

/** Parity's trace methods, by name. */
export const parityTraceMethods: Readonly<Record<string, MethodDefinition>> = {
  // An unknown (or only pooled) transaction has no traces: [] as Anvil answers.
  trace_transaction: method([required('0 (hash)', parseHash)], async ({ engine, view }, hash) => {
    const location = view.lookups.find(hash)
    if (location === undefined || location.status === 'mempool') return []
    return formatTraced([await engine.tracing.traceTransaction(hash, PARITY_TRACER, view)])
  }),
  // `pending` is the pre-confirmed block; genesis and a number beyond the head have none: [] as Anvil answers.
  trace_block: method([required('0 (block)', parseBlockTag)], async ({ engine, view }, selector) => formatTraced(await blockTraces(engine, view, selector, PARITY_TRACER))),
  // Each transaction's output, and by request its flat traces and state diff (Anvil's shape; the same blocks as trace_block).
  trace_replayBlockTransactions: method([required('0 (block)', parseBlockTag), required('1 (trace types)', parseTraceTypes)], async ({ engine, view }, selector, config) =>
    (await blockTraces(engine, view, selector, { tracer: 'replay', config })).map(({ hash, trace }) => formatReplay(replayed(trace), hash)),
  ),
  // Sealed blocks only, and on a fork only its own (the blocks up to the fork block are the upstream's).
  trace_filter: method([required('0 (filter)', parseTraceFilter)], async ({ engine, view }, filter) => {
    const { blocks } = view
    const from = blocks.numberOf(filter.fromBlock)
    const to = blocks.numberOf(filter.toBlock)
    if (from > to) throw invalidArgument('0 (filter)', 'invalid block range, ensure that to block is greater than from block')
    if (to - from > MAX_FILTER_BLOCKS) throw invalidArgument('0 (filter)', `block range too large, currently limited to ${MAX_FILTER_BLOCKS}`)
    const matches: Record<string, unknown>[] = []
    const first = from > blocks.firstLocalNumber ? from : blocks.firstLocalNumber
    const last = to < blocks.headNumber ? to : blocks.headNumber
    const keep = (trace: ParityTrace) => passes(trace, filter)
    for (let number = first; number <= last && matches.length < filter.after + filter.count; number++) {
      matches.push(...formatTraced(await blockTraces(engine, view, { number }, PARITY_TRACER), keep))
    }
    return matches.slice(filter.after, filter.after + filter.count)
  }),
}
