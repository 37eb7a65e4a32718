/**
 * The devnet as a network node: JSON-RPC over HTTP and WebSocket on one port, bound to
 * 127.0.0.1 unless told otherwise. `/` is the pre-confirmation endpoint; `/sealed` the standard
 * endpoint of the same chain (`pending` is the newest sealed block, a receipt exists once the
 * block seals), as Base serves a flashblocks endpoint beside a standard one.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { WebSocketServer } from 'ws'
import type { Chain } from '../chain.ts'
import { MethodNotFoundError } from '../errors.ts'
import { handleHttpRequest } from './http-handler.ts'
import type { Dispatch } from './json-rpc.ts'
import { SubscriptionRouter } from './subscription-router.ts'
import { serveWebSocket } from './websocket-session.ts'

/** Methods that need a connection to send notifications on: WebSocket only. */
const SUBSCRIPTION_METHODS = new Set(['eth_subscribe', 'eth_unsubscribe'])

/** The path of the standard (sealed-only) endpoint. */
export const SEALED_PATH = '/sealed'

/** Whether a request's URL is the standard endpoint's. */
function isSealedPath(url: string | undefined): boolean {
  const path = url?.split('?')[0]
  return path === SEALED_PATH || path === `${SEALED_PATH}/`
}

/** Where and how to listen. */
export interface ServerOptions {
  /** Interface to bind; default 127.0.0.1 (loopback only). */
  readonly host?: string
  /** Port; 0 picks a free one. Default 8545. */
  readonly port?: number
  /** Called with each request's method (for the activity log). */
  readonly onRequest?: (method: string) => void
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
  /** Stops listening, closes every connection and stops the chain's clock. */
  close(): Promise<void>
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

/** Serves `chain` over HTTP and WebSocket. */
export async function startServer(chain: Chain, options: ServerOptions = {}): Promise<DevnetServer> {
  const host = options.host ?? '127.0.0.1'
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
  const http = createServer({ keepAlive: true }, (request, response) => {
    handleHttpRequest(request, response, isSealedPath(request.url) ? httpDispatchers.sealed : httpDispatchers.preconfirmed).catch((error) => {
      if (!response.headersSent) response.writeHead(500)
      response.end(String(error))
    })
  })
  const sockets = new WebSocketServer({ noServer: true, maxPayload: 16 * 1024 * 1024 })
  http.on('upgrade', (request, socket, head) => {
    const dispatch = isSealedPath(request.url) ? dispatchers.sealed : dispatchers.preconfirmed
    sockets.handleUpgrade(request, socket, head, (ws) => serveWebSocket(ws, { dispatch, router }))
  })
  const address = await listen(http, host, options.port ?? 8545)
  // After listening, a server error (say, too many open files) must not crash the node.
  http.on('error', (error) => process.emitWarning(error))
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address
  return {
    url: `http://${shownHost}:${address.port}`,
    sealedUrl: `http://${shownHost}:${address.port}${SEALED_PATH}`,
    wsUrl: `ws://${shownHost}:${address.port}`,
    chain,
    async close() {
      chain.close()
      router.close()
      for (const client of sockets.clients) client.terminate()
      sockets.close()
      http.closeAllConnections()
      await new Promise<void>((resolve) => http.close(() => resolve()))
    },
  }
}
