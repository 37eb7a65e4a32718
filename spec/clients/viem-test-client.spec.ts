/**
 * viem 2.57.1's test client, unchanged, against the devnet: one `it` per test action, in mode
 * `anvil` and, where the RPC name depends on the mode, in mode `hardhat` too. Each action goes
 * through `createTestClient({ mode, chain, transport: custom(chain) })` on a manual-clock chain
 * and its effect is read back independently (public actions, the chain's own reads). The judge
 * is Anvil 1.7.1 (and Hardhat's EDR where viem's hardhat mode means Hardhat's semantics). A last
 * `describe` repeats a representative subset over HTTP, so the shapes are seen to survive JSON.
 */
import { expect } from 'chai'
import { BaseError, InvalidParamsRpcError, TransactionExecutionError, TransactionNotFoundError, parseEther, type Address } from 'viem'
import { Counter } from '../../fixtures/artifacts/Counter.ts'
import { eip1559NextBaseFee, rejection } from '../support/chain-helpers.ts'
import { GWEI, signer } from '../support/wallet.ts'
import { GENESIS_TIMESTAMP as G, addressOf, inProcess, nodeError, overHttp, timestampsOf, word, type TestClients, type TestMode } from '../support/viem-test-client.ts'

const MODES: readonly TestMode[] = ['anvil', 'hardhat']
/** The default block time (2 s): under the manual clock, block n seals at n × 2 s unless told otherwise. */
const BLOCK_MS = 2000
const X = addressOf('11')
const Y = addressOf('22')

const viemRejection = (promise: Promise<unknown>) => rejection(promise, BaseError)

/** Two transfers from dev account 0 (nonces 0, 1) and a gapped one from account 1 (nonce 3), signed with 10 gwei fee cap. */
async function fillPool({ chain }: TestClients) {
  const hashes = [
    await chain.sendRawTransaction(await signer(chain, 0).sign({ to: Y, value: 1n, nonce: 0 })),
    await chain.sendRawTransaction(await signer(chain, 0).sign({ to: Y, value: 2n, nonce: 1 })),
    await chain.sendRawTransaction(await signer(chain, 1).sign({ to: Y, value: 3n, nonce: 3 })),
  ]
  return { hashes, alice: signer(chain, 0).address.toLowerCase(), bob: signer(chain, 1).address.toLowerCase() }
}

