import { expect } from 'chai'
import { createChain } from 'preconf-devnet'
import { createWalletClient, custom, defineChain, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'

// Base's eth_getTransactionCount at 'pending' counts pre-confirmed transactions only, not the
// mempool: a wallet that sends twice between two ticks asks for the same nonce twice.
describe("Base's pending nonce: a wallet sending twice before a tick", () => {
  it('gets `replacement transaction underpriced` for the second send, and succeeds once it tracks its own nonce', async () => {
    const chain = await createChain({ chainId: 8453, faults: { pendingNonce: 'preconfirmed' } })
    const devnet = defineChain({ id: 8453, name: 'devnet', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [] } } })
    const account = privateKeyToAccount(chain.accounts[0].privateKey as Hex)
    const wallet = createWalletClient({ account, chain: devnet, transport: custom(chain, { retryCount: 0 }) })
    const to = '0x000000000000000000000000000000000000c0de'

    await wallet.sendTransaction({ to, value: 1n }) // nonce 0, in the mempool
    const second = await wallet.sendTransaction({ to, value: 2n }).catch((error: Error) => error) // asks the pending nonce: 0 again
    expect(String(second)).to.match(/replacement transaction underpriced/)

    await wallet.sendTransaction({ to, value: 2n, nonce: 1 }) // the fix: count your own nonces
    await chain.clock.advance(200)
    expect(await chain.getBalance(to, 'pending')).to.equal(3n)
    chain.close()
  })
})
