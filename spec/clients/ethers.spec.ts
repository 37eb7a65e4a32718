/**
 * ethers v6 against the in-process chain: a BrowserProvider over the chain's EIP-1193
 * `request`, local Wallets signing. ethers classifies node errors by method, `message` and
 * `data` (JsonRpcApiProvider.getRpcError), so the geth texts and the revert shape
 * (-32000, /revert/ in the message, hex `data`) decide the error codes checked here.
 */
import { expect } from 'chai'
import { Contract, ContractFactory, ZeroHash, isError, parseEther, type BaseContract, type TransactionReceipt } from 'ethers'
import { Reverter } from '../../fixtures/artifacts/Reverter.ts'
import { Token } from '../../fixtures/artifacts/Token.ts'
import { rejection } from '../support/chain-helpers.ts'
import { advanceUntil, ethersSetup, pause } from '../support/clients-ethers.ts'

type Setup = Awaited<ReturnType<typeof ethersSetup>>

const GWEI = 1_000_000_000n
const SUPPLY = 1_000_000n * 10n ** 18n
/** Block 1's base fee: EIP-1559 from the genesis' 1 gwei with an empty parent (1 gwei × 7/8). */
const BLOCK_1_BASE_FEE = 875_000_000n


/** Deploys through a ContractFactory, pre-confirms with one tick, waits for ethers' deployment. */
async function deployPreconfirmed(setup: Setup, artifact: { abi: any; bytecode: string }, args: unknown[] = []): Promise<Contract> {
  const factory = new ContractFactory(artifact.abi, artifact.bytecode, setup.alice)
  const contract = (await factory.deploy(...args)) as BaseContract
  await setup.chain.clock.advance(200)
  await contract.waitForDeployment()
  return contract as Contract
}

