/**
 * The HTTP fast lane (lib/server/http-fast-lane.ts), over raw sockets: a plain JSON POST is
 * answered in exactly the bytes node:http sends for the same request (Date aside), pipelined
 * requests in order, requests split anywhere; any other request goes to node:http with the
 * rest of its connection, also after fast-lane requests on the same connection; and the
 * connection rules (Connection: close, half-close, keep-alive and request timeouts).
 */
import { expect } from 'chai'
import { createServer as createHttpServer } from 'node:http'
import { connect, createServer, type AddressInfo, type Socket } from 'node:net'
import { createChain, type Chain } from '../../lib/index.ts'
import { createRequestGuard } from '../../lib/server/http-guard.ts'
import { createFastLane } from '../../lib/server/http-fast-lane.ts'
import { startServer, type DevnetServer } from '../../lib/server/server.ts'

/** One HTTP response as it came off the socket. */
interface RawResponse {
  readonly status: number
  /** The head's lines after the status line, as sent (names in their case, in their order). */
  readonly headerLines: readonly string[]
  readonly body: string
}

/** The responses at the front of `bytes` that have fully arrived (Content-Length or chunked bodies). */
function splitResponses(bytes: Buffer): RawResponse[] {
  const responses: RawResponse[] = []
  let at = 0
  for (;;) {
    const headEnd = bytes.indexOf('\r\n\r\n', at)
    if (headEnd === -1) return responses
    const [statusLine, ...headerLines] = bytes.toString('latin1', at, headEnd).split('\r\n')
    const header = (name: string): string | undefined =>
      headerLines.find((line) => line.toLowerCase().startsWith(`${name}:`))?.slice(name.length + 1).trim()
    let bodyStart = headEnd + 4
    let body = ''
    if (header('transfer-encoding') === 'chunked') {
      for (;;) {
        const sizeEnd = bytes.indexOf('\r\n', bodyStart)
        if (sizeEnd === -1) return responses
        const size = Number.parseInt(bytes.toString('latin1', bodyStart, sizeEnd), 16)
        if (bytes.length < sizeEnd + 2 + size + 2) return responses
        body += bytes.toString('utf8', sizeEnd + 2, sizeEnd + 2 + size)
        bodyStart = sizeEnd + 2 + size + 2
        if (size === 0) break
      }
      at = bodyStart
    } else {
      const length = Number(header('content-length') ?? 0)
      if (bytes.length < bodyStart + length) return responses
      body = bytes.toString('utf8', bodyStart, bodyStart + length)
      at = bodyStart + length
    }
    responses.push({ status: Number(statusLine.split(' ')[1]), headerLines, body })
  }
}

/** What a raw exchange got: the responses, and whether the server closed the connection. */
interface Exchange {
  readonly responses: RawResponse[]
  readonly closed: boolean
  /** performance.now() when the server closed it. */
  readonly closedAt?: number
}

/**
 * Writes `chunks` to a new connection to `port` (`pauseMs` apart), and resolves once `expected`
 * responses have arrived and the connection has been quiet for `quietMs`, or once it closes.
 * With `halfClose`, ends the client's side after the last chunk.
 */
async function exchange(port: number, chunks: readonly (string | Buffer)[], expected: number, { pauseMs = 0, quietMs = 50, halfClose = false } = {}): Promise<Exchange> {
  const socket = connect(port, '127.0.0.1')
  let received = Buffer.alloc(0)
  let closed = false
  let closedAt: number | undefined
  const done = new Promise<void>((resolve) => {
    let quiet: NodeJS.Timeout | undefined
    const settleIfDone = (): void => {
      clearTimeout(quiet)
      if (splitResponses(received).length >= expected) quiet = setTimeout(resolve, quietMs)
    }
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk])
      settleIfDone()
    })
    socket.on('close', () => {
      closed = true
      closedAt = performance.now()
      clearTimeout(quiet)
      resolve()
    })
    socket.on('error', () => {})
  })
  await new Promise((resolve) => socket.once('connect', resolve))
  for (const chunk of chunks) {
    socket.write(chunk)
    if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs))
  }
  if (halfClose) socket.end()
  await done
  socket.destroy()
  return { responses: splitResponses(received), closed, closedAt }
}

