/**
 * The devnet as a network node: JSON-RPC over HTTP and WebSocket on one port, bound to
 * 127.0.0.1 unless told otherwise, serving only the allowed Host and Origin headers
 * (http-guard.ts). `/` is the pre-confirmation endpoint; `/sealed` the standard endpoint of the
 * same chain (`pending` is the newest sealed block, a receipt exists once the block seals), as
 * Base serves a flashblocks endpoint beside a standard one.
 */
import { createServer, type ServerResponse, type Server } from 'node:http'
import { isIP, type AddressInfo, type Socket } from 'node:net'
import type { Duplex } from 'node:stream'
import { WebSocketServer } from 'ws'
import type { Chain } from '../chain.ts'
import { MethodNotFoundError } from '../errors.ts'
import type { OptionDefinition } from '../option-definition.ts'
import { subscriptionMethods } from '../rpc/methods.ts'
import { createRequestGuard, type Refusal } from './http-guard.ts'
import { createFastLane } from './http-fast-lane.ts'
import { handleHttpRequest } from './http-handler.ts'
import { httpSafetyOptions } from './http-options.ts'
import type { Dispatch, Endpoint } from './json-rpc.ts'
import { SubscriptionRouter } from './subscription-router.ts'
import { serveWebSocket } from './websocket-session.ts'

/** Methods that need a connection to send notifications on: WebSocket only. */
const SUBSCRIPTION_METHODS = new Set(Object.keys(subscriptionMethods))

/** The path of the standard (sealed-only) endpoint. */
export const SEALED_PATH = '/sealed'

/** Whether a request's URL is the standard endpoint's. */
function isSealedPath(url: string | undefined): boolean {
  const path = url?.split('?')[0]
  return path === SEALED_PATH || path === `${SEALED_PATH}/`
}

/** Whether `url` is the root, the pre-confirmation endpoint's path. */
function isRootPath(url: string | undefined): boolean {
  return url === '/' || url?.split('?')[0] === '/'
}

/** Where and how to listen. */
export interface ServerOptions {
  /** Interface to bind; default 127.0.0.1 (loopback only). */
  readonly host?: string
  /** Port; 0 picks a free one. Default 8545. */
  readonly port?: number
  /** Called with each request's method (for the activity log). */
  readonly onRequest?: (method: string) => void
  /**
   * Host header names served (geth's `--http.vhosts`); IP addresses and the `host` bound are
   * always served; `'*'` serves any. Default `['localhost']`.
   */
  readonly allowedHosts?: string | readonly string[]
  /**
   * Browser origins served over HTTP and WebSocket: a host (any scheme and port) or
   * `scheme://host[:port]`; `'*'` serves any page. Default: the loopback names, `localhost`,
   * `127.0.0.1`, `[::1]`. Requests without an Origin (non-browser clients) are always served.
   */
  readonly allowedOrigins?: string | readonly string[]
  /** Milliseconds an idle kept-alive connection stays open; default 120 000 (geth's IdleTimeout). */
  readonly keepAliveTimeoutMs?: number
  /** Milliseconds a batch may run before its members not yet started get `request timed out`; default 29 900 (geth's). */
  readonly batchTimeoutMs?: number
}

/** How to close a server. */
export interface CloseOptions {
  /**
   * Milliseconds in-flight HTTP requests may take to finish once no new connection is accepted;
   * those still running then are cut. Default 0: cut at once.
   */
  readonly graceMs?: number
}

/** A running node. */
export interface DevnetServer {
  /** `http://HOST:PORT` (the port actually bound): the pre-confirmation endpoint. */
  readonly url: string
  /** `http://HOST:PORT/sealed`: the standard endpoint of the same chain (point cast and forge here). */
  readonly sealedUrl: string
  /** `ws://HOST:PORT`. */
  readonly wsUrl: string
  /** The chain it serves. */
  readonly chain: Chain
  /**
   * Stops listening, lets in-flight HTTP requests finish (up to `graceMs`), closes every
   * connection (WebSockets with 1001, going away), then stops the chain's clock.
   */
  close(options?: CloseOptions): Promise<void>
}

