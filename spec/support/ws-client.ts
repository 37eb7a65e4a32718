/**
 * A small JSON-RPC client over a raw `ws` WebSocket for the server specs: requests matched to
 * their responses by id, notifications collected by subscription id, a way to await "n
 * notifications" with a timeout, and every incoming message kept in arrival order so a spec
 * can check what came before what.
 */
import type { Socket } from 'node:net'
import WebSocket from 'ws'

/** A JSON-RPC error object as it arrived. */
export interface WireError {
  code: number
  message: string
  data?: unknown
}

/** A JSON-RPC response as it arrived. */
export interface WireResponse {
  jsonrpc: '2.0'
  id: string | number | null
  result?: unknown
  error?: WireError
}

/** A notification: `{ jsonrpc, method: 'eth_subscription', params: { subscription, result } }`. */
export interface WireNotification {
  jsonrpc: '2.0'
  method: 'eth_subscription'
  params: { subscription: string; result: unknown }
}

/** A failed request, with the node's code, message and data. */
export class WireRPCError extends Error {
  readonly code: number
  readonly data: unknown
  constructor(error: WireError) {
    super(error.message)
    this.code = error.code
    this.data = error.data
  }
}

type Waiter = (message: unknown) => void

interface CountWatcher {
  readonly subscription: string
  readonly count: number
  readonly resolve: (notifications: unknown[]) => void
}

