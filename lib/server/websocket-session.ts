/**
 * One WebSocket connection: every RPC method, plus `eth_subscribe` / `eth_unsubscribe`. A
 * subscription's notifications wait until its id has been sent. A subscriber that stops reading
 * is disconnected once its backlog passes {@link MAX_BACKLOG_BYTES}, so it never holds the chain.
 */
import type { WebSocket } from 'ws'
import type { Chain } from '../chain.ts'
import { InvalidParamsError, ParseError } from '../errors.ts'
import { errorResponse, handleJsonRpc, type Dispatch } from './json-rpc.ts'
import { subscribe, type Unsubscribe } from './subscriptions.ts'

/** Unsent bytes a subscriber may accumulate before it is disconnected. */
const MAX_BACKLOG_BYTES = 16 * 1024 * 1024

/** What a connection shares with its server. */
export interface SessionContext {
  readonly chain: Chain
  /** Every method but the subscription ones. */
  readonly dispatch: Dispatch
  /** A new subscription id, unique on the server (16 bytes of hex like geth's, from a counter). */
  readonly nextSubscriptionId: () => `0x${string}`
  /** Hears the subscription methods too (the activity log). */
  readonly onRequest?: (method: string) => void
}

/** Serves `socket` until it closes. */
export function serveWebSocket(socket: WebSocket, { chain, dispatch, nextSubscriptionId, onRequest }: SessionContext): void {
  const subscriptions = new Map<string, Unsubscribe>()
  /** Notifications of subscriptions whose id is not sent yet. */
  const held = new Map<string, string[]>()

  const send = (text: string): void => {
    if (socket.readyState !== socket.OPEN) return
    if (socket.bufferedAmount > MAX_BACKLOG_BYTES) {
      socket.terminate()
      return
    }
    socket.send(text)
  }

  /** Answers one message's requests; subscriptions it opens are recorded in `opened`. */
  const dispatcher =
    (opened: string[]): Dispatch =>
    async (request) => {
      if (request.method === 'eth_subscribe') {
        onRequest?.(request.method)
        const id = nextSubscriptionId()
        const unsubscribe = subscribe(chain, request.params, (result) => {
          const text = JSON.stringify({ jsonrpc: '2.0', method: 'eth_subscription', params: { subscription: id, result } })
          const waiting = held.get(id)
          if (waiting === undefined) send(text)
          else waiting.push(text)
        })
        held.set(id, [])
        subscriptions.set(id, unsubscribe)
        opened.push(id)
        return id
      }
      if (request.method === 'eth_unsubscribe') {
        onRequest?.(request.method)
        const [id] = Array.isArray(request.params) ? request.params : []
        if (typeof id !== 'string') throw new InvalidParamsError('invalid argument 0 (subscription id): expected a string')
        const unsubscribe = subscriptions.get(id.toLowerCase())
        if (unsubscribe === undefined) return false
        unsubscribe()
        subscriptions.delete(id.toLowerCase())
        held.delete(id.toLowerCase())
        return true
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
    const answer = await handleJsonRpc(body, dispatcher(opened))
    if (answer !== undefined) send(JSON.stringify(answer))
    for (const id of opened) {
      const waiting = held.get(id) ?? []
      held.delete(id)
      for (const text of waiting) send(text)
    }
  })

  // Protocol errors (bad frames, oversized messages): ws closes the connection itself.
  socket.on('error', () => {})

  socket.on('close', () => {
    for (const unsubscribe of subscriptions.values()) unsubscribe()
    subscriptions.clear()
    held.clear()
  })
}
