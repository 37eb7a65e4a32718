/**
 * JSON-RPC 2.0 envelopes, as geth answers them, for both transports: single requests and
 * batches (an empty batch is one -32600 error; each invalid member gets its own error in
 * place; notifications get no reply), with ids echoed as sent. A batch runs its members in
 * order within a time budget; those not started when it is spent get geth's `request timed out`.
 */
import { InvalidRequestError, RequestTimeoutError, toRPCError, type RPCErrorObject } from '../errors.ts'
import { plainStringJson } from '../rpc/json-text.ts'
import { SUBMISSION_METHODS } from '../rpc/methods.ts'
import type { RequestArguments } from '../rpc/request.ts'
import type { RequestKind } from './turn-budget.ts'

/** A request id: geth accepts strings, numbers and null. */
export type JsonRpcId = string | number | null

/** One JSON-RPC response. */
export type JsonRpcResponse =
  | { readonly jsonrpc: '2.0'; readonly id: JsonRpcId; readonly result: unknown }
  | { readonly jsonrpc: '2.0'; readonly id: JsonRpcId; readonly error: RPCErrorObject }

/** Whether a request body (one request or a batch) submits a transaction. */
export function requestKind(body: unknown): RequestKind {
  const submits = (request: unknown): boolean => typeof request === 'object' && request !== null && SUBMISSION_METHODS.has((request as { method?: unknown }).method as string)
  return (Array.isArray(body) ? body.some(submits) : submits(body)) ? 'submission' : 'other'
}

/** Answers one request (the transport decides which methods exist). */
export type Dispatch = (request: RequestArguments) => Promise<unknown>

/** Where an HTTP request's JSON-RPC goes: its methods, and a batch's time budget (ms). */
export interface Endpoint {
  readonly dispatch: Dispatch
  readonly batchTimeoutMs: number
}

/** geth's default batch limit (BatchRequestLimit). */
const MAX_BATCH_SIZE = 1000

/** A reply's text: a string, or its parts in order, a long result's JSON among them as bytes kept for it (sent as they are). */
export type AnswerText = string | readonly (string | Buffer)[]

/**
 * The text of an answer (a response or a batch of them), as JSON.stringify writes it; a single
 * response whose result is a long string with its JSON kept (contract code) is given in parts.
 */
export function answerText(answer: JsonRpcResponse | readonly JsonRpcResponse[]): AnswerText {
  const { result } = answer as { result?: unknown }
  const json = typeof result === 'string' ? plainStringJson(result) : undefined
  if (json === undefined) return JSON.stringify(answer)
  return [`{"jsonrpc":"2.0","id":${JSON.stringify((answer as JsonRpcResponse).id)},"result":`, json, '}']
}

/** A reply's text as bytes, each part encoded once (measuring the text and then writing it would go over it twice). */
export function answerBytes(body: AnswerText): Buffer[] {
  return typeof body === 'string' ? [Buffer.from(body)] : body.map((part) => (typeof part === 'string' ? Buffer.from(part) : part))
}

/** An error response with `id`. */
export function errorResponse(id: JsonRpcId, error: unknown): JsonRpcResponse {
  return { jsonrpc: '2.0', id, error: toRPCError(error).toJSON() }
}

function isId(value: unknown): value is JsonRpcId {
  return value === null || typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))
}

async function handleMessage(message: unknown, dispatch: Dispatch): Promise<JsonRpcResponse | undefined> {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) {
    return errorResponse(null, new InvalidRequestError('expected a JSON-RPC request object'))
  }
  const { id, method, params, jsonrpc } = message as Record<string, unknown>
  const isNotification = !('id' in message)
  if (!isNotification && !isId(id)) return errorResponse(null, new InvalidRequestError('id must be a string, a number or null'))
  const replyId = isNotification ? null : (id as JsonRpcId)
  if (jsonrpc !== '2.0') return errorResponse(replyId, new InvalidRequestError('jsonrpc must be "2.0"'))
  if (typeof method !== 'string') return errorResponse(replyId, new InvalidRequestError('method must be a string'))
  try {
    const result = await dispatch({ method, params })
    return isNotification ? undefined : { jsonrpc: '2.0', id: replyId, result: result === undefined ? null : result }
  } catch (error) {
    return isNotification ? undefined : errorResponse(replyId, error)
  }
}

/** What a batch member met after the batch's time is up (a malformed one still gets its own error, a notification nothing). */
const timedOut: Dispatch = () => Promise.reject(new RequestTimeoutError())

/**
 * The reply to a parsed JSON body: one response, an array of them (a batch), or undefined when
 * nothing is owed (only notifications). A batch's members start one after another until
 * `batchTimeoutMs` (wall time) has passed; each later one is answered `request timed out`. A
 * member already running finishes (a call is time-boxed on its own, `callTimeoutMs`), so a batch
 * takes at most the budget and one member's time.
 */
export async function handleJsonRpc(body: unknown, dispatch: Dispatch, batchTimeoutMs = Number.POSITIVE_INFINITY): Promise<JsonRpcResponse | JsonRpcResponse[] | undefined> {
  if (!Array.isArray(body)) return handleMessage(body, dispatch)
  if (body.length === 0) return errorResponse(null, new InvalidRequestError('empty batch'))
  if (body.length > MAX_BATCH_SIZE) return errorResponse(null, new InvalidRequestError(`batch too large: at most ${MAX_BATCH_SIZE} requests`))
  const deadline = performance.now() + batchTimeoutMs
  const responses: JsonRpcResponse[] = []
  for (const message of body) {
    const response = await handleMessage(message, performance.now() < deadline ? dispatch : timedOut)
    if (response !== undefined) responses.push(response)
  }
  return responses.length === 0 ? undefined : responses
}