/** One WebSocket connection to the node. */
export class WsClient {
  /** Every message received, parsed, in arrival order. */
  readonly received: unknown[] = []
  private nextId = 1
  private readonly waiters = new Map<string | number, Waiter>()
  private readonly bySubscription = new Map<string, unknown[]>()
  private readonly watchers = new Set<CountWatcher>()
  private closed = false

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => this.onMessage(JSON.parse(data.toString())))
    socket.on('close', () => {
      this.closed = true
    })
  }

  /** Opens a connection to `url` (ws://HOST:PORT). */
  static connect(url: string): Promise<WsClient> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url)
      socket.once('open', () => resolve(new WsClient(socket)))
      socket.once('error', reject)
    })
  }

  /** The TCP socket under the WebSocket (to pause it, or reset it without a close frame). */
  get tcp(): Socket {
    return (this.socket as unknown as { _socket: Socket })._socket
  }

  /** Whether the connection has closed. */
  get isClosed(): boolean {
    return this.closed
  }

  private onMessage(message: unknown): void {
    this.received.push(message)
    if (Array.isArray(message)) {
      for (const member of message as WireResponse[]) {
        const waiter = member.id === null ? undefined : this.waiters.get(member.id)
        if (waiter !== undefined) {
          waiter(message)
          return
        }
      }
      return
    }
    const object = message as Partial<WireResponse & WireNotification>
    if (object.method === 'eth_subscription' && object.params !== undefined) {
      const { subscription, result } = object.params
      let list = this.bySubscription.get(subscription)
      if (list === undefined) {
        list = []
        this.bySubscription.set(subscription, list)
      }
      list.push(result)
      for (const watcher of this.watchers) {
        if (watcher.subscription === subscription && list.length >= watcher.count) {
          this.watchers.delete(watcher)
          watcher.resolve(list.slice())
        }
      }
      return
    }
    if (object.id !== undefined && object.id !== null) this.waiters.get(object.id)?.(message)
  }

  private awaitId(ids: Array<string | number>, label: string, timeoutMs: number): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        for (const id of ids) this.waiters.delete(id)
        reject(new Error(`no response to ${label} within ${timeoutMs} ms`))
      }, timeoutMs)
      const waiter: Waiter = (message) => {
        clearTimeout(timer)
        for (const id of ids) this.waiters.delete(id)
        resolve(message)
      }
      for (const id of ids) this.waiters.set(id, waiter)
    })
  }

  /** Sends a raw text frame (e.g. invalid JSON). */
  sendText(text: string): void {
    this.socket.send(text)
  }

  /** Sends one request and resolves with the whole response envelope. */
  response(method: string, params: unknown[] = [], timeoutMs = 5000): Promise<WireResponse> {
    const id = this.nextId++
    const answer = this.awaitId([id], method, timeoutMs)
    this.socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }))
    return answer as Promise<WireResponse>
  }

  /** Sends one request; resolves with its result or rejects with a {@link WireRPCError}. */
  async request<T = unknown>(method: string, params: unknown[] = [], timeoutMs = 5000): Promise<T> {
    const response = await this.response(method, params, timeoutMs)
    if (response.error !== undefined) throw new WireRPCError(response.error)
    return response.result as T
  }

  /** Sends a batch (one frame); resolves with the array response. Members get ids 'b<n>'. */
  batch(requests: Array<{ method: string; params?: unknown[] }>, timeoutMs = 5000): Promise<WireResponse[]> {
    const members = requests.map((request) => ({ jsonrpc: '2.0', id: `b${this.nextId++}`, method: request.method, params: request.params ?? [] }))
    const answer = this.awaitId(
      members.map((member) => member.id),
      'batch',
      timeoutMs,
    )
    this.socket.send(JSON.stringify(members))
    return answer as Promise<WireResponse[]>
  }

  /** `eth_subscribe` with `params`; resolves with the subscription id. */
  subscribe(...params: unknown[]): Promise<string> {
    return this.request<string>('eth_subscribe', params)
  }

  /** The results received so far for `subscription`. */
  notifications<T = unknown>(subscription: string): T[] {
    return (this.bySubscription.get(subscription) ?? []) as T[]
  }

  /** Resolves once `count` notifications of `subscription` have arrived (all of them so far); rejects after `timeoutMs`. */
  waitForNotifications<T = unknown>(subscription: string, count: number, timeoutMs = 3000): Promise<T[]> {
    const have = this.notifications<T>(subscription)
    if (have.length >= count) return Promise.resolve(have.slice())
    return new Promise((resolve, reject) => {
      const watcher: CountWatcher = {
        subscription,
        count,
        resolve: (list) => {
          clearTimeout(timer)
          resolve(list as T[])
        },
      }
      const timer = setTimeout(() => {
        this.watchers.delete(watcher)
        reject(new Error(`expected ${count} notifications of ${subscription} within ${timeoutMs} ms, got ${this.notifications(subscription).length}`))
      }, timeoutMs)
      this.watchers.add(watcher)
    })
  }

  /**
   * A round trip on this connection. The server writes to one ordered stream, so once the answer
   * is here every notification it sent before answering is here too.
   */
  async sync(): Promise<void> {
    await this.request('eth_chainId')
  }

  /** Closes cleanly and waits for the close. */
  close(): Promise<void> {
    if (this.closed || this.socket.readyState === WebSocket.CLOSED) return Promise.resolve()
    return new Promise((resolve) => {
      this.socket.once('close', () => resolve())
      this.socket.close()
    })
  }
}

/** Polls `condition` (each event-loop turn, no fixed sleeps) until it holds; rejects after `timeoutMs`. */
export async function until(condition: () => boolean, what: string, timeoutMs = 3000): Promise<void> {
  const deadline = performance.now() + timeoutMs
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setImmediate(resolve))
  }
}

/** One JSON-RPC call over HTTP POST; resolves with the whole response envelope. */
export async function httpResponse(url: string, method: string, params: unknown[] = []): Promise<WireResponse> {
  const reply = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  return (await reply.json()) as WireResponse
}

/** One JSON-RPC call over HTTP POST; resolves with the result or rejects with a {@link WireRPCError}. */
export async function httpRequest<T = unknown>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const response = await httpResponse(url, method, params)
  if (response.error !== undefined) throw new WireRPCError(response.error)
  return response.result as T
}
