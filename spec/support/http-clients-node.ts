/**
 * The devnet as a real network node for the HTTP/WebSocket client specs: a realtime-clock chain
 * served by startServer on a free port, a log of the methods it was asked for, and small
 * synchronisation helpers. Under the realtime clock nothing is advanced by hand, so specs wait
 * on the chain's own events (a seal, a tick) or poll briefly for a condition.
 */
import { expect } from 'chai'
import { getAddress } from 'viem'
import { createChain, startServer, type Chain, type ChainOptions, type DevnetServer } from '../../lib/index.ts'

/** Block time of the specs' realtime node (faster than the 2 s default). */
export const BLOCK_TIME_MS = 1000
/** Pre-confirmation interval of the specs' realtime node. */
export const PRECONF_INTERVAL_MS = 100

/** A running node and the methods requested from it, in order. */
export interface HttpNode {
  readonly chain: Chain
  readonly server: DevnetServer
  readonly url: string
  readonly wsUrl: string
  /** Every method requested over HTTP or WebSocket, in arrival order (batch members included). */
  readonly methods: string[]
  close(): Promise<void>
}

/** Starts a node on 127.0.0.1 with a free port; the clock is realtime unless `options.clock` says otherwise. */
export async function startNode(options: ChainOptions = {}): Promise<HttpNode> {
  const chain = await createChain({ clock: 'realtime', blockTimeMs: BLOCK_TIME_MS, preconfIntervalMs: PRECONF_INTERVAL_MS, ...options })
  const methods: string[] = []
  const server = await startServer(chain, { port: 0, onRequest: (method) => methods.push(method) })
  return { chain, server, url: server.url, wsUrl: server.wsUrl, methods, close: () => server.close() }
}

/** Resolves with the number of the next block the chain seals, as soon as it is sealed. */
export function nextSeal(chain: Chain): Promise<bigint> {
  return new Promise((resolve) => chain.once('block', (block) => resolve(block.header.number)))
}

/** A short real pause (realtime clock only: lets a client's timers and the node's clock run). */
export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

/**
 * Polls `probe` every `intervalMs` until it returns something other than undefined and returns
 * that; fails the test after `timeoutMs`.
 */
export async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 4000, intervalMs = 5): Promise<T> {
  const deadline = performance.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    if (performance.now() > deadline) expect.fail(`timed out after ${timeoutMs} ms waiting for ${what}`)
    await pause(intervalMs)
  }
}

/**
 * Waits until the node has `count` more listeners for sealed blocks than `baseline`: each
 * `newHeads` or `logs` subscription adds one, so this tells when a client's eth_subscribe has
 * reached the node, whatever the client does with the answer.
 */
export function untilBlockListeners(node: HttpNode, baseline: number, count = 1): Promise<true> {
  return until('the subscription to reach the node', () => (node.chain.listenerCount('block') >= baseline + count ? true : undefined))
}

/** How many times `method` was requested after the first `since` entries of the log. */
export function requestCount(node: HttpNode, method: string, since = 0): number {
  return node.methods.slice(since).filter((name) => name === method).length
}

/** A fresh, never-funded address (checksummed) to receive transfers: its balance is only what a spec sends. */
export function freshAddress(n: number): `0x${string}` {
  return getAddress(`0x${'ee'.repeat(18)}${n.toString(16).padStart(4, '0')}`)
}
