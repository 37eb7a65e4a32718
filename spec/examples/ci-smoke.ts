/**
 * A CI smoke check against a running node: a transfer is pre-confirmed (visible at 'pending')
 * before its block seals. Usage: RPC_URL=http://127.0.0.1:8545 node --import tsx ci-smoke.ts
 */
import { createPublicClient, createWalletClient, defineChain, http, parseEther } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'

export async function smokeCheck(url: string): Promise<{ preconfirmedMs: number; sealedMs: number }> {
  const devnet = defineChain({
    id: 31337,
    name: 'preconf-devnet',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [url] } },
  })
  const client = createPublicClient({ chain: devnet, transport: http(url) })
  // The first dev account of the default mnemonic (funded with 10000 ETH).
  const account = privateKeyToAccount('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80')
  const wallet = createWalletClient({ account, chain: devnet, transport: http(url) })
  const recipient = '0x000000000000000000000000000000000000dEaD'
  const before = await client.getBalance({ address: recipient, blockTag: 'latest' })

  const started = performance.now()
  const hash = await wallet.sendTransaction({ to: recipient, value: parseEther('1') })
  while ((await client.getBalance({ address: recipient, blockTag: 'pending' })) === before) await new Promise((r) => setTimeout(r, 20))
  const preconfirmedMs = performance.now() - started
  const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 50 })
  while ((await client.getBalance({ address: recipient, blockTag: 'latest' })) === before) await new Promise((r) => setTimeout(r, 20))
  if (receipt.status !== 'success') throw new Error(`transfer failed: ${hash}`)
  return { preconfirmedMs, sealedMs: performance.now() - started }
}

if (process.env.RPC_URL !== undefined) smokeCheck(process.env.RPC_URL).then(console.log)