describe("viem's test client (createTestClient, custom transport, manual clock)", () => {
  describe('mining and time', () => {
    for (const mode of MODES) {
      it(`getAutomine (${mode}_getAutomine): false under interval mining, true once the chain automines`, async () => {
        const c = await inProcess(mode)
        expect(await c.test.getAutomine()).to.equal(false)
        await c.chain.setMining('auto')
        expect(await c.test.getAutomine()).to.equal(true)
      })
    }

    it('setAutomine (evm_setAutomine): on, a transfer seals in its own block at once; off, it waits in the pool', async () => {
      const c = await inProcess('anvil')
      await c.test.setAutomine(true)
      const sealed = await c.wallet(0).sendTransaction({ to: Y, value: 5n })
      expect(await c.publicClient.getBlockNumber()).to.equal(1n)
      expect((await c.block(1n)).transactions).to.deep.equal([sealed])
      expect(await c.publicClient.getBalance({ address: Y })).to.equal(5n)

      await c.test.setAutomine(false)
      await c.wallet(0).sendTransaction({ to: Y, value: 5n })
      expect(await c.publicClient.getBlockNumber()).to.equal(1n)
      expect(await c.test.getTxpoolStatus()).to.deep.equal({ pending: 1, queued: 0 })
    })

    it('setAutomine(true) after the clock moved: each block is stamped with the time it is mined (60 s, then 70 s), as Anvil', async () => {
      const c = await inProcess('anvil')
      await c.test.setAutomine(true)
      await c.chain.clock.advance(60_000)
      await c.wallet(0).sendTransaction({ to: Y, value: 1n })
      await c.chain.clock.advance(10_000)
      await c.wallet(0).sendTransaction({ to: Y, value: 1n })
      expect(await timestampsOf(c, 1n, 2n)).to.deep.equal([G + 60n, G + 70n])
    })

    it('mine (anvil_mine) with mining off (setIntervalMining 0) after 60 s of clock: the block is stamped when mined, as Anvil', async () => {
      const c = await inProcess('anvil')
      await c.test.setIntervalMining({ interval: 0 })
      await c.chain.clock.advance(60_000)
      await c.test.mine({ blocks: 1 })
      expect((await c.block(1n)).timestamp).to.equal(G + 60n)
    })

    it('mine (anvil_mine, interval 10): three blocks, time moved 10 s before each, as Anvil (now+10, now+20, now+30)', async () => {
      const c = await inProcess('anvil')
      expect((await c.block('pending')).timestamp).to.equal(G + 2n)
      await c.test.mine({ blocks: 3, interval: 10 })
      expect(await c.publicClient.getBlockNumber()).to.equal(3n)
      expect(await timestampsOf(c, 1n, 3n)).to.deep.equal([G + 10n, G + 20n, G + 30n])
    })

    it("mine (hardhat_mine, interval 10): three blocks, the first as mined now (the parent's + 1: the clock has not moved), then 10 s apart, as Hardhat's EDR", async () => {
      const c = await inProcess('hardhat')
      await c.test.mine({ blocks: 3, interval: 10 })
      expect(await c.publicClient.getBlockNumber()).to.equal(3n)
      expect(await timestampsOf(c, 1n, 3n)).to.deep.equal([G + 1n, G + 11n, G + 21n])
    })

    it('setNextBlockTimestamp (evm_setNextBlockTimestamp): the next block carries it, later blocks follow on from it', async () => {
      const c = await inProcess('anvil')
      await c.test.setNextBlockTimestamp({ timestamp: G + 1000n })
      expect((await c.block('pending')).timestamp).to.equal(G + 1000n)
      await c.chain.clock.advance(BLOCK_MS)
      expect((await c.block(1n)).timestamp).to.equal(G + 1000n)
      await c.chain.clock.advance(BLOCK_MS)
      expect((await c.block(2n)).timestamp).to.equal(G + 1002n)
    })

    it('increaseTime (evm_increaseTime): answers the total offset (100, then 150) and moves block timestamps by it', async () => {
      const c = await inProcess('anvil')
      expect(await c.test.increaseTime({ seconds: 100 })).to.equal(100)
      await c.chain.clock.advance(BLOCK_MS)
      expect((await c.block(1n)).timestamp).to.equal(G + 2n + 100n)
      expect(await c.test.increaseTime({ seconds: 50 })).to.equal(150)
      await c.chain.clock.advance(BLOCK_MS)
      expect((await c.block(2n)).timestamp).to.equal(G + 4n + 150n)
    })

    for (const mode of MODES) {
      it(`setBlockTimestampInterval({ interval: 1 }) / removeBlockTimestampInterval (${mode}_*): blocks step 1 s from their parent, then follow the clock again`, async () => {
        const c = await inProcess(mode)
        await c.test.setBlockTimestampInterval({ interval: 1 })
        await c.chain.clock.advance(2 * BLOCK_MS)
        // Sealed at clock 2 s and 4 s, stamped parent + 1.
        expect(await timestampsOf(c, 1n, 2n)).to.deep.equal([G + 1n, G + 2n])
        await c.test.removeBlockTimestampInterval()
        await c.chain.clock.advance(2 * BLOCK_MS)
        // Sealed at clock 6 s and 8 s, stamped by the clock.
        expect(await timestampsOf(c, 3n, 4n)).to.deep.equal([G + 6n, G + 8n])
      })
    }

    it('setIntervalMining({ interval: 5 }) (evm_setIntervalMining, seconds): a block every 5 s of clock; 0 stops mining', async () => {
      const c = await inProcess('anvil')
      await c.test.setIntervalMining({ interval: 5 })
      expect(await c.chain.request({ method: 'anvil_getIntervalMining' })).to.equal(5)
      await c.chain.clock.advance(4999)
      expect(await c.publicClient.getBlockNumber()).to.equal(0n)
      await c.chain.clock.advance(1)
      expect(await c.publicClient.getBlockNumber()).to.equal(1n)
      await c.chain.clock.advance(5000)
      expect(await timestampsOf(c, 1n, 2n)).to.deep.equal([G + 5n, G + 10n])

      await c.test.setIntervalMining({ interval: 0 })
      const hash = await c.wallet(0).sendTransaction({ to: Y, value: 1n })
      await c.chain.clock.advance(60_000)
      expect(await c.publicClient.getBlockNumber()).to.equal(2n)
      expect(await c.publicClient.getTransactionReceipt({ hash }).catch(() => null)).to.equal(null)
      expect(await c.test.getAutomine()).to.equal(false)
    })

    it('setIntervalMining({ interval: 2 }) in mode hardhat: viem sends 2000 (Hardhat’s ms) to evm_setIntervalMining, which the devnet reads, as Anvil, in seconds', async () => {
      const c = await inProcess('hardhat')
      await c.test.setIntervalMining({ interval: 2 })
      expect(await c.chain.request({ method: 'anvil_getIntervalMining' })).to.equal(2000)
      await c.chain.clock.advance(2 * BLOCK_MS)
      // A Hardhat node would have sealed a block by now; this one seals its first at 2000 s.
      expect(await c.publicClient.getBlockNumber()).to.equal(0n)
      await c.chain.clock.advance(2_000_000 - 2 * BLOCK_MS - 1)
      expect(await c.publicClient.getBlockNumber()).to.equal(0n)
      await c.chain.clock.advance(1)
      expect(await c.publicClient.getBlockNumber()).to.equal(1n)
    })
  })

  describe('state edits (no block sealed)', () => {
    for (const mode of MODES) {
      it(`setBalance (${mode}_setBalance): latest and pending read the new balance`, async () => {
        const c = await inProcess(mode)
        await c.test.setBalance({ address: X, value: parseEther('3') })
        expect(await c.publicClient.getBalance({ address: X })).to.equal(parseEther('3'))
        expect(await c.chain.getBalance(X, 'pending')).to.equal(parseEther('3'))
        expect(await c.publicClient.getBlockNumber()).to.equal(0n)
      })

      it(`setCode (${mode}_setCode): getCode reads it back and the code runs`, async () => {
        const c = await inProcess(mode)
        await c.test.setCode({ address: X, bytecode: Counter.deployedBytecode })
        expect(await c.publicClient.getCode({ address: X })).to.equal(Counter.deployedBytecode)
        expect(await c.publicClient.readContract({ address: X, abi: Counter.abi, functionName: 'count' })).to.equal(0n)
      })

      it(`setNonce (${mode}_setNonce): getTransactionCount reads it and viem's next transaction takes it`, async () => {
        const c = await inProcess(mode)
        const alice = c.wallet(0).account.address
        await c.test.setNonce({ address: alice, nonce: 7 })
        expect(await c.publicClient.getTransactionCount({ address: alice })).to.equal(7)
        expect(await c.publicClient.getTransactionCount({ address: alice, blockTag: 'pending' })).to.equal(7)
        const hash = await c.wallet(0).sendTransaction({ to: Y, value: 1n })
        expect((await c.publicClient.getTransaction({ hash })).nonce).to.equal(7)
      })

      it(`setStorageAt (${mode}_setStorageAt): getStorageAt reads the word and the contract sees it`, async () => {
        const c = await inProcess(mode)
        await c.test.setCode({ address: X, bytecode: Counter.deployedBytecode })
        await c.test.setStorageAt({ address: X, index: 0, value: word(42n) })
        expect(await c.publicClient.getStorageAt({ address: X, slot: word(0n) })).to.equal(word(42n))
        expect(await c.publicClient.readContract({ address: X, abi: Counter.abi, functionName: 'count' })).to.equal(42n)
      })
    }
  })

  describe('accounts and transactions', () => {
    for (const mode of MODES) {
      it(`impersonateAccount / stopImpersonatingAccount (${mode}_*): a keyless sender’s eth_sendTransaction goes through, then is refused`, async () => {
        const c = await inProcess(mode)
        await c.chain.setBalance(X, parseEther('1'))
        await c.test.impersonateAccount({ address: X })
        const hash = await c.rpcWallet(X).sendTransaction({ to: Y, value: 1000n })
        await c.chain.clock.advance(200)
        const receipt = await c.publicClient.getTransactionReceipt({ hash })
        expect(receipt.status).to.equal('success')
        expect(receipt.from).to.equal(X)
        expect(await c.chain.getBalance(Y, 'pending')).to.equal(1000n)

        await c.test.stopImpersonatingAccount({ address: X })
        const error = await viemRejection(c.rpcWallet(X).sendTransaction({ to: Y, value: 1000n }))
        expect(error).to.be.instanceOf(TransactionExecutionError)
        expect(await c.test.getTxpoolStatus()).to.deep.equal({ pending: 0, queued: 0 })
        expect(await c.publicClient.getTransactionCount({ address: X, blockTag: 'pending' })).to.equal(1)
      })
    }

    it('sendUnsignedTransaction (eth_sendUnsignedTransaction): from a keyless, not impersonated address, as Anvil', async () => {
      const c = await inProcess('anvil')
      await c.chain.setBalance(X, parseEther('1'))
      const hash = await c.test.sendUnsignedTransaction({ from: X, to: Y, value: 7n })
      await c.chain.clock.advance(BLOCK_MS)
      const receipt = await c.publicClient.getTransactionReceipt({ hash })
      expect(receipt.status).to.equal('success')
      expect(receipt.from).to.equal(X)
      expect(receipt.blockNumber).to.equal(1n)
      expect(await c.publicClient.getBalance({ address: Y })).to.equal(7n)
    })

    for (const mode of MODES) {
      it(`dropTransaction (${mode}_dropTransaction), automine off: the transaction leaves the pool and is never mined`, async () => {
        const c = await inProcess(mode)
        await c.test.setAutomine(false)
        const hash = await c.wallet(0).sendTransaction({ to: Y, value: 1n })
        expect(await c.test.getTxpoolStatus()).to.deep.equal({ pending: 1, queued: 0 })
        await c.test.dropTransaction({ hash })
        expect(await c.test.getTxpoolStatus()).to.deep.equal({ pending: 0, queued: 0 })
        expect(await viemRejection(c.publicClient.getTransaction({ hash }))).to.be.instanceOf(TransactionNotFoundError)
        await c.chain.clock.advance(BLOCK_MS)
        expect((await c.block(1n)).transactions).to.deep.equal([])
        expect(await c.publicClient.getBalance({ address: Y })).to.equal(0n)
      })
    }
  })

  describe('block settings', () => {
    for (const mode of MODES) {
      it(`setCoinbase (${mode}_setCoinbase): the next block's miner, paid the tip (21000 × 1 gwei)`, async () => {
        const c = await inProcess(mode)
        await c.test.setCoinbase({ address: X })
        await c.chain.sendRawTransaction(await signer(c.chain, 0).sign({ to: Y, value: 1n }))
        await c.chain.clock.advance(BLOCK_MS)
        expect((await c.block(1n)).miner).to.equal(X)
        expect(await c.publicClient.getBalance({ address: X })).to.equal(21000n * GWEI)
      })

      it(`setNextBlockBaseFeePerGas (${mode}_setNextBlockBaseFeePerGas): the next block's base fee, EIP-1559 from there`, async () => {
        const c = await inProcess(mode)
        await c.test.setNextBlockBaseFeePerGas({ baseFeePerGas: 7n * GWEI })
        expect((await c.block('pending')).baseFeePerGas).to.equal(7n * GWEI)
        await c.chain.clock.advance(2 * BLOCK_MS)
        const [first, second] = [await c.block(1n), await c.block(2n)]
        expect(first.baseFeePerGas).to.equal(7n * GWEI)
        // An empty parent: 7 gwei × 7/8.
        expect(second.baseFeePerGas).to.equal(eip1559NextBaseFee(7n * GWEI, 0n, first.gasLimit))
        expect(second.baseFeePerGas).to.equal(6_125_000_000n)
      })

      it(`setMinGasPrice (${mode}_setMinGasPrice): refused under EIP-1559 as ${mode === 'anvil' ? 'Anvil' : 'Hardhat'} refuses it`, async () => {
        const c = await inProcess(mode)
        const error = await viemRejection(c.test.setMinGasPrice({ gasPrice: GWEI }))
        if (mode === 'anvil') expect(error.walk((e) => e instanceof InvalidParamsRpcError)).to.be.instanceOf(InvalidParamsRpcError)
        const code = mode === 'anvil' ? -32602 : -32000
        expect(nodeError(error)).to.deep.include({ code, details: `${mode}_setMinGasPrice is not supported when EIP-1559 is active` })
      })

      it(`setLoggingEnabled (${mode}_setLoggingEnabled): switches the node's activity log, which stays off across a reset (Anvil's logger is the node's)`, async () => {
        const c = await inProcess(mode)
        expect(c.chain.loggingEnabled).to.equal(true)
        await c.test.setLoggingEnabled(false)
        expect(c.chain.loggingEnabled).to.equal(false)
        await c.test.reset()
        expect(c.chain.loggingEnabled).to.equal(false)
        await c.test.setLoggingEnabled(true)
        expect(c.chain.loggingEnabled).to.equal(true)
      })
    }

    it('setBlockGasLimit (evm_setBlockGasLimit): the pending block and the blocks sealed after have it', async () => {
      const c = await inProcess('anvil')
      await c.test.setBlockGasLimit({ gasLimit: 25_000_000n })
      expect((await c.block('pending')).gasLimit).to.equal(25_000_000n)
      await c.chain.clock.advance(2 * BLOCK_MS)
      expect((await c.block(1n)).gasLimit).to.equal(25_000_000n)
      expect((await c.block(2n)).gasLimit).to.equal(25_000_000n)
    })
  })

  describe('snapshots and the pool', () => {
    it('snapshot / revert (evm_snapshot / evm_revert): balances, blocks and the pool come back; the snapshot is used up', async () => {
      const c = await inProcess('anvil')
      const id = await c.test.snapshot()
      await c.test.setBalance({ address: X, value: 5n })
      await c.test.mine({ blocks: 2 })
      await c.wallet(0).sendTransaction({ to: Y, value: 1n })
      expect(await c.publicClient.getBlockNumber()).to.equal(2n)

      await c.test.revert({ id })
      expect(await c.publicClient.getBlockNumber()).to.equal(0n)
      expect(await c.publicClient.getBalance({ address: X })).to.equal(0n)
      expect(await c.test.getTxpoolStatus()).to.deep.equal({ pending: 0, queued: 0 })
      expect(await c.chain.request({ method: 'evm_revert', params: [id] })).to.equal(false)
    })

    it('getTxpoolStatus (txpool_status): two pending, one queued behind a nonce gap', async () => {
      const c = await inProcess('anvil')
      await fillPool(c)
      expect(await c.test.getTxpoolStatus()).to.deep.equal({ pending: 2, queued: 1 })
    })

    it('getTxpoolContent (txpool_content): transactions by sender and decimal nonce, not yet in a block', async () => {
      const c = await inProcess('anvil')
      const { hashes, alice, bob } = await fillPool(c)
      const content = await c.test.getTxpoolContent()
      expect(Object.keys(content.pending)).to.deep.equal([alice])
      expect(Object.keys(content.pending[alice as Address])).to.deep.equal(['0', '1'])
      expect(content.pending[alice as Address]['0'].hash).to.equal(hashes[0])
      expect(content.pending[alice as Address]['1'].hash).to.equal(hashes[1])
      expect(content.pending[alice as Address]['1'].blockHash).to.equal(null)
      expect(content.queued[bob as Address]['3'].hash).to.equal(hashes[2])
    })

    it('inspectTxpool (txpool_inspect): geth\'s one-line summaries "to: value wei + gas gas × fee cap wei"', async () => {
      const c = await inProcess('anvil')
      const { alice, bob } = await fillPool(c)
      const inspect = await c.test.inspectTxpool()
      expect(inspect.pending).to.deep.equal({
        [alice]: { '0': `${Y}: 1 wei + 21000 gas × 10000000000 wei`, '1': `${Y}: 2 wei + 21000 gas × 10000000000 wei` },
      })
      expect(inspect.queued).to.deep.equal({ [bob]: { '3': `${Y}: 3 wei + 21000 gas × 10000000000 wei` } })
    })
  })
})

