/**
 * geth's JSON of `debug_trace*` results: the struct logger's legacy logs, callTracer's frames and
 * prestateTracer's accounts and diffs, in geth's key order and with its omitempty fields left out
 * (the Parity and Otterscan shapes are format-parity.ts's and format-otterscan.ts's).
 */
import type { TraceResult } from '../engine/tracing.ts'
import type { CallFrame } from '../execution/tracers/call-tracer.ts'
import type { PrestateDiff } from '../execution/tracers/prestate-diff.ts'
import type { Prestate } from '../execution/tracers/prestate-tracer.ts'
import type { StructLog, StructLoggerResult } from '../execution/tracers/struct-logger.ts'
import { toData, toQuantity, toWord } from './hex.ts'

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

/** The struct logger's result: gas, failure, return value and the logs. */
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

/** The prestateTracer's accounts (geth's omitempty fields left out). */
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

/** A `debug_trace*` result in geth's JSON for its tracer. */
export function formatTrace(trace: TraceResult): Record<string, unknown> {
  switch (trace.tracer) {
    case 'structLogger':
      return formatStructLogs(trace.result)
    case 'callTracer':
      return formatCallFrame(trace.result)
    case 'prestateTracer':
      return formatPrestate(trace.result)
    case 'prestateDiff':
      return formatPrestateDiff(trace.result)
    case '4byteTracer':
      return Object.fromEntries(trace.result)
    case 'noopTracer':
      return {}
    case 'parity':
    case 'replay':
      // Only the trace_* methods ask for these, and they give them their place (format-parity.ts).
      throw new Error(`${trace.tracer} traces are not a debug_trace* answer`)
  }
}
