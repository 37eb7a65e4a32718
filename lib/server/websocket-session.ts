/**
 * One WebSocket connection: every RPC method, plus `eth_subscribe` / `eth_unsubscribe` for
 * subscriptions of its own. A subscription's notifications wait until its id has been sent. A
 * subscriber that stops reading is disconnected once its backlog passes
 * {@link MAX_BACKLOG_BYTES}, so it never holds the chain.
 */
import type { Socket } from 'node:net'
import type { WebSocket } from 'ws'
import { ParseError } from '../errors.ts'
import { errorResponse, handleJsonRpc, type Dispatch } from './json-rpc.ts'
import type { SubscriptionRouter } from './subscription-router.ts'

/** Unsent bytes a subscriber may accumulate before it is disconnected. */
const MAX_BACKLOG_BYTES = 16 * 1024 * 1024

/** Each notification result's JSON: a result is formatted once per event and shared by its subscribers, so it is serialized once too. */
const resultJson = new WeakMap<object, string>()

/** The `eth_subscription` message for `subscription` carrying `result`. */
function notificationText(subscription: string, result: unknown): string {
  let json: string
  if (typeof result === 'object' && result !== null) {
    json = resultJson.get(result) ?? JSON.stringify(result)
    resultJson.set(result, json)
  } else {
    json = JSON.stringify(result)
  }
  return `{"jsonrpc":"2.0","method":"eth_subscription","params":{"subscription":${JSON.stringify(subscription)},"result":${json}}}`
}

/** What a connection shares with its server. */
export interface SessionContext {
  /** Every method, the subscription ones included. */
  readonly dispatch: Dispatch
  /** Where the chain's notifications are routed to their connection. */
  readonly router: SubscriptionRouter
  /** A batch's time budget (ms): see `handleJsonRpc`. */
  readonly batchTimeoutMs: number
}

/** Serves `socket` until it closes. */
export function serveWebSocket(socket: WebSocket, { dispatch, router, batchTimeoutMs }: SessionContext): void {
  /** This connection's subscriptions; those whose id is sent deliver at once, the others are held. */
  const owned = new Set<string>()
  const announced = new Set<string>()
  const held = new Map<string, string[]>()

  // The TCP socket under the WebSocket (ws keeps it as `_socket`): corked while a burst of
  // messages is sent, so a tick's notifications leave in one write rather than a syscall each.
  const transport = (socket as unknown as { _socket?: Socket })._socket
  let corked = false
  const uncork = (): void => {
    corked = false
    transport?.uncork()
  }

  const send = (text: string): void => {
    if (socket.readyState !== socket.OPEN) return
    if (socket.bufferedAmount > MAX_BACKLOG_BYTES) {
      socket.terminate()
      return
    }
    if (!corked && transport !== undefined) {
      corked = true
      transport.cork()
      process.nextTick(uncork)
    }
    socket.send(text)
  }

  const notify = (subscription: string, result: unknown): void => {
    const text = notificationText(subscription, result)
    if (announced.has(subscription)) send(text)
    else held.set(subscription, [...(held.get(subscription) ?? []), text])
  }

  const forget = (id: string): void => {
    owned.delete(id)
    announced.delete(id)
    held.delete(id)
  }

  /** Answers one message's requests; subscriptions it opens are recorded in `opened`. */
  const dispatcher =
    (opened: string[]): Dispatch =>
    async (request) => {
      if (request.method === 'eth_subscribe') {
        const id = await router.claim(() => dispatch(request), notify)
        owned.add(id as string)
        opened.push(id as string)
        return id
      }
      if (request.method === 'eth_unsubscribe') {
        const [id] = Array.isArray(request.params) ? request.params : []
        // Another connection's subscription is not this one's to end (Anvil answers false).
        if (typeof id === 'string' && !owned.has(id.toLowerCase())) return false
        const result = await dispatch(request)
        if (typeof id === 'string') {
          forget(id.toLowerCase())
          router.release(id.toLowerCase())
        }
        return result
      }
      return dispatch(request)
    }

  socket.on('message', async (data) => {
    let body: unknown
    try {
      body = JSON.parse(data.toString())
    } catch (error) {
      send(JSON.stringify(errorResponse(null, new ParseError((error as Error).message))))
      return
    }
    const opened: string[] = []
    const answer = await handleJsonRpc(body, dispatcher(opened), batchTimeoutMs)
    if (answer !== undefined) send(JSON.stringify(answer))
    for (const id of opened) {
      announced.add(id)
      for (const text of held.get(id) ?? []) send(text)
      held.delete(id)
    }
  })

  // Protocol errors (bad frames, oversized messages): ws closes the connection itself.
  socket.on('error', () => {})

  socket.on('close', () => {
    for (const id of [...owned]) {
      forget(id)
      router.end(id)
    }
  })
}
