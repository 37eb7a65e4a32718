/**
 * geth's debug namespace: transaction, block and call traces (`debug_trace*`, with the struct
 * logger, callTracer or prestateTracer and their options, in geth's JSON shapes) and the
 * consensus encodings of transactions, receipts, headers and blocks (`debug_getRaw*`).
 */
import { RLP } from '@ethereumjs/rlp'
import { rlpList } from '../trie/trie-encoding.ts'
import type { SealedBlock } from '../blocks/block.ts'
import { encodeHeader } from '../blocks/header.ts'
import { encodeReceipt } from '../blocks/receipt.ts'
import type { ChainView } from '../engine/engine.ts'
import { TAG, type BlockSelector } from '../engine/block-resolver.ts'
import type { TraceResult } from '../engine/tracing.ts'
import type { CallFrame } from '../execution/tracers/call-tracer.ts'
import type { PrestateDiff } from '../execution/tracers/prestate-diff.ts'
import type { Prestate } from '../execution/tracers/prestate-tracer.ts'
import type { StructLog, StructLoggerResult } from '../execution/tracers/struct-logger.ts'
import type { TracerSpec } from '../execution/tracers/tracer.ts'
import type { CallOverrides } from '../state/state-overrides.ts'
import { RejectedParameterError, ResourceNotFoundError } from '../errors.ts'
import { describeValue, invalidArgument, parseHash, toData, toQuantity, toWord } from './hex.ts'
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
  throw invalidArgument(`${name}.tracer`, `unsupported tracer ${describeValue(tracer)}: callTracer, prestateTracer, or none for the struct logger`)
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

/** Memory as geth lists it: 32-byte words. */
function memoryWords(memory: Uint8Array): string[] {
  const words: string[] = []
  for (let offset = 0; offset < memory.length; offset += 32) words.push(toData(memory.subarray(offset, offset + 32)))
  return words
}

/** Storage words by slot, slots in ascending order (as geth's JSON map sorts them). */
function formatStorage(storage: ReadonlyMap<bigint, bigint>): Record<string, string> {
  const slots = [...storage.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  return Object.fromEntries(slots.map((slot) => [toWord(slot), toWord(storage.get(slot)!)]))
}

/** One struct log in geth's legacy JSON (empty memory, return data and refund left out, as geth's omitempty does). */
function formatStructLog(log: StructLog): Record<string, unknown> {
  const json: Record<string, unknown> = { pc: log.pc, op: log.op, gas: Number(log.gas), gasCost: Number(log.gasCost), depth: log.depth }
  if (log.error !== undefined) json.error = log.error
  if (log.stack !== undefined) json.stack = log.stack.map(toQuantity)
  if (log.returnData !== undefined && log.returnData.length > 0) json.returnData = toData(log.returnData)
  if (log.memory !== undefined && log.memory.length > 0) json.memory = memoryWords(log.memory)
  if (log.storage !== undefined) json.storage = formatStorage(log.storage)
  if (log.refund !== 0n) json.refund = Number(log.refund)
  return json
}

function formatStructLogs(result: StructLoggerResult): Record<string, unknown> {
  return { gas: Number(result.gas), failed: result.failed, returnValue: toData(result.returnValue), structLogs: result.structLogs.map(formatStructLog) }
}

/** A call frame in geth's key order; empty output, calls and logs left out. */
function formatCallFrame(frame: CallFrame): Record<string, unknown> {
  const json: Record<string, unknown> = { from: frame.from, gas: toQuantity(frame.gas), gasUsed: toQuantity(frame.gasUsed) }
  if (frame.to !== undefined) json.to = frame.to
  json.input = toData(frame.input)
  if (frame.output !== undefined) json.output = toData(frame.output)
  if (frame.error !== undefined) json.error = frame.error
  if (frame.revertReason !== undefined) json.revertReason = frame.revertReason
  if (frame.calls.length > 0) json.calls = frame.calls.map(formatCallFrame)
  if (frame.logs.length > 0) {
    json.logs = frame.logs.map((log) => ({ address: log.address, topics: log.topics.map(toData), data: toData(log.data), index: toQuantity(log.index), position: toQuantity(log.position) }))
  }
  if (frame.value !== undefined) json.value = toQuantity(frame.value)
  json.type = frame.type
  return json
}

function formatPrestate(prestate: Prestate): Record<string, unknown> {
  const json: Record<string, unknown> = {}
  for (const [address, account] of prestate) {
    const entry: Record<string, unknown> = { balance: toQuantity(account.balance) }
    if (account.code !== undefined) entry.code = toData(account.code)
    if (account.codeHash !== undefined) entry.codeHash = toData(account.codeHash)
    if (account.nonce !== 0n) entry.nonce = Number(account.nonce)
    if (account.storage !== undefined && account.storage.size > 0) entry.storage = formatStorage(account.storage)
    json[address] = entry
  }
  return json
}

/** diffMode's { post, pre } (geth's field order): `post` holds only the fields that changed. */
function formatPrestateDiff(diff: PrestateDiff): Record<string, unknown> {
  const post: Record<string, unknown> = {}
  for (const [address, account] of diff.post) {
    const entry: Record<string, unknown> = {}
    if (account.balance !== undefined) entry.balance = toQuantity(account.balance)
    if (account.code !== undefined) entry.code = toData(account.code)
    if (account.codeHash !== undefined) entry.codeHash = toData(account.codeHash)
    if (account.nonce !== undefined && account.nonce !== 0n) entry.nonce = Number(account.nonce)
    if (account.storage.size > 0) entry.storage = formatStorage(account.storage)
    post[address] = entry
  }
  return { post, pre: formatPrestate(diff.pre) }
}

function formatTrace(trace: TraceResult): Record<string, unknown> {
  switch (trace.tracer) {
    case 'structLogger':
      return formatStructLogs(trace.result)
    case 'callTracer':
      return formatCallFrame(trace.result)
    case 'prestateTracer':
      return formatPrestate(trace.result)
    case 'prestateDiff':
      return formatPrestateDiff(trace.result)
    case 'parity':
    case 'replay':
      // Only the trace_* methods ask for these, and they give them their place (format-parity.ts).
      throw new Error(`${trace.tracer} traces are not a debug_trace* answer`)
  }
}

/** A block's consensus encoding: [header, transactions, ommers, withdrawals]. */
function encodeBlock(block: SealedBlock): Uint8Array {
  // Legacy transactions are RLP lists already; typed envelopes go in as byte strings.
  const transactions = block.transactions.map(({ transaction: { raw } }) => (raw[0] >= 0xc0 ? raw : RLP.encode(raw)))
  return rlpList([encodeHeader(block.header), rlpList(transactions), rlpList([]), rlpList([])])
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
