/**
 * viem clients over the in-process chain: the chain itself is the EIP-1193 provider behind
 * viem's `custom()` transport, and dev-account keys sign locally (as a browser wallet would).
 */
import { createPublicClient, createWalletClient, custom, defineChain, type Chain as ViemChain } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { createChain, type Chain, type ChainOptions } from '../../lib/index.ts'

/** The devnet as a viem chain definition (id 31337); `extra` adds e.g. `experimental_preconfirmationTime`. */
export function devnetChain(extra: Partial<ViemChain> = {}) {
  return defineChain({
    id: 31337,
    name: 'preconf-devnet',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } },
    blockTime: 2000,
    ...extra,
  })
}

/** A manual-clock chain plus a public client and wallet clients for dev accounts 0 and 1. */
export async function viemSetup(options: { chain?: ChainOptions; viemChain?: ViemChain } = {}) {
  const chain: Chain = await createChain({ clock: 'manual', ...options.chain })
  const viemChain = options.viemChain ?? devnetChain()
  // retryCount 0: a rejected request must surface at once, not after viem's backoff.
  const transport = custom({ request: (args) => chain.request(args) }, { retryCount: 0 })
  const publicClient = createPublicClient({ chain: viemChain, transport, pollingInterval: 10 })
  const wallet = (index: number) =>
    createWalletClient({ account: privateKeyToAccount(chain.accounts[index].privateKey), chain: viemChain, transport, pollingInterval: 10 })
  return { chain, publicClient, alice: wallet(0), bob: wallet(1), wallet }
}
