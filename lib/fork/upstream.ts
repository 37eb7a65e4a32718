/**
 * The JSON-RPC client a forked chain reads its upstream node through. Calls made in the same
 * macrotask turn go out as one batch (falling back to single calls for an upstream that refuses
 * batches), identical calls in flight share one upstream call, at most `maxConcurrency` HTTP
 * requests run at once over a keep-alive agent, and transient failures (connection errors,
 * timeouts, HTTP 429/502/503/504, rate-limit errors) are retried with exponential back-off.
 */
import http from 'node:http'
import https from 'node:https'
import type { Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib'
import { InvalidInputError, RPCError, UpstreamError, toRPCError } from '../errors.ts'
import { describe, isRateLimit, isResponse, parseJSON, snippet, type Response } from './upstream-replies.ts'

/** Options of an upstream client. */
export interface UpstreamOptions {
  /** The upstream node's JSON-RPC endpoint, `http://` or `https://`. */
  readonly url: string
  /** Most HTTP requests in flight at once (default 8). */
  readonly maxConcurrency?: number
  /** Most calls in one JSON-RPC batch (default 100). */
  readonly maxBatchSize?: number
  /** Per HTTP request (default 20_000 ms). */
  readonly timeoutMs?: number
  /** Retries of a transient failure (default 4), with exponential back-off from retryDelayMs (default 200 ms, doubling, capped at 5 s). */
  readonly retries?: number
  /** The first back-off delay in ms (default 200). */
  readonly retryDelayMs?: number
}

/**
 * One upstream call in flight, shared by identical concurrent requests: `key` is the method's and
 * the params' JSON (identical calls have the same key), `body` the request object as JSON,
 * `failures` the transient failures so far, `timer` the back-off of a retry waiting to be queued.
 */
type Call = {
  readonly id: number
  readonly key: string
  readonly method: string
  readonly body: string
  readonly promise: Promise<unknown>
  readonly settle: { resolve(result: unknown): void; reject(error: RPCError): void }
  failures: number
  timer: NodeJS.Timeout | undefined
}

/** What an HTTP request came back with. */
type Reply = { readonly status: number; readonly statusText: string; readonly text: string }


const MAX_BACKOFF_MS = 5_000
/** The streams that decode a response's Content-Encoding. */
const DECODERS: Partial<Record<string, () => Transform>> = { gzip: createGunzip, 'x-gzip': createGunzip, deflate: createInflate, br: createBrotliDecompress }
const TRANSIENT_STATUS = new Set([429, 502, 503, 504])
const TRANSIENT_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'ECONNABORTED'])

/** A batching, deduplicating, retrying JSON-RPC client of one upstream node. */
export class Upstream {
  /** The upstream endpoint, as given. */
  readonly url: string
  /** The endpoint as error messages show it: its origin, and `/…` for a path (API keys often sit there). */
  readonly shownUrl: string
  private readonly endpoint: URL
  private readonly agent: http.Agent
  private readonly send: typeof http.request
  private readonly limits: Required<Omit<UpstreamOptions, 'url'>>
  private readonly counts = { httpRequests: 0, calls: 0 }
  /** Unsettled calls by key (an identical request joins the call), and those waiting for an HTTP request, in order. */
  private readonly inFlight = new Map<string, Call>()
  private readonly queue: Call[] = []
  private active = 0
  private nextId = 0
  private scheduled = false
  /** Cleared for good once the upstream refuses a batch. */
  private batching = true
  private closed = false

