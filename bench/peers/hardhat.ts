/**
 * Hardhat's in-process network as a peer: Hardhat 2.29.1 (Node 20; Hardhat 3 needs Node 22)
 * installed into bench/.peers/hardhat, its EDR provider made the way `hre.network.provider` makes
 * it (`createHardhatNetworkProvider`, without the sender and gas wrappers, which
 * eth_sendRawTransaction and reads pass through anyway), configured like our chain for the
 * workload; and, cheaply, the same provider behind Hardhat's own JSON-RPC server.
 */
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { installedVersion, installPeer, type InstalledPeer } from './install.ts'
import { httpNode, type RpcNode } from './rpc-node.ts'
import type { NodeSettings } from './settings.ts'

const HARDHAT_VERSION = '2.29.1'

interface EIP1193Provider {
  request(args: { method: string; params?: readonly unknown[] }): Promise<unknown>
}
type CreateProvider = (config: Record<string, unknown>, logger: { enabled: boolean }) => Promise<EIP1193Provider>
type JsonRpcServerClass = new (config: { hostname: string; port: number; provider: EIP1193Provider }) => {
  listen(): Promise<{ address: string; port: number }>
  close(): Promise<void>
}

/** Hardhat installed, ready to make providers. */
export interface Hardhat {
  /** What a provider is, exactly: Hardhat's and EDR's versions. */
  readonly description: string
  readonly installed: InstalledPeer
  /** A fresh in-process network with `settings`: automine and interval mining off. */
  inProcess(settings: NodeSettings): Promise<RpcNode>
  /** A fresh network with `settings` behind Hardhat's JSON-RPC server on a free loopback port. */
  overHttp(settings: NodeSettings): Promise<RpcNode>
}

/** Installs Hardhat 2.29.1 (once) and loads its network provider; throws PeerSkipped when it cannot. */
export async function loadHardhat(): Promise<Hardhat> {
  const installed = await installPeer('hardhat', { hardhat: HARDHAT_VERSION })
  const require = createRequire(join(installed.dir, 'package.json'))
  const { createHardhatNetworkProvider } = require('hardhat/internal/hardhat-network/provider/provider') as { createHardhatNetworkProvider: CreateProvider }
  const { JsonRpcServer } = require('hardhat/internal/hardhat-network/jsonrpc/server') as { JsonRpcServer: JsonRpcServerClass }
  const edr = installedVersion(installed.dir, '@nomicfoundation/edr')
  const description = `Hardhat ${HARDHAT_VERSION} network (createHardhatNetworkProvider: @nomicfoundation/edr ${edr} native binding)`
  const provider = (settings: NodeSettings) => createHardhatNetworkProvider(providerConfig(settings), { enabled: false })
  return {
    description,
    installed,
    async inProcess(settings) {
      const network = await provider(settings)
      return { name: `${description}, in-process`, request: (method, params) => network.request({ method, params }), close: async () => {}, cpuSeconds: () => undefined }
    },
    async overHttp(settings) {
      const server = new JsonRpcServer({ hostname: '127.0.0.1', port: 0, provider: await provider(settings) })
      const { port } = await server.listen()
      return httpNode(`${description}, over its JSON-RPC server (HTTP)`, `http://127.0.0.1:${port}`, () => server.close())
    },
  }
}

/** Hardhat's HardhatNetworkProviderConfig for `settings` (what hardhat.config's `networks.hardhat` resolves to). */
function providerConfig(settings: NodeSettings): Record<string, unknown> {
  return {
    chainId: settings.chainId,
    networkId: settings.chainId,
    hardfork: settings.hardfork,
    blockGasLimit: Number(settings.blockGasLimit),
    initialBaseFeePerGas: Number(settings.initialBaseFee),
    minGasPrice: 0n,
    throwOnTransactionFailures: true,
    throwOnCallFailures: true,
    automine: false,
    intervalMining: 0,
    mempoolOrder: 'priority',
    chains: new Map(),
    genesisAccounts: settings.privateKeys.map((privateKey) => ({ privateKey, balance: settings.balance.toString() })),
    allowUnlimitedContractSize: false,
    allowBlocksWithSameTimestamp: false,
    enableTransientStorage: false,
    enableRip7212: false,
  }
}
