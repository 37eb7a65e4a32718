/**
 * The node's HTTP side (lib/server/http-handler.ts, json-rpc.ts, server.ts), started in-process
 * and spoken to with fetch and node:http: JSON-RPC envelopes and batches as geth answers them
 * (rpc/handler.go, rpc/http.go), the body limit, CORS, keep-alive, the bind address and close().
 */
import { expect } from 'chai'
import { Agent } from 'node:http'
import { createServer as createTcpServer, connect, type Server as TcpServer } from 'node:net'
import { networkInterfaces } from 'node:os'
import { createChain, type Chain } from '../../lib/index.ts'
import { startServer, type DevnetServer } from '../../lib/server/server.ts'
import { startAnvil } from '../support/anvil-node.ts'
import { http, postJson, rpc, type RpcResponse } from '../support/server-http.ts'

const CHAIN_ID_HEX = '0x7a69' // 31337
const SIXTEEN_MIB = 16 * 1024 * 1024

function portOf(server: DevnetServer): number {
  return Number(new URL(server.url).port)
}

/** Resolves with the connect error's code (or 'connected'). */
function tryConnect(host: string, port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host, port })
    socket.once('connect', () => {
      socket.destroy()
      resolve('connected')
    })
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? String(error)))
  })
}

function listenTcp(port: number, host: string): Promise<TcpServer> {
  return new Promise((resolve, reject) => {
    const server = createTcpServer()
    server.once('error', reject)
    server.listen(port, host, () => resolve(server))
  })
}

