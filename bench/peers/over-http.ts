/**
 * The peer workload over HTTP, through bench/http.ts's load generator (a child process,
 * keep-alive, its requests in flight): reads of each kind, `balanceOf` eth_calls and signed
 * transfers against a node holding one ERC-20, and the bare node:http echo server as the floor.
 */
import { echoServer, loadTest, type LoadResult } from '../http.ts'
import type { Phase } from './rounds.ts'
import { httpNode, type RpcNode } from './rpc-node.ts'
import { balanceOfData, type Workload } from './transactions.ts'

/** How long each load runs. */
const LOAD_MS = 1500
/**
 * An untimed load before each read and call load, for every node alike: ours is JavaScript on
 * a fresh process, whose first eth_calls run on a cold JIT (the in-process rounds warm up for
 * the same reason). Transfers get none: each is sent once.
 */
const WARM_UP_MS = 500
/** Requests in flight, as issue 12 measured. */
const IN_FLIGHT = 16

/** What one HTTP round measured on one node. */
export interface HttpFigures {
  readonly getBalance: LoadResult
  readonly getStorageAt: LoadResult
  readonly getCode: LoadResult
  readonly call: LoadResult
  /** Distinct signed transfers, each sent once (more are signed than any node admits in the run). */
  readonly sendRawTransaction: LoadResult
}

/** The phases, in order, on a fresh node: the token deployed, then each load, the transfers last. */
export function httpPhases(workload: Workload): Array<Phase<HttpFigures>> {
  const { token, holder } = workload
  const load = (name: keyof HttpFigures, bodies: string[], warmUp = true): Phase<HttpFigures> => ({
    name,
    async run(node) {
      if (warmUp) await loadTest(node.url!, bodies, WARM_UP_MS, IN_FLIGHT)
      const before = node.cpuSeconds()
      const result = await loadTest(node.url!, bodies, LOAD_MS, IN_FLIGHT)
      const after = node.cpuSeconds()
      const serverMicros = before === undefined || after === undefined || result.requests === 0 ? undefined : ((after - before) * 1e6) / result.requests
      return { [name]: { ...result, serverMicros } }
    },
  })
  const setup: Phase<HttpFigures> = {
    name: 'setup',
    async run(node) {
      await setUp(node, workload)
      return {}
    },
  }
  return [
    setup,
    ...Object.entries(readRequests(workload)).map(([name, [method, params]]) => load(name as ReadName, [body(method, params)])),
    load('call', [body('eth_call', [{ to: token, data: balanceOfData(holder) }, 'latest'])]),
    load('sendRawTransaction', workload.httpTransfers.map((raw) => body('eth_sendRawTransaction', [raw])), false),
  ]
}

/** The state every load runs on: the workload's token deployed and sealed. */
async function setUp(node: RpcNode, workload: Workload): Promise<void> {
  await node.request('eth_sendRawTransaction', [workload.deploys[0]])
  await node.request('evm_mine', [])
}

type ReadName = 'getBalance' | 'getStorageAt' | 'getCode'

/** The reads the loads send, each as method and params. */
function readRequests({ holder, token }: Workload): Record<ReadName, readonly [string, readonly unknown[]]> {
  return {
    getBalance: ['eth_getBalance', [holder, 'latest']],
    getStorageAt: ['eth_getStorageAt', [token, '0x2', 'latest']],
    getCode: ['eth_getCode', [token, 'latest']],
  }
}

/** The result of each read the loads send, by method, from a fresh `node` set up as the loads' nodes are: what the floor answers. */
export async function readResults(node: RpcNode, workload: Workload): Promise<Record<string, unknown>> {
  await setUp(node, workload)
  const results: Record<string, unknown> = {}
  for (const [method, params] of Object.values(readRequests(workload))) results[method] = await node.request(method, params)
  return results
}

/**
 * The bare node:http echo server (the floor) as a node. It answers each read with `results`
 * (what a node answers, from {@link readResults}), so that it sends the same reply bytes as the
 * nodes it is the floor of — a getCode reply is kilobytes, and the load generator's work grows
 * with them — while doing none of their work.
 */
export async function echoNode(results: Readonly<Record<string, unknown>>): Promise<RpcNode> {
  const echo = await echoServer(results)
  return httpNode('bare node:http JSON echo, answering the nodes\' results', echo.url, async () => echo.close(), echo.pid)
}

function body(method: string, params: readonly unknown[]): string {
  return JSON.stringify({ jsonrpc: '2.0', id: 1, method, params })
}
