/**
 * The fast lane for the request nearly every client sends: an HTTP/1.1 JSON POST with a
 * Content-Length, from an allowed Host and Origin. It is read straight off the socket and
 * answered with one write, in the bytes node:http would send (the same status line and headers,
 * Date, Connection and Keep-Alive included). node:http's request and response objects cost
 * ~19 µs a request on this project's VMs, a third of an eth_call's time over HTTP.
 *
 * Any other request (another method, a chunked or `Expect` body, an upgrade, a refused Host or
 * Origin, another Content-Type, a head node:http would reject or this lane does not parse, a
 * body over the limit, HTTP/1.0) goes to node:http from its first byte, and so does the rest of
 * its connection: everything but the fast lane's own requests keeps node's behaviour.
 */
import type { Socket } from 'node:net'
import type { RequestGuard } from './http-guard.ts'
import { answerJsonRpcPost, isJsonContentType } from './http-handler.ts'
import { answerBytes, type AnswerText, type Endpoint } from './json-rpc.ts'
import { parsePlainPost, type PlainPost } from './plain-post.ts'
import { replyHead } from './reply-head.ts'
import { writeAtTurnEnd } from './turn-end-writes.ts'

/** node:http's limit on a request head (`--max-http-header-size`): a longer one goes to node:http, which answers 431. */
const MAX_HEAD_BYTES = 16 * 1024

/** node:http's slack over the keep-alive timeout it announces (HTTP_SERVER_KEEP_ALIVE_TIMEOUT_BUFFER). */
const KEEP_ALIVE_SLACK_MS = 1000

/** node:http's answer to a request that took too long to arrive (requestTimeout, headersTimeout). */
const REQUEST_TIMEOUT_RESPONSE = 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n'

const HEAD_END = Buffer.from('\r\n\r\n')

/** A reply due on a connection, in its request's place; its answer once there is one. */
interface Reply {
  answer?: { status: number; headers: Record<string, string>; body: AnswerText }
  /** The client asked to close the connection after this reply. */
  readonly close: boolean
}

/** What a fast lane needs from its server. */
export interface FastLaneSettings {
  readonly guard: RequestGuard
  /** The endpoint serving a request's target (`/` or `/sealed`); undefined for another path, which node:http answers (404). */
  readonly endpointFor: (url: string) => Endpoint | undefined
  /** Gives a connection to node:http, its unread bytes back in the socket first. */
  readonly handOver: (socket: Socket) => void
  /** Milliseconds an idle kept-alive connection stays open (announced as `Keep-Alive: timeout=…`). */
  readonly keepAliveTimeoutMs: number
  /** Milliseconds a request may take to arrive, from its first byte (node:http's requestTimeout). */
  readonly requestTimeoutMs: number
  /** Called when a request starts and when its reply is written (or its connection is gone). */
  readonly onBusy: (delta: 1 | -1) => void
}

/** The fast lane of one server. */
export interface FastLane {
  /** Serves a new connection's plain JSON POSTs; hands it to node:http at its first other request. */
  accept(socket: Socket): void
  /** From now on every reply closes its connection; idle connections close at once. */
  closeIdle(): void
  /** Destroys every connection still on the fast lane. */
  destroyAll(): void
}

/** The fast lane of a server with `settings`. */
export function createFastLane(settings: FastLaneSettings): FastLane {
  const connections = new Set<FastConnection>()
  const lane = { settings, closing: false, connections }
  return {
    accept: (socket) => connections.add(new FastConnection(socket, lane)),
    closeIdle() {
      lane.closing = true
      for (const connection of connections) connection.closeIfIdle()
    },
    destroyAll() {
      for (const connection of connections) connection.destroy()
    },
  }
}

/** What each connection shares with its lane. */
interface LaneState {
  readonly settings: FastLaneSettings
  closing: boolean
  readonly connections: Set<FastConnection>
}

