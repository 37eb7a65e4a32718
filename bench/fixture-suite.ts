/**
 * The benchmark's mocha file: 100 tests, each loading a fixture that deployed an ERC-20 and then
 * making 10 transfers with viem through the node's dev account (a json-rpc account, as
 * hardhat-viem uses), as a contract test suite would. `bench/run.ts` runs it with mocha's JSON
 * reporter and reports the suite's duration.
 */
import * as chai from 'chai'
import { expect } from 'chai'
import { createPublicClient, createWalletClient, custom, defineChain, getContract } from 'viem'
import { createChain, type Chain } from 'preconf-devnet'
import { createHarness, type Harness } from 'preconf-devnet/harness'
import { Token } from '../fixtures/artifacts/Token.ts'

const devnet = defineChain({ id: 31337, name: 'devnet', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [] } } })

describe('100 tests on a fixture: deploy an ERC-20 once, 10 transfers per test', () => {
  let chain: Chain
  let harness: Harness

  before(async () => {
    chain = await createChain({ mining: 'instant' })
    harness = createHarness(chain)
    chai.use(harness.chaiMatchers)
  })

  async function deployedToken() {
    const transport = custom(chain, { retryCount: 0 })
    const account = chain.accounts[0].address
    const publicClient = createPublicClient({ chain: devnet, transport })
    const wallet = createWalletClient({ account, chain: devnet, transport })
    const hash = await wallet.deployContract({ abi: Token.abi, bytecode: Token.bytecode, args: ['Token', 'TKN', 10n ** 24n] })
    const { contractAddress } = await publicClient.getTransactionReceipt({ hash })
    return getContract({ address: contractAddress!, abi: Token.abi, client: { public: publicClient, wallet } })
  }

  for (let test = 0; test < 100; test++) {
    it(`test ${test}`, async () => {
      const token = await harness.loadFixture(deployedToken)
      const recipient = chain.accounts[1 + (test % 9)].address
      for (let i = 0; i < 10; i++) await token.write.transfer([recipient, 1n], { gas: 100_000n })
      expect(await token.read.balanceOf([recipient], { blockTag: 'pending' })).to.equal(10n)
    })
  }
})
