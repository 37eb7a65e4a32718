/**
 * Safe HTTP by default, geth's model (rpc/http.go, node/rpcstack.go, rpc/websocket.go): JSON-RPC
 * only for a JSON Content-Type, a Host allowlist (`allowedHosts`, `--allowed-hosts`), browser
 * origins checked on HTTP and WebSocket (`allowedOrigins`, `--allowed-origins`), the CORS headers
 * an allowed page gets, `*` to switch each check off, and the CLI's warning when it listens beyond
 * loopback. viem, ethers, cast and a page on localhost keep working.
 */
import { expect } from 'chai'
import { execFile, execFileSync, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { connect } from 'node:net'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { JsonRpcProvider, WebSocketProvider } from 'ethers'
import { createPublicClient, http as viemHttp, webSocket } from 'viem'
import WebSocket from 'ws'
import { createChain, type Chain } from '../../lib/index.ts'
import { startServer, type DevnetServer, type ServerOptions } from '../../lib/server/server.ts'
import { http, type HttpReply } from '../support/server-http.ts'
import { killAll, ROOT, spawnCli, startCli } from '../support/server-cli.ts'

const CHAIN_ID = { jsonrpc: '2.0', id: 1, method: 'eth_chainId' }
const CHAIN_ID_REPLY = { jsonrpc: '2.0', id: 1, result: '0x7a69' }
const DEV_0 = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'
const DEV_1 = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
/** geth's texts (rpc/http.go validateRequest, node/rpcstack.go virtualHostHandler), as Go's http.Error sends them. */
const INVALID_CONTENT_TYPE = 'invalid content type, only application/json is supported\n'
const INVALID_HOST = 'invalid host specified\n'

/** A POST of eth_chainId with `headers` (content-type application/json unless given). */
function post(server: DevnetServer, headers: Record<string, string>, body: unknown = CHAIN_ID): Promise<HttpReply> {
  return http(server.url, { body, headers })
}

/** The HTTP status a WebSocket handshake with `headers` gets: 101 when it opens. */
function handshake(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers })
    socket.once('open', () => {
      socket.close()
      resolve(101)
    })
    socket.once('unexpected-response', (_request, response) => {
      response.resume()
      resolve(response.statusCode ?? 0)
    })
    socket.once('error', reject)
  })
}

/** An HTTP/1.0 request without a Host header, over a raw socket; resolves with the whole reply. */
function withoutHost(server: DevnetServer, body: string): Promise<string> {
  const { hostname, port } = new URL(server.url)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname)
    let reply = ''
    socket.setEncoding('utf8').on('data', (chunk: string) => (reply += chunk))
    socket.on('end', () => resolve(reply))
    socket.on('error', reject)
    socket.write(`POST / HTTP/1.0\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`)
  })
}