/** A clear error for a port that cannot be bound. */
export class ListenError extends Error {
  override name = 'ListenError'
}

function listen(server: Server, host: string, port: number): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') reject(new ListenError(`port ${port} is already in use on ${host} (try --port 0 for a free port)`))
      else if (error.code === 'EACCES') reject(new ListenError(`no permission to listen on ${host}:${port}`))
      else if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND') reject(new ListenError(`cannot bind ${host}: no such local address`))
      else reject(error)
    })
    server.listen(port, host, () => resolve(server.address() as AddressInfo))
  })
}

/**
 * geth's read timeouts (rpc/http.go DefaultHTTPTimeouts: ReadHeaderTimeout and ReadTimeout, 30 s):
 * the time a request's headers, and the whole request, may take to arrive. Node counts both from
 * a request's first byte, not over a kept-alive connection's idle time, so they need not exceed
 * the keep-alive timeout; nor do they bound a request's processing.
 */
const HEADERS_TIMEOUT_MS = 30_000
const REQUEST_TIMEOUT_MS = 30_000

/** Turns an upgrade away with `refusal` (the HTTP answer a browser's WebSocket sees as a failed handshake). */
function refuseUpgrade(socket: Duplex, { status, text }: Refusal): void {
  const body = `${text}\n`
  socket.on('error', () => {})
  socket.end(
    `HTTP/1.1 ${status} ${status === 403 ? 'Forbidden' : 'Service Unavailable'}\r\nContent-Type: text/plain; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  )
}

/** Serves `chain` over HTTP and WebSocket. */
export async function startServer(chain: Chain, options: ServerOptions = {}): Promise<DevnetServer> {
  const host = options.host ?? '127.0.0.1'
  const setting = <Input, Value>(definition: OptionDefinition<Input, Value>, given: Input | undefined, name: string): Value =>
    given === undefined ? definition.default({ clock: chain.options.clock }) : definition.parse(given, name)
  const { allowedHosts, allowedOrigins, keepAliveTimeoutMs, batchTimeoutMs } = httpSafetyOptions
  // The name the node is bound to is one it answers to (an IP address needs no entry).
  const hosts = [...setting(allowedHosts, options.allowedHosts, 'allowedHosts'), ...(isIP(host) === 0 ? [host] : [])]
  const guard = createRequestGuard(hosts, setting(allowedOrigins, options.allowedOrigins, 'allowedOrigins'))
  const keepAliveTimeout = setting(keepAliveTimeoutMs, options.keepAliveTimeoutMs, 'keepAliveTimeoutMs')
  const batchTimeout = setting(batchTimeoutMs, options.batchTimeoutMs, 'batchTimeoutMs')
  const { onRequest } = options
  const counted =
    (provider: { request: Dispatch }): Dispatch =>
    (request) => {
      onRequest?.(request.method)
      return provider.request(request)
    }
  const dispatchers = { preconfirmed: counted(chain), sealed: counted(chain.sealed) }
  // HTTP has no channel for notifications: it offers no subscription methods (geth's HTTP endpoint neither).
  const overHttp =
    (dispatch: Dispatch): Dispatch =>
    (request) =>
      SUBSCRIPTION_METHODS.has(request.method) ? Promise.reject(new MethodNotFoundError(request.method)) : dispatch(request)
  const httpDispatchers = { preconfirmed: overHttp(dispatchers.preconfirmed), sealed: overHttp(dispatchers.sealed) }
  const router = new SubscriptionRouter(chain)
  const endpoints = {
    preconfirmed: { dispatch: httpDispatchers.preconfirmed, batchTimeoutMs: batchTimeout },
    sealed: { dispatch: httpDispatchers.sealed, batchTimeoutMs: batchTimeout },
  }
  // Any other path is not found, as geth and Anvil answer it (a mistyped /sealed must not read pre-confirmed state).
  const endpointFor = (url: string | undefined): Endpoint | undefined => (isRootPath(url) ? endpoints.preconfirmed : isSealedPath(url) ? endpoints.sealed : undefined)
  /** node:http's responses not yet sent; once closing, each goes out with `Connection: close`. */
  const inFlight = new Set<ServerResponse>()
  /** Requests on the fast lane not yet answered. */
  let fastInFlight = 0
  let closing = false
  /** Ends the wait of a graceful close, once no request is in flight. */
  let drained: (() => void) | undefined
  const settled = (): void => {
    if (inFlight.size === 0 && fastInFlight === 0) drained?.()
  }
  // An idle connection closes after keepAliveTimeout (Node 20 adds a second), announced as
  // `Keep-Alive: timeout=…`: with Node's 5 s default, a request a pool wrote on an idle socket
  // while the loop was busy met the close (ECONNRESET); geth keeps idle connections 120 s.
  const http = createServer(
    { keepAlive: true, keepAliveTimeout, headersTimeout: HEADERS_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS },
    (request, response) => {
      inFlight.add(response)
      if (closing) response.setHeader('connection', 'close')
      response.once('close', () => {
        inFlight.delete(response)
        settled()
      })
      handleHttpRequest(request, response, endpointFor(request.url), guard).catch((error) => {
        if (!response.headersSent) response.writeHead(500)
        response.end(String(error))
      })
    },
  )
  // Every connection starts on the fast lane (http-fast-lane.ts), which gives it to node:http's own
  // connection listener at its first request of another kind.
  const nodeConnectionListeners = http.listeners('connection')
  if (nodeConnectionListeners.length !== 1) throw new Error(`node:http has ${nodeConnectionListeners.length} connection listeners; expected its own one`)
  const [serveWithNode] = nodeConnectionListeners as Array<(socket: Socket) => void>
  const fastLane = createFastLane({
    guard,
    endpointFor,
    handOver: (socket) => serveWithNode.call(http, socket),
    keepAliveTimeoutMs: keepAliveTimeout,
    requestTimeoutMs: REQUEST_TIMEOUT_MS,
    onBusy(delta) {
      fastInFlight += delta
      settled()
    },
  })
  http.removeListener('connection', serveWithNode)
  http.on('connection', (socket: Socket) => fastLane.accept(socket))
  const sockets = new WebSocketServer({ noServer: true, maxPayload: 16 * 1024 * 1024 })
  http.on('upgrade', (request, socket, head) => {
    const refusal = closing ? { status: 503, text: 'shutting down' } : guard.refusal(request.headers)
    if (refusal !== undefined) {
      refuseUpgrade(socket, refusal)
      return
    }
    const dispatch = isSealedPath(request.url) ? dispatchers.sealed : dispatchers.preconfirmed
    sockets.handleUpgrade(request, socket, head, (ws) => serveWebSocket(ws, { dispatch, router, batchTimeoutMs: batchTimeout }))
  })
  const address = await listen(http, host, options.port ?? 8545)
  // After listening, a server error (say, too many open files) must not crash the node.
  http.on('error', (error) => process.emitWarning(error))
  // A host name shows as given (`--host localhost`: http://localhost:PORT); an address as bound.
  const shownHost = isIP(host) === 0 ? host : address.family === 'IPv6' ? `[${address.address}]` : address.address
  return {
    url: `http://${shownHost}:${address.port}`,
    sealedUrl: `http://${shownHost}:${address.port}${SEALED_PATH}`,
    wsUrl: `ws://${shownHost}:${address.port}`,
    chain,
    async close({ graceMs = 0 } = {}) {
      closing = true
      // No new connections; idle kept-alive ones are closed now, busy ones after their reply.
      const closed = new Promise<void>((resolve) => http.close(() => resolve()))
      for (const response of inFlight) if (!response.headersSent) response.setHeader('connection', 'close')
      fastLane.closeIdle()
      for (const client of sockets.clients) client.close(1001, 'server shutting down')
      if (inFlight.size + fastInFlight > 0 && graceMs > 0) {
        let timer: NodeJS.Timeout | undefined
        await new Promise<void>((resolve) => {
          drained = resolve
          timer = setTimeout(resolve, graceMs)
        })
        clearTimeout(timer)
      }
      for (const client of sockets.clients) client.terminate()
      sockets.close()
      http.closeAllConnections()
      fastLane.destroyAll()
      await closed
      chain.close()
      router.close()
    },
  }
}
