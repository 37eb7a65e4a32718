/**
 * viem 2.x against the in-process chain (EIP-1193 through viem's `custom()` transport, local
 * accounts signing). What matters here is that viem's own machinery works unchanged: its block
 * tags, its receipt polling, and above all its error classification, which keys on the node's
 * `code`, `message`/`details` and `data` exactly as geth sends them.
 */
import { expect } from 'chai'
import {
  BaseError,
  CallExecutionError,
  ContractFunctionExecutionError,
  ContractFunctionRevertedError,
  ExecutionRevertedError,
  InsufficientFundsError,
  IntrinsicGasTooLowError,
  NonceTooLowError,
  TransactionExecutionError,
  decodeErrorResult,
  encodeFunctionData,
  parseEther,
  zeroHash,
  type Abi,
  type Address,
  type Hex,
} from 'viem'
import { Reverter } from '../../fixtures/artifacts/Reverter.ts'
import { Token } from '../../fixtures/artifacts/Token.ts'
import { rejection } from '../support/chain-helpers.ts'
import { devnetChain, viemSetup } from '../support/clients-viem.ts'

type Setup = Awaited<ReturnType<typeof viemSetup>>
type Wallet = Setup['alice']

const SUPPLY = 1_000_000n * 10n ** 18n
/** Block 1's base fee: EIP-1559 from the genesis' 1 gwei with an empty parent (1 gwei × 7/8). */
const BLOCK_1_BASE_FEE = 875_000_000n
/** eth_maxPriorityFeePerGas (Anvil's 1 gwei suggestion), which viem adds to the base fee. */
const TIP = 1_000_000_000n

/** The viem error a promise rejects with (fails the test if it resolves). */
const viemRejection = (promise: Promise<unknown>) => rejection(promise, BaseError)

/** The ContractFunctionRevertedError inside a ContractFunctionExecutionError. */
function revertedCause(error: BaseError): ContractFunctionRevertedError {
  expect(error).to.be.instanceOf(ContractFunctionExecutionError)
  expect(error.cause).to.be.instanceOf(ContractFunctionRevertedError)
  return error.cause as ContractFunctionRevertedError
}

/** Deploys through the wallet client, pre-confirms it with one tick, returns the address. */
async function deploy(setup: Setup, wallet: Wallet, artifact: { abi: Abi; bytecode: Hex }, args: readonly unknown[] = []): Promise<Address> {
  const hash = await wallet.deployContract({ abi: artifact.abi, bytecode: artifact.bytecode, args } as never)
  await setup.chain.clock.advance(200)
  const receipt = await setup.publicClient.getTransactionReceipt({ hash })
  expect(receipt.status).to.equal('success')
  expect(receipt.contractAddress).to.be.a('string')
  return receipt.contractAddress!
}