describe('safe HTTP by default (geth: content type, virtual hosts, origins)', () => {
  let chain: Chain
  let server: DevnetServer
  const servers: DevnetServer[] = []
  /** A node of its own with `options`, closed after the suite. */
  const serve = async (options: ServerOptions): Promise<DevnetServer> => {
    const node = await startServer(await createChain({ clock: 'manual' }), { port: 0, ...options })
    servers.push(node)
    return node
  }

  before(async () => {
    chain = await createChain({ clock: 'manual' })
    server = await startServer(chain, { port: 0 })
  })
  after(async () => {
    await Promise.all([server.close(), ...servers.map((node) => node.close())])
  })

  describe('Content-Type (geth: 415 for anything but JSON)', () => {
    it('refuses a text/plain POST of eth_sendTransaction with 415 and geth\'s text; the transaction is not sent', async () => {
      const send = { jsonrpc: '2.0', id: 1, method: 'eth_sendTransaction', params: [{ from: DEV_0, to: DEV_1, value: '0x1' }] }
      const reply = await http(server.url, { body: JSON.stringify(send), headers: { 'content-type': 'text/plain;charset=UTF-8' } })
      expect(reply.status).to.equal(415)
      expect(reply.headers['content-type']).to.equal('text/plain; charset=utf-8')
      expect(reply.text).to.equal(INVALID_CONTENT_TYPE)
      expect(await chain.getTransactionCount(DEV_0, 'pending')).to.equal(0)
    })

    it('refuses form posts, other types and a POST without Content-Type alike', async () => {
      for (const type of ['application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonx', 'text/json', '']) {
        const reply = await http(server.url, { body: JSON.stringify(CHAIN_ID), headers: type === '' ? { 'content-type': '' } : { 'content-type': type } })
        expect([reply.status, reply.text], type).to.deep.equal([415, INVALID_CONTENT_TYPE])
      }
    })

    it('serves application/json with parameters and in any case, application/json-rpc and application/jsonrequest (geth\'s acceptedContentTypes)', async () => {
      for (const type of ['application/json', 'application/json; charset=utf-8', 'Application/JSON;charset=UTF-8', 'application/json-rpc', 'application/jsonrequest']) {
        const reply = await post(server, { 'content-type': type })
        expect([reply.status, JSON.parse(reply.text)], type).to.deep.equal([200, CHAIN_ID_REPLY])
      }
    })
  })

  describe('Host (geth --http.vhosts, default localhost)', () => {
    it('refuses a foreign name with 403 "invalid host specified", with or without a port (DNS rebinding)', async () => {
      for (const host of ['evil.example', `evil.example:${new URL(server.url).port}`, 'localhost.evil.example', 'devnet']) {
        const reply = await post(server, { host })
        expect([reply.status, reply.text], host).to.deep.equal([403, INVALID_HOST])
        expect(reply.headers['access-control-allow-origin'], host).to.equal(undefined)
      }
    })

    it('serves localhost on any port, and any IP address as geth does (127.0.0.1, [::1], 10.0.0.7)', async () => {
      for (const host of ['localhost', 'localhost:8545', 'LOCALHOST:1', '127.0.0.1:9', '[::1]:8545', '[::1]', '10.0.0.7']) {
        const reply = await post(server, { host })
        expect([reply.status, JSON.parse(reply.text)], host).to.deep.equal([200, CHAIN_ID_REPLY])
      }
    })

    it('serves an HTTP/1.0 request without a Host header (geth: a browser always sends one)', async () => {
      const reply = await withoutHost(server, JSON.stringify(CHAIN_ID))
      expect(reply.split('\r\n')[0]).to.equal('HTTP/1.1 200 OK')
      expect(JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4))).to.deep.equal(CHAIN_ID_REPLY)
    })

    it('allowedHosts replaces the names served; the name bound is served too; * serves any', async () => {
      const named = await serve({ allowedHosts: ['devnet.internal'], host: 'localhost' })
      expect((await post(named, { host: 'devnet.internal:8545' })).status).to.equal(200)
      expect((await post(named, { host: 'localhost:1' })).status).to.equal(200) // the host it is bound to
      expect((await post(named, { host: 'other.internal' })).status).to.equal(403)
      const any = await serve({ allowedHosts: '*' })
      expect((await post(any, { host: 'evil.example' })).status).to.equal(200)
    })
  })

  describe('Origin and CORS (default: pages on localhost, 127.0.0.1, [::1], any port)', () => {
    it('refuses a foreign page with 403 and no Access-Control-Allow-Origin: the POST, its preflight and a text/plain POST', async () => {
      for (const origin of ['https://evil.example', 'http://localhost.evil.example', 'https://evil.example:5173', 'null']) {
        const reply = await post(server, { origin })
        expect(reply.status, origin).to.equal(403)
        expect(reply.text, origin).to.equal(`origin ${origin} is not allowed (allow it with --allowed-origins, or startServer's allowedOrigins)\n`)
        expect(reply.headers['access-control-allow-origin'], origin).to.equal(undefined)
        const preflight = await http(server.url, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' } })
        expect([preflight.status, preflight.headers['access-control-allow-origin']], origin).to.deep.equal([403, undefined])
      }
      const plain = await http(server.url, { body: JSON.stringify(CHAIN_ID), headers: { 'content-type': 'text/plain', origin: 'https://evil.example' } })
      expect(plain.status).to.equal(403)
    })

    it('serves a page on localhost, 127.0.0.1 or [::1], echoing its origin in Access-Control-Allow-Origin with Vary: Origin', async () => {
      for (const origin of ['http://localhost:5173', 'http://localhost', 'https://localhost:3000', 'http://127.0.0.1:8080', 'http://[::1]:3000']) {
        const reply = await post(server, { origin })
        expect([reply.status, JSON.parse(reply.text)], origin).to.deep.equal([200, CHAIN_ID_REPLY])
        expect(reply.headers['access-control-allow-origin'], origin).to.equal(origin)
        expect(reply.headers.vary, origin).to.equal('Origin')
      }
    })

    it('a browser-like page at http://localhost:3000: preflight 204 with the CORS headers, then the POST, and a readable 415', async () => {
      const origin = 'http://localhost:3000'
      const preflight = await fetch(server.url, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' } })
      expect(preflight.status).to.equal(204)
      expect(preflight.headers.get('access-control-allow-origin')).to.equal(origin)
      expect(preflight.headers.get('access-control-allow-methods')).to.include('POST')
      expect(preflight.headers.get('access-control-allow-headers')).to.equal('content-type')
      const reply = await fetch(server.url, { method: 'POST', headers: { origin, 'content-type': 'application/json' }, body: JSON.stringify(CHAIN_ID) })
      expect(reply.headers.get('access-control-allow-origin')).to.equal(origin)
      expect(await reply.json()).to.deep.equal(CHAIN_ID_REPLY)
      const plain = await fetch(server.url, { method: 'POST', headers: { origin, 'content-type': 'text/plain' }, body: JSON.stringify(CHAIN_ID) })
      expect([plain.status, plain.headers.get('access-control-allow-origin'), await plain.text()]).to.deep.equal([415, origin, INVALID_CONTENT_TYPE])
    })

    it('serves a request without an Origin (non-browser clients) with no CORS header', async () => {
      const reply = await post(server, {})
      expect(reply.status).to.equal(200)
      expect(reply.headers['access-control-allow-origin']).to.equal(undefined)
    })

    it('allowedOrigins names the pages served (geth\'s rules: host, scheme://host, scheme://host:port); * serves any with ACAO *', async () => {
      const remix = await serve({ allowedOrigins: ['https://remix.ethereum.org', 'http://app.test:8080'] })
      expect((await post(remix, { origin: 'https://remix.ethereum.org' })).headers['access-control-allow-origin']).to.equal('https://remix.ethereum.org')
      expect((await post(remix, { origin: 'http://remix.ethereum.org' })).status).to.equal(403) // scheme differs
      expect((await post(remix, { origin: 'http://app.test:8080' })).status).to.equal(200)
      expect((await post(remix, { origin: 'http://app.test:8081' })).status).to.equal(403) // port differs
      expect((await post(remix, { origin: 'http://localhost:5173' })).status).to.equal(403) // the list replaces the default
      // Chrome's Private Network Access preflight: an allowed public page may reach the local node.
      const preflight = await http(remix.url, {
        method: 'OPTIONS',
        headers: { origin: 'https://remix.ethereum.org', 'access-control-request-method': 'POST', 'access-control-request-private-network': 'true' },
      })
      expect([preflight.status, preflight.headers['access-control-allow-private-network']]).to.deep.equal([204, 'true'])
      const any = await serve({ allowedOrigins: '*' })
      const reply = await post(any, { origin: 'https://evil.example' })
      expect([reply.status, reply.headers['access-control-allow-origin']]).to.deep.equal([200, '*'])
    })
  })

  describe('WebSocket upgrades (geth --ws.origins)', () => {
    it('refuses a foreign Origin or Host with 403, opens for localhost pages and for clients without an Origin', async () => {
      expect(await handshake(server.wsUrl, { origin: 'https://evil.example' })).to.equal(403)
      expect(await handshake(server.wsUrl, { host: 'evil.example' })).to.equal(403)
      expect(await handshake(server.wsUrl, { origin: 'http://localhost:5173' })).to.equal(101)
      expect(await handshake(server.wsUrl, {})).to.equal(101)
      expect(await handshake(`${server.wsUrl}/sealed`, { origin: 'https://evil.example' })).to.equal(403)
    })

    it('opens for any page and any host when both lists are *', async () => {
      const open = await serve({ allowedOrigins: ['*'], allowedHosts: ['*'] })
      expect(await handshake(open.wsUrl, { origin: 'https://evil.example', host: 'evil.example' })).to.equal(101)
    })
  })

  describe('clients keep working with the defaults', () => {
    it('viem over HTTP and WebSocket', async () => {
      const overHttp = createPublicClient({ transport: viemHttp(server.url) })
      expect(await overHttp.getChainId()).to.equal(31337)
      const transport = webSocket(server.wsUrl)
      const overWs = createPublicClient({ transport })
      expect(await overWs.getChainId()).to.equal(31337)
      await (await overWs.transport.getRpcClient()).close()
    })

    it('ethers over HTTP and WebSocket', async () => {
      const overHttp = new JsonRpcProvider(server.url, undefined, { staticNetwork: true })
      expect(await overHttp.send('eth_chainId', [])).to.equal('0x7a69')
      overHttp.destroy()
      const overWs = new WebSocketProvider(server.wsUrl)
      expect((await overWs.getNetwork()).chainId).to.equal(31337n)
      await overWs.destroy()
    })

    it('cast (Foundry) at http://localhost:<port>', async function () {
      const cast = join(resolve('node_modules/.bin'), 'cast')
      if (spawnSync(cast, ['--version']).status !== 0) {
        console.log('      SKIPPED (visible): cast does not run on this machine')
        this.skip()
      }
      const { stdout } = await promisify(execFile)(cast, ['chain-id', '--rpc-url', server.url.replace('127.0.0.1', 'localhost')], { env: { ...process.env, FOUNDRY_DISABLE_NIGHTLY_WARNING: '1' } })
      expect(stdout.trim()).to.equal('31337')
    })
  })

  describe('the CLI (node dist/cli.js)', () => {
    before(function () {
      if (!existsSync(join(ROOT, 'dist/cli.js'))) {
        this.timeout(180_000)
        execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'ignore' })
      }
    })
    afterEach(killAll)

    it('--host 0.0.0.0 warns on stderr that anyone who can reach the port can spend the unlocked dev accounts; 127.0.0.1 does not', async () => {
      const exposed = await startCli(['--port', '0', '--host', '0.0.0.0', '--clock', 'manual', '--silent'])
      expect(exposed.stderr()).to.match(/^WARNING: listening on 0\.0\.0\.0, beyond this machine's loopback\. The dev accounts are unlocked: anyone who can reach this port can send transactions from them and spend their ether/)
      const local = await startCli(['--port', '0', '--clock', 'manual', '--silent'])
      expect(local.stderr()).to.equal('')
    })

    it('--allowed-hosts and --allowed-origins replace the defaults; --allowed-origins * warns', async () => {
      const cli = await startCli(['--port', '0', '--clock', 'manual', '--silent', '--allowed-hosts', 'devnet.test', '--allowed-origins', '*'])
      expect(cli.stderr()).to.include('WARNING: --allowed-origins *: any web page')
      const ask = (headers: Record<string, string>) => http(cli.url, { body: CHAIN_ID, headers })
      expect((await ask({ host: 'devnet.test', origin: 'https://evil.example' })).status).to.equal(200)
      expect((await ask({ host: 'localhost' })).status).to.equal(403)
      const bad = spawnCli(['--allowed-hosts', ' , '])
      expect((await bad.exited).code).to.equal(2)
      expect(bad.stderr()).to.match(/^error: invalid option --allowed-hosts: expected a comma-separated list of names \(or \*\), got " , "/)
    })
  })
})
