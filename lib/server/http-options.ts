/**
 * The options of the node's HTTP side, defined once like lib/options.ts's: which Host and Origin
 * headers it serves (geth's `--http.vhosts` and `--http.corsdomain` / `--ws.origins`), how
 * long an idle kept-alive connection stays open and how long a batch may run.
 */
import { define, integer, invalid } from '../option-definition.ts'

/** A list option: a comma-separated string (the CLI) or an array; entries trimmed and lowercased. */
function list(value: string | readonly string[], name: string): readonly string[] {
  const items: unknown[] = typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value : [value]
  const entries = items.map((item) => {
    if (typeof item !== 'string') throw invalid(name, 'a comma-separated list of names (or *)', value)
    return item.trim().toLowerCase()
  })
  const given = entries.filter((entry) => entry !== '')
  if (given.length === 0) throw invalid(name, 'a comma-separated list of names (or *)', value)
  return given
}

/**
 * The HTTP options of `startServer` (and the CLI's flags for them).
 *
 * - `allowedHosts`: the names a request's Host header may carry (geth's `--http.vhosts`,
 *   default `localhost`). It stops DNS rebinding: a foreign page whose name is made to resolve to
 *   127.0.0.1 sends its own name as Host. An IP address as Host is always served, as geth does
 *   (rebinding needs a name), and so is a request without a Host (HTTP/1.0). The name given to
 *   `--host` is added.
 * - `allowedOrigins`: the browser origins served, over HTTP and WebSocket. A rule is a host (any
 *   scheme and port) or `scheme://host[:port]`, matched as geth matches `--ws.origins`. The default,
 *   the loopback names, keeps dApp dev servers on this machine (http://localhost:5173) working while
 *   no page from elsewhere can drive the unlocked dev accounts; a request without an Origin (every
 *   non-browser client) is served.
 * - `keepAliveTimeoutMs`: how long an idle kept-alive connection stays open: geth's IdleTimeout
 *   (rpc/http.go DefaultHTTPTimeouts, 120 s), longer than the pools of clients keep an idle
 *   socket (Go's http.Transport and hyper: 90 s; undici and Node's Agent: the server's hint less
 *   1 s), so no request written on a pooled connection meets a close.
 * - `batchTimeoutMs`: a batch's time budget, over HTTP and WebSocket; members not started in it
 *   get -32002 `request timed out`, as geth answers them just before its HTTP WriteTimeout.
 */
export const httpSafetyOptions = {
  allowedHosts: define<string | readonly string[], readonly string[]>({
    flag: 'allowed-hosts',
    description: 'Host header names served, comma-separated (geth --http.vhosts); IP addresses are always served; * serves any name',
    defaultText: 'localhost, and the --host name',
    parse: list,
    default: () => ['localhost'],
  }),
  allowedOrigins: define<string | readonly string[], readonly string[]>({
    flag: 'allowed-origins',
    description: 'browser origins served over HTTP and WebSocket, comma-separated: a host (any scheme, any port) or scheme://host[:port]; * serves any page',
    defaultText: 'localhost, 127.0.0.1, [::1]',
    parse: list,
    default: () => ['localhost', '127.0.0.1', '[::1]'],
  }),
  batchTimeoutMs: define<number, number>({
    flag: 'batch-timeout',
    description: "milliseconds a JSON-RPC batch may run: members not started by then get -32002 request timed out (geth: its HTTP WriteTimeout, 30 s, less 100 ms)",
    defaultText: '29900',
    parse: integer(1),
    default: () => 29_900,
  }),
  keepAliveTimeoutMs: define<number, number>({
    flag: 'keep-alive-timeout',
    description: "milliseconds an idle kept-alive HTTP connection stays open (geth's IdleTimeout)",
    defaultText: '120000',
    parse: integer(1),
    default: () => 120_000,
  }),
}