/** One connection on the fast lane: its requests parsed off the socket, its replies written in order. */
class FastConnection {
  /** No request has started to arrive yet. */
  private fresh = true
  /** The start of a request whose head has not all arrived. */
  private partialHead: Buffer | undefined
  /** A request whose body has not all arrived, and the body so far. */
  private partialBody: { request: PlainPost; bytes: Buffer; filled: number } | undefined
  /** When the request arriving now started to (performance.now()), for the request timeout. */
  private requestStart = 0
  /** Replies in request order; each is written once it and every one before it are answered. */
  private readonly replies: Reply[] = []
  private writeQueued = false
  /** The bytes of the first request node:http is to serve, once the replies before it are written. */
  private handOverFrom: Buffer | undefined
  /** No more requests are read: a reply closes the connection, or the client ended its side. */
  private done = false
  private readonly listeners: Record<'data' | 'end' | 'timeout' | 'drain' | 'close' | 'error', (chunk: Buffer) => void>

  constructor(
    private readonly socket: Socket,
    private readonly lane: LaneState,
  ) {
    this.listeners = {
      data: (chunk: Buffer) => this.read(chunk),
      end: () => this.clientEnded(),
      timeout: () => this.timedOut(),
      drain: () => {
        if (this.handOverFrom === undefined) this.socket.resume()
      },
      close: () => this.closed(),
      error: () => this.socket.destroy(),
    }
    for (const [event, listener] of Object.entries(this.listeners)) socket.on(event, listener)
    // node:http gives a connection's first request the request timeout from the moment it connects.
    socket.setTimeout(lane.settings.requestTimeoutMs)
  }

  /** Closes the connection now if it has nothing in flight or arriving. */
  closeIfIdle(): void {
    if (this.replies.length === 0 && !this.arriving()) this.socket.destroy()
  }

  /** Destroys the connection, whatever it has in flight. */
  destroy(): void {
    this.socket.destroy()
  }

  private arriving(): boolean {
    return this.partialHead !== undefined || this.partialBody !== undefined
  }

  /** Reads `chunk`: the rest of a partial request, then whole requests, then the start of the next. */
  private read(chunk: Buffer): void {
    if (this.done || this.handOverFrom !== undefined) return
    this.fresh = false
    let data = chunk
    let at = 0
    /** Whether `data` from `at` begins a request (its time starts now) rather than continuing one. */
    let startsRequest = this.partialHead === undefined
    const waiting = this.partialBody
    if (waiting !== undefined) {
      at = chunk.copy(waiting.bytes, waiting.filled)
      waiting.filled += at
      if (waiting.filled < waiting.bytes.length) return this.armTimer()
      this.partialBody = undefined
      this.serve(waiting.request, waiting.bytes.toString('utf8'))
    } else if (this.partialHead !== undefined) {
      data = Buffer.concat([this.partialHead, chunk])
      this.partialHead = undefined
    }
    while (at < data.length && !this.done) {
      if (startsRequest) this.requestStart = performance.now()
      startsRequest = true
      const headEnd = data.indexOf(HEAD_END, at)
      if (headEnd === -1 || headEnd - at > MAX_HEAD_BYTES) {
        if (headEnd === -1 && data.length - at <= MAX_HEAD_BYTES) this.partialHead = Buffer.from(data.subarray(at))
        else this.handOver(data.subarray(at))
        break
      }
      const request = parsePlainPost(data.toString('latin1', at, headEnd))
      const { guard, endpointFor } = this.lane.settings
      if (request === undefined || guard.refusal(request.headers) !== undefined || !isJsonContentType(request.headers['content-type']) || endpointFor(request.url) === undefined) {
        this.handOver(data.subarray(at))
        break
      }
      const bodyStart = headEnd + HEAD_END.length
      const bodyEnd = bodyStart + request.bodyLength
      if (bodyEnd > data.length) {
        const bytes = Buffer.allocUnsafe(request.bodyLength)
        this.partialBody = { request, bytes, filled: data.copy(bytes, 0, bodyStart) }
        break
      }
      this.serve(request, data.toString('utf8', bodyStart, bodyEnd))
      at = bodyEnd
    }
    this.armTimer()
  }