/** A JSON-RPC POST's bytes, with `extraHeaders` lines after Host and Content-Type. */
function post(body: string, extraHeaders: readonly string[] = []): string {
  return ['POST / HTTP/1.1', 'Host: localhost', 'Content-Type: application/json', ...extraHeaders, `Content-Length: ${Buffer.byteLength(body)}`, '', body].join('\r\n')
}

/** The same POST with a chunked body, which the fast lane leaves to node:http. */
function chunkedPost(body: string, extraHeaders: readonly string[] = []): string {
  const size = Buffer.byteLength(body).toString(16)
  return ['POST / HTTP/1.1', 'Host: localhost', 'Content-Type: application/json', ...extraHeaders, 'Transfer-Encoding: chunked', '', `${size}\r\n${body}\r\n0\r\n\r\n`].join('\r\n')
}

const chainId = (id: number): string => JSON.stringify({ jsonrpc: '2.0', id, method: 'eth_chainId', params: [] })

/** The head without its Date line (the one part that differs from second to second). */
const withoutDate = (response: RawResponse): string[] => response.headerLines.filter((line) => !line.startsWith('Date: '))

/** The `id` of each response, in order. */
const ids = ({ responses }: Exchange): unknown[] => responses.map(({ body }) => (JSON.parse(body) as { id: number }).id)

