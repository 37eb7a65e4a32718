/**
 * geth's debug namespace: transaction, block and call traces (`debug_trace*`, with the struct
 * logger, callTracer or prestateTracer and their options; their JSON is format-trace.ts's) and
 * the consensus encodings of transactions, receipts, headers and blocks (`debug_getRaw*`).
 */
import type { SealedBlock } from '../blocks/block.ts'
import { encodeBlock } from '../blocks/block-encoding.ts'
import { encodeHeader } from '../blocks/header.ts'
import { encodeReceipt } from '../blocks/receipt.ts'
import type { ChainView } from '../engine/engine.ts'
import { TAG, type BlockSelector } from '../engine/block-resolver.ts'
import type { TracerSpec } from '../execution/tracers/tracer.ts'
import type { CallOverrides } from '../state/state-overrides.ts'
import { RejectedParameterError, ResourceNotFoundError } from '../errors.ts'
import { describeValue, invalidArgument, parseHash, toData } from './hex.ts'
import { formatTrace } from './format-trace.ts'
import { parseGoDuration } from './go-duration.ts'
import { parseBlockOverrides, parseStateOverrides } from './overrides.ts'
import { method, optional, required, type MethodDefinition } from './method-definition.ts'
import { parseBlockOrHash, parseBlockTag, parseBoolean, parseCallRequest } from './params.ts'

const STRUCT_LOGGER: TracerSpec = { tracer: 'structLogger', config: { enableMemory: false, disableStack: false, disableStorage: false, enableReturnData: false } }

type Options = Record<string, unknown>

function flag(options: Options, key: string, name: string): boolean {
  const value = options[key]
  return value === undefined || value === null ? false : parseBoolean(value, `${name}.${key}`)
}

function objectOf(value: unknown, name: string, what: string): Options {
  if (value === undefined || value === null) return {}
  if (typeof value !== 'object' || Array.isArray(value)) throw invalidArgument(name, `expected ${what} object, got ${describeValue(value)}`)
  return value as Options
}

/**
 * geth's TraceConfig: no tracer is the struct logger (with its four switches); or callTracer /
 * prestateTracer with their `tracerConfig`; and `timeout`, a Go duration (geth's default 5s is
 * our call timeout).
 */
function parseTraceConfig(value: unknown, name: string): TracerSpec {
  const options = objectOf(value, name, 'a trace config')
  const timeoutMs = parseTraceTimeout(options.timeout, `${name}.timeout`)
  const spec = parseTracer(options, name)
  return timeoutMs === undefined ? spec : { ...spec, timeoutMs }
}

/** A trace's `timeout`: a Go duration string (`"10s"`, `"1m30s"`), in ms. */
function parseTraceTimeout(value: unknown, name: string): number | undefined {
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'string') throw invalidArgument(name, `expected a duration such as "10s", got ${describeValue(value)}`)
  return parseGoDuration(value)
}

/** The tracer a trace config names, with its options. */
function parseTracer(options: Options, name: string): TracerSpec {
  const { tracer } = options
  if (tracer === undefined || tracer === null) {
    const config = { enableMemory: flag(options, 'enableMemory', name), disableStack: flag(options, 'disableStack', name), disableStorage: flag(options, 'disableStorage', name), enableReturnData: flag(options, 'enableReturnData', name) }
    return { tracer: 'structLogger', config }
  }
  const tracerConfig = objectOf(options.tracerConfig, `${name}.tracerConfig`, 'a tracer config')
  const configName = `${name}.tracerConfig`
  if (tracer === 'callTracer') return { tracer, config: { onlyTopCall: flag(tracerConfig, 'onlyTopCall', configName), withLog: flag(tracerConfig, 'withLog', configName) } }
  if (tracer === 'prestateTracer') {
    const config = {
      diffMode: flag(tracerConfig, 'diffMode', configName),
      disableCode: flag(tracerConfig, 'disableCode', configName),
      disableStorage: flag(tracerConfig, 'disableStorage', configName),
      includeEmpty: flag(tracerConfig, 'includeEmpty', configName),
    }
    // geth refuses the pair when it makes the tracer (eth/tracers/native/prestate.go).
    if (config.diffMode && config.includeEmpty) throw new RejectedParameterError('cannot use diffMode with includeEmpty')
    return { tracer, config }
  }
  if (tracer === '4byteTracer' || tracer === 'noopTracer') return { tracer }
  throw invalidArgument(`${name}.tracer`, `unsupported tracer ${describeValue(tracer)}: callTracer, prestateTracer, 4byteTracer, noopTracer, or none for the struct logger`)
}

