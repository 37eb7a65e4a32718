/**
 * HTTP side of the fuzz spec: one POST with a deadline (a hang or a dropped socket fails the
 * property with a clear message), the JSON-RPC envelope oracle (geth's rpc/handler.go rules:
 * what a body is owed, with which id and which -32600/-32700 text), and a snapshot of the chain
 * state that bad input must not change.
 */
import { expect } from 'chai'

/** What one POST got back. */
export interface Reply {
  readonly status: number
  readonly text: string
  /** The parsed body; undefined for an empty body. */
  readonly json: unknown
}

/** How long any single request may take before the property fails as a hang. */
export const REQUEST_DEADLINE_MS = 10_000

/** POSTs `body` (sent as is) to `url` on the keep-alive pool of fetch. */
export async function post(url: string, body: string | Uint8Array, label = ''): Promise<Reply> {
  let response: Response
  let text: string
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      signal: AbortSignal.timeout(REQUEST_DEADLINE_MS),
    })
    text = await response.text()
  } catch (error) {
    expect.fail(`no answer within ${REQUEST_DEADLINE_MS} ms or the socket failed (${(error as Error).message}) for ${label || preview(body)}`)
  }
  expect(response.status, `HTTP status for ${label || preview(body)}`).to.equal(200)
  let json: unknown
  if (text !== '') {
    try {
      json = JSON.parse(text)
    } catch {
      expect.fail(`the reply is not JSON: ${text.slice(0, 200)} (request ${label || preview(body)})`)
    }
  }
  return { status: response.status, text, json }
}

/** A short description of a request body for failure messages. */
export function preview(body: string | Uint8Array): string {
  const text = typeof body === 'string' ? body : `bytes ${Buffer.from(body).toString('hex')}`
  return text.length > 300 ? `${text.slice(0, 300)}… (${text.length} chars)` : text
}

/** Calls `method` and returns its result (fails on an error reply). */
export async function rpc(url: string, method: string, params: unknown[] = []): Promise<unknown> {
  const reply = await post(url, JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }))
  const response = reply.json as { result?: unknown; error?: unknown }
  expect(response.error, `${method} ${JSON.stringify(params)}`).to.equal(undefined)
  return response.result
}

/** JSON-RPC error codes a malformed request may get: never -32603 (a bug) nor anything unknown. */
export const ALLOWED_CODES = [-32700, -32600, -32601, -32602, -32000]

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** geth accepts strings, numbers and null as ids. */
function isId(value: unknown): boolean {
  return value === null || typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))
}

/** One JSON-RPC response object. */
export interface ResponseObject {
  jsonrpc: '2.0'
  id: unknown
  result?: unknown
  error?: { code: number; message: string; data?: unknown }
}

/** Checks a JSON-RPC response object: jsonrpc, id, exactly one of result/error, a sane error. */
export function expectResponseObject(value: unknown, label: string): asserts value is ResponseObject {
  expect(isPlainObject(value), `${label}: a response object, got ${JSON.stringify(value)?.slice(0, 200)}`).to.equal(true)
  const response = value as Record<string, unknown>
  expect(response.jsonrpc, `${label}: jsonrpc`).to.equal('2.0')
  expect(Object.hasOwn(response, 'id'), `${label}: has an id`).to.equal(true)
  const hasResult = Object.hasOwn(response, 'result')
  const hasError = Object.hasOwn(response, 'error')
  expect(hasResult !== hasError, `${label}: exactly one of result and error in ${JSON.stringify(response).slice(0, 200)}`).to.equal(true)
  expect(Object.keys(response).sort(), `${label}: keys`).to.deep.equal(['error', 'id', 'jsonrpc', 'result'].filter((key) => Object.hasOwn(response, key)))
  if (hasError) {
    const error = response.error as Record<string, unknown>
    expect(isPlainObject(error), `${label}: error object`).to.equal(true)
    expect(Number.isInteger(error.code), `${label}: integer code, got ${String(error.code)}`).to.equal(true)
    expect(error.message, `${label}: string message`).to.be.a('string')
    expect(error.code, `${label}: -32603 is an internal error (a crash path): ${String(error.message).slice(0, 300)}`).to.not.equal(-32603)
    expect(ALLOWED_CODES, `${label}: unexpected code ${String(error.code)} (${String(error.message).slice(0, 200)})`).to.include(error.code)
  }
}

/** The envelope error geth's handler gives one batch member or single request, if any. */
function envelopeError(message: unknown): string | undefined {
  if (!isPlainObject(message)) return 'invalid request: expected a JSON-RPC request object'
  if ('id' in message && !isId(message.id)) return 'invalid request: id must be a string, a number or null'
  if (message.jsonrpc !== '2.0') return 'invalid request: jsonrpc must be "2.0"'
  if (typeof message.method !== 'string') return 'invalid request: method must be a string'
  return undefined
}

