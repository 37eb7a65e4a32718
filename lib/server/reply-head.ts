/**
 * A reply's head in the bytes node:http writes for `writeHead(status, headers)` with a
 * Content-Length (lib/server/http-handler.ts's replies): the status line, the given headers in
 * their order, then Date, Connection and, on a kept-alive connection, Keep-Alive.
 */
import { STATUS_CODES } from 'node:http'

/** The Date header's value, made at most once a second (node:http's utcDate cache). */
let date = ''
let dateUntil = 0

function httpDate(): string {
  const now = Date.now()
  if (now >= dateUntil) {
    date = new Date(now).toUTCString()
    dateUntil = now - (now % 1000) + 1000
  }
  return date
}

/**
 * The head of a reply with `status`, `headers` and a body of `length` bytes; `keepAliveTimeoutMs`
 * is the server's keep-alive timeout on a connection kept open (announced in whole seconds, none
 * for 0), undefined when the connection closes after it.
 */
export function replyHead(status: number, headers: Record<string, string>, length: number, keepAliveTimeoutMs: number | undefined): string {
  let head = `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n`
  for (const name in headers) head += `${name}: ${headers[name]}\r\n`
  head += `content-length: ${length}\r\nDate: ${httpDate()}\r\n`
  if (keepAliveTimeoutMs === undefined) return `${head}Connection: close\r\n\r\n`
  return `${head}Connection: keep-alive\r\n${keepAliveTimeoutMs > 0 ? `Keep-Alive: timeout=${Math.floor(keepAliveTimeoutMs / 1000)}\r\n` : ''}\r\n`
}