/** geth's TraceCallConfig: a TraceConfig, and the state and block overrides to trace the call with; `txIndex` is refused rather than ignored. */
function parseTraceCallConfig(value: unknown, name: string): { spec: TracerSpec; overrides: CallOverrides } {
  const options = objectOf(value, name, 'a trace config')
  if (options.txIndex !== undefined && options.txIndex !== null) throw invalidArgument(`${name}.txIndex`, 'not supported')
  const overrides = {
    state: options.stateOverrides == null ? undefined : parseStateOverrides(options.stateOverrides, `${name}.stateOverrides`),
    block: options.blockOverrides == null ? undefined : parseBlockOverrides(options.blockOverrides, `${name}.blockOverrides`),
  }
  return { spec: parseTraceConfig(options, name), overrides }
}

/** The block `selector` names (the pre-confirmed block as it would seal now, for `pending`); undefined beyond the head. */
function blockAt(view: ChainView, selector: BlockSelector, what: 'header' | 'block'): SealedBlock | undefined {
  if ('hash' in selector) {
    const block = view.blocks.byHash(selector.hash)
    if (block === undefined) throw new ResourceNotFoundError(`${what} ${selector.hash} not found`)
    return block
  }
  if ('number' in selector && selector.number > view.blocks.headNumber) return undefined
  const resolved = view.blocks.resolve(selector)
  return resolved.kind === 'pending' ? resolved.block.preview() : resolved.block
}

const transactionHash = required('0 (hash)', parseHash)
const blockParameter = required('0 (block)', parseBlockOrHash)

/** The debug methods, by name. */
export const traceMethods: Readonly<Record<string, MethodDefinition>> = {
  debug_traceTransaction: method([transactionHash, optional('1 (config)', parseTraceConfig, () => STRUCT_LOGGER)], async ({ engine, view }, hash, spec) =>
    formatTrace((await engine.tracing.traceTransaction(hash, spec, view)).trace),
  ),
  debug_traceBlockByNumber: method([required('0 (block)', parseBlockTag), optional('1 (config)', parseTraceConfig, () => STRUCT_LOGGER)], async ({ engine, view }, selector, spec) =>
    (await engine.tracing.traceBlock(selector, spec, view)).map(({ hash, trace }) => ({ txHash: hash, result: formatTrace(trace) })),
  ),
  debug_traceBlockByHash: method([required('0 (hash)', parseHash), optional('1 (config)', parseTraceConfig, () => STRUCT_LOGGER)], async ({ engine, view }, hash, spec) =>
    (await engine.tracing.traceBlock({ hash }, spec, view)).map(({ hash: txHash, trace }) => ({ txHash, result: formatTrace(trace) })),
  ),
  debug_traceCall: method(
    [required('0 (call)', parseCallRequest), optional('1 (block)', parseBlockOrHash, (): BlockSelector => TAG.latest), optional('2 (config)', parseTraceCallConfig, () => ({ spec: STRUCT_LOGGER, overrides: {} }))],
    async ({ engine, view }, request, selector, { spec, overrides }) => formatTrace(await engine.tracing.traceCall(request, selector, spec, view, overrides)),
  ),
  debug_getRawTransaction: method([transactionHash], ({ view }, hash) => {
    const location = view.lookups.find(hash)
    return location === undefined ? null : toData(location.transaction.raw)
  }),
  debug_getRawHeader: method([blockParameter], ({ view }, selector) => {
    const block = blockAt(view, selector, 'header')
    return block === undefined ? null : toData(encodeHeader(block.header))
  }),
  debug_getRawBlock: method([blockParameter], ({ view }, selector) => {
    const block = blockAt(view, selector, 'block')
    return block === undefined ? null : toData(encodeBlock(block))
  }),
  debug_getRawReceipts: method([blockParameter], ({ view }, selector) => {
    if ('hash' in selector && view.blocks.byHash(selector.hash) === undefined) return []
    const block = blockAt(view, selector, 'block')
    return block === undefined ? null : block.transactions.map(({ transaction, receipt }) => toData(encodeReceipt(transaction, receipt)))
  }),
}
