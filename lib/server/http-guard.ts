/**
 * Who may talk to the node, checked on every HTTP request and WebSocket upgrade: the Host header
 * against the allowed names (geth's virtual hosts, node/rpcstack.go), the Origin header against
 * the allowed origins (geth's WebSocket origin rules, rpc/websocket.go), and the CORS headers an
 * allowed browser origin gets back.
 */
import type { IncomingHttpHeaders } from 'node:http'
import { isIP } from 'node:net'

/** A request turned away: the HTTP status and the text/plain body. */
export interface Refusal {
  readonly status: number
  readonly text: string
}

/** The checks of one server. */
export interface RequestGuard {
  /** Why a request (or upgrade) with `headers` is refused, or undefined when it is served. */
  refusal(headers: IncomingHttpHeaders): Refusal | undefined
  /** The CORS headers for a served request: the allowed origin echoed, none without an Origin. */
  corsHeaders(headers: IncomingHttpHeaders): Record<string, string>
}

/** Whether `host` (a name or an IP address, IPv6 with or without brackets) is this machine's loopback. */
export function isLoopback(host: string): boolean {
  const name = host.toLowerCase().replace(/^\[(.*)\]$/, '$1')
  if (name === 'localhost') return true
  if (isIP(name) === 4) return name.startsWith('127.')
  return name === '::1' || /^::ffff:127\./.test(name)
}

/** A Host header's name without its port and brackets (an IPv6 address stays bare). */
function hostName(host: string): string {
  const bracketed = /^\[([^\]]*)\](?::\d*)?$/.exec(host)
  if (bracketed !== null) return bracketed[1]
  if (isIP(host) === 6) return host
  const colon = host.lastIndexOf(':')
  return (colon === -1 ? host : host.slice(0, colon)).toLowerCase()
}

/** An origin, or a rule for one: what is not given matches anything (geth's parseOriginURL). */
interface OriginParts {
  readonly scheme: string
  readonly hostname: string
  readonly port: string
}

function originParts(text: string): OriginParts | undefined {
  const lower = text.toLowerCase()
  const separator = lower.indexOf('://')
  const scheme = separator === -1 ? '' : lower.slice(0, separator)
  const rest = separator === -1 ? lower : lower.slice(separator + 3)
  const match = /^(\[[^\]]*\]|[^:/[\]]*)(?::(\d*))?\/?$/.exec(rest)
  if (match === null) return undefined
  return { scheme, hostname: match[1].replace(/^\[(.*)\]$/, '$1'), port: match[2] ?? '' }
}

/** Whether `rule` admits `origin`: each part the rule gives must be equal (geth's ruleAllowsOrigin). */
function admits(rule: OriginParts, origin: OriginParts): boolean {
  return (
    (rule.scheme === '' || rule.scheme === origin.scheme) &&
    (rule.hostname === '' || rule.hostname === origin.hostname) &&
    (rule.port === '' || rule.port === origin.port)
  )
}

/** geth's answer to a Host it does not serve (node/rpcstack.go virtualHostHandler). */
const INVALID_HOST = 'invalid host specified'

/**
 * The guard of a server allowing `allowedHosts` (names; `*` for any) and `allowedOrigins`
 * (rules; `*` for any).
 */
export function createRequestGuard(allowedHosts: readonly string[], allowedOrigins: readonly string[]): RequestGuard {
  const hosts = new Set(allowedHosts.map((host) => hostName(host)))
  const anyHost = hosts.has('*')
  const anyOrigin = allowedOrigins.includes('*')
  const rules = allowedOrigins.filter((rule) => rule !== '*').flatMap((rule) => originParts(rule) ?? [])

  const hostServed = (host: string | undefined): boolean => {
    // As geth: no Host (HTTP/1.0) is served, a browser always sends one; an IP address is served,
    // DNS rebinding needs a name.
    if (host === undefined || host === '' || anyHost) return true
    const name = hostName(host)
    return isIP(name) !== 0 || hosts.has(name)
  }
  const originServed = (origin: string): boolean => {
    if (anyOrigin) return true
    const parts = originParts(origin)
    return parts !== undefined && rules.some((rule) => admits(rule, parts))
  }

  return {
    refusal(headers) {
      if (!hostServed(headers.host)) return { status: 403, text: INVALID_HOST }
      const { origin } = headers
      if (origin !== undefined && !originServed(origin)) {
        return { status: 403, text: `origin ${origin} is not allowed (allow it with --allowed-origins, or startServer's allowedOrigins)` }
      }
      return undefined
    },
    corsHeaders(headers): Record<string, string> {
      const { origin } = headers
      if (origin === undefined) return {}
      if (anyOrigin) return { 'access-control-allow-origin': '*' }
      return { 'access-control-allow-origin': origin, vary: 'Origin' }
    },
  }
}
