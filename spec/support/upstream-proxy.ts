/**
 * A counting JSON-RPC proxy for the fork specs: a node:http server on 127.0.0.1 (port 0) that
 * forwards each request body to an upstream node as it came and answers with the upstream's
 * status and body, recording every body it saw, so a spec can count the HTTP requests and
 * JSON-RPC calls a forked chain sends. When the upstream cannot be reached, it drops the
 * connection (the client sees a connection reset, as from a dead node); while `holding`, it
 * answers nothing (a node that hangs).
 */
import { once } from 'node:events'
import http from 'node:http'
import type { AddressInfo } from 'node:net'

/** One JSON-RPC call as the proxy saw it. */
export interface SeenCall {
  readonly method: string
  readonly params: unknown[]
}

/** A running proxy and what went through it. */
export interface CountingProxy {
  /** `http://127.0.0.1:PORT`: point the fork here. */
  readonly url: string
  /** Every request body, parsed (an object, or an array for a batch), in arrival order. */
  readonly bodies: unknown[]
  /** While true, requests are recorded and left unanswered. */
  holding: boolean
  /** The calls received, batches flattened, in order. */
  calls(): SeenCall[]
  /** Forgets what was recorded. */
  clear(): void
  /** Stops listening and drops every connection. */
  close(): Promise<void>
}

/** Starts a proxy in front of the JSON-RPC endpoint `target`. */
export async function startProxy(target: string): Promise<CountingProxy> {
  const bodies: unknown[] = []
  const server = http.createServer(async (request, response) => {
    const chunks: Buffer[] = []
    for await (const chunk of request) chunks.push(chunk as Buffer)
    const body = Buffer.concat(chunks).toString('utf8')
    bodies.push(JSON.parse(body))
    if (proxy.holding) return
    try {
      const answer = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
      const text = await answer.text()
      response.writeHead(answer.status, { 'content-type': 'application/json' })
      response.end(text)
    } catch {
      response.socket?.destroy()
    }
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  const proxy: CountingProxy = {
    url: `http://127.0.0.1:${port}`,
    bodies,
    holding: false,
    calls: () => bodies.flatMap((body) => (Array.isArray(body) ? body : [body]) as SeenCall[]).map(({ method, params }) => ({ method, params })),
    clear: () => void bodies.splice(0),
    close: () => {
      server.closeAllConnections()
      return new Promise((resolve) => server.close(() => resolve()))
    },
  }
  return proxy
}
