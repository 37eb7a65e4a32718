/**
 * One WebSocket connection: every RPC method, plus `eth_subscribe` / `eth_unsubscribe` for
 * subscriptions of its own. A subscription's notifications wait until its id has been sent. A
 * subscriber that stops reading is disconnected once its backlog passes
 * {@link MAX_BACKLOG_BYTES}, so it never holds the chain.
 */
import type { Socket } from 'node:net'
import type { WebSocket } from 'ws'
import { ParseError } from '../errors.ts'
import { jsonText } from '../rpc/json-text.ts'
import { answerText, errorResponse, handleJsonRpc, requestKind, type Dispatch } from './json-rpc.ts'
import type { SubscriptionRouter } from './subscription-router.ts'
import { turn } from './turn-budget.ts'

/** Unsent bytes a subscriber may accumulate before it is disconnected. */
const MAX_BACKLOG_BYTES = 16 * 1024 * 1024

/**
 * Each notification result's JSON, as UTF-8: a result is formatted once per event and shared by
 * its subscribers, so it is serialized and encoded once too, and every subscriber's socket is
 * handed the same bytes (a pending block with full transactions runs to megabytes: encoding or
 * copying it per subscriber was most of a tick's cost).
 */
const resultBytes = new WeakMap<object, Buffer>()

/**
 * A text message, whole or as the fragments of one (RFC 6455 §5.4: a text frame without FIN,
 * continuation frames, the last with FIN), which every client reassembles into one message.
 */
type Message = string | readonly (string | Buffer)[]

/** The `eth_subscription` message for `subscription` carrying `result`: a shared object's JSON goes as a fragment of its own. */
function notificationMessage(subscription: string, result: unknown): Message {
  const head = `{"jsonrpc":"2.0","method":"eth_subscription","params":{"subscription":${JSON.stringify(subscription)},"result":`
  if (typeof result !== 'object' || result === null) return `${head}${JSON.stringify(result)}}}`
  let body = resultBytes.get(result)
  if (body === undefined) {
    body = Buffer.from(jsonText(result))
    resultBytes.set(result, body)
  }
  return [head, body, '}}']
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
  const held = new Map<string, Message[]>()

  // The TCP socket under the WebSocket (ws keeps it as `_socket`). A turn's first message leaves
  // at once, in one write; the ones after it in the same turn (a tick's notifications) are held
  // corked until the turn ends and leave in one write rather than a syscall each.
  const transport = (socket as unknown as { _socket?: Socket })._socket
  let inBurst = false
  let corked = false
  const endBurst = (): void => {
    inBurst = false
    if (corked) {
      corked = false
      transport?.uncork()
    }
  }

  const write = (message: Message): void => {
    if (typeof message === 'string') return socket.send(message)
    const last = message.length - 1
    message.forEach((fragment, i) => socket.send(fragment, { binary: false, fin: i === last }))
  }

  const send = (message: Message): void => {
    if (socket.readyState !== socket.OPEN) return
    if (socket.bufferedAmount > MAX_BACKLOG_BYTES) {
      socket.terminate()
      return
    }
    if (transport === undefined) return write(message)
    if (inBurst) {
      if (!corked) {
        corked = true
        transport.cork()
      }
      return write(message)
    }
    inBurst = true
    process.nextTick(endBurst)
    transport.cork()
    write(message)
    transport.uncork()
  }

  const notify = (subscription: string, result: unknown): void => {
    const text = notificationMessage(subscription, result)
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
        // The connection went while the subscription was made: nothing will end it later.
        if (socket.readyState !== socket.OPEN) {
          router.end(id as string)
          return id
        }
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
    // Within this turn of the event loop's budget, or after the requests already waiting (ticks first).
    await turn(requestKind(body))
    if (socket.readyState !== socket.OPEN) return // gone while it waited: no one to answer
    const opened: string[] = []
    const answer = await handleJsonRpc(body, dispatcher(opened), batchTimeoutMs)
    if (answer !== undefined) send(answerText(answer))
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
