/**
 * viem's test client over the devnet, for spec/clients/viem-test-client.spec.ts: a manual-clock
 * chain with a test client in a given mode, a public client for independent reads, and wallet
 * clients (dev keys signing locally, or a bare address sent as `eth_sendTransaction`), over the
 * in-process chain (`custom()`) or over HTTP (`startServer` + `http()`).
 */
import { expect } from 'chai'
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  custom,
  http,
  type Address,
  type BaseError,
  type Hex,
  type Transport,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { createChain, startServer, type Chain, type DevnetServer } from '../../lib/index.ts'
import { devnetChain } from './clients-viem.ts'

/** viem's test-client modes that name the devnet's controls (`anvil_*` / `hardhat_*`). */
export type TestMode = 'anvil' | 'hardhat'

/** The manual clock's genesis timestamp (2025-01-01T00:00:00Z), worked out independently of lib/. */
export const GENESIS_TIMESTAMP = 1_735_689_600n

/** Test, public and wallet clients of one mode over `transport`, all on the viem chain with id 31337. */
export function clientsOver(chain: Chain, mode: TestMode, transport: Transport) {
  const viemChain = devnetChain()
  // cacheTime 0: a block number read right after a control must be the node's, not viem's cached one.
  const test = createTestClient({ mode, chain: viemChain, transport, cacheTime: 0 })
  const publicClient = createPublicClient({ chain: viemChain, transport, cacheTime: 0, pollingInterval: 10 })
  /** Dev account `index`, signing locally (eth_sendRawTransaction). */
  const wallet = (index: number) => createWalletClient({ account: privateKeyToAccount(chain.accounts[index].privateKey), chain: viemChain, transport })
  /** `address` with no key: viem sends eth_sendTransaction and the node must sign or refuse. */
  const rpcWallet = (address: Address) => createWalletClient({ account: address, chain: viemChain, transport })
  /** The sealed block `number`, or the pending one, through viem (eth_getBlockByNumber). */
  const block = (number: bigint | 'pending') =>
    number === 'pending' ? publicClient.getBlock({ blockTag: 'pending' }) : publicClient.getBlock({ blockNumber: number })
  return { chain, test, publicClient, wallet, rpcWallet, block }
}

/** The clients of {@link clientsOver}. */
export type TestClients = ReturnType<typeof clientsOver>

/** A manual-clock chain and the clients of `mode` over viem's `custom()` transport on it. */
export async function inProcess(mode: TestMode): Promise<TestClients> {
  const chain = await createChain({ clock: 'manual' })
  // retryCount 0: a refused request surfaces at once, not after viem's back-off.
  return clientsOver(chain, mode, custom({ request: (args) => chain.request(args) }, { retryCount: 0 }))
}

/** A manual-clock chain served on a free port, and the clients of `mode` over viem's `http()` transport. */
export async function overHttp(mode: TestMode): Promise<TestClients & { server: DevnetServer }> {
  const chain = await createChain({ clock: 'manual' })
  const server = await startServer(chain, { port: 0 })
  return { ...clientsOver(chain, mode, http(server.url, { retryCount: 0 })), server }
}

/** The JSON-RPC error inside a viem error chain (the one carrying the node's numeric `code`). */
export function nodeError(error: BaseError): { code: number; details: string } {
  const found = error.walk((e) => typeof (e as { code?: unknown }).code === 'number')
  expect(found, 'an error with the node’s code in the chain').to.not.equal(null)
  return found as unknown as { code: number; details: string }
}

/** The timestamps of sealed blocks `from`..`to`, through viem. */
export async function timestampsOf(clients: TestClients, from: bigint, to: bigint): Promise<bigint[]> {
  const stamps: bigint[] = []
  for (let number = from; number <= to; number++) stamps.push((await clients.block(number)).timestamp)
  return stamps
}

/** A fresh address no dev account or contract uses (`0x` + `byte` × 20). */
export function addressOf(byte: string): Address {
  return `0x${byte.repeat(20)}` as Address
}

/** A raw 32-byte word with `value` in its low bytes. */
export function word(value: bigint): Hex {
  return `0x${value.toString(16).padStart(64, '0')}` as Hex
}