describe('HTTP fast lane (lib/server/http-fast-lane.ts)', () => {
  let chain: Chain
  let server: DevnetServer
  let port: number

  before(async () => {
    chain = await createChain({ clock: 'manual' })
    server = await startServer(chain, { port: 0, keepAliveTimeoutMs: 300 })
    port = Number(new URL(server.url).port)
  })

  after(async () => server.close())

  it('answers a plain POST in the bytes node:http sends for the same request (chunked, so served by node:http), Date aside', async () => {
    for (const extra of [[], ['Origin: http://localhost:3000'], ['Connection: close']]) {
      const fast = await exchange(port, [post(chainId(7), extra)], 1)
      const node = await exchange(port, [chunkedPost(chainId(7), extra)], 1)
      expect(fast.responses).to.have.length(1)
      expect(withoutDate(fast.responses[0])).to.deep.equal(withoutDate(node.responses[0]))
      expect(fast.responses[0].body).to.equal(node.responses[0].body).and.equal('{"jsonrpc":"2.0","id":7,"result":"0x7a69"}')
      expect(fast.responses[0].headerLines.find((line) => line.startsWith('Date: '))).to.match(/^Date: \w{3}, \d\d \w{3} \d{4} \d\d:\d\d:\d\d GMT$/)
    }
  })

  it('sends Keep-Alive with the server’s keep-alive timeout, in whole seconds (node:http’s rule)', async () => {
    const slow = await startServer(chain, { port: 0, keepAliveTimeoutMs: 2500 })
    try {
      const { responses } = await exchange(Number(new URL(slow.url).port), [post(chainId(1))], 1)
      expect(responses[0].headerLines).to.include('Keep-Alive: timeout=2')
    } finally {
      await slow.close()
    }
  })

  it('answers pipelined requests in order, parse errors and batches among them', async () => {
    const batch = JSON.stringify([JSON.parse(chainId(2)), JSON.parse(chainId(3))])
    const answer = await exchange(port, [post(chainId(1)) + post('{"jsonrpc":') + post(batch) + post(chainId(4))], 4)
    expect(answer.responses.map(({ status }) => status)).to.deep.equal([200, 200, 200, 200])
    expect(JSON.parse(answer.responses[1].body)).to.deep.include({ id: null }).and.have.nested.property('error.code', -32700)
    expect((JSON.parse(answer.responses[2].body) as Array<{ id: number }>).map(({ id }) => id)).to.deep.equal([2, 3])
    expect(JSON.parse(answer.responses[3].body)).to.deep.include({ id: 4 })
  })

  it('reads a request split anywhere: a byte a write', async () => {
    const bytes = Buffer.from(post(chainId(5)))
    const chunks = Array.from(bytes, (byte) => Buffer.of(byte))
    const answer = await exchange(port, chunks, 1, { pauseMs: 1 })
    expect(ids(answer)).to.deep.equal([5])
  })

  it('reads a body larger than one socket read (a batch of 1000 with long ids)', async () => {
    const padded = (id: number): string => `${id}:${'x'.repeat(300)}`
    const batch = JSON.stringify(Array.from({ length: 1000 }, (_, id) => ({ jsonrpc: '2.0', id: padded(id), method: 'eth_chainId', params: [] })))
    expect(batch.length).to.be.above(300_000)
    const { responses } = await exchange(port, [post(batch)], 1)
    const answers = JSON.parse(responses[0].body) as Array<{ id: string; result: string }>
    expect(answers).to.have.length(1000)
    expect(answers[999]).to.deep.equal({ jsonrpc: '2.0', id: padded(999), result: '0x7a69' })
  })

  it('hands a kept-alive connection to node:http at its first other request, after the replies before it', async () => {
    const preflight = ['OPTIONS / HTTP/1.1', 'Host: localhost', 'Origin: http://localhost:3000', 'Access-Control-Request-Method: POST', '', ''].join('\r\n')
    // One write: the preflight must wait for the first reply; the POST after it is node:http's too.
    const answer = await exchange(port, [post(chainId(1)) + preflight + post(chainId(2))], 3)
    expect(answer.responses.map(({ status }) => status)).to.deep.equal([200, 204, 200])
    expect(answer.responses[1].headerLines).to.include('access-control-allow-origin: http://localhost:3000')
    expect(JSON.parse(answer.responses[2].body)).to.deep.include({ id: 2, result: '0x7a69' })
    // Later writes on the same connection reach node:http as well.
    const gets = await exchange(port, [post(chainId(3)), 'GET / HTTP/1.1\r\nHost: localhost\r\n\r\n'], 2, { pauseMs: 20 })
    expect(gets.responses.map(({ status }) => status)).to.deep.equal([200, 200])
    expect(gets.responses[1].body).to.include('POST JSON-RPC requests here')
  })

  it('hands over a WebSocket upgrade that follows a POST on the same connection', async () => {
    const upgrade = ['GET / HTTP/1.1', 'Host: localhost', 'Upgrade: websocket', 'Connection: Upgrade', 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==', 'Sec-WebSocket-Version: 13', '', ''].join('\r\n')
    const socket = connect(port, '127.0.0.1')
    let received = ''
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')))
    socket.write(post(chainId(1)) + upgrade)
    await new Promise<void>((resolve, reject) => {
      const poll = setInterval(() => {
        if (received.includes('101 Switching Protocols')) {
          clearInterval(poll)
          resolve()
        }
      }, 5)
      setTimeout(() => reject(new Error(`no upgrade: ${received}`)), 2000)
    })
    expect(received.indexOf('"id":1')).to.be.below(received.indexOf('101 Switching Protocols'))
    expect(received).to.include('Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=')
    socket.destroy()
  })

  for (const [name, head, status] of [
    ['a malformed header line', 'POST / HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nBad Header\r\nContent-Length: 2\r\n\r\n{}', 400],
    ['no Host (HTTP/1.1)', 'POST / HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}', 400],
    ['a foreign Host', 'POST / HTTP/1.1\r\nHost: evil.example\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}', 403],
    ['a form body', 'POST / HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\n{}', 415],
    ['a head over 16 KiB', `POST / HTTP/1.1\r\nHost: localhost\r\nX-Long: ${'a'.repeat(17 * 1024)}\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`, 431],
  ] as const) {
    it(`leaves ${name} to node:http (${status})`, async () => {
      const { responses } = await exchange(port, [head], 1)
      expect(responses.map((response) => response.status)).to.deep.equal([status])
    })
  }

  it('closes the connection after a reply to Connection: close, ignoring what follows', async () => {
    const answer = await exchange(port, [post(chainId(1), ['Connection: close']) + post(chainId(2))], 2, { quietMs: 200 })
    expect(answer.closed).to.equal(true)
    expect(ids(answer)).to.deep.equal([1])
    expect(answer.responses[0].headerLines).to.include('Connection: close')
  })

  it('answers a client that ends its side after its requests, then closes', async () => {
    const answer = await exchange(port, [post(chainId(1)) + post(chainId(2))], 2, { halfClose: true, quietMs: 500 })
    expect(ids(answer)).to.deep.equal([1, 2])
    expect(answer.closed).to.equal(true)
  })

  it('closes a kept-alive connection idle for the keep-alive timeout and node:http’s second of slack', async () => {
    const started = performance.now()
    const answer = await exchange(port, [post(chainId(1))], 1, { quietMs: 5000 })
    expect(answer.closed).to.equal(true)
    expect(performance.now() - started).to.be.within(1250, 2500)
  })

  describe('timeouts, on a lane of its own (a short request timeout)', () => {
    let lane: ReturnType<typeof createFastLane>
    let lanePort: number
    const close: Array<() => void> = []

    before(async () => {
      const fallback = createHttpServer((_, response) => response.end('node'))
      const [serveWithNode] = fallback.listeners('connection') as Array<(socket: Socket) => void>
      lane = createFastLane({
        guard: createRequestGuard(['localhost'], ['localhost']),
        endpointFor: () => ({ dispatch: async () => '0x1', batchTimeoutMs: 29_900 }),
        handOver: (socket) => serveWithNode.call(fallback, socket),
        keepAliveTimeoutMs: 60_000,
        requestTimeoutMs: 300,
        onBusy: () => {},
      })
      const listener = createServer({ allowHalfOpen: true }, (socket) => lane.accept(socket))
      await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve))
      lanePort = (listener.address() as AddressInfo).port
      close.push(() => listener.close())
    })

    after(() => {
      lane.destroyAll()
      for (const done of close) done()
    })

    it('answers 408 to a request that has not all arrived within the request timeout, counted from its first byte', async () => {
      const started = performance.now()
      const whole = post(chainId(1))
      // A byte every 100 ms keeps the socket busy, but not the request from expiring.
      const answer = await exchange(lanePort, Array.from(whole.slice(0, 8)), 1, { pauseMs: 100 })
      expect(answer.closedAt! - started).to.be.within(290, 600)
      expect(answer.responses.map(({ status }) => status)).to.deep.equal([408])
    })

    it('answers 408 to a connection that sends nothing within the request timeout', async () => {
      const answer = await exchange(lanePort, [], 1, { quietMs: 2000 })
      expect(answer.closed).to.equal(true)
      expect(answer.responses.map(({ status }) => status)).to.deep.equal([408])
    })

    it('serves a request that arrives within the timeout, and stays open after it', async () => {
      const answer = await exchange(lanePort, [post(chainId(9))], 1, { quietMs: 500 })
      expect(answer.closed).to.equal(false)
      expect(JSON.parse(answer.responses[0].body)).to.deep.equal({ jsonrpc: '2.0', id: 9, result: '0x1' })
    })

    it('closes idle connections on closeIdle, and answers a busy one’s request with Connection: close', async () => {
      const idle = connect(lanePort, '127.0.0.1')
      const idleClosed = new Promise((resolve) => idle.on('close', resolve))
      await new Promise((resolve) => idle.once('connect', resolve))
      const busy = exchange(lanePort, [post(chainId(1)).slice(0, 30), post(chainId(1)).slice(30)], 1, { pauseMs: 100, quietMs: 300 })
      await new Promise((resolve) => setTimeout(resolve, 50))
      lane.closeIdle()
      await idleClosed
      const answer = await busy
      expect(answer.responses[0].headerLines).to.include('Connection: close')
      expect(answer.closed).to.equal(true)
    })
  })
})
