/**
 * The upstream JSON-RPC client against small node:http servers on 127.0.0.1 (port 0) that
 * count the HTTP requests and JSON-RPC calls they receive: batching by macrotask turn, dedupe,
 * the concurrency cap, the fallback for upstreams that refuse batches, id matching, error
 * pass-through, retries of transient failures, timeouts, gzip, large bodies and the stats.
 */
import { expect } from 'chai'
import { once } from 'node:events'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { gzipSync } from 'node:zlib'
import { RPCError } from '../../lib/errors.ts'
import { Upstream, type UpstreamOptions } from '../../lib/fork/upstream.ts'

type RPCRequest = { jsonrpc: '2.0'; id: number; method: string; params: unknown[] }
/** Answers one HTTP request; `body` is the parsed JSON (an object, or an array for a batch). */
type Handler = (body: RPCRequest | RPCRequest[], response: http.ServerResponse, server: TestServer) => void

/** A test upstream and what it received. */
interface TestServer {
  readonly url: string
  readonly port: number
  /** Every HTTP request body, parsed, in arrival order. */
  readonly bodies: (RPCRequest | RPCRequest[])[]
  /** Calls received (a batch counts its members). */
  calls: number
  inFlight: number
  maxInFlight: number
  close(): Promise<void>
}

const servers: TestServer[] = []
const clients: Upstream[] = []

async function serve(handler: Handler, port = 0): Promise<TestServer> {
  const server = http.createServer(async (request, response) => {
    const chunks: Buffer[] = []
    for await (const chunk of request) chunks.push(chunk as Buffer)
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as RPCRequest | RPCRequest[]
    state.bodies.push(body)
    state.calls += Array.isArray(body) ? body.length : 1
    state.inFlight++
    state.maxInFlight = Math.max(state.maxInFlight, state.inFlight)
    response.on('close', () => state.inFlight--)
    handler(body, response, state)
  })
  server.listen(port, '127.0.0.1')
  await once(server, 'listening')
  const bound = (server.address() as AddressInfo).port
  const state: TestServer = {
    url: `http://127.0.0.1:${bound}`,
    port: bound,
    bodies: [],
    calls: 0,
    inFlight: 0,
    maxInFlight: 0,
    close: () => {
      server.closeAllConnections()
      return new Promise((resolve) => server.close(() => resolve()))
    },
  }
  servers.push(state)
  return state
}

/** The echo result of a call: its method and params, so a mismatched answer shows. */
const echo = (call: RPCRequest) => `${call.method}(${call.params.join(',')})`
const reply = (response: http.ServerResponse, value: unknown, status = 200) => {
  response.writeHead(status, { 'content-type': 'application/json' })
  response.end(JSON.stringify(value))
}
const result = (call: RPCRequest) => ({ jsonrpc: '2.0', id: call.id, result: echo(call) })
/** Answers every call with its echo, a batch in order. */
const echoing: Handler = (body, response) => reply(response, Array.isArray(body) ? body.map(result) : result(body))

function client(url: string, options: Omit<UpstreamOptions, 'url'> = {}): Upstream {
  const upstream = new Upstream({ url, retryDelayMs: 1, ...options })
  clients.push(upstream)
  return upstream
}

async function rejection(promise: Promise<unknown>): Promise<RPCError> {
  try {
    await promise
  } catch (error) {
    expect(error).to.be.instanceOf(RPCError)
    return error as RPCError
  }
  throw new Error('expected a rejection')
}

