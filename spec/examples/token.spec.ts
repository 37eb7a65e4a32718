import * as chai from 'chai'
import { expect } from 'chai'
import { createPublicClient, createWalletClient, custom, defineChain, getContract } from 'viem'
import type { Account, PublicClient, Transport, WalletClient } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { createChain } from 'preconf-devnet'
import { createHarness, type Harness } from 'preconf-devnet/harness'
import { Token } from '../../fixtures/artifacts/Token.ts'

// The first two dev accounts of the default mnemonic (as Anvil and Hardhat).
const DEV_KEYS = [
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
] as const

const devnet = defineChain({
  id: 31337,
  name: 'preconf-devnet',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: [] } },
  experimental_preconfirmationTime: 200, // viem reads 'pending' by default on such a chain
})

describe('Token on a pre-confirming chain', () => {
  // One in-process chain with a manual clock: time moves only when the test moves it.
  let harness: Harness
  let publicClient: PublicClient
  let wallet: WalletClient<Transport, typeof devnet, Account>
  const [alice, bob] = [0, 1].map((i) => privateKeyToAccount(DEV_KEYS[i]))

  before(async () => {
    const chain = await createChain()
    harness = createHarness(chain)
    chai.use(harness.chaiMatchers)
    const transport = custom(chain, { retryCount: 0 })
    publicClient = createPublicClient({ chain: devnet, transport })
    wallet = createWalletClient({ account: alice, chain: devnet, transport })
  })

  async function deployToken() {
    const hash = await wallet.deployContract({ abi: Token.abi, bytecode: Token.bytecode, args: ['Token', 'TKN', 1000n] })
    await harness.time.nextSeal()
    const { contractAddress } = await publicClient.getTransactionReceipt({ hash })
    return getContract({ address: contractAddress!, abi: Token.abi, client: { public: publicClient, wallet } })
  }

  it('shows a transfer at pending after one tick, at latest after the seal', async () => {
    const token = await harness.loadFixture(deployToken)
    const hash = await token.write.transfer([bob.address, 100n])
    await expect(hash).to.be.inMempool()

    await harness.time.nextPreconfirmation()
    await expect(hash).to.be.preconfirmed()
    expect(await token.read.balanceOf([bob.address], { blockTag: 'pending' })).to.equal(100n)
    expect(await token.read.balanceOf([bob.address], { blockTag: 'latest' })).to.equal(0n)

    await harness.time.nextSeal()
    await expect(hash).to.be.sealedInBlock()
    expect(await token.read.balanceOf([bob.address], { blockTag: 'latest' })).to.equal(100n)
  })

  it('starts every test from the fixture, and decodes custom errors', async () => {
    const token = await harness.loadFixture(deployToken)
    expect(await token.read.balanceOf([bob.address])).to.equal(0n)
    await expect(token.simulate.transfer([alice.address, 1n], { account: bob }))
      .to.be.revertedWithCustomError(Token.abi, 'InsufficientBalance')
      .withArgs(bob.address, 0n, 1n)
  })
})
