/**
 * Forking (issue 9): an upstream of 1,000 funded accounts and 100 contracts, forked; the first
 * read of each key against one upstream round trip, the second pass against the same reads on a
 * local chain holding the same state, and the CLI's start-up with and without `--fork-url`.
 */
import { createChain, startServer, type Chain } from 'preconf-devnet'
import { Counter } from '../fixtures/artifacts/Counter.ts'
import { Upstream } from '../lib/fork/upstream.ts'
import type { Address } from '../lib/types.ts'
import { startProxy } from '../spec/support/upstream-proxy.ts'
import { cliReadyTime } from './http.ts'
import { median, rate, record, timed } from './measure.ts'

const ACCOUNTS = 1000
const CONTRACTS = 100
const address = (i: number): Address => `0x${(0xf0000 + i).toString(16).padStart(40, '0')}` as Address

/** A state dump of genesis plus 1,000 funded accounts and 100 Counter contracts with a storage word each. */
async function upstreamState(): Promise<Record<string, unknown>> {
  const genesis = JSON.parse(await (await createChain()).dumpState('json')) as Record<string, Record<string, unknown>>
  const { keccak256 } = await import('../lib/crypto/keccak.ts')
  const { hexToBytes, bytesToHex } = await import('@ethereumjs/util')
  const codeHash = bytesToHex(keccak256(hexToBytes(Counter.deployedBytecode)))
  const accounts = { ...genesis.accounts } as Record<string, unknown[]>
  const storage: Record<string, unknown> = {}
  for (let i = 0; i < ACCOUNTS; i++) accounts[address(i)] = [[0, '0x0', `0x${(10n ** 18n + BigInt(i)).toString(16)}`, '0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470']]
  for (let i = 0; i < CONTRACTS; i++) {
    accounts[address(ACCOUNTS + i)] = [[0, '0x1', '0x0', codeHash]]
    storage[address(ACCOUNTS + i)] = { slots: { '0x0': [[0, `0x${(i + 1).toString(16)}`]] } }
  }
  return { ...genesis, accounts, storage, codes: { [codeHash]: Counter.deployedBytecode } }
}

/** Every key of the fork's state, read once: the accounts' balances, the contracts' code and storage word. */
function reads(chain: Chain): Array<() => Promise<unknown>> {
  const operations: Array<() => Promise<unknown>> = []
  for (let i = 0; i < ACCOUNTS; i++) operations.push(() => chain.getBalance(address(i)))
  for (let i = 0; i < CONTRACTS; i++) operations.push(() => chain.getCode(address(ACCOUNTS + i)), () => chain.getStorageAt(address(ACCOUNTS + i), 0n))
  return operations
}

/** The median time of one JSON-RPC round trip to `url` over a kept-alive connection. */
async function roundTrip(url: string): Promise<number> {
  const client = new Upstream({ url })
  const times: number[] = []
  for (let i = 0; i < 300; i++) times.push(await timed(() => client.request('eth_chainId', [`${i}`].slice(1))))
  client.close()
  return median(times.slice(50))
}

/** The fork figures. */
export async function benchFork(): Promise<void> {
  const state = await upstreamState()
  const upstream = await createChain({ state })
  const server = await startServer(upstream, { port: 0 })
  const proxy = await startProxy(server.url)
  const rtt = await roundTrip(proxy.url)
  record('fork: one upstream round trip (eth_chainId, keep-alive, through a proxy)', rtt, 'ms', undefined, 'the unit of the next figures')

  // First reads one at a time: each costs one round trip (balance, nonce and code travel as one batch).
  const sequential = await createChain({ fork: { url: proxy.url, cache: false } })
  proxy.clear()
  const latencies: number[] = []
  for (const read of reads(sequential)) latencies.push(await timed(read))
  const sequentialRequests = proxy.bodies.length
  record('fork: first read of a key, one at a time / one round trip', median(latencies) / rtt, 'ratio', { atMost: 1.5 }, `median ${median(latencies).toFixed(3)} ms; ${sequentialRequests} HTTP requests for ${latencies.length} keys`)

  // First reads all at once: batched.
  const concurrent = await createChain({ fork: { url: proxy.url, cache: false } })
  proxy.clear()
  const all = reads(concurrent)
  const elapsed = await timed(() => Promise.all(all.map((read) => read())))
  record('fork: first reads of 1,200 keys at once, HTTP requests per key', proxy.bodies.length / all.length, 'requests/key', { atMost: 1 }, `${proxy.bodies.length} batched HTTP requests, ${proxy.calls().length} calls, ${elapsed.toFixed(0)} ms in all`)

  // Second pass: local from then on, against a chain holding the same state itself.
  const local = await createChain({ state })
  const operations = [
    ['getBalance', (chain: Chain, i: number) => chain.getBalance(address(i % ACCOUNTS))],
    ['getStorageAt', (chain: Chain, i: number) => chain.getStorageAt(address(ACCOUNTS + (i % CONTRACTS)), 0n)],
    ['getCode', (chain: Chain, i: number) => chain.getCode(address(ACCOUNTS + (i % CONTRACTS)))],
  ] as const
  for (const [name, operation] of operations) {
    const ratios: number[] = []
    for (let round = 0; round < 5; round++) {
      let i = 0
      let k = 0
      const localRate = await rate(() => operation(local, i++), 300)
      ratios.push((await rate(() => operation(concurrent, k++), 300)) / localRate)
    }
    record(`fork: ${name} second pass vs a local chain with the same state`, median(ratios), 'ratio', { atLeast: 1 / 1.2 }, 'median of 5 alternating runs; at most 1.2x slower')
  }

  // Start-up: one batch (chain id and fork block) more than a local start.
  const localReady: number[] = []
  const forkReady: number[] = []
  proxy.clear()
  for (let i = 0; i < 5; i++) {
    localReady.push(await cliReadyTime())
    forkReady.push(await cliReadyTime(['--fork-url', proxy.url, '--fork-cache', 'off']))
  }
  record('fork: CLI start to ready line with --fork-url, minus without', median(forkReady) - median(localReady), 'ms', undefined, `${median(forkReady).toFixed(0)} vs ${median(localReady).toFixed(0)} ms, median of 5; one round trip is ${rtt.toFixed(2)} ms`)
  record('fork: upstream HTTP requests during a CLI start', proxy.bodies.length / 5, 'requests', { atMost: 1 }, 'eth_chainId and the fork block, in one batch')
  for (const chain of [sequential, concurrent]) chain.close()
  await proxy.close()
  await server.close()
}