describe('viem client (custom EIP-1193 transport over the in-process chain)', () => {
  let setup: Setup

  beforeEach(async () => {
    setup = await viemSetup()
  })

  describe('chain and balances', () => {
    it('getChainId answers 31337 (eth_chainId)', async () => {
      expect(await setup.publicClient.getChainId()).to.equal(31337)
    })

    it("getBalance at 'pending' sees a transfer after one tick, 'latest' only after the seal", async () => {
      const { chain, publicClient, alice, bob } = setup
      const from = alice.account.address
      const to = bob.account.address
      const fromBefore = await publicClient.getBalance({ address: from })
      const toBefore = await publicClient.getBalance({ address: to })
      expect(fromBefore).to.equal(parseEther('10000'))

      const hash = await alice.sendTransaction({ to, value: parseEther('1') })
      // In the mempool: neither tag sees it ('pending' means pre-confirmed, not mempool).
      expect(await publicClient.getBalance({ address: to, blockTag: 'pending' })).to.equal(toBefore)

      await chain.clock.advance(200)
      const receipt = await publicClient.getTransactionReceipt({ hash })
      expect(receipt.gasUsed).to.equal(21000n)
      expect(receipt.effectiveGasPrice).to.equal(BLOCK_1_BASE_FEE + TIP)
      const fee = receipt.gasUsed * receipt.effectiveGasPrice
      expect(await publicClient.getBalance({ address: to, blockTag: 'pending' })).to.equal(toBefore + parseEther('1'))
      expect(await publicClient.getBalance({ address: from, blockTag: 'pending' })).to.equal(fromBefore - parseEther('1') - fee)
      expect(await publicClient.getBalance({ address: to, blockTag: 'latest' })).to.equal(toBefore)
      expect(await publicClient.getBalance({ address: from })).to.equal(fromBefore)

      await chain.clock.advance(1800)
      expect(await publicClient.getBlockNumber({ cacheTime: 0 })).to.equal(1n)
      expect(await publicClient.getBalance({ address: to, blockTag: 'latest' })).to.equal(toBefore + parseEther('1'))
      expect(await publicClient.getBalance({ address: from, blockTag: 'latest' })).to.equal(fromBefore - parseEther('1') - fee)
    })

    it('a chain with experimental_preconfirmationTime reads at pending by default (viem sets experimental_blockTag)', async () => {
      const preconf = await viemSetup({ viemChain: devnetChain({ experimental_preconfirmationTime: 200 }) })
      expect(preconf.publicClient.experimental_blockTag).to.equal('pending')
      const to = preconf.bob.account.address
      const before = await preconf.publicClient.getBalance({ address: to })
      await preconf.alice.sendTransaction({ to, value: parseEther('2') })
      await preconf.chain.clock.advance(200)
      expect(await preconf.publicClient.getBalance({ address: to })).to.equal(before + parseEther('2'))
      expect(await preconf.publicClient.getBalance({ address: to, blockTag: 'latest' })).to.equal(before)
      // The default-client counterpart still reads 'latest'.
      expect(setup.publicClient.experimental_blockTag).to.equal(undefined)
    })
  })

  describe('receipts', () => {
    it('waitForTransactionReceipt after a tick resolves with the pre-confirmed receipt (zero block hash, as Base flashblocks)', async () => {
      const { chain, publicClient, alice, bob } = setup
      const hash = await alice.sendTransaction({ to: bob.account.address, value: 1n })
      await chain.clock.advance(200)
      const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 10 })
      expect(receipt.status).to.equal('success')
      expect(receipt.blockHash).to.equal(zeroHash)
      expect(receipt.blockNumber).to.equal(1n)
      expect(receipt.transactionIndex).to.equal(0)
    })

    it('waitForTransactionReceipt started before the seal resolves with the sealed receipt and the real block hash', async () => {
      const { chain, publicClient, alice, bob } = setup
      const hash = await alice.sendTransaction({ to: bob.account.address, value: 1n })
      const waiting = publicClient.waitForTransactionReceipt({ hash, pollingInterval: 10, timeout: 5000 })
      // Let viem reach its block-number polling loop (a few 10 ms polls), then seal.
      await new Promise((resolve) => setTimeout(resolve, 30))
      await chain.clock.advance(2000)
      const receipt = await waiting
      const block = await publicClient.getBlock({ blockNumber: 1n })
      expect(receipt.status).to.equal('success')
      expect(receipt.blockNumber).to.equal(1n)
      expect(receipt.blockHash).to.not.equal(zeroHash)
      expect(receipt.blockHash).to.equal(block.hash)
      expect(block.transactions).to.deep.equal([hash])
    })
  })

  describe('contracts', () => {
    it("deployContract + readContract: balanceOf at 'pending' after a tick, at 'latest' after the seal", async () => {
      const { chain, publicClient, alice } = setup
      const token = await deploy(setup, alice, Token, ['Token', 'TKN', SUPPLY])
      const owner = alice.account.address

      expect(await publicClient.readContract({ address: token, abi: Token.abi, functionName: 'balanceOf', args: [owner], blockTag: 'pending' })).to.equal(SUPPLY)
      expect(await publicClient.readContract({ address: token, abi: Token.abi, functionName: 'symbol', blockTag: 'pending' })).to.equal('TKN')
      // Not sealed yet: no code at latest.
      expect(await publicClient.getCode({ address: token, blockTag: 'latest' })).to.equal(undefined)

      await chain.clock.advance(1800)
      expect(await publicClient.readContract({ address: token, abi: Token.abi, functionName: 'balanceOf', args: [owner] })).to.equal(SUPPLY)
      expect(await publicClient.getCode({ address: token })).to.equal(Token.deployedBytecode)
    })

    it("writeContract transfer, then a tick: readContract at 'pending' sees it, 'latest' does not until the seal", async () => {
      const { chain, publicClient, alice, bob } = setup
      const token = await deploy(setup, alice, Token, ['Token', 'TKN', SUPPLY])
      const to = bob.account.address
      const amount = 123n * 10n ** 18n

      const hash = await alice.writeContract({ address: token, abi: Token.abi, functionName: 'transfer', args: [to, amount] })
      expect(await publicClient.readContract({ address: token, abi: Token.abi, functionName: 'balanceOf', args: [to], blockTag: 'pending' })).to.equal(0n)

      await chain.clock.advance(200)
      expect(await publicClient.readContract({ address: token, abi: Token.abi, functionName: 'balanceOf', args: [to], blockTag: 'pending' })).to.equal(amount)
      expect(
        await publicClient.readContract({ address: token, abi: Token.abi, functionName: 'balanceOf', args: [alice.account.address], blockTag: 'pending' }),
      ).to.equal(SUPPLY - amount)
      const receipt = await publicClient.getTransactionReceipt({ hash })
      expect(receipt.status).to.equal('success')
      expect(receipt.logs).to.have.length(1)
      expect(receipt.logs[0].address).to.equal(token.toLowerCase())

      await chain.clock.advance(1800)
      expect(await publicClient.readContract({ address: token, abi: Token.abi, functionName: 'balanceOf', args: [to], blockTag: 'latest' })).to.equal(amount)
    })
  })

  describe('reverts decode through viem (-32000 "execution reverted" with data)', () => {
    let reverter: Address

    beforeEach(async () => {
      reverter = await deploy(setup, setup.alice, Reverter)
      await setup.chain.clock.advance(1800)
    })

    it("readContract revertWithReason('boom'): ContractFunctionExecutionError ← ContractFunctionRevertedError, reason 'boom'", async () => {
      const error = await viemRejection(
        setup.publicClient.readContract({ address: reverter, abi: Reverter.abi, functionName: 'revertWithReason', args: ['boom'] }),
      )
      const cause = revertedCause(error)
      expect(cause.reason).to.equal('boom')
      expect(cause.data?.errorName).to.equal('Error')
      expect(cause.data?.args).to.deep.equal(['boom'])
      expect(cause.shortMessage).to.equal('The contract function "revertWithReason" reverted with the following reason:\nboom')
    })

    it("raw call: CallExecutionError wrapping viem's ExecutionRevertedError, revert data decodes to Error('boom')", async () => {
      const data = encodeFunctionData({ abi: Reverter.abi, functionName: 'revertWithReason', args: ['boom'] })
      const error = await viemRejection(setup.publicClient.call({ to: reverter, data }))
      expect(error).to.be.instanceOf(CallExecutionError)
      expect(error.walk((e) => e instanceof ExecutionRevertedError)).to.be.instanceOf(ExecutionRevertedError)
      const withData = error.walk((e) => typeof (e as { data?: unknown }).data === 'string') as unknown as { data: Hex; code?: number; details?: string }
      expect(withData.code).to.equal(-32000)
      expect(withData.details).to.equal('execution reverted')
      const decoded = decodeErrorResult({ abi: Reverter.abi, data: withData.data })
      expect(decoded.errorName).to.equal('Error')
      expect(decoded.args).to.deep.equal(['boom'])
    })

    it('revertWithCustomError(7) decodes Unauthorized(caller, 7n), caller = the account given as from', async () => {
      const caller = setup.alice.account.address
      const error = await viemRejection(
        setup.publicClient.readContract({ address: reverter, abi: Reverter.abi, functionName: 'revertWithCustomError', args: [7n], account: caller }),
      )
      const cause = revertedCause(error)
      expect(cause.data?.errorName).to.equal('Unauthorized')
      expect(cause.data?.args).to.deep.equal([caller, 7n])
      expect(cause.reason).to.equal(undefined)
    })

    it("requireTrue(false) reverts with reason 'requirement failed'", async () => {
      const error = await viemRejection(
        setup.publicClient.readContract({ address: reverter, abi: Reverter.abi, functionName: 'requireTrue', args: [false] }),
      )
      expect(revertedCause(error).reason).to.equal('requirement failed')
      expect(await setup.publicClient.readContract({ address: reverter, abi: Reverter.abi, functionName: 'requireTrue', args: [true] })).to.equal(true)
    })

    it('panicDivideByZero(0) decodes Panic(0x12) with viem’s division-by-zero reason', async () => {
      const error = await viemRejection(
        setup.publicClient.readContract({ address: reverter, abi: Reverter.abi, functionName: 'panicDivideByZero', args: [0n] }),
      )
      const cause = revertedCause(error)
      expect(cause.data?.errorName).to.equal('Panic')
      expect(cause.data?.args).to.deep.equal([0x12n])
      expect(cause.reason).to.equal('Division or modulo by zero (e.g. `5 / 0` or `23 % 0`).')
    })

    it('revertWithoutData is still a ContractFunctionRevertedError (data "0x", nothing to decode)', async () => {
      const error = await viemRejection(
        setup.publicClient.readContract({ address: reverter, abi: Reverter.abi, functionName: 'revertWithoutData' }),
      )
      const cause = revertedCause(error)
      expect(cause.raw).to.equal('0x')
      expect(cause.data).to.equal(undefined)
      expect(cause.reason).to.equal('execution reverted')
      expect(cause.shortMessage).to.equal('The contract function "revertWithoutData" reverted.')
    })

    it("simulateContract touchThenRevert() decodes reason 'touched then reverted'; the write does not survive", async () => {
      const account = setup.alice.account
      const error = await viemRejection(
        setup.publicClient.simulateContract({ address: reverter, abi: Reverter.abi, functionName: 'touchThenRevert', account }),
      )
      const cause = revertedCause(error)
      expect(cause.reason).to.equal('touched then reverted')
      expect(cause.data?.errorName).to.equal('Error')
      expect(await setup.publicClient.readContract({ address: reverter, abi: Reverter.abi, functionName: 'touched', blockTag: 'pending' })).to.equal(0n)
    })

    it('simulateContract of a token transfer beyond balance decodes InsufficientBalance(account, balance, needed)', async () => {
      const token = await deploy(setup, setup.alice, Token, ['Token', 'TKN', SUPPLY])
      const bob = setup.bob.account
      const error = await viemRejection(
        setup.publicClient.simulateContract({
          address: token,
          abi: Token.abi,
          functionName: 'transfer',
          args: [setup.alice.account.address, 1n],
          account: bob,
          blockTag: 'pending',
        }),
      )
      const cause = revertedCause(error)
      expect(cause.data?.errorName).to.equal('InsufficientBalance')
      expect(cause.data?.args).to.deep.equal([bob.address, 0n, 1n])

      const ok = await setup.publicClient.simulateContract({
        address: token,
        abi: Token.abi,
        functionName: 'transfer',
        args: [bob.address, 1n],
        account: setup.alice.account,
        blockTag: 'pending',
      })
      expect(ok.result).to.equal(true)
    })
  })

  describe('pool rejections map to viem node errors (geth texts)', () => {
    it('a gas limit below 21000 → IntrinsicGasTooLowError (geth "intrinsic gas too low: gas 20000, minimum needed 21000")', async () => {
      const { alice, bob } = setup
      const error = await viemRejection(alice.sendTransaction({ to: bob.account.address, value: 1n, gas: 20000n }))
      expect(error.walk((e) => e instanceof IntrinsicGasTooLowError)).to.be.instanceOf(IntrinsicGasTooLowError)
      const node = error.walk((e) => typeof (e as { code?: unknown }).code === 'number') as unknown as { code: number; details: string }
      expect(node.code).to.equal(-32000)
      expect(node.details).to.equal('intrinsic gas too low: gas 20000, minimum needed 21000')
    })

    it('a nonce already used by a pre-confirmed tx → NonceTooLowError (geth "nonce too low: next nonce 1, tx nonce 0")', async () => {
      const { chain, alice, bob } = setup
      await alice.sendTransaction({ to: bob.account.address, value: 1n })
      await chain.clock.advance(200)
      const error = await viemRejection(alice.sendTransaction({ to: bob.account.address, value: 2n, nonce: 0 }))
      expect(error).to.be.instanceOf(TransactionExecutionError)
      expect(error.walk((e) => e instanceof NonceTooLowError)).to.be.instanceOf(NonceTooLowError)
      const node = error.walk((e) => typeof (e as { code?: unknown }).code === 'number') as unknown as { code: number; details: string }
      expect(node.code).to.equal(-32000)
      expect(node.details).to.equal('nonce too low: next nonce 1, tx nonce 0')
    })

    it('a value beyond the balance, gas given (pool admission) → InsufficientFundsError', async () => {
      const { publicClient, alice, bob } = setup
      const balance = await publicClient.getBalance({ address: alice.account.address })
      const error = await viemRejection(
        alice.sendTransaction({ to: bob.account.address, value: balance + 1n, gas: 21000n, maxFeePerGas: 2n * TIP, maxPriorityFeePerGas: TIP }),
      )
      expect(error).to.be.instanceOf(TransactionExecutionError)
      expect(error.walk((e) => e instanceof InsufficientFundsError)).to.be.instanceOf(InsufficientFundsError)
      const node = error.walk((e) => typeof (e as { code?: unknown }).code === 'number') as unknown as { code: number; details: string }
      expect(node.code).to.equal(-32000)
      const cost = balance + 1n + 21000n * 2n * TIP
      expect(node.details).to.equal(`insufficient funds for gas * price + value: balance ${balance}, tx cost ${cost}, overshot ${cost - balance}`)
    })

    it('a value beyond the balance, gas estimated (eth_estimateGas rejects) → InsufficientFundsError', async () => {
      const { publicClient, alice, bob } = setup
      const balance = await publicClient.getBalance({ address: alice.account.address })
      const error = await viemRejection(alice.sendTransaction({ to: bob.account.address, value: balance + 1n }))
      expect(error.walk((e) => e instanceof InsufficientFundsError)).to.be.instanceOf(InsufficientFundsError)
    })
  })

  describe('estimateGas', () => {
    it('estimateContractGas of a reverting token transfer decodes InsufficientBalance (eth_estimateGas reverts like eth_call)', async () => {
      const token = await deploy(setup, setup.alice, Token, ['Token', 'TKN', SUPPLY])
      const bob = setup.bob.account
      const error = await viemRejection(
        setup.publicClient.estimateContractGas({ address: token, abi: Token.abi, functionName: 'transfer', args: [setup.alice.account.address, 5n], account: bob }),
      )
      const cause = revertedCause(error)
      expect(cause.data?.errorName).to.equal('InsufficientBalance')
      expect(cause.data?.args).to.deep.equal([bob.address, 0n, 5n])
    })

    it('a plain transfer estimates exactly 21000', async () => {
      const { publicClient, alice, bob } = setup
      expect(await publicClient.estimateGas({ account: alice.account, to: bob.account.address, value: parseEther('1') })).to.equal(21000n)
    })

    it('a token transfer estimates enough gas (within geth’s 1.5% search tolerance) and a tx with that limit succeeds', async () => {
      const { chain, publicClient, alice, bob } = setup
      const token = await deploy(setup, alice, Token, ['Token', 'TKN', SUPPLY])
      const args = [bob.account.address, 5n] as const
      const estimate = await publicClient.estimateContractGas({ address: token, abi: Token.abi, functionName: 'transfer', args, account: alice.account })
      expect(estimate > 21000n).to.equal(true)

      const hash = await alice.writeContract({ address: token, abi: Token.abi, functionName: 'transfer', args, gas: estimate })
      await chain.clock.advance(200)
      const receipt = await publicClient.getTransactionReceipt({ hash })
      expect(receipt.status).to.equal('success')
      expect(receipt.gasUsed <= estimate).to.equal(true)
      // geth's estimator stops once (hi - lo) / hi < 1.5%, after an optimistic (used + 2300) × 64/63 probe.
      expect(Number(estimate) <= Math.ceil((Number(receipt.gasUsed) + 2300) * (64 / 63)) + 1).to.equal(true)
    })
  })
})
