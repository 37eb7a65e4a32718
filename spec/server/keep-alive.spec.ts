/**
 * No request lost to keep-alive (lib/server/server.ts): a pooled client writes its next request
 * on an idle kept-alive connection while the node's event loop is busy; if the node's keep-alive
 * timeout expires before the loop comes back, Node closes the socket with the request unread and
 * the client gets ECONNRESET. The client runs in a worker thread, as another process would, and
 * keeps idle sockets by its own pool timeout as Go's http.Transport (90 s) and hyper do, not by
 * the server's `Keep-Alive: timeout` hint. Shown with a 1 ms keep-alive timeout (Node 20 adds a
 * second to it: the socket closes after 1001 ms idle), gone with the default (geth's IdleTimeout,
 * 120 s).
 */
import { expect } from 'chai'
import { Worker } from 'node:worker_threads'
import { createChain } from '../../lib/index.ts'
import { startServer, type DevnetServer } from '../../lib/server/server.ts'

/** Connections in the client's pool. */
const CONNECTIONS = 10

/** The worker: a pool of CONNECTIONS kept-alive sockets; on each message, one eth_chainId on each, `afterMs` later. */
const CLIENT = `
const { parentPort, workerData } = require('node:worker_threads')
const http = require('node:http')
// Keeps an idle socket by its own timeout, ignoring the server's Keep-Alive hint (Go's Transport does).
class PoolAgent extends http.Agent {
  keepSocketAlive(socket) {
    socket.setKeepAlive(true, 1000)
    return true
  }
}
const agent = new PoolAgent({ keepAlive: true, maxSockets: workerData.connections })
const { hostname, port } = new URL(workerData.url)
const post = (id) => new Promise((resolve) => {
  const body = JSON.stringify({ jsonrpc: '2.0', id, method: 'eth_chainId' })
  const request = http.request({ host: hostname, port, method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (response) => {
    let text = ''
    response.setEncoding('utf8').on('data', (chunk) => (text += chunk))
    response.on('end', () => resolve({ result: JSON.parse(text).result, reused: request.reusedSocket, keepAlive: response.headers['keep-alive'] }))
  })
  request.on('error', (error) => resolve({ error: error.code, reused: request.reusedSocket }))
  request.end(body)
})
parentPort.on('message', ({ afterMs, close }) => {
  if (close) {
    agent.destroy()
    parentPort.close()
    return
  }
  setTimeout(async () => {
    parentPort.postMessage(await Promise.all(Array.from({ length: workerData.connections }, (_, id) => post(id))))
  }, afterMs)
})
`

interface Outcome {
  readonly result?: string
  readonly error?: string
  readonly reused: boolean
  readonly keepAlive?: string
}

/** Keeps this thread (the node's event loop) busy for `ms` of wall time, as a long call would. */
function busy(ms: number): void {
  const until = performance.now() + ms
  while (performance.now() < until);
}

/**
 * Opens the pool (one request per connection), then has the client send again 50 ms later while
 * the node is busy for 1100 ms; returns what each request of both rounds got.
 */
async function idleThenBusy(server: DevnetServer): Promise<{ first: Outcome[]; second: Outcome[] }> {
  const worker = new Worker(CLIENT, { eval: true, workerData: { url: server.url, connections: CONNECTIONS } })
  const next = (): Promise<Outcome[]> => new Promise((resolve) => worker.once('message', resolve))
  try {
    worker.postMessage({ afterMs: 0 })
    const first = await next()
    // The connections are idle from here: the node's keep-alive timers run.
    const answered = next()
    worker.postMessage({ afterMs: 50 })
    busy(1100)
    return { first, second: await answered }
  } finally {
    worker.postMessage({ close: true })
  }
}

describe('keep-alive: no request lost on an idle pooled connection while the node is busy', () => {
  it('with a 1 ms keep-alive timeout (1001 ms in Node 20), requests written at 50 ms of idle while the loop is busy until 1100 ms are all reset (ECONNRESET)', async () => {
    const server = await startServer(await createChain({ clock: 'manual' }), { port: 0, keepAliveTimeoutMs: 1 })
    try {
      const { first, second } = await idleThenBusy(server)
      expect(first.map((outcome) => outcome.result)).to.deep.equal(Array(CONNECTIONS).fill('0x7a69'))
      expect(second.every((outcome) => outcome.reused)).to.equal(true)
      expect(second.map((outcome) => outcome.error)).to.deep.equal(Array(CONNECTIONS).fill('ECONNRESET'))
    } finally {
      await server.close()
    }
  })

  it('with the default (120 s, geth\'s IdleTimeout, announced as Keep-Alive: timeout=120) the same requests are all answered on the reused connections', async () => {
    const server = await startServer(await createChain({ clock: 'manual' }), { port: 0 })
    try {
      const { first, second } = await idleThenBusy(server)
      expect(first.map((outcome) => outcome.keepAlive)).to.deep.equal(Array(CONNECTIONS).fill('timeout=120'))
      expect(second.map((outcome) => [outcome.result, outcome.reused])).to.deep.equal(Array(CONNECTIONS).fill(['0x7a69', true]))
    } finally {
      await server.close()
    }
  })

})
