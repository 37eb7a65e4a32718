/**
 * `eth_simulateV1 [payload, block?]`: the payload `{ blockStateCalls: [{ blockOverrides?,
 * stateOverrides?, calls }], validation?, traceTransfers?, returnFullTransactions? }` parsed, the
 * simulated blocks formatted as geth sends them: each block's fields (as eth_getBlockByNumber)
 * plus `calls: [{ returnData, logs, gasUsed, maxUsedGas, status, error? }]`.
 */
import type { SimulatedCall } from '../engine/simulated-call.ts'
import type { SimulatedBlock, SimulatedBlockRequest, SimulationRequest } from '../engine/simulation.ts'
import { formatBlock } from './format-block.ts'
import { formatLog, sealedRef } from './format-transaction.ts'
import { invalidArgument, toData, toQuantity } from './hex.ts'
import { method, required, type MethodDefinition } from './method-definition.ts'
import { parseBlockOverrides, parseStateOverrides } from './overrides.ts'
import { parseBoolean, parseCallRequest } from './params.ts'
import { block } from './state-methods.ts'

/** The simulation payload, with what only the answer's format needs. */
type SimulationPayload = SimulationRequest & { readonly returnFullTransactions: boolean }

function parseObject(value: unknown, name: string, expected: string): Readonly<Record<string, unknown>> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalidArgument(name, `expected ${expected}`)
  return value as Readonly<Record<string, unknown>>
}

/** An optional array field (absent and null read as empty, as geth's nil slice). */
function parseArray<T>(value: unknown, name: string, parse: (item: unknown, name: string) => T): T[] {
  if (value === undefined || value === null) return []
  if (!Array.isArray(value)) throw invalidArgument(name, 'expected an array')
  return value.map((item, i) => parse(item, `${name}[${i}]`))
}

function parseBlockStateCall(value: unknown, name: string): SimulatedBlockRequest {
  const object = parseObject(value, name, 'a block of calls { blockOverrides?, stateOverrides?, calls }')
  const present = (key: string) => object[key] !== undefined && object[key] !== null
  return {
    blockOverrides: present('blockOverrides') ? parseBlockOverrides(object.blockOverrides, `${name}.blockOverrides`) : undefined,
    stateOverrides: present('stateOverrides') ? parseStateOverrides(object.stateOverrides, `${name}.stateOverrides`) : undefined,
    calls: parseArray(object.calls, `${name}.calls`, parseCallRequest),
  }
}

/** The payload of eth_simulateV1; flags absent or null are false. */
function parsePayload(value: unknown, name: string): SimulationPayload {
  const object = parseObject(value, name, 'a simulation payload { blockStateCalls, validation?, traceTransfers?, returnFullTransactions? }')
  const flag = (key: string) => (object[key] === undefined || object[key] === null ? false : parseBoolean(object[key], `${name}.${key}`))
  return {
    blocks: parseArray(object.blockStateCalls, `${name}.blockStateCalls`, parseBlockStateCall),
    validation: flag('validation'),
    traceTransfers: flag('traceTransfers'),
    returnFullTransactions: flag('returnFullTransactions'),
  }
}

function formatCall(call: SimulatedCall, index: number, simulated: SimulatedBlock): Record<string, unknown> {
  const { block } = simulated
  const ref = sealedRef(block)
  const json: Record<string, unknown> = {
    returnData: toData(call.returnValue),
    logs: call.logs.map((log, i) => formatLog(log, call.firstLogIndex + i, block.transactions[index], ref)),
    gasUsed: toQuantity(call.gasUsed),
    maxUsedGas: toQuantity(call.maxUsedGas),
    status: toQuantity(call.status),
  }
  const { error } = call
  if (error !== undefined) {
    json.error = { message: error.message, code: error.code, ...(error.revertData === undefined ? {} : { data: toData(error.revertData) }) }
  }
  return json
}

/** The simulation methods, by name. */
export const simulateMethods: Readonly<Record<string, MethodDefinition>> = {
  eth_simulateV1: method([required('0 (payload)', parsePayload), block(1)], async ({ engine, view }, payload, selector) => {
    const simulated = await engine.simulation.simulate(payload, selector, view.blocks)
    return simulated.map((result) => ({
      ...formatBlock(result.block, payload.returnFullTransactions),
      calls: result.calls.map((call, i) => formatCall(call, i, result)),
    }))
  }),
}
