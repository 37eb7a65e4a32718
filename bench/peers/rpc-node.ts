/**
 * What the peer benchmark drives: a node it sends JSON-RPC requests to, in-process (an EIP-1193
 * `request`) or over HTTP (one POST a request), named as the output prints it; for a node in a
 * process of its own, the CPU time that process has used.
 */
import { readFileSync } from 'node:fs'

/** A node under measurement. */
export interface RpcNode {
  /** What ran, exactly (product, version, transport). */
  readonly name: string
  /** Sends one request; rejects with the node's error. */
  request(method: string, params: readonly unknown[]): Promise<unknown>
  /** The node's HTTP address, when it has one. */
  readonly url?: string
  /** Stops the node (kills its process, closes its server). */
  close(): Promise<void>
  /** CPU seconds the node's process has used so far; undefined when it shares the bench's process or the OS has no /proc. */
  cpuSeconds(): number | undefined
}

/** Linux's USER_HZ: /proc/<pid>/stat counts CPU time in these ticks a second. */
const TICKS_PER_SECOND = 100

/** CPU seconds (user + system) process `pid` has used, from /proc/<pid>/stat (10 ms ticks); undefined where it cannot be read. */
export function processCpuSeconds(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1')
    // The fields after the command name (which may hold spaces), from the third: utime and stime are the 14th and 15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND
  } catch {
    return undefined
  }
}

/** A node over HTTP at `url`, run by process `pid` when it has one of its own: one JSON-RPC POST a request (for setup; loads go through bench/http.ts). */
export function httpNode(name: string, url: string, close: () => Promise<void>, pid?: number): RpcNode {
  let id = 0
  const request = async (method: string, params: readonly unknown[]): Promise<unknown> => {
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }) })
    const body = (await response.json()) as { result?: unknown; error?: unknown }
    if (body.error !== undefined) throw new Error(`${name} ${method}: ${JSON.stringify(body.error)}`)
    return body.result
  }
  return { name, url, request, close, cpuSeconds: () => processCpuSeconds(pid) }
}
