/**
 * The request head the HTTP fast lane (http-fast-lane.ts) serves, read from its text: a POST to
 * an origin-form target over HTTP/1.1, with Host and one Content-Length within the body limit,
 * no Transfer-Encoding, Expect or Upgrade, and every line well-formed. Any other head is left to
 * node:http, which judges it by its own rules.
 */
import type { IncomingHttpHeaders } from 'node:http'
import { MAX_BODY_BYTES } from './http-handler.ts'

/** A POST to an origin-form target (as clients send JSON-RPC); other forms go to node:http. */
const REQUEST_LINE = /^POST (\/[!-~]*) HTTP\/1\.1$/

/** A header field as RFC 9110 spells it (a token, then visible or obs-text characters); node:http judges any other. */
const HEADER_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*([\t\x20-\x7e\x80-\xff]*?)[ \t]*$/

/** The parts of a request head the fast lane acts on. */
export interface PlainPost {
  readonly url: string
  /** Host, Origin and Content-Type, as node:http's `request.headers` holds them. */
  readonly headers: IncomingHttpHeaders
  readonly bodyLength: number
  /** Whether the client asked to close the connection after the reply (`Connection: close`). */
  readonly close: boolean
}

/** The request `head` (its text up to the blank line) if the fast lane serves it, else undefined. */
export function parsePlainPost(head: string): PlainPost | undefined {
  const lines = head.split('\r\n')
  const url = REQUEST_LINE.exec(lines[0])?.[1]
  if (url === undefined) return undefined
  const headers: IncomingHttpHeaders = {}
  let bodyLength: number | undefined
  let connection = ''
  for (let i = 1; i < lines.length; i++) {
    const field = HEADER_LINE.exec(lines[i])
    if (field === null) return undefined
    const name = field[1].toLowerCase()
    const value = field[2]
    switch (name) {
      case 'host':
      case 'origin':
      case 'content-type':
        // node:http keeps the first of a repeated one: rare enough to leave to it.
        if (headers[name] !== undefined) return undefined
        headers[name] = value
        break
      case 'content-length':
        if (bodyLength !== undefined || !/^\d{1,9}$/.test(value)) return undefined
        bodyLength = Number(value)
        break
      case 'connection':
        connection += `,${value}`
        break
      case 'transfer-encoding':
      case 'expect':
      case 'upgrade':
        return undefined
    }
  }
  // node:http answers a HTTP/1.1 request without Host with 400 (requireHostHeader).
  if (headers.host === undefined || bodyLength === undefined || bodyLength > MAX_BODY_BYTES) return undefined
  return { url, headers, bodyLength, close: /(?:^|,)[ \t]*close[ \t]*(?:,|$)/i.test(connection) }
}
