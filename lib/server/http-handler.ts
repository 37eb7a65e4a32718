/**
 * JSON-RPC over HTTP: POST `/` with a single request or a batch, `Content-Type: application/json`
 * (geth's rule); JSON-RPC errors with HTTP 200; CORS for the allowed browser origins; a foreign
 * Host or Origin refused first (http-guard.ts); bodies up to {@link MAX_BODY_BYTES} (larger ones
 * are read to the end and answered with a JSON-RPC error, not a dropped socket).
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { InvalidRequestError, ParseError } from '../errors.ts'
import type { RequestGuard } from './http-guard.ts'
import { turn } from './turn-budget.ts'
import { writeAtTurnEnd } from './turn-end-writes.ts'
import { answerBytes, answerText, errorResponse, handleJsonRpc, requestKind, type AnswerText, type Endpoint } from './json-rpc.ts'

/** The largest request body served: 16 MiB (geth serves 5 MB). */
export const MAX_BODY_BYTES = 16 * 1024 * 1024

/** The media types geth serves JSON-RPC for (rpc/http.go acceptedContentTypes), parameters aside. */
const ACCEPTED_CONTENT_TYPES = new Set(['application/json', 'application/json-rpc', 'application/jsonrequest'])

/** geth's answer to any other Content-Type, with HTTP 415 (rpc/http.go validateRequest). */
const INVALID_CONTENT_TYPE = 'invalid content type, only application/json is supported'

/** What a preflight allows, beside the origin. */
const preflightHeaders = {
  'access-control-allow-methods': 'POST, GET, OPTIONS',
  'access-control-max-age': '86400',
}

/**
 * Sends a whole reply with its length, as Anvil (hyper) and geth (net/http, small bodies) do,
 * rather than Node's default chunked encoding; at the end of this turn of the event loop, with
 * the other replies finished in it (turn-end-writes.ts).
 */
function reply(response: ServerResponse, status: number, body: AnswerText, headers: Record<string, string>): void {
  const send = (): void => {
    const parts = answerBytes(body)
    let length = 0
    for (const part of parts) length += part.length
    response.writeHead(status, { ...headers, 'content-length': length })
    response.socket?.cork()
    for (let i = 0; i < parts.length - 1; i++) response.write(parts[i])
    response.end(parts.at(-1))
    response.socket?.uncork()
  }
  writeAtTurnEnd(send)
}

/** An error in plain text, as Go's http.Error writes it (geth's refusals). */
function replyText(response: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  reply(response, status, `${text}\n`, { ...headers, 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' })
}

/** Whether a Content-Type header names one of the accepted media types (`; charset=…` and the like aside). */
export function isJsonContentType(header: string | undefined): boolean {
  return header !== undefined && ACCEPTED_CONTENT_TYPES.has(header.split(';')[0].trim().toLowerCase())
}

function readBody(request: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    request.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size <= MAX_BODY_BYTES) chunks.push(chunk)
    })
    request.on('end', () => resolve(size > MAX_BODY_BYTES ? undefined : chunks.length === 1 ? chunks[0].toString('utf8') : Buffer.concat(chunks).toString('utf8')))
    request.on('error', reject)
  })
}

/** Serves one HTTP request at `endpoint` (404 where the path names none), if `guard` lets it in. */
export async function handleHttpRequest(request: IncomingMessage, response: ServerResponse, endpoint: Endpoint | undefined, guard: RequestGuard): Promise<void> {
  const refusal = guard.refusal(request.headers)
  if (refusal !== undefined) {
    replyText(response, refusal.status, refusal.text)
    return
  }
  // A path that is no endpoint: 404 with no body, as geth (node/rpcstack.go, checkPath) and Anvil answer.
  if (endpoint === undefined) {
    reply(response, 404, '', {})
    return
  }
  const cors = guard.corsHeaders(request.headers)
  const jsonHeaders = { ...cors, 'content-type': 'application/json' }
  if (request.method === 'OPTIONS') {
    const { headers } = request
    reply(response, 204, '', {
      ...cors,
      ...preflightHeaders,
      'access-control-allow-headers': headers['access-control-request-headers'] ?? 'content-type',
      // Chrome's Private Network Access: an allowed public page (say, an online IDE) may reach this local node.
      ...(headers.origin !== undefined && headers['access-control-request-private-network'] === 'true' ? { 'access-control-allow-private-network': 'true' } : {}),
    })
    return
  }
  if (request.method === 'GET' || request.method === 'HEAD') {
    reply(response, 200, 'preconf-devnet: POST JSON-RPC requests here, or open a WebSocket.\n', { ...cors, 'content-type': 'text/plain' })
    return
  }
  if (request.method !== 'POST') {
    reply(response, 405, JSON.stringify(errorResponse(null, new InvalidRequestError(`HTTP method ${request.method} is not supported; use POST`))), jsonHeaders)
    return
  }
  // A text/plain or form POST needs no CORS preflight: only JSON is served, so no page can send one that runs.
  if (!isJsonContentType(request.headers['content-type'])) {
    replyText(response, 415, INVALID_CONTENT_TYPE, cors)
    return
  }
  const text = await readBody(request)
  if (text === undefined) {
    reply(response, 200, JSON.stringify(errorResponse(null, new InvalidRequestError(`request body too large: limit ${MAX_BODY_BYTES} bytes`))), jsonHeaders)
    return
  }
  reply(response, 200, await answerJsonRpcPost(text, endpoint), jsonHeaders)
}

/**
 * The answer to a JSON-RPC POST's body, sent with HTTP 200 whatever it holds: a parse error, or
 * the responses (none for notifications alone). Handled within this turn of the event loop's
 * budget, or after the requests already waiting (ticks first).
 */
export async function answerJsonRpcPost(text: string, endpoint: Endpoint): Promise<AnswerText> {
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch (error) {
    return JSON.stringify(errorResponse(null, new ParseError((error as Error).message)))
  }
  await turn(requestKind(body))
  const answer = await handleJsonRpc(body, endpoint.dispatch, endpoint.batchTimeoutMs)
  return answer === undefined ? '' : answerText(answer)
}