/** Whether a message is a well-formed notification (no id): owed no reply. */
function isNotification(message: unknown): boolean {
  return isPlainObject(message) && !('id' in message) && envelopeError(message) === undefined
}

/** The id a reply to `message` must carry. */
function replyId(message: unknown): unknown {
  return isPlainObject(message) && 'id' in message && isId(message.id) ? message.id : null
}

/** Checks the reply to one message (single or batch member). */
function expectAnswerTo(message: unknown, response: unknown, knownMethods: ReadonlySet<string>, label: string): void {
  expectResponseObject(response, label)
  expect(response.id, `${label}: id echoed with its type`).to.deep.equal(replyId(message))
  const envelope = envelopeError(message)
  if (envelope !== undefined) {
    expect(response.error, `${label}: envelope error`).to.deep.equal({ code: -32600, message: envelope })
    return
  }
  const method = (message as { method: string }).method
  if (!knownMethods.has(method)) {
    expect(response.error, `${label}: unknown method`).to.deep.equal({ code: -32601, message: `the method ${method} does not exist/is not available` })
  }
}

/**
 * Checks the whole reply to a body: -32700 when it is not JSON; for a batch, geth's empty-batch
 * and batch-limit errors or one reply per member owed one, in order; for a single request, one
 * reply unless it is a notification. `request` is the parsed body, or `notJson` when it fails.
 */
export function expectReplyTo(request: unknown, notJson: boolean, reply: Reply, knownMethods: ReadonlySet<string>, label: string): void {
  if (notJson) {
    expectResponseObject(reply.json, label)
    expect(reply.json.id, `${label}: parse error id`).to.equal(null)
    expect(reply.json.error?.code, `${label}: parse error`).to.equal(-32700)
    expect(reply.json.error?.message, `${label}: parse error text`).to.match(/^parse error: /)
    return
  }
  if (Array.isArray(request)) {
    if (request.length === 0 || request.length > 1000) {
      expectResponseObject(reply.json, label)
      const message = request.length === 0 ? 'invalid request: empty batch' : 'invalid request: batch too large: at most 1000 requests'
      expect(reply.json, `${label}: batch error`).to.deep.equal({ jsonrpc: '2.0', id: null, error: { code: -32600, message } })
      return
    }
    const owed = request.filter((message) => !isNotification(message))
    if (owed.length === 0) {
      expect(reply.text, `${label}: an all-notification batch gets an empty body`).to.equal('')
      return
    }
    expect(Array.isArray(reply.json), `${label}: a batch reply is an array`).to.equal(true)
    const responses = reply.json as unknown[]
    expect(responses.length, `${label}: one reply per member owed one`).to.equal(owed.length)
    owed.forEach((message, i) => expectAnswerTo(message, responses[i], knownMethods, `${label} [member ${i}]`))
    return
  }
  if (isNotification(request)) {
    expect(reply.text, `${label}: a notification gets an empty body`).to.equal('')
    return
  }
  expectAnswerTo(request, reply.json, knownMethods, label)
}

/** Parses a body as the server does (UTF-8 with replacement, then JSON.parse). */
export function parseBody(body: string | Uint8Array): { request: unknown; notJson: boolean } {
  const text = typeof body === 'string' ? body : Buffer.from(body).toString('utf8')
  try {
    return { request: JSON.parse(text), notJson: false }
  } catch {
    return { request: undefined, notJson: true }
  }
}

/** The state bad input must not change, read over HTTP. */
export async function stateSnapshot(url: string, addresses: readonly string[]): Promise<Record<string, unknown>> {
  const snapshot: Record<string, unknown> = {
    blockNumber: await rpc(url, 'eth_blockNumber'),
    latestBlock: await rpc(url, 'eth_getBlockByNumber', ['latest', true]),
    pendingBlock: await rpc(url, 'eth_getBlockByNumber', ['pending', true]),
    gasPrice: await rpc(url, 'eth_gasPrice'),
    automine: await rpc(url, 'anvil_getAutomine'),
  }
  for (const address of addresses) {
    for (const tag of ['latest', 'pending']) {
      snapshot[`balance ${address} ${tag}`] = await rpc(url, 'eth_getBalance', [address, tag])
      snapshot[`nonce ${address} ${tag}`] = await rpc(url, 'eth_getTransactionCount', [address, tag])
      snapshot[`code ${address} ${tag}`] = await rpc(url, 'eth_getCode', [address, tag])
    }
  }
  return snapshot
}