describe("viem's test client over HTTP (startServer on a free port, http() transport, mode anvil)", () => {
  let c: Awaited<ReturnType<typeof overHttp>>

  beforeEach(async () => {
    c = await overHttp('anvil')
  })
  afterEach(() => c.server.close())

  it('setBalance, setCode and setStorageAt read back through eth_getBalance / eth_getCode / eth_getStorageAt', async () => {
    await c.test.setBalance({ address: X, value: parseEther('2') })
    await c.test.setCode({ address: X, bytecode: Counter.deployedBytecode })
    await c.test.setStorageAt({ address: X, index: 0, value: word(9n) })
    expect(await c.publicClient.getBalance({ address: X })).to.equal(parseEther('2'))
    expect(await c.publicClient.getCode({ address: X })).to.equal(Counter.deployedBytecode)
    expect(await c.publicClient.readContract({ address: X, abi: Counter.abi, functionName: 'count' })).to.equal(9n)
  })

  it('getAutomine, increaseTime and mine with an interval', async () => {
    expect(await c.test.getAutomine()).to.equal(false)
    expect(await c.test.increaseTime({ seconds: 30 })).to.equal(30)
    await c.test.mine({ blocks: 2, interval: 5 })
    expect(await c.publicClient.getBlockNumber()).to.equal(2n)
    const [first, second] = await timestampsOf(c, 1n, 2n)
    expect(second - first).to.equal(5n)
    expect(first >= G + 30n).to.equal(true)
  })

  it('impersonateAccount, then a wallet client’s sendTransaction from the keyless address', async () => {
    await c.test.setBalance({ address: X, value: parseEther('1') })
    await c.test.impersonateAccount({ address: X })
    const hash = await c.rpcWallet(X).sendTransaction({ to: Y, value: 3n })
    await c.chain.clock.advance(BLOCK_MS)
    expect((await c.publicClient.getTransactionReceipt({ hash })).from).to.equal(X)
    await c.test.stopImpersonatingAccount({ address: X })
    expect(await viemRejection(c.rpcWallet(X).sendTransaction({ to: Y, value: 3n }))).to.be.instanceOf(TransactionExecutionError)
  })

  it('txpool status, content and inspect keep their shapes over JSON', async () => {
    const { hashes, alice, bob } = await fillPool(c)
    expect(await c.test.getTxpoolStatus()).to.deep.equal({ pending: 2, queued: 1 })
    const content = await c.test.getTxpoolContent()
    expect(content.pending[alice as Address]['0'].hash).to.equal(hashes[0])
    expect(content.queued[bob as Address]['3'].nonce).to.equal('0x3')
    expect((await c.test.inspectTxpool()).queued[bob as Address]['3']).to.equal(`${Y}: 3 wei + 21000 gas × 10000000000 wei`)
  })

  it('snapshot / revert, and setMinGasPrice refused with -32602', async () => {
    const id = await c.test.snapshot()
    await c.test.mine({ blocks: 3 })
    await c.test.revert({ id })
    expect(await c.publicClient.getBlockNumber()).to.equal(0n)
    const error = await viemRejection(c.test.setMinGasPrice({ gasPrice: GWEI }))
    expect(nodeError(error)).to.deep.include({ code: -32602, details: 'anvil_setMinGasPrice is not supported when EIP-1559 is active' })
  })
})