describe('HTTP JSON-RPC server (geth envelope rules)', () => {
  let chain: Chain
  let server: DevnetServer

  before(async () => {
    chain = await createChain({ clock: 'manual' })
    server = await startServer(chain, { port: 0 })
  })
  after(async () => {
    await server.close()
  })

  describe('single requests', () => {
    it('answers a request with {jsonrpc, id, result}', async () => {
      const reply = await fetch(server.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      })
      expect(reply.status).to.equal(200)
      expect(reply.headers.get('content-type')).to.equal('application/json')
      expect(await reply.json()).to.deep.equal({ jsonrpc: '2.0', id: 1, result: CHAIN_ID_HEX })
    })

    it('sends long code (its JSON kept as bytes after the first read) as the exact JSON JSON.stringify writes, with its length, whatever the id; in a batch too', async () => {
      const address = '0x00000000000000000000000000000000000c0de5'
      const code = `0x${'60016002'.repeat(1200)}`
      await rpc(server.url, 'anvil_setCode', [address, code])
      for (const id of [1, 'a "quoted" \\ id', null, 2]) {
        const body = { jsonrpc: '2.0', id, method: 'eth_getCode', params: [address, 'latest'] }
        const reply = await http(server.url, { body })
        expect(reply.text).to.equal(JSON.stringify({ jsonrpc: '2.0', id, result: code }))
        expect(Number(reply.headers['content-length'])).to.equal(Buffer.byteLength(reply.text))
      }
      const batch = await http(server.url, { body: [1, 2].map((id) => ({ jsonrpc: '2.0', id, method: 'eth_getCode', params: [address, 'latest'] })) })
      expect(JSON.parse(batch.text)).to.deep.equal([1, 2].map((id) => ({ jsonrpc: '2.0', id, result: code })))
    })

    it('echoes ids with their JSON type: numbers, strings and null (geth replies to id null)', async () => {
      for (const id of [7, 0, -3, 1.5, '7', 'abc', '', null]) {
        const response = await postJson(server.url, { jsonrpc: '2.0', id, method: 'net_version' })
        expect(response, `id ${JSON.stringify(id)}`).to.deep.equal({ jsonrpc: '2.0', id, result: '31337' })
      }
    })

    it('accepts a request without params (missing params = [])', async () => {
      expect(await postJson(server.url, { jsonrpc: '2.0', id: 'x', method: 'eth_chainId' })).to.deep.equal({ jsonrpc: '2.0', id: 'x', result: CHAIN_ID_HEX })
    })

    it('serves POST at / with a query, and answers another path 404 with no body, as geth does (node/rpcstack.go: checkPath wants the root)', async () => {
      const reply = await http(server.url, { path: '/?x=1', body: { jsonrpc: '2.0', id: 2, method: 'eth_chainId' } })
      expect(reply.status).to.equal(200)
      expect(JSON.parse(reply.text)).to.deep.equal({ jsonrpc: '2.0', id: 2, result: CHAIN_ID_HEX })
      expect(await http(server.url, { path: '/some/path?x=1', body: { jsonrpc: '2.0', id: 2, method: 'eth_chainId' } })).to.include({ status: 404, text: '' })
    })

    it('rejects an object or array id with -32600 and id null (geth: hasValidID)', async () => {
      for (const id of [{}, [1], true]) {
        expect(await postJson(server.url, { jsonrpc: '2.0', id, method: 'eth_chainId' })).to.deep.equal({
          jsonrpc: '2.0',
          id: null,
          error: { code: -32600, message: 'invalid request: id must be a string, a number or null' },
        })
      }
    })

    it('rejects a jsonrpc version other than "2.0", or none, with -32600, echoing the id (geth: hasValidVersion; Anvil 1.7.1 and Hardhat refuse both too)', async () => {
      for (const [body, id] of [[{ jsonrpc: '1.0', id: 9, method: 'eth_chainId' }, 9], [{ id: 10, method: 'eth_chainId', params: [] }, 10]] as const) {
        expect(await postJson(server.url, body)).to.deep.equal({
          jsonrpc: '2.0',
          id,
          error: { code: -32600, message: 'invalid request: jsonrpc must be "2.0"' },
        })
      }
    })

    it('answers an unknown method with -32601 and geth\'s text', async () => {
      expect(await postJson(server.url, { jsonrpc: '2.0', id: 3, method: 'eth_doesNotExist', params: [] })).to.deep.equal({
        jsonrpc: '2.0',
        id: 3,
        error: { code: -32601, message: 'the method eth_doesNotExist does not exist/is not available' },
      })
    })

    it('answers bad JSON with -32700 and id null', async () => {
      const reply = await http(server.url, { body: '{"jsonrpc":"2.0","id":1,"method":' })
      expect(reply.status).to.equal(200)
      const response = JSON.parse(reply.text) as RpcResponse
      expect(Object.keys(response).sort()).to.deep.equal(['error', 'id', 'jsonrpc'])
      expect(response.id).to.equal(null)
      expect(response.error!.code).to.equal(-32700)
      expect(response.error!.message).to.match(/^parse error: /)
    })

    it('gives a single notification (no id) no reply: HTTP 200 with an empty body, the call still runs', async () => {
      const local = await createChain({ clock: 'manual' })
      const node = await startServer(local, { port: 0 })
      try {
        const reply = await http(node.url, { body: { jsonrpc: '2.0', method: 'preconf_advanceClock', params: [2000] } })
        expect(reply.status).to.equal(200)
        expect(reply.text).to.equal('')
        expect(await rpc(node.url, 'eth_blockNumber')).to.equal('0x1')
      } finally {
        await node.close()
      }
    })
  })

  describe('batches', () => {
    it('answers valid calls, invalid members and skips notifications, in request order', async () => {
      const batch = [
        { jsonrpc: '2.0', id: 1, method: 'eth_chainId' },
        5,
        {},
        { method: 3 },
        { jsonrpc: '2.0', method: 'eth_blockNumber', params: [] }, // notification: no reply
        { jsonrpc: '2.0', id: 'b', method: 'net_version', params: [] },
        { jsonrpc: '2.0', id: null, method: 'eth_nope', params: [] },
        { jsonrpc: '2.0', id: 4, method: 'eth_getBalance', params: ['0xnot-an-address', 'latest'] },
      ]
      const reply = await http(server.url, { body: batch })
      expect(reply.status).to.equal(200)
      const responses = JSON.parse(reply.text) as RpcResponse[]
      expect(responses).to.have.length(7)
      expect(responses.slice(0, 6)).to.deep.equal([
        { jsonrpc: '2.0', id: 1, result: CHAIN_ID_HEX },
        { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'invalid request: expected a JSON-RPC request object' } },
        { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'invalid request: jsonrpc must be "2.0"' } },
        { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'invalid request: jsonrpc must be "2.0"' } },
        { jsonrpc: '2.0', id: 'b', result: '31337' },
        { jsonrpc: '2.0', id: null, error: { code: -32601, message: 'the method eth_nope does not exist/is not available' } },
      ])
      expect(responses[6].id).to.equal(4)
      expect(responses[6].error!.code).to.equal(-32602)
      expect(responses[6].error!.message).to.match(/^invalid argument 0 \(address\)/)
    })

    it('answers an empty batch with one -32600 error object, not an array (geth: "empty batch")', async () => {
      expect(await postJson(server.url, [])).to.deep.equal({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: 'invalid request: empty batch' },
      })
    })

    it('answers a batch of 1000 (geth\'s BatchRequestLimit) member by member', async () => {
      const batch = Array.from({ length: 1000 }, (_, id) => ({ jsonrpc: '2.0', id, method: 'eth_chainId' }))
      const responses = (await postJson(server.url, batch)) as RpcResponse[]
      expect(responses).to.have.length(1000)
      expect(responses.map((response) => response.id)).to.deep.equal(batch.map((request) => request.id))
      expect(responses.every((response) => response.result === CHAIN_ID_HEX)).to.equal(true)
    })

    it('answers a batch of 1001 with one -32600 "batch too large" object', async () => {
      const batch = Array.from({ length: 1001 }, (_, id) => ({ jsonrpc: '2.0', id, method: 'eth_chainId' }))
      expect(await postJson(server.url, batch)).to.deep.equal({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: 'invalid request: batch too large: at most 1000 requests' },
      })
    })

    it('answers a batch of only notifications with HTTP 200 and an empty body; the calls still run', async () => {
      const local = await createChain({ clock: 'manual' })
      const node = await startServer(local, { port: 0 })
      try {
        const reply = await http(node.url, {
          body: [
            { jsonrpc: '2.0', method: 'preconf_advanceClock', params: [2000] },
            { jsonrpc: '2.0', method: 'eth_nope', params: [] }, // a failing notification is not answered either
            { jsonrpc: '2.0', method: 'evm_mine', params: [] },
          ],
        })
        expect(reply.status).to.equal(200)
        expect(reply.text).to.equal('')
        expect(await rpc(node.url, 'eth_blockNumber')).to.equal('0x2')
      } finally {
        await node.close()
      }
    })

    it('reports each dispatched method of a batch to onRequest, and nothing for invalid members', async () => {
      const seen: string[] = []
      const local = await createChain({ clock: 'manual' })
      const node = await startServer(local, { port: 0, onRequest: (method) => seen.push(method) })
      try {
        await postJson(node.url, [{ jsonrpc: '2.0', id: 1, method: 'eth_chainId' }, 5, { jsonrpc: '2.0', method: 'net_version' }, { jsonrpc: '2.0', id: 2, method: 'eth_nope' }])
        expect(seen).to.deep.equal(['eth_chainId', 'net_version', 'eth_nope'])
      } finally {
        await node.close()
      }
    })
  })

  describe('body size', () => {
    it('accepts and answers a body just under geth\'s 5 MB limit (eth_call of 4.9 MB to the identity precompile)', async () => {
      // Mostly zero bytes keep the intrinsic gas (EIP-7623 floor: 10 per token) under the RPC gas cap.
      const payload = `0x${'c0ffee'}${'00'.repeat(2_449_994)}${'beef'}`
      const body = JSON.stringify({ jsonrpc: '2.0', id: 11, method: 'eth_call', params: [{ to: '0x0000000000000000000000000000000000000004', data: payload }, 'latest'] })
      expect(body.length).to.be.within(4_900_000, 5_000_000)
      const reply = await http(server.url, { body })
      expect(reply.status).to.equal(200)
      expect(JSON.parse(reply.text)).to.deep.equal({ jsonrpc: '2.0', id: 11, result: payload })
    })

    it('accepts a body of exactly 16 MiB (the limit) and answers it', async () => {
      const request = JSON.stringify({ jsonrpc: '2.0', id: 12, method: 'eth_chainId' })
      const body = request + ' '.repeat(SIXTEEN_MIB - request.length)
      expect(Buffer.byteLength(body)).to.equal(SIXTEEN_MIB)
      const reply = await http(server.url, { body })
      expect(reply.status).to.equal(200)
      expect(JSON.parse(reply.text)).to.deep.equal({ jsonrpc: '2.0', id: 12, result: CHAIN_ID_HEX })
    })

    it('answers 16 MiB + 1 byte with HTTP 200 and -32600 "request body too large"', async () => {
      const request = JSON.stringify({ jsonrpc: '2.0', id: 13, method: 'eth_chainId' })
      const reply = await http(server.url, { body: request + ' '.repeat(SIXTEEN_MIB + 1 - request.length) })
      expect(reply.status).to.equal(200)
      expect(reply.headers['content-type']).to.equal('application/json')
      expect(JSON.parse(reply.text)).to.deep.equal({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: 'invalid request: request body too large: limit 16777216 bytes' },
      })
    })

    it('reads a 17 MiB body to the end and answers it on a connection that stays usable (no reset)', async () => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 })
      try {
        const reply = await http(server.url, { body: 'x'.repeat(17 * 1024 * 1024), agent })
        expect(reply.status).to.equal(200)
        expect(JSON.parse(reply.text)).to.deep.equal({
          jsonrpc: '2.0',
          id: null,
          error: { code: -32600, message: 'invalid request: request body too large: limit 16777216 bytes' },
        })
        const next = await http(server.url, { body: { jsonrpc: '2.0', id: 14, method: 'eth_chainId' }, agent })
        expect(next.reusedSocket).to.equal(true)
        expect(next.socket).to.equal(reply.socket)
        expect(JSON.parse(next.text)).to.deep.equal({ jsonrpc: '2.0', id: 14, result: CHAIN_ID_HEX })
      } finally {
        agent.destroy()
      }
    })

    it('lets fetch post a 17 MiB body and read the error (the socket is not reset mid-upload)', async () => {
      const reply = await fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '['.repeat(17 * 1024 * 1024) })
      expect(reply.status).to.equal(200)
      expect(((await reply.json()) as RpcResponse).error).to.deep.equal({ code: -32600, message: 'invalid request: request body too large: limit 16777216 bytes' })
    })
  })

  describe('HTTP status and headers', () => {
    it('sends every JSON-RPC error with HTTP 200 and content-type application/json (geth)', async () => {
      const cases: Array<[string, string, number]> = [
        ['parse error', '{', -32700],
        ['empty batch', '[]', -32600],
        ['not an object', '5', -32600],
        ['unknown method', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_nope' }), -32601],
        ['bad params', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getBalance', params: ['0x12'] }), -32602],
        ['header not found', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getBalance', params: ['0x0000000000000000000000000000000000000001', '0x99'] }), -32000],
      ]
      for (const [name, body, code] of cases) {
        const reply = await http(server.url, { body })
        expect(reply.status, name).to.equal(200)
        expect(reply.headers['content-type'], name).to.equal('application/json')
        expect((JSON.parse(reply.text) as RpcResponse).error!.code, name).to.equal(code)
      }
    })

    it('sends each reply whole with a Content-Length, never chunked, as Anvil 1.7.1 does (results, errors, batches, the GET hint, 405)', async function () {
      this.timeout(30_000)
      const requests: Array<[string, { method?: string; body?: unknown }]> = [
        ['result', { body: { jsonrpc: '2.0', id: 1, method: 'eth_chainId' } }],
        ['error', { body: { jsonrpc: '2.0', id: 1, method: 'eth_nope' } }],
        ['batch', { body: [{ jsonrpc: '2.0', id: 1, method: 'eth_chainId' }, { jsonrpc: '2.0', id: 2, method: 'eth_blockNumber' }] }],
        ['parse error', { body: '{' }],
        ['GET', { method: 'GET' }],
        ['PUT', { method: 'PUT' }],
      ]
      for (const [name, options] of requests) {
        const reply = await http(server.url, options)
        expect(reply.headers['transfer-encoding'], name).to.equal(undefined)
        expect(reply.headers['content-length'], name).to.equal(String(Buffer.byteLength(reply.text)))
      }
      // Unicode in a reply: the length counts its UTF-8 bytes.
      const unicode = await http(server.url, { body: { jsonrpc: '2.0', id: 'ünïcode ✓', method: 'eth_chainId' } })
      expect(unicode.headers['content-length']).to.equal(String(Buffer.byteLength(unicode.text)))
      expect((JSON.parse(unicode.text) as RpcResponse).id).to.equal('ünïcode ✓')

      const anvil = await startAnvil([])
      if ('unavailable' in anvil) {
        console.log(`\n      NOTICE: Anvil could not start, so the comparison with Anvil is SKIPPED: ${anvil.unavailable}\n`)
        return
      }
      try {
        const reference = await http(anvil.url, requests[0][1])
        expect(reference.headers['transfer-encoding']).to.equal(undefined)
        expect(reference.headers['content-length']).to.equal(String(Buffer.byteLength(reference.text)))
      } finally {
        anvil.stop()
      }
    })

    it('echoes an allowed Origin (a page on localhost) in Access-Control-Allow-Origin on POST replies, results and errors alike', async () => {
      for (const body of [{ jsonrpc: '2.0', id: 1, method: 'eth_chainId' }, { jsonrpc: '2.0', id: 1, method: 'eth_nope' }, '{']) {
        const reply = await http(server.url, { body, headers: { origin: 'http://localhost:5173' } })
        expect(reply.headers['access-control-allow-origin']).to.equal('http://localhost:5173')
      }
      const viaFetch = await fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json', origin: 'http://localhost:5173' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}' })
      expect(viaFetch.headers.get('access-control-allow-origin')).to.equal('http://localhost:5173')
    })

    it('answers an OPTIONS preflight from an allowed origin with 204, that origin, allow-methods with POST and the requested headers echoed', async () => {
      const reply = await http(server.url, {
        method: 'OPTIONS',
        headers: {
          origin: 'http://localhost:5173',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type,x-custom-header',
        },
      })
      expect(reply.status).to.equal(204)
      expect(reply.text).to.equal('')
      expect(reply.headers['access-control-allow-origin']).to.equal('http://localhost:5173')
      expect(String(reply.headers['access-control-allow-methods']).split(/,\s*/)).to.include('POST')
      expect(reply.headers['access-control-allow-headers']).to.equal('content-type,x-custom-header')
    })

    it('answers GET with 200 and a text hint (geth answers GET on the HTTP endpoint too)', async () => {
      const reply = await fetch(server.url)
      expect(reply.status).to.equal(200)
      expect(reply.headers.get('content-type')).to.equal('text/plain')
      expect(reply.headers.get('access-control-allow-origin')).to.equal(null) // no Origin sent: no CORS header
      expect(await reply.text()).to.include('POST JSON-RPC')
    })

    it('answers PUT, DELETE and PATCH with 405 (geth: method not allowed)', async () => {
      for (const method of ['PUT', 'DELETE', 'PATCH']) {
        const reply = await http(server.url, { method, body: { jsonrpc: '2.0', id: 1, method: 'eth_chainId' } })
        expect(reply.status, method).to.equal(405)
        expect(JSON.parse(reply.text), method).to.deep.equal({
          jsonrpc: '2.0',
          id: null,
          error: { code: -32600, message: `invalid request: HTTP method ${method} is not supported; use POST` },
        })
      }
    })
  })

  describe('connections', () => {
    it('keeps a connection alive: 200 sequential requests through a keep-alive agent use one socket', async () => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 })
      const sockets = new Set<unknown>()
      let reused = 0
      try {
        const started = performance.now()
        for (let id = 0; id < 200; id++) {
          const reply = await http(server.url, { body: { jsonrpc: '2.0', id, method: 'eth_blockNumber' }, agent })
          expect(JSON.parse(reply.text)).to.deep.equal({ jsonrpc: '2.0', id, result: '0x0' })
          sockets.add(reply.socket)
          if (reply.reusedSocket) reused++
        }
        const elapsed = performance.now() - started
        expect(sockets.size).to.equal(1)
        expect(reused).to.equal(199)
        expect(elapsed).to.be.below(5000)
      } finally {
        agent.destroy()
      }
    })

    it('binds 127.0.0.1 by default: url and wsUrl name it, and no other interface accepts connections', async () => {
      expect(server.url).to.match(/^http:\/\/127\.0\.0\.1:\d+$/)
      expect(server.wsUrl).to.equal(server.url.replace('http://', 'ws://'))
      const port = portOf(server)
      expect(port).to.be.above(0)
      expect(await tryConnect('127.0.0.1', port)).to.equal('connected')
      const external = Object.values(networkInterfaces())
        .flat()
        .filter((address) => address !== undefined && address.family === 'IPv4' && !address.internal)
      for (const address of external) expect(await tryConnect(address!.address, port), address!.address).to.equal('ECONNREFUSED')
    })

    it('rejects with a ListenError naming the port when it is taken', async () => {
      const local = await createChain({ clock: 'manual' })
      const port = portOf(server)
      let error: unknown
      try {
        await startServer(local, { port })
      } catch (thrown) {
        error = thrown
      } finally {
        local.close()
      }
      expect(error).to.be.instanceOf(Error)
      expect((error as Error).name).to.equal('ListenError')
      expect((error as Error).message).to.equal(`port ${port} is already in use on 127.0.0.1 (try --port 0 for a free port)`)
    })

    it('close() ends kept-alive connections and frees the port', async () => {
      const local = await createChain({ clock: 'manual' })
      const node = await startServer(local, { port: 0 })
      const port = portOf(node)
      const agent = new Agent({ keepAlive: true, maxSockets: 1 })
      try {
        const reply = await http(node.url, { body: { jsonrpc: '2.0', id: 1, method: 'eth_chainId' }, agent })
        expect(reply.status).to.equal(200)
        const closed = new Promise<void>((resolve) => reply.socket.once('close', () => resolve()))
        const started = performance.now()
        await node.close()
        expect(performance.now() - started).to.be.below(1000) // not waiting for the 5 s keep-alive timeout
        await closed
        expect(await tryConnect('127.0.0.1', port)).to.equal('ECONNREFUSED')
        const rebound = await listenTcp(port, '127.0.0.1')
        await new Promise<void>((resolve) => rebound.close(() => resolve()))
      } finally {
        agent.destroy()
      }
    })

    it('close() stops a realtime chain\'s clock', async () => {
      const local = await createChain({ clock: 'realtime', blockTimeMs: 10, preconfIntervalMs: 5 })
      const node = await startServer(local, { port: 0 })
      await node.close()
      const height = local.blockNumber()
      await new Promise((resolve) => setTimeout(resolve, 100)) // ten block times of wall clock
      expect(local.blockNumber()).to.equal(height)
    })
  })
})
