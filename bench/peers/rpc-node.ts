/**
 * What the peer benchmark drives: a node it sends JSON-RPC requests to, in-process (an EIP-1193
 * `request`) or over HTTP (one POST a request), named as the output prints it.
 */

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
}

/** A node over HTTP at `url`: one JSON-RPC POST a request (for setup; loads go through bench/http.ts). */
export function httpNode(name: string, url: string, close: () => Promise<void>): RpcNode {
  let id = 0
  const request = async (method: string, params: readonly unknown[]): Promise<unknown> => {
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }) })
    const body = (await response.json()) as { result?: unknown; error?: unknown }
    if (body.error !== undefined) throw new Error(`${name} ${method}: ${JSON.stringify(body.error)}`)
    return body.result
  }
  return { name, url, request, close }
}