  /** Answers `request` with `body`: its reply takes its place in the order at once, and is written when it is its turn. */
  private serve(request: PlainPost, body: string): void {
    const { settings } = this.lane
    const reply: Reply = { close: request.close }
    this.replies.push(reply)
    if (request.close) this.done = true
    settings.onBusy(1)
    const headers = { ...settings.guard.corsHeaders(request.headers), 'content-type': 'application/json' }
    // read() lets in only requests whose path names an endpoint.
    answerJsonRpcPost(body, settings.endpointFor(request.url)!).then(
      (answer) => this.answered(reply, 200, headers, answer),
      (error: unknown) => this.answered(reply, 500, {}, String(error)),
    )
  }

  private answered(reply: Reply, status: number, headers: Record<string, string>, body: AnswerText): void {
    reply.answer = { status, headers, body }
    if (!this.writeQueued) {
      this.writeQueued = true
      writeAtTurnEnd(() => this.writeAnswered())
    }
  }

  /** Writes the answered replies at the front of the order, in one write to the socket. */
  private writeAnswered(): void {
    this.writeQueued = false
    const { socket } = this
    if (socket.destroyed || socket.writableEnded) return
    socket.cork()
    while (this.replies.length > 0 && this.replies[0].answer !== undefined) {
      const reply = this.replies.shift()!
      const { status, headers, body } = reply.answer!
      // Once the server is closing, every reply closes its connection (node:http's rule too).
      const close = reply.close || this.lane.closing
      const parts = answerBytes(body)
      let length = 0
      for (const part of parts) length += part.length
      socket.write(replyHead(status, headers, length, close ? undefined : this.lane.settings.keepAliveTimeoutMs))
      for (const part of parts) socket.write(part)
      this.lane.settings.onBusy(-1)
      if (close) {
        // As node:http: the rest of the connection is dropped once this reply is written (the replies still due are settled on close).
        this.done = true
        socket.destroySoon()
        break
      }
    }
    socket.uncork()
    if (socket.writableNeedDrain) socket.pause()
    if (this.replies.length > 0 || socket.writableEnded) return
    if (this.handOverFrom !== undefined) this.giveToNode()
    else if (this.done) socket.end()
    else this.armTimer()
  }

  /** Leaves the connection, from `unread` on, to node:http: now, or once the replies before it are written. */
  private handOver(unread: Buffer): void {
    this.handOverFrom = Buffer.from(unread)
    this.socket.pause()
    if (this.replies.length === 0) this.giveToNode()
  }

  private giveToNode(): void {
    const { socket } = this
    for (const [event, listener] of Object.entries(this.listeners)) socket.removeListener(event, listener)
    socket.setTimeout(0)
    this.lane.connections.delete(this)
    socket.unshift(this.handOverFrom!)
    this.lane.settings.handOver(socket)
    socket.resume()
  }

  /** The request timeout while a request arrives, none while replies are due, else the keep-alive timeout. */
  private armTimer(): void {
    const { keepAliveTimeoutMs, requestTimeoutMs } = this.lane.settings
    if (this.arriving()) this.socket.setTimeout(Math.max(1, requestTimeoutMs - (performance.now() - this.requestStart)))
    else if (this.replies.length > 0 || keepAliveTimeoutMs === 0) this.socket.setTimeout(0)
    else this.socket.setTimeout(keepAliveTimeoutMs + KEEP_ALIVE_SLACK_MS)
  }

  private timedOut(): void {
    if (this.arriving() || this.fresh) this.socket.end(REQUEST_TIMEOUT_RESPONSE)
    else if (this.replies.length === 0) this.socket.destroy()
  }

  /** The client will send nothing more: the connection ends once the replies due are written (a partial request is dropped, as node:http does). */
  private clientEnded(): void {
    this.done = true
    this.partialHead = undefined
    this.partialBody = undefined
    if (this.replies.length === 0) this.socket.end()
  }

  private closed(): void {
    this.lane.connections.delete(this)
    for (let i = 0; i < this.replies.length; i++) this.lane.settings.onBusy(-1)
    this.replies.length = 0
  }
}
