/**
 * Helpers for the HTTP server specs: raw requests through node:http (so a spec can see the status,
 * every header, the socket a request used and whether it was reused), and JSON-RPC posts.
 */
import { request as httpRequest, type Agent, type IncomingHttpHeaders } from 'node:http'
import type { Socket } from 'node:net'

/** What came back for one HTTP request. */
export interface HttpReply {
  readonly status: number
  readonly headers: IncomingHttpHeaders
  readonly text: string
  /** The socket the request went out on (to tell connections apart). */
  readonly socket: Socket
  /** True when the agent sent this request on a kept-alive connection. */
  readonly reusedSocket: boolean
}

export interface HttpOptions {
  readonly method?: string
  readonly path?: string
  readonly headers?: Record<string, string>
  /** A string (sent as is) or a value (sent as JSON). */
  readonly body?: unknown
  /** Without an agent every request gets its own connection. */
  readonly agent?: Agent
}

/** Sends one HTTP request to `url` (the server's base URL) and reads the whole reply. */
export function http(url: string, options: HttpOptions = {}): Promise<HttpReply> {
  const { hostname, port } = new URL(url)
  const body = options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body)
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: hostname,
        port: Number(port),
        method: options.method ?? 'POST',
        path: options.path ?? '/',
        agent: options.agent ?? false,
        headers: { ...(body === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) }), ...options.headers },
      },
      (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            text: Buffer.concat(chunks).toString('utf8'),
            socket: request.socket as Socket,
            reusedSocket: request.reusedSocket,
          }),
        )
        response.on('error', reject)
      },
    )
    request.on('error', reject)
    request.end(body)
  })
}

/** A JSON-RPC error object as the server sends it. */
export interface RpcErrorObject {
  code: number
  message: string
  data?: unknown
}

/** One JSON-RPC response. */
export interface RpcResponse {
  jsonrpc: '2.0'
  id: string | number | null
  result?: unknown
  error?: RpcErrorObject
}

/** POSTs `body` and parses the JSON reply (fails on a non-200 status or a non-JSON reply). */
export async function postJson(url: string, body: unknown, agent?: Agent): Promise<RpcResponse | RpcResponse[]> {
  const reply = await http(url, { body, agent })
  if (reply.status !== 200) throw new Error(`HTTP ${reply.status}: ${reply.text}`)
  return JSON.parse(reply.text) as RpcResponse | RpcResponse[]
}

/** Calls `method` over HTTP and returns its result; a JSON-RPC error is thrown with its code. */
export async function rpc(url: string, method: string, params: unknown[] = [], agent?: Agent): Promise<unknown> {
  const response = (await postJson(url, { jsonrpc: '2.0', id: 1, method, params }, agent)) as RpcResponse
  if (response.error !== undefined) throw Object.assign(new Error(response.error.message), response.error)
  return response.result
}
