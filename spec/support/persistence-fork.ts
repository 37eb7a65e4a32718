/**
 * An in-process upstream for the fork part of the state-dump specs: an auto-mining chain (each
 * transaction its own block) with Counter deployed and incremented and 1 ether sent to
 * RECIPIENT, served over HTTP on a free port, and forks of it without a disk cache.
 */
import { Counter } from '../../fixtures/artifacts/Counter.ts'
import { createChain, startServer, type Chain, type DevnetServer } from '../../lib/index.ts'
import type { Address } from '../../lib/types.ts'
import { sendDeploy, signCall } from './chain-helpers.ts'
import { ETHER, RECIPIENT } from './persistence-world.ts'
import { signer } from './wallet.ts'

/** A served upstream and what it holds. */
export interface Upstream {
  readonly chain: Chain
  readonly server: DevnetServer
  readonly counter: Address
  /** Forks it (at `blockNumber`, default its latest), with no disk cache; `state` loaded on top if given. */
  fork(blockNumber?: bigint, state?: string): Promise<Chain>
  /** Closes the server and the chain. */
  close(): Promise<void>
}

/** Starts the upstream: blocks 1 (Counter), 2 (increment: count 1) and 3 (1 ether to RECIPIENT). */
export async function startUpstream(): Promise<Upstream> {
  const chain = await createChain({ mining: 'auto' })
  const counter = await sendDeploy(chain, signer(chain, 0), Counter)
  await chain.sendRawTransaction(await signCall(signer(chain, 0), counter.address, Counter.abi, 'increment', [], { nonce: 1 }))
  await chain.sendRawTransaction(await signer(chain, 1).sign({ to: RECIPIENT, value: ETHER }))
  const server = await startServer(chain, { port: 0 })
  return {
    chain,
    server,
    counter: counter.address,
    fork: (blockNumber, state) =>
      createChain({ fork: { url: server.url, cache: false, ...(blockNumber === undefined ? {} : { blockNumber }) }, ...(state === undefined ? {} : { state }) }),
    async close() {
      await server.close()
      chain.close()
    },
  }
}
