/**
 * The soak's JSON-RPC client over keep-alive node:http: one agent per traffic class (sends, reads,
 * the eth_chainId probe), each request timed, and every outcome told apart — a result, a JSON-RPC
 * error, or a failure at the transport (a reset socket, a non-200 status, an unreadable body).
 */
import { Agent, request } from 'node:http'

/** What one request came back with, and its round trip in milliseconds. */
export interface RpcOutcome {
  ms: number
  result?: unknown
  error?: { code: number; message: string }
  /** Set when the request failed below JSON-RPC (ECONNRESET, socket hang up, a 5xx, bad JSON). */
  transport?: string
}

/** A JSON-RPC request body, built once. */
export function rpcBody(method: string, params: unknown[]): Buffer {
  return Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }))
}

/** A keep-alive JSON-RPC client with at most `maxSockets` requests on the wire. */
export class RpcClient {
  /** Requests since {@link RpcClient.warm} that had to open a connection (none was free), and the slowest of them. */
  readonly connects = { count: 0, slowestMs: 0 }
  private readonly agent: Agent
  private readonly target: URL

  constructor(url: string, maxSockets: number) {
    this.target = new URL(url)
    // fifo: every kept connection takes turns, so none sits idle past the server's keep-alive timeout.
    this.agent = new Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets, scheduling: 'fifo' })
  }

  /** Posts `body` (a prebuilt request) and resolves with its outcome; never rejects. */
  post(body: Buffer): Promise<RpcOutcome> {
    const start = performance.now()
    return new Promise((resolve) => {
      const call = request(
        { host: this.target.hostname, port: this.target.port, path: '/', method: 'POST', agent: this.agent, headers: { 'content-type': 'application/json', 'content-length': body.length } },
        (response) => {
          const chunks: Buffer[] = []
          response.on('data', (chunk: Buffer) => chunks.push(chunk))
          response.on('error', (error) => resolve({ ms: performance.now() - start, transport: describe(error) }))
          response.on('end', () => {
            const ms = performance.now() - start
            const text = Buffer.concat(chunks).toString()
            if (response.statusCode !== 200) return resolve({ ms, transport: `HTTP ${response.statusCode}: ${text.slice(0, 120)}` })
            try {
              const { result, error } = JSON.parse(text) as { result?: unknown; error?: { code: number; message: string } }
              resolve(error === undefined ? { ms, result } : { ms, error })
            } catch {
              resolve({ ms, transport: `unreadable body: ${text.slice(0, 120)}` })
            }
          })
        },
      )
      call.on('error', (error) => resolve({ ms: performance.now() - start, transport: describe(error) }))
      call.once('response', () => {
        if (call.reusedSocket) return
        this.connects.count++
        this.connects.slowestMs = Math.max(this.connects.slowestMs, Math.round(performance.now() - start))
      })
      call.end(body)
    })
  }

  /** Calls `method`; resolves with its result or throws (for the soak's setup and audit). */
  async call<T = unknown>(method: string, params: unknown[] = []): Promise<T> {
    const outcome = await this.post(rpcBody(method, params))
    if (outcome.transport !== undefined) throw new Error(`${method}: ${outcome.transport}`)
    if (outcome.error !== undefined) throw new Error(`${method}: ${outcome.error.code} ${outcome.error.message}`)
    return outcome.result as T
  }

  /** Opens `sockets` connections (that many eth_chainId at once), so the timed run does not pay for connecting. */
  async warm(sockets: number): Promise<void> {
    const body = rpcBody('eth_chainId', [])
    const outcomes = await Promise.all(Array.from({ length: sockets }, () => this.post(body)))
    const failed = outcomes.find((outcome) => outcome.transport !== undefined || outcome.error !== undefined)
    if (failed !== undefined) throw new Error(`warming ${sockets} connections: ${failed.transport ?? failed.error?.message}`)
    this.connects.count = 0
    this.connects.slowestMs = 0
  }

  /** Closes the idle sockets. */
  close(): void {
    this.agent.destroy()
  }
}

function describe(error: NodeJS.ErrnoException): string {
  return error.code ?? error.message
}
