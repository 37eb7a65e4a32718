/**
 * A node for the WebSocket specs: a manual-clock chain behind a server on a free port, and the
 * WebSocket clients a spec opens, all torn down together.
 */
import { createChain, type Chain } from '../../lib/index.ts'
import { startServer, type DevnetServer } from '../../lib/server/server.ts'
import { WsClient } from './ws-client.ts'

/** A running node and the clients connected to it. */
export interface WsNode {
  readonly chain: Chain
  readonly server: DevnetServer
  /** Opens a WebSocket client to the node; `close` terminates it. */
  connect(): Promise<WsClient>
  /** Terminates every client and stops the server. */
  close(): Promise<void>
}

/** Starts a manual-clock chain and its server on a free port. */
export async function startWsNode(): Promise<WsNode> {
  const chain = await createChain({ clock: 'manual' })
  const server = await startServer(chain, { port: 0 })
  const clients: WsClient[] = []
  return {
    chain,
    server,
    async connect() {
      const client = await WsClient.connect(server.wsUrl)
      clients.push(client)
      return client
    },
    async close() {
      for (const client of clients) client.socket.terminate()
      await server.close()
    },
  }
}
