/**
 * JSON-RPC over HTTP: POST `/` with a single request or a batch; JSON-RPC errors with HTTP 200;
 * CORS for browser dApps; bodies up to {@link MAX_BODY_BYTES} (larger ones are read to the end
 * and answered with a JSON-RPC error, not a dropped socket).
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { InvalidRequestError, ParseError } from '../errors.ts'
import { errorResponse, handleJsonRpc, type Dispatch } from './json-rpc.ts'

/** The largest request body served: 16 MiB (geth serves 5 MB). */
const MAX_BODY_BYTES = 16 * 1024 * 1024

const corsHeaders = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'POST, GET, OPTIONS',
  'access-control-max-age': '86400',
}
const jsonHeaders = { ...corsHeaders, 'content-type': 'application/json' }

function reply(response: ServerResponse, status: number, body: string, headers: Record<string, string> = jsonHeaders): void {
  response.writeHead(status, headers)
  response.end(body)
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

/** Serves one HTTP request with `dispatch`. */
export async function handleHttpRequest(request: IncomingMessage, response: ServerResponse, dispatch: Dispatch): Promise<void> {
  if (request.method === 'OPTIONS') {
    reply(response, 204, '', { ...corsHeaders, 'access-control-allow-headers': request.headers['access-control-request-headers'] ?? 'content-type' })
    return
  }
  if (request.method === 'GET' || request.method === 'HEAD') {
    reply(response, 200, 'preconf-devnet: POST JSON-RPC requests here, or open a WebSocket.\n', { ...corsHeaders, 'content-type': 'text/plain' })
    return
  }
  if (request.method !== 'POST') {
    reply(response, 405, JSON.stringify(errorResponse(null, new InvalidRequestError(`HTTP method ${request.method} is not supported; use POST`))))
    return
  }
  const text = await readBody(request)
  if (text === undefined) {
    reply(response, 200, JSON.stringify(errorResponse(null, new InvalidRequestError(`request body too large: limit ${MAX_BODY_BYTES} bytes`))))
    return
  }
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch (error) {
    reply(response, 200, JSON.stringify(errorResponse(null, new ParseError((error as Error).message))))
    return
  }
  const answer = await handleJsonRpc(body, dispatch)
  reply(response, 200, answer === undefined ? '' : JSON.stringify(answer))
}