  constructor(options: UpstreamOptions) {
    this.url = options.url
    if (!/^https?:\/\//i.test(options.url) || !URL.canParse(options.url)) throw new InvalidInputError(`invalid upstream url ${options.url}: expected an http:// or https:// url`)
    this.endpoint = new URL(options.url)
    this.shownUrl = `${this.endpoint.origin}${this.endpoint.pathname.length > 1 || this.endpoint.search !== '' ? '/…' : ''}`
    const limits = { maxConcurrency: 8, maxBatchSize: 100, timeoutMs: 20_000, retries: 4, retryDelayMs: 200 }
    for (const name of Object.keys(limits) as (keyof typeof limits)[]) {
      const value = (limits[name] = options[name] ?? limits[name])
      const min = name === 'retries' || name === 'retryDelayMs' ? 0 : 1
      if (!Number.isSafeInteger(value) || value < min) throw new InvalidInputError(`invalid upstream option ${name}: expected an integer of at least ${min}, got ${value}`)
    }
    this.limits = limits
    const secure = this.endpoint.protocol === 'https:'
    this.agent = new (secure ? https.Agent : http.Agent)({ keepAlive: true, maxSockets: limits.maxConcurrency })
    this.send = secure ? https.request : http.request
  }

  /** Counts since creation: HTTP requests sent (a batch is one) and JSON-RPC calls sent (a retry counts again). */
  get stats(): { readonly httpRequests: number; readonly calls: number } {
    return { ...this.counts }
  }

  /** One JSON-RPC call; resolves to its result, or rejects with an {@link RPCError}. */
  request<T = unknown>(method: string, params: readonly unknown[]): Promise<T> {
    if (this.closed) return Promise.reject(this.failure(method, 'the upstream client is closed'))
    let key: string
    try {
      key = `${JSON.stringify(method)},"params":${JSON.stringify(params)}`
    } catch (error) {
      return Promise.reject(toRPCError(error))
    }
    const shared = this.inFlight.get(key)
    if (shared !== undefined) return shared.promise as Promise<T>
    let settle!: Call['settle']
    const promise = new Promise<unknown>((resolve, reject) => (settle = { resolve, reject }))
    const id = ++this.nextId
    const call: Call = { id, key, method, body: `{"jsonrpc":"2.0","id":${id},"method":${key}}`, promise, settle, failures: 0, timer: undefined }
    this.inFlight.set(key, call)
    this.queue.push(call)
    this.schedule()
    return promise as Promise<T>
  }

  /** Closes kept-alive sockets and rejects every unsettled call; later requests reject. */
  close(): void {
    if (this.closed) return
    this.closed = true
    for (const call of [...this.inFlight.values()]) this.settle(call, this.failure(call.method, 'the upstream client is closed'))
    this.agent.destroy()
  }

  /** Sends the queued calls once the current macrotask turn is over, so its calls go together. */
  private schedule(): void {
    if (this.scheduled) return
    this.scheduled = true
    setImmediate(() => ((this.scheduled = false), this.pump()))
  }

  /** Starts HTTP requests for the queued calls while there is room, in order. */
  private pump(): void {
    while (!this.closed && this.active < this.limits.maxConcurrency && this.queue.length > 0) {
      const calls = this.queue.splice(0, this.batching ? this.limits.maxBatchSize : 1)
      this.active++
      this.exchange(calls)
        .catch((error: unknown) => calls.forEach((call) => this.settle(call, toRPCError(error))))
        .finally(() => {
          this.active--
          this.schedule()
        })
    }
  }

  /** One HTTP request carrying `calls` (a plain object for one, a batch for more). */
  private async exchange(calls: Call[]): Promise<void> {
    this.counts.httpRequests++
    this.counts.calls += calls.length
    let reply: Reply
    try {
      reply = await this.post(calls.length === 1 ? calls[0].body : `[${calls.map((call) => call.body).join(',')}]`)
    } catch (error) {
      const transient = TRANSIENT_CODES.has(String((error as { code?: unknown }).code))
      for (const call of calls) {
        if (transient) this.retry(call, describe(error))
        else this.fail(call, describe(error))
      }
      return
    }
    if (TRANSIENT_STATUS.has(reply.status)) {
      for (const call of calls) this.retry(call, `HTTP ${reply.status} ${reply.statusText}`.trimEnd())
      return
    }
    const parsed = parseJSON(reply.text)
    if (calls.length > 1) return this.answerBatch(calls, parsed)
    if (parsed !== undefined && isResponse(parsed.value)) this.answer(calls[0], parsed.value)
    else if (reply.status < 200 || reply.status >= 300) this.fail(calls[0], `HTTP ${reply.status} ${reply.statusText}${reply.text === '' ? '' : `: ${snippet(reply.text)}`}`)
    else this.fail(calls[0], `${parsed === undefined ? 'invalid JSON in the response' : 'not a JSON-RPC response'}: ${snippet(reply.text)}`)
  }

  /** Matches a batch's responses by id; anything but an array answering some of them is a refusal of batches. */
  private answerBatch(calls: Call[], parsed: { value: unknown } | undefined): void {
    const byId = new Map(calls.map((call) => [call.id, call]))
    const responses = parsed !== undefined && Array.isArray(parsed.value) ? (parsed.value as unknown[]) : []
    const answered = new Map<Call, unknown>()
    for (const response of responses) {
      const call = typeof response === 'object' && response !== null ? byId.get((response as Response).id as number) : undefined
      if (call !== undefined && !answered.has(call)) answered.set(call, response)
    }
    if (answered.size === 0) {
      const single = parsed?.value
      if (isResponse(single) && single.error !== undefined && isRateLimit(single.error)) {
        for (const call of calls) this.retry(call, `${single.error.code} ${single.error.message}`)
        return
      }
      this.batching = false
      this.queue.unshift(...calls)
      return
    }
    for (const call of calls) {
      const response = answered.get(call)
      if (response === undefined) this.fail(call, 'no response to this call in the batch')
      else if (!isResponse(response)) this.fail(call, `not a JSON-RPC response: ${snippet(JSON.stringify(response))}`)
      else this.answer(call, response)
    }
  }

  /** Settles a call with its response: the result, a rate limit to retry, or the upstream's own error. */
  private answer(call: Call, response: Response): void {
    const error = response.error
    if (error === undefined) this.settle(call, undefined, response.result)
    else if (isRateLimit(error)) this.retry(call, `${error.code} ${error.message}`)
    else this.settle(call, new RPCError(error.code, error.message, { data: error.data }))
  }

  /**
   * Retries a call after a transient failure with back-off, or fails it once the retries are
   * spent. The back-off keeps the process alive (a CLI starting a fork, or a script awaiting
   * one, would otherwise exit mid-wait with nothing said); `close` settles the call and clears it.
   */
  private retry(call: Call, reason: string): void {
    if (this.closed) return
    call.failures++
    if (call.failures > this.limits.retries) return this.fail(call, `${reason} (after ${call.failures} attempt${call.failures === 1 ? '' : 's'})`)
    const delay = Math.min(this.limits.retryDelayMs * 2 ** (call.failures - 1), MAX_BACKOFF_MS)
    call.timer = setTimeout(() => {
      call.timer = undefined
      this.queue.push(call)
      this.schedule()
    }, delay)
  }

  private fail(call: Call, reason: string): void {
    this.settle(call, this.failure(call.method, reason))
  }

  /** -32000 naming the upstream (without its path, which may hold an API key) and the call. */
  private failure(method: string, reason: string): RPCError {
    return new UpstreamError(`upstream ${this.shownUrl} failed on ${method}: ${reason}`)
  }

  /** Settles a call once: the first outcome wins, and an identical request after it starts afresh. */
  private settle(call: Call, error: RPCError | undefined, result?: unknown): void {
    if (this.inFlight.get(call.key) !== call) return
    this.inFlight.delete(call.key)
    clearTimeout(call.timer)
    if (error === undefined) call.settle.resolve(result)
    else call.settle.reject(error)
  }

  /** POSTs `body`; resolves to the status and the decoded body, rejects on a network error or the timeout. */
  private post(body: string): Promise<Reply> {
    return new Promise((resolve, reject) => {
      let timedOut = false
      const onError = (error: unknown) => {
        clearTimeout(timer)
        reject(timedOut ? Object.assign(new Error(`no response within ${this.limits.timeoutMs} ms`), { code: 'ETIMEDOUT' }) : error)
      }
      const headers = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'accept-encoding': 'gzip' }
      const request = this.send(this.endpoint, { method: 'POST', agent: this.agent, headers }, (response) => {
        const chunks: Buffer[] = []
        const collect = async (source: AsyncIterable<Buffer>) => { for await (const chunk of source) chunks.push(chunk) }
        const decoder = DECODERS[response.headers['content-encoding']?.trim().toLowerCase() ?? '']?.()
        const done = decoder === undefined ? pipeline(response, collect) : pipeline(response, decoder, collect)
        done.then(() => {
          clearTimeout(timer)
          resolve({ status: response.statusCode ?? 0, statusText: response.statusMessage ?? '', text: Buffer.concat(chunks).toString('utf8') })
        }, onError)
      })
      const timer = setTimeout(() => ((timedOut = true), request.destroy()), this.limits.timeoutMs)
      request.on('error', onError)
      request.end(body)
    })
  }
}
