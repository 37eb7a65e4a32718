/**
 * Log filters (`eth_getLogs`, the `logs` and `pendingLogs` subscriptions): which emitters and
 * topics a log must match, and a bloom pre-check that skips blocks that cannot match.
 */
import { hexToBytes } from '@ethereumjs/util'
import { bloomMayContain } from '../blocks/bloom.ts'
import type { Log } from '../blocks/receipt.ts'
import type { Address } from '../types.ts'
import { invalidArgument, parseAddress, parseHash } from './hex.ts'
import { TAG, type BlockSelector } from '../engine/block-resolver.ts'
import { parseBlockTag } from './params.ts'

/** Emitters (any of) and topics by position (null: any; a list: any of). */
export interface LogFilter {
  readonly addresses: readonly Address[] | undefined
  readonly topics: ReadonlyArray<readonly Uint8Array[] | null>
}

/** A filter with its block range (`eth_getLogs`). */
export interface LogQuery extends LogFilter {
  readonly fromBlock: BlockSelector
  readonly toBlock: BlockSelector
  readonly blockHash: `0x${string}` | undefined
}

function parseTopics(value: unknown, name: string): LogFilter['topics'] {
  if (value === undefined || value === null) return []
  if (!Array.isArray(value)) throw invalidArgument(name, 'topics must be an array')
  if (value.length > 4) throw invalidArgument(name, 'at most 4 topic positions')
  return value.map((topic, i) => {
    // A null among a position's choices makes it a wildcard (geth: "null component, match all"; Anvil alike).
    if (topic === null || (Array.isArray(topic) && topic.includes(null))) return null
    const choices = Array.isArray(topic) ? topic : [topic]
    return choices.map((choice, k) => hexToBytes(parseHash(choice, `${name}[${i}]${Array.isArray(topic) ? `[${k}]` : ''}`)))
  })
}

/** The emitter and topic part of a filter object. */
export function parseLogFilter(value: unknown, name: string): LogFilter {
  if (value === undefined || value === null) return { addresses: undefined, topics: [] }
  if (typeof value !== 'object' || Array.isArray(value)) throw invalidArgument(name, 'expected a filter object')
  const object = value as Record<string, unknown>
  const address = object.address
  // An empty list names no emitter: every log matches (geth's filter.go tests `len(addresses) > 0`; Anvil alike).
  const addresses =
    address === undefined || address === null || (Array.isArray(address) && address.length === 0)
      ? undefined
      : (Array.isArray(address) ? address : [address]).map((entry, i) => parseAddress(entry, `${name}.address${Array.isArray(address) ? `[${i}]` : ''}`))
  return { addresses, topics: parseTopics(object.topics, `${name}.topics`) }
}

/** An `eth_getLogs` filter: block range (default latest..latest) or a block hash, plus emitters and topics. */
export function parseLogQuery(value: unknown, name: string): LogQuery {
  const filter = parseLogFilter(value, name)
  const object = value as Record<string, unknown>
  const blockHash = object.blockHash === undefined || object.blockHash === null ? undefined : parseHash(object.blockHash, `${name}.blockHash`)
  const hasRange = object.fromBlock != null || object.toBlock != null
  if (blockHash !== undefined && hasRange) throw invalidArgument(name, 'cannot specify both blockHash and fromBlock/toBlock, choose one or the other')
  return {
    ...filter,
    blockHash,
    fromBlock: object.fromBlock == null ? TAG.latest : parseBlockTag(object.fromBlock, `${name}.fromBlock`),
    toBlock: object.toBlock == null ? TAG.latest : parseBlockTag(object.toBlock, `${name}.toBlock`),
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

/**
 * Whether `log` matches `filter`. A wildcard position matches a log without a topic there, as
 * Anvil and Base's reth node (alloy's filter) match it; geth's filterLogs is stricter and wants
 * the log to have a topic at every position the filter names.
 */
export function matchesLog(filter: LogFilter, log: Log): boolean {
  if (filter.addresses !== undefined && !filter.addresses.includes(log.address)) return false
  for (let i = 0; i < filter.topics.length; i++) {
    const choices = filter.topics[i]
    if (choices === null || choices.length === 0) continue
    const topic = log.topics[i]
    if (topic === undefined || !choices.some((choice) => sameBytes(choice, topic))) return false
  }
  return true
}

/** Whether a block with this logs bloom may hold a matching log (false: certainly not). */
export function bloomMayMatch(filter: LogFilter, bloom: Uint8Array): boolean {
  if (filter.addresses !== undefined && !filter.addresses.some((address) => bloomMayContain(bloom, hexToBytes(address)))) return false
  return filter.topics.every((choices) => choices === null || choices.length === 0 || choices.some((topic) => bloomMayContain(bloom, topic)))
}