describe('fork/upstream: the JSON-RPC client of the upstream node', function () {
  afterEach(async () => {
    for (const upstream of clients.splice(0)) upstream.close()
    await Promise.all(servers.splice(0).map((server) => server.close()))
  })

  it('sends the calls made in one turn as one batch, split at maxBatchSize, a lone remainder as a plain object', async () => {
    const server = await serve(echoing)
    const upstream = client(server.url)
    const results = await Promise.all([upstream.request('eth_a', [1]), upstream.request('eth_b', [2]), upstream.request('eth_c', [])])
    expect(results).to.deep.equal(['eth_a(1)', 'eth_b(2)', 'eth_c()'])
    expect(server.bodies).to.have.length(1)
    expect(server.bodies[0]).to.be.an('array').with.length(3)
    expect(server.calls).to.equal(3)

    const split = await serve(echoing)
    const small = client(split.url, { maxBatchSize: 2 })
    const five = await Promise.all([0, 1, 2, 3, 4].map((index) => small.request('eth_n', [index])))
    expect(five).to.deep.equal([0, 1, 2, 3, 4].map((index) => `eth_n(${index})`))
    // 5 calls at 2 a batch: [0,1], [2,3], and 4 alone as a plain object.
    expect(split.bodies.map((body) => (Array.isArray(body) ? body.map((call) => call.params[0]) : body.params[0]))).to.deep.equal([[0, 1], [2, 3], 4])
  })

  it('sends a lone call as a plain JSON-RPC object, not a 1-element batch', async () => {
    const server = await serve(echoing)
    const upstream = client(server.url)
    expect(await upstream.request('eth_chainId', [])).to.equal('eth_chainId()')
    expect(server.bodies).to.have.length(1)
    expect(server.bodies[0]).to.deep.include({ jsonrpc: '2.0', method: 'eth_chainId', params: [] })
    expect(Array.isArray(server.bodies[0])).to.equal(false)
  })

  it('shares one upstream call between identical concurrent calls, and calls again once it settled', async () => {
    const server = await serve(echoing)
    const upstream = client(server.url)
    const first = upstream.request('eth_getBalance', ['0xab', 'latest'])
    const second = upstream.request('eth_getBalance', ['0xab', 'latest'])
    const other = upstream.request('eth_getBalance', ['0xab', '0x1'])
    expect(second).to.equal(first)
    expect(await Promise.all([first, second, other])).to.deep.equal(['eth_getBalance(0xab,latest)', 'eth_getBalance(0xab,latest)', 'eth_getBalance(0xab,0x1)'])
    expect(server.calls).to.equal(2)
    await upstream.request('eth_getBalance', ['0xab', 'latest'])
    expect(server.calls).to.equal(3)
  })

  it('keeps at most maxConcurrency HTTP requests in flight, the rest queued in order', async () => {
    // Each request is held 50 ms: 6 single calls at 2 in flight go in 3 waves.
    const server = await serve((body, response) => setTimeout(() => echoing(body, response, server), 50))
    const upstream = client(server.url, { maxConcurrency: 2, maxBatchSize: 1 })
    const results = await Promise.all([0, 1, 2, 3, 4, 5].map((index) => upstream.request('eth_n', [index])))
    expect(results).to.deep.equal([0, 1, 2, 3, 4, 5].map((index) => `eth_n(${index})`))
    expect(server.maxInFlight).to.equal(2)
    expect(server.bodies).to.have.length(6)
    const order = server.bodies.map((body) => (body as RPCRequest).params[0] as number)
    expect([order.slice(0, 2).sort(), order.slice(2, 4).sort(), order.slice(4).sort()]).to.deep.equal([[0, 1], [2, 3], [4, 5]])
  })

  it('falls back to single calls when a batch is answered with one error object, and sends no batch after', async () => {
    const server = await serve((body, response) => {
      if (Array.isArray(body)) reply(response, { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'batch requests are not supported' } })
      else echoing(body, response, server)
    })
    const upstream = client(server.url)
    expect(await Promise.all([upstream.request('eth_a', []), upstream.request('eth_b', []), upstream.request('eth_c', [])])).to.deep.equal(['eth_a()', 'eth_b()', 'eth_c()'])
    // One refused batch, then the three calls one by one.
    expect(server.bodies.map(Array.isArray)).to.deep.equal([true, false, false, false])
    expect(await Promise.all([upstream.request('eth_d', []), upstream.request('eth_e', [])])).to.deep.equal(['eth_d()', 'eth_e()'])
    expect(server.bodies.filter(Array.isArray)).to.have.length(1)
    expect(server.bodies).to.have.length(6)
  })

  it('falls back to single calls when a batch is answered with HTTP 400', async () => {
    const server = await serve((body, response) => {
      if (Array.isArray(body)) response.writeHead(400).end('batch not allowed')
      else echoing(body, response, server)
    })
    const upstream = client(server.url)
    expect(await Promise.all([upstream.request('eth_a', []), upstream.request('eth_b', [])])).to.deep.equal(['eth_a()', 'eth_b()'])
    expect(server.bodies.map(Array.isArray)).to.deep.equal([true, false, false])
  })

  it('matches batch responses by id in any order; a call with no response fails alone', async () => {
    const server = await serve((body, response) => {
      const calls = body as RPCRequest[]
      // Reversed, and without the middle call's response.
      reply(response, calls.filter((call) => call.method !== 'eth_b').reverse().map(result))
    })
    const upstream = client(server.url)
    const [a, b, c] = [upstream.request('eth_a', [1]), upstream.request('eth_b', [2]), upstream.request('eth_c', [3])]
    expect(await a).to.equal('eth_a(1)')
    expect(await c).to.equal('eth_c(3)')
    const error = await rejection(b)
    expect(error.code).to.equal(-32000)
    expect(error.message).to.equal(`upstream ${server.url} failed on eth_b: no response to this call in the batch`)
    expect(server.bodies).to.have.length(1)
  })

  it("passes the upstream's own JSON-RPC errors through with code, message and data, without retrying", async () => {
    const revertData = '0x08c379a00000000000000000000000000000000000000000000000000000000000000020000000000000000000000000000000000000000000000000000000000000000'
    const server = await serve((body, response) => {
      const answer = (call: RPCRequest) =>
        call.method === 'eth_call'
          ? { jsonrpc: '2.0', id: call.id, error: { code: 3, message: 'execution reverted', data: revertData } }
          : { jsonrpc: '2.0', id: call.id, error: { code: -32000, message: 'header not found' } }
      reply(response, Array.isArray(body) ? body.map(answer) : answer(body))
    })
    const upstream = client(server.url)
    const reverted = await rejection(upstream.request('eth_call', [{ to: '0x01' }, 'latest']))
    expect(reverted.toJSON()).to.deep.equal({ code: 3, message: 'execution reverted', data: revertData })
    const [missing, again] = await Promise.all([
      rejection(upstream.request('eth_getBalance', ['0x01', '0x999'])),
      rejection(upstream.request('eth_call', [{ to: '0x02' }, 'latest'])),
    ])
    expect(missing.toJSON()).to.deep.equal({ code: -32000, message: 'header not found' })
    expect(again.code).to.equal(3)
    // 1 single + 1 batch of 2, none retried.
    expect(server.bodies).to.have.length(2)
    expect(server.calls).to.equal(3)
  })

  it('retries HTTP 503 with back-off: 503, 503, then OK succeeds in 3 HTTP requests', async () => {
    let count = 0
    const server = await serve((body, response) => (++count <= 2 ? response.writeHead(503).end('busy') : echoing(body, response, server)))
    const upstream = client(server.url)
    expect(await upstream.request('eth_blockNumber', [])).to.equal('eth_blockNumber()')
    expect(server.bodies).to.have.length(3)
    expect(upstream.stats).to.deep.equal({ httpRequests: 3, calls: 3 })
  })

  it('retries a JSON-RPC rate-limit error (-32005) alone, the rest of its batch answered', async () => {
    let limited = false
    const server = await serve((body, response) => {
      const answer = (call: RPCRequest) => {
        if (call.method !== 'eth_limited' || limited) return result(call)
        limited = true
        return { jsonrpc: '2.0', id: call.id, error: { code: -32005, message: 'request rate exceeded' } }
      }
      reply(response, Array.isArray(body) ? body.map(answer) : answer(body))
    })
    const upstream = client(server.url)
    expect(await Promise.all([upstream.request('eth_limited', []), upstream.request('eth_ok', [])])).to.deep.equal(['eth_limited()', 'eth_ok()'])
    // The batch of 2, then the rate-limited call alone.
    expect(server.bodies.map(Array.isArray)).to.deep.equal([true, false])
    expect(server.calls).to.equal(3)
  })

  it('fails with -32000 naming the url and the method after the retries on a closed port, then works once a server listens there', async () => {
    const vacant = await serve(echoing)
    await vacant.close()
    servers.splice(servers.indexOf(vacant), 1)
    const upstream = client(vacant.url, { retries: 2 })
    const error = await rejection(upstream.request('eth_getBalance', ['0x01', 'latest']))
    expect(error.code).to.equal(-32000)
    expect(error.message).to.equal(`upstream ${vacant.url} failed on eth_getBalance: connect ECONNREFUSED 127.0.0.1:${vacant.port} (after 3 attempts)`)
    expect(upstream.stats).to.deep.equal({ httpRequests: 3, calls: 3 })
    const revived = await serve(echoing, vacant.port)
    expect(await upstream.request('eth_getBalance', ['0x01', 'latest'])).to.equal('eth_getBalance(0x01,latest)')
    expect(revived.calls).to.equal(1)
  })

  it('times out a request the upstream never answers, retries it, then fails clearly', async () => {
    const server = await serve(() => undefined)
    const upstream = client(server.url, { timeoutMs: 100, retries: 1 })
    const error = await rejection(upstream.request('eth_chainId', []))
    expect(error.code).to.equal(-32000)
    expect(error.message).to.equal(`upstream ${server.url} failed on eth_chainId: no response within 100 ms (after 2 attempts)`)
    expect(server.bodies).to.have.length(2)
  })

  it('fails invalid JSON and non-JSON-RPC answers with -32000 naming the upstream, without retrying', async () => {
    const server = await serve((body, response) => {
      if ((body as RPCRequest).method === 'eth_garbled') response.writeHead(200).end('<html>oops</html>')
      else reply(response, { hello: 'world' })
    })
    const upstream = client(server.url)
    const garbled = await rejection(upstream.request('eth_garbled', []))
    expect(garbled.message).to.equal(`upstream ${server.url} failed on eth_garbled: invalid JSON in the response: <html>oops</html>`)
    const strange = await rejection(upstream.request('eth_strange', []))
    expect(strange.toJSON()).to.deep.equal({ code: -32000, message: `upstream ${server.url} failed on eth_strange: not a JSON-RPC response: {"hello":"world"}` })
    expect(server.bodies).to.have.length(2)
  })

  it('decodes a gzip response, and reads a 24 MB response', async () => {
    const server = await serve((body, response) => {
      const call = body as RPCRequest
      response.writeHead(200, { 'content-type': 'application/json', ...(call.method === 'eth_large' ? {} : { 'content-encoding': 'gzip' }) })
      if (call.method !== 'eth_large') return response.end(gzipSync(JSON.stringify(result(call))))
      // The result is 0x and 12 million "ab": 24 000 002 characters.
      response.write(`{"jsonrpc":"2.0","id":${call.id},"result":"0x`)
      response.write(Buffer.alloc(24_000_000, 'ab'))
      response.end('"}')
    })
    const upstream = client(server.url)
    expect(await upstream.request('eth_zipped', ['0x1'])).to.equal('eth_zipped(0x1)')
    const large = await upstream.request<string>('eth_large', [])
    expect(large.length).to.equal(24_000_002)
    expect([large.slice(0, 6), large.slice(-4)]).to.deep.equal(['0xabab', 'abab'])
  })

  it('counts HTTP requests and calls sent; a shared call is sent once', async () => {
    const server = await serve(echoing)
    const upstream = client(server.url)
    expect(upstream.stats).to.deep.equal({ httpRequests: 0, calls: 0 })
    await Promise.all([upstream.request('eth_a', []), upstream.request('eth_b', []), upstream.request('eth_a', []), upstream.request('eth_c', [])])
    await upstream.request('eth_d', [])
    // A batch of 3 (eth_a shared), then eth_d alone.
    expect(upstream.stats).to.deep.equal({ httpRequests: 2, calls: 4 })
    expect(server.calls).to.equal(4)
  })

  it('rejects calls after close with a clear error', async () => {
    const server = await serve(echoing)
    const upstream = client(server.url)
    await upstream.request('eth_a', [])
    upstream.close()
    const error = await rejection(upstream.request('eth_a', []))
    expect(error.toJSON()).to.deep.equal({ code: -32000, message: `upstream ${server.url} failed on eth_a: the upstream client is closed` })
    expect(server.calls).to.equal(1)
  })
})