describe('ethers client (BrowserProvider over the in-process chain)', () => {
  let setup: Setup

  beforeEach(async () => {
    setup = await ethersSetup()
  })

  afterEach(() => {
    setup.provider.destroy()
  })

  describe('network and balances', () => {
    it('getNetwork reports chainId 31337n (eth_chainId)', async () => {
      const network = await setup.provider.getNetwork()
      expect(network.chainId).to.equal(31337n)
    })

    it("getBalance(addr, 'pending') sees a transfer after one tick, 'latest' only after the seal", async () => {
      const { chain, provider, alice, bob } = setup
      const aliceBefore = await provider.getBalance(alice.address, 'latest')
      const bobBefore = await provider.getBalance(bob.address, 'latest')
      expect(aliceBefore).to.equal(parseEther('10000'))

      const tx = await alice.sendTransaction({ to: bob.address, value: parseEther('1') })
      expect(tx.nonce).to.equal(0)
      expect(await provider.getBalance(bob.address, 'pending')).to.equal(bobBefore)

      await chain.clock.advance(200)
      const receipt = (await provider.getTransactionReceipt(tx.hash))!
      expect(receipt.gasUsed).to.equal(21000n)
      // ethers' fee data: tip = eth_maxPriorityFeePerGas (1 gwei); pays base fee + tip.
      expect(receipt.gasPrice).to.equal(BLOCK_1_BASE_FEE + GWEI)
      const fee = receipt.gasUsed * receipt.gasPrice
      expect(await provider.getBalance(bob.address, 'pending')).to.equal(bobBefore + parseEther('1'))
      expect(await provider.getBalance(alice.address, 'pending')).to.equal(aliceBefore - parseEther('1') - fee)
      expect(await provider.getBalance(bob.address, 'latest')).to.equal(bobBefore)
      expect(await provider.getBalance(bob.address)).to.equal(bobBefore)

      await chain.clock.advance(1800)
      expect(await provider.getBlockNumber()).to.equal(1)
      expect(await provider.getBalance(bob.address, 'latest')).to.equal(bobBefore + parseEther('1'))
      expect(await provider.getBalance(alice.address)).to.equal(aliceBefore - parseEther('1') - fee)
    })

    it("getTransactionCount(addr, 'pending') counts the mempool tx (geth's pending nonce), 'latest' does not", async () => {
      const { provider, alice, bob } = setup
      await alice.sendTransaction({ to: bob.address, value: 1n })
      expect(await provider.getTransactionCount(alice.address, 'pending')).to.equal(1)
      expect(await provider.getTransactionCount(alice.address, 'latest')).to.equal(0)
      // Back to back: the wallet picks nonce 1 from the pending count.
      const second = await alice.sendTransaction({ to: bob.address, value: 1n })
      expect(second.nonce).to.equal(1)
    })
  })

  describe('tx.wait()', () => {
    it('started while the tx is in the mempool, resolves only after the seal: status 1 and the real block hash', async () => {
      const { chain, provider, alice, bob } = setup
      const tx = await alice.sendTransaction({ to: bob.address, value: 1n })
      let receipt: TransactionReceipt | null | undefined
      const waiting = tx.wait().then((r) => (receipt = r))
      await pause(30) // ethers fetches the receipt (none yet) and starts polling eth_blockNumber

      await chain.clock.advance(200) // pre-confirmed: a receipt exists, but no new block
      await pause(30)
      expect(receipt).to.equal(undefined)
      const preconfirmed = (await provider.getTransactionReceipt(tx.hash))!
      expect(preconfirmed.blockHash).to.equal(ZeroHash)
      expect(preconfirmed.blockNumber).to.equal(1)

      await chain.clock.advance(1800) // sealed: block 1 appears
      await waiting
      const block = (await provider.getBlock(1))!
      expect(receipt!.status).to.equal(1)
      expect(receipt!.blockNumber).to.equal(1)
      expect(receipt!.blockHash).to.not.equal(ZeroHash)
      expect(receipt!.blockHash).to.equal(block.hash)
      expect(block.transactions).to.deep.equal([tx.hash])
    })

    it('called after a tick, resolves at once with the pre-confirmed receipt (ethers takes any receipt for 1 confirmation)', async () => {
      const { chain, alice, bob } = setup
      const tx = await alice.sendTransaction({ to: bob.address, value: 1n })
      await chain.clock.advance(200)
      const receipt = (await tx.wait())!
      expect(receipt.status).to.equal(1)
      expect(receipt.blockHash).to.equal(ZeroHash)
      expect(receipt.blockNumber).to.equal(1)
    })
  })

  describe('contracts', () => {
    it('ContractFactory deploy: waitForDeployment resolves as the clock runs; balanceOf is the minted supply', async () => {
      const { chain, provider, alice } = setup
      const factory = new ContractFactory(Token.abi, Token.bytecode, alice)
      const deployed = (await factory.deploy('Token', 'TKN', SUPPLY)) as unknown as Contract
      const deployTx = deployed.deploymentTransaction()!
      const address = await deployed.getAddress()
      expect(await provider.getCode(address)).to.equal('0x')

      await advanceUntil(chain, deployed.waitForDeployment())
      const receipt = (await provider.getTransactionReceipt(deployTx.hash))!
      expect(receipt.status).to.equal(1)
      expect(receipt.contractAddress).to.equal(address)
      expect(await deployed.balanceOf(alice.address, { blockTag: 'pending' })).to.equal(SUPPLY)
      expect(await deployed.symbol({ blockTag: 'pending' })).to.equal('TKN')
      await chain.clock.advance(2000) // at least one seal since the deployment was pre-confirmed
      expect(await deployed.balanceOf(alice.address)).to.equal(SUPPLY)
      expect(await provider.getCode(address, 'latest')).to.equal(Token.deployedBytecode)
    })

    it("a transfer pre-confirmed by one tick shows in balanceOf at 'pending', at 'latest' after the seal", async () => {
      const { chain, alice, bob } = setup
      const token = await deployPreconfirmed(setup, Token, ['Token', 'TKN', SUPPLY])
      const amount = 42n * 10n ** 18n
      const tx = await token.transfer(bob.address, amount)
      expect(await token.balanceOf(bob.address, { blockTag: 'pending' })).to.equal(0n)

      await chain.clock.advance(200)
      expect(await token.balanceOf(bob.address, { blockTag: 'pending' })).to.equal(amount)
      expect(await token.balanceOf(alice.address, { blockTag: 'pending' })).to.equal(SUPPLY - amount)
      const receipt = (await setup.provider.getTransactionReceipt(tx.hash))!
      expect(receipt.logs).to.have.length(1)
      const parsed = token.interface.parseLog(receipt.logs[0])!
      expect(parsed.name).to.equal('Transfer')
      expect(parsed.args.toArray()).to.deep.equal([alice.address, bob.address, amount])

      await chain.clock.advance(1800)
      expect(await token.balanceOf(bob.address)).to.equal(amount)
    })
  })

  describe('reverts in static calls (-32000 "execution reverted" + data → CALL_EXCEPTION)', () => {
    let reverter: Contract

    beforeEach(async () => {
      reverter = await deployPreconfirmed(setup, Reverter)
      await setup.chain.clock.advance(1800)
    })

    it("revertWithReason('boom') → CALL_EXCEPTION, reason 'boom', revert Error(string)", async () => {
      const error = await rejection(reverter.revertWithReason('boom'))
      expect(isError(error, 'CALL_EXCEPTION')).to.equal(true)
      expect(error.code).to.equal('CALL_EXCEPTION')
      expect(error.reason).to.equal('boom')
      expect(error.revert.name).to.equal('Error')
      expect(error.revert.signature).to.equal('Error(string)')
      expect(error.revert.args).to.deep.equal(['boom'])
      expect(error.data).to.equal(reverter.interface.encodeErrorResult('Error', ['boom']))
      expect(error.shortMessage).to.equal('execution reverted: "boom"')
    })

    it("a provider-level eth_call of the same revert also gives CALL_EXCEPTION with reason 'boom'", async () => {
      const data = reverter.interface.encodeFunctionData('revertWithReason', ['boom'])
      const error = await rejection(setup.provider.call({ to: await reverter.getAddress(), data }))
      expect(error.code).to.equal('CALL_EXCEPTION')
      expect(error.reason).to.equal('boom')
      expect(error.info.error.code).to.equal(-32000)
      expect(error.info.error.message).to.equal('execution reverted')
    })

    it("revertWithCustomError(7): interface.parseError(error.data) is Unauthorized(caller, 7n)", async () => {
      const error = await rejection(reverter.revertWithCustomError(7n))
      expect(error.code).to.equal('CALL_EXCEPTION')
      const parsed = reverter.interface.parseError(error.data)!
      expect(parsed.name).to.equal('Unauthorized')
      expect(parsed.args.toArray()).to.deep.equal([setup.alice.address, 7n])
      // The contract already decoded it.
      expect(error.revert.name).to.equal('Unauthorized')
    })

    it("requireTrue(false) → CALL_EXCEPTION with reason 'requirement failed'", async () => {
      const error = await rejection(reverter.requireTrue(false))
      expect(error.code).to.equal('CALL_EXCEPTION')
      expect(error.reason).to.equal('requirement failed')
      expect(await reverter.requireTrue(true)).to.equal(true)
    })

    it('panicDivideByZero(0) → CALL_EXCEPTION, revert Panic(18), reason "Panic due to DIVIDE_BY_ZERO(18)"', async () => {
      const error = await rejection(reverter.panicDivideByZero(0n))
      expect(error.code).to.equal('CALL_EXCEPTION')
      expect(error.revert.name).to.equal('Panic')
      expect(error.revert.signature).to.equal('Panic(uint256)')
      expect([...error.revert.args]).to.deep.equal([18])
      expect(error.reason).to.equal('Panic due to DIVIDE_BY_ZERO(18)')
    })

    it('revertWithoutData → CALL_EXCEPTION with data "0x": ethers reads it as require(false), no decoded revert', async () => {
      // The devnet sends the (empty) revert bytes as data: "0x", so ethers sees "revert data present, empty".
      const error = await rejection(reverter.revertWithoutData())
      expect(error.code).to.equal('CALL_EXCEPTION')
      expect(error.data).to.equal('0x')
      expect(error.reason).to.equal('require(false)')
      expect(error.revert).to.equal(null)
      expect(error.shortMessage).to.equal('execution reverted (no data present; likely require(false) occurred')
    })
  })

  describe('reverts in gas estimation', () => {
    it('a token transfer beyond balance fails estimateGas with CALL_EXCEPTION; parseError gives InsufficientBalance', async () => {
      const { alice, bob } = setup
      const token = await deployPreconfirmed(setup, Token, ['Token', 'TKN', SUPPLY])
      const error = await rejection((token.connect(bob) as Contract).transfer(alice.address, 5n))
      expect(error.code).to.equal('CALL_EXCEPTION')
      const parsed = token.interface.parseError(error.data)!
      expect(parsed.name).to.equal('InsufficientBalance')
      expect(parsed.args.toArray()).to.deep.equal([bob.address, 0n, 5n])
    })
  })

  describe('pool rejections (geth texts → ethers codes)', () => {
    it("a nonce already used by a pre-confirmed tx → NONCE_EXPIRED (geth 'nonce too low')", async () => {
      const { chain, alice, bob } = setup
      await alice.sendTransaction({ to: bob.address, value: 1n })
      await chain.clock.advance(200)
      const error = await rejection(alice.sendTransaction({ to: bob.address, value: 2n, nonce: 0 }))
      expect(isError(error, 'NONCE_EXPIRED')).to.equal(true)
      expect(error.info.error.code).to.equal(-32000)
      expect(error.info.error.message).to.equal('nonce too low: next nonce 1, tx nonce 0')
    })

    it('a value beyond the balance, gas limit given (pool admission) → INSUFFICIENT_FUNDS', async () => {
      const { provider, alice, bob } = setup
      const balance = await provider.getBalance(alice.address, 'pending')
      const error = await rejection(
        alice.sendTransaction({ to: bob.address, value: balance + 1n, gasLimit: 21000n, maxFeePerGas: 2n * GWEI, maxPriorityFeePerGas: GWEI }),
      )
      expect(isError(error, 'INSUFFICIENT_FUNDS')).to.equal(true)
      const cost = balance + 1n + 21000n * 2n * GWEI
      expect(error.info.error.message).to.equal(`insufficient funds for gas * price + value: balance ${balance}, tx cost ${cost}, overshot ${cost - balance}`)
    })

    it('a value beyond the balance, gas estimated (eth_estimateGas rejects) → INSUFFICIENT_FUNDS', async () => {
      const { provider, alice, bob } = setup
      const balance = await provider.getBalance(alice.address, 'pending')
      const error = await rejection(alice.sendTransaction({ to: bob.address, value: balance + 1n }))
      expect(isError(error, 'INSUFFICIENT_FUNDS')).to.equal(true)
    })

    it('same nonce, same fees, different value while the first is in the mempool → REPLACEMENT_UNDERPRICED; a 10% bump replaces', async () => {
      const { chain, provider, alice, bob } = setup
      const fees = { nonce: 0, gasLimit: 21000n, maxFeePerGas: 2n * GWEI, maxPriorityFeePerGas: GWEI }
      const first = await alice.sendTransaction({ to: bob.address, value: 1n, ...fees })

      const error = await rejection(alice.sendTransaction({ to: bob.address, value: 2n, ...fees }))
      expect(isError(error, 'REPLACEMENT_UNDERPRICED')).to.equal(true)
      expect(error.info.error.code).to.equal(-32000)
      expect(error.info.error.message).to.equal('replacement transaction underpriced')

      // geth: fee cap and tip each at least +10%.
      const bumped = await alice.sendTransaction({ to: bob.address, value: 2n, ...fees, maxFeePerGas: 2_200_000_000n, maxPriorityFeePerGas: 1_100_000_000n })
      expect(await provider.getTransaction(first.hash)).to.equal(null)
      const before = await provider.getBalance(bob.address, 'pending')
      await chain.clock.advance(200)
      expect(await provider.getBalance(bob.address, 'pending')).to.equal(before + 2n)
      expect((await provider.getTransactionReceipt(bumped.hash))!.status).to.equal(1)
    })
  })
})
