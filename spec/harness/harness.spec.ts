/**
 * The test harness (lib/harness): Hardhat's `loadFixture` over the engine's snapshots, time
 * helpers that step to the next pre-confirmation or seal, and chai matchers named after
 * @nomicfoundation/hardhat-chai-matchers (revertedWith, revertedWithCustomError(...).withArgs,
 * revertedWithPanic, reverted) plus pre-confirmation status and balance-change matchers.
 */
import { AssertionError, expect, use } from 'chai'
import { BrowserProvider, Contract, Wallet } from 'ethers'
import { encodeFunctionData, getContractAddress, type Address } from 'viem'
import { Counter } from '../../fixtures/artifacts/Counter.ts'
import { Reverter } from '../../fixtures/artifacts/Reverter.ts'
import { Token } from '../../fixtures/artifacts/Token.ts'
import { createHarness, type Harness } from '../../lib/harness/index.ts'
import { createChain, RPCError, type Chain } from '../../lib/index.ts'
import type { Hash } from '../../lib/types.ts'
import { deploy, rejection, signCall } from '../support/chain-helpers.ts'
import { viemSetup } from '../support/clients-viem.ts'
import { assertionFailure, tokenBalance } from '../support/harness-chai.ts'
import { signer } from '../support/wallet.ts'

const GENESIS_TIMESTAMP = 1735689600n
/** The manual clock's start: the genesis timestamp in ms. */
const START_MS = Number(GENESIS_TIMESTAMP) * 1000
const SUPPLY = 1_000_000n * 10n ** 18n

type Signer = ReturnType<typeof signer>

/** Signs and sends a plain value transfer; returns its hash. */
async function sendValue(chain: Chain, from: Signer, to: Address, value: bigint): Promise<Hash> {
  const nonce = await chain.getTransactionCount(from.address, 'pending')
  return chain.sendRawTransaction(await from.sign({ to, value, nonce }))
}

/** Signs and sends Token.transfer(to, value); returns its hash. */
async function sendTokenTransfer(chain: Chain, from: Signer, token: Address, to: Address, value: bigint): Promise<Hash> {
  const nonce = await chain.getTransactionCount(from.address, 'pending')
  return chain.sendRawTransaction(await signCall(from, token, Token.abi, 'transfer', [to, value], { nonce }))
}

describe('harness (lib/harness): loadFixture, time helpers, chai matchers', () => {
  describe('loadFixture (Hardhat network-helpers semantics, over evm_snapshot/evm_revert)', () => {
    let chain: Chain
    let harness: Harness
    let alice: Signer
    let bob: Signer
    let tokenRuns: number
    let counterRuns: number

    /**
     * Deploys Token (sealed in block 1), lets the clock run 500 ms and leaves one token transfer
     * to bob in the mempool: its end state has a block number, a clock time and a mempool.
     */
    async function deployToken() {
      tokenRuns++
      const token = await deploy(chain, alice, Token, ['Token', 'TKN', SUPPLY], 0)
      await chain.clock.advance(500)
      const queuedTransfer = await sendTokenTransfer(chain, alice, token, bob.address, 100n)
      return { token, queuedTransfer }
    }

    /** Deploys Counter from bob (nonce 0) and seals it. */
    async function deployCounter() {
      counterRuns++
      const counter = await deploy(chain, bob, Counter, [], 0)
      return { counter, blockNumber: chain.blockNumber() }
    }

    beforeEach(async () => {
      chain = await createChain({ clock: 'manual' })
      harness = createHarness(chain)
      alice = signer(chain, 0)
      bob = signer(chain, 1)
      tokenRuns = 0
      counterRuns = 0
    })

    it('the first call runs the fixture once and returns its result', async () => {
      const result = await harness.loadFixture(deployToken)
      expect(tokenRuns).to.equal(1)
      expect(result.token).to.equal(getContractAddress({ from: alice.address, nonce: 0n }))
      expect(await chain.getCode(result.token)).to.not.equal('0x')
      expect(chain.blockNumber()).to.equal(1n)
      expect(chain.findTransaction(result.queuedTransfer)?.status).to.equal('mempool')
    })

    it('a second call does not run it again, returns the same result, and undoes everything the test did', async () => {
      const first = await harness.loadFixture(deployToken)
      const { token, queuedTransfer } = first
      const pendingTimestamp = chain.pending.context.timestamp

      // The "test": pre-confirm the queued transfer, three more, seal two blocks, queue an ETH
      // transfer, and change the time offset and the mining mode.
      await chain.tick()
      for (let i = 0; i < 3; i++) await sendTokenTransfer(chain, alice, token, bob.address, 1n)
      await chain.tick()
      await chain.clock.advance(4100)
      const strayTransfer = await sendValue(chain, alice, bob.address, 1n)
      await chain.increaseTime(3600)
      await chain.setMining('instant')
      expect(await tokenBalance(chain, token, bob.address, 'latest')).to.equal(103n)
      expect(chain.blockNumber()).to.equal(3n)
      expect(chain.clock.now()).to.equal(START_MS + 4600)
      expect(chain.findTransaction(queuedTransfer)?.status).to.equal('sealed')
      expect(chain.findTransaction(strayTransfer)?.status).to.equal('mempool')

      const second = await harness.loadFixture(deployToken)
      expect(tokenRuns).to.equal(1)
      expect(second).to.equal(first) // the very same object, as Hardhat returns the cached result
      // Token balances: back to the fixture's end (the queued transfer not executed yet).
      expect(await tokenBalance(chain, token, bob.address, 'latest')).to.equal(0n)
      expect(await tokenBalance(chain, token, bob.address, 'pending')).to.equal(0n)
      expect(await tokenBalance(chain, token, alice.address, 'pending')).to.equal(SUPPLY)
      // Block number and clock time.
      expect(chain.blockNumber()).to.equal(1n)
      expect(chain.clock.now()).to.equal(START_MS + 500)
      // Mempool: the fixture's queued transfer is back in it, the test's ETH transfer is gone.
      expect(chain.findTransaction(queuedTransfer)?.status).to.equal('mempool')
      expect(chain.findTransaction(strayTransfer)).to.equal(undefined)
      expect(await chain.getTransactionCount(alice.address, 'pending')).to.equal(2)
      expect(chain.pending.transactions).to.have.length(0)
      // Time offset and mining mode (a snapshot restores them too).
      expect(chain.pending.context.timestamp).to.equal(pendingTimestamp)
      expect(chain.mining).to.equal('interval')

      // The restored world runs on: the next tick pre-confirms the queued transfer again.
      const preconfirmation = await chain.tick()
      expect(preconfirmation.blockNumber).to.equal(2n)
      expect(preconfirmation.transactions.map((included) => included.transaction.hash)).to.deep.equal([queuedTransfer])
      expect(await tokenBalance(chain, token, bob.address, 'pending')).to.equal(100n)
    })

    it('can be reloaded many times (each revert takes a fresh snapshot, as Hardhat does)', async () => {
      const { token } = await harness.loadFixture(deployToken)
      for (let round = 0; round < 3; round++) {
        await chain.tick()
        await chain.mine()
        expect(await tokenBalance(chain, token, bob.address, 'latest')).to.equal(100n)
        await harness.loadFixture(deployToken)
        expect(await tokenBalance(chain, token, bob.address, 'latest')).to.equal(0n)
        expect(chain.blockNumber()).to.equal(1n)
      }
      expect(tokenRuns).to.equal(1)
    })

    it('two different fixtures each run once and each return their own result', async () => {
      const tokenFixture = await harness.loadFixture(deployToken)
      const counterFixture = await harness.loadFixture(deployCounter)
      expect([tokenRuns, counterRuns]).to.deep.equal([1, 1])
      // Hardhat: a new fixture runs on top of the current state (the token stays deployed).
      expect(counterFixture.blockNumber).to.equal(2n)
      expect(await chain.getCode(tokenFixture.token)).to.not.equal('0x')

      await chain.clock.advance(6000)
      expect(await harness.loadFixture(deployCounter)).to.equal(counterFixture)
      expect(chain.blockNumber()).to.equal(2n)
      expect(await harness.loadFixture(deployToken)).to.equal(tokenFixture)
      expect(chain.blockNumber()).to.equal(1n)
      expect([tokenRuns, counterRuns]).to.deep.equal([1, 1])
    })

    it('loading an older fixture after a newer one discards the newer snapshot: loading the newer again re-runs it', async () => {
      await harness.loadFixture(deployToken)
      const counterFixture = await harness.loadFixture(deployCounter)
      const counterAddress = counterFixture.counter

      await harness.loadFixture(deployToken)
      expect(chain.blockNumber()).to.equal(1n)
      expect(await chain.getCode(counterAddress)).to.equal('0x')

      const again = await harness.loadFixture(deployCounter)
      expect(counterRuns).to.equal(2)
      expect(tokenRuns).to.equal(1)
      expect(again).to.not.equal(counterFixture) // a fresh run, a fresh result
      expect(again.counter).to.equal(counterAddress) // bob's nonce 0 again
      expect(await chain.getCode(counterAddress)).to.not.equal('0x')
      // ...and the re-run's snapshot is reused from then on.
      expect(await harness.loadFixture(deployCounter)).to.equal(again)
      expect(counterRuns).to.equal(2)
    })

    it('a fixture that loads another fixture works, the inner one reused', async () => {
      async function tokenAndCounter() {
        const { token } = await harness.loadFixture(deployToken)
        const { counter } = await deployCounter()
        return { token, counter }
      }
      const outer = await harness.loadFixture(tokenAndCounter)
      expect(await harness.loadFixture(tokenAndCounter)).to.equal(outer)
      await harness.loadFixture(deployToken)
      expect(await chain.getCode(outer.counter)).to.equal('0x')
      await harness.loadFixture(tokenAndCounter)
      expect([tokenRuns, counterRuns]).to.deep.equal([1, 2])
      expect(await chain.getCode(outer.counter)).to.not.equal('0x')
    })

    it('an anonymous fixture (an arrow function written inline) → TypeError, and it does not run (Hardhat: FixtureAnonymousFunctionError)', async () => {
      let runs = 0
      let caught: unknown
      try {
        await harness.loadFixture(async () => {
          runs++
          return 1
        })
      } catch (error) {
        caught = error
      }
      expect(caught).to.be.instanceOf(TypeError)
      expect((caught as TypeError).message).to.equal('loadFixture needs a named function (an anonymous one is new on every call, so it would never be reused)')
      expect(runs).to.equal(0)
    })

    it('an arrow function assigned to a const has a name, so it is accepted and reused', async () => {
      let runs = 0
      const namedArrow = async () => ++runs
      expect(await harness.loadFixture(namedArrow)).to.equal(1)
      expect(await harness.loadFixture(namedArrow)).to.equal(1)
      expect(runs).to.equal(1)
    })

    it('a fixture that throws is not recorded: the error propagates and the next call runs it again', async () => {
      let runs = 0
      async function failsOnce() {
        runs++
        if (runs === 1) throw new Error('first run fails')
        return runs
      }
      let caught: unknown
      try {
        await harness.loadFixture(failsOnce)
      } catch (error) {
        caught = error
      }
      expect((caught as Error).message).to.equal('first run fails')
      expect(await harness.loadFixture(failsOnce)).to.equal(2)
      expect(await harness.loadFixture(failsOnce)).to.equal(2)
    })

    it('reuse is cheap: reloading after a test that made 10 token transfers takes < 5 ms (undo log, not a deep copy)', async () => {
      const { token } = await harness.loadFixture(deployToken)
      const recipients = Array.from({ length: 10 }, (_, i) => signer(chain, i % 9 + 1).address)
      for (const to of recipients) await sendTokenTransfer(chain, alice, token, to, 7n)
      await chain.tick()
      await chain.mine()
      expect(await tokenBalance(chain, token, bob.address, 'latest')).to.equal(100n + 14n) // the queued 100 + 2 × 7
      // Warm-up (first revert also loads code paths), then measure reloads after the same work: the
      // best of three, so that one garbage collection or a busy machine does not decide the figure.
      await harness.loadFixture(deployToken)
      let elapsed = Number.POSITIVE_INFINITY
      for (let round = 0; round < 3; round++) {
        for (const to of recipients) await sendTokenTransfer(chain, alice, token, to, 7n)
        await chain.tick()
        await chain.mine()
        const started = performance.now()
        await harness.loadFixture(deployToken)
        elapsed = Math.min(elapsed, performance.now() - started)
        expect(await tokenBalance(chain, token, bob.address, 'latest')).to.equal(0n)
      }
      expect(elapsed, `loadFixture reuse took ${elapsed.toFixed(3)} ms`).to.be.below(5)
    })
  })

  describe('time helpers', () => {
    let chain: Chain
    let harness: Harness
    let alice: Signer
    let bob: Signer

    beforeEach(async () => {
      chain = await createChain({ clock: 'manual' })
      harness = createHarness(chain)
      alice = signer(chain, 0)
      bob = signer(chain, 1)
    })

    it('nextPreconfirmation() steps to the next tick (200 ms) and returns what it pre-confirmed: index, blockNumber, transactions', async () => {
      const hash = await sendValue(chain, alice, bob.address, 5n)
      const first = await harness.time.nextPreconfirmation()
      expect(first.blockNumber).to.equal(1n)
      expect(first.index).to.equal(0)
      expect(first.transactions).to.have.length(1)
      expect(first.transactions[0].transaction.hash).to.equal(hash)
      expect(first.transactions[0].index).to.equal(0)
      expect(first.transactions[0].receipt.status).to.equal(1)
      expect(chain.clock.now()).to.equal(START_MS + 200)
      expect(chain.findTransaction(hash)?.status).to.equal('preconfirmed')
      expect(chain.blockNumber()).to.equal(0n)

      const second = await harness.time.nextPreconfirmation()
      expect(second.index).to.equal(1)
      expect(second.blockNumber).to.equal(1n)
      expect(second.transactions).to.have.length(0)
      expect(chain.clock.now()).to.equal(START_MS + 400)
      expect(chain.listenerCount('preconfirmation')).to.equal(0)
    })

    it('nextSeal() runs the ticks before the seal (the one due at the seal instant first) and returns the sealed block', async () => {
      const hash = await sendValue(chain, alice, bob.address, 5n)
      const ticks: number[] = []
      const onTick = (preconfirmation: { index: number }) => ticks.push(preconfirmation.index)
      chain.on('preconfirmation', onTick)
      const block = await harness.time.nextSeal()
      chain.off('preconfirmation', onTick)
      expect(block.header.number).to.equal(1n)
      expect(block.header.timestamp).to.equal(GENESIS_TIMESTAMP + 2n)
      expect(block.transactions.map((included) => included.transaction.hash)).to.deep.equal([hash])
      expect(ticks).to.deep.equal([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]) // at 200, 400, …, 2000 ms
      expect(chain.clock.now()).to.equal(START_MS + 2000)
      expect(chain.blockNumber()).to.equal(1n)
      expect(chain.findTransaction(hash)?.status).to.equal('sealed')

      const next = await harness.time.nextSeal()
      expect(next.header.number).to.equal(2n)
      expect(chain.clock.now()).to.equal(START_MS + 4000)
      expect(chain.listenerCount('block')).to.equal(0)
    })

    it("nextPreconfirmation() to a block's last tick, due with its seal, returns before the seal: the transaction is pre-confirmed, not sealed, and nextSeal() then seals it at that instant (audit R, R1)", async () => {
      await harness.time.advance(1900)
      const hash = await sendValue(chain, alice, bob.address, 5n)
      const last = await harness.time.nextPreconfirmation()
      expect([last.index, last.blockNumber, last.transactions.map(({ transaction }) => transaction.hash)]).to.deep.equal([9, 1n, [hash]])
      expect(chain.clock.now()).to.equal(START_MS + 2000)
      expect(chain.findTransaction(hash)?.status).to.equal('preconfirmed')
      expect(chain.blockNumber()).to.equal(0n)
      const block = await harness.time.nextSeal()
      expect([block.header.number, block.transactions.map(({ transaction }) => transaction.hash)]).to.deep.equal([1n, [hash]])
      expect(chain.clock.now()).to.equal(START_MS + 2000)
      // The clock's own step: the next event alone (the next block's first tick), then false under automine.
      expect(await chain.clock.step()).to.equal(true)
      expect(chain.clock.now()).to.equal(START_MS + 2200)
      await chain.setMining('auto')
      expect(await chain.clock.step()).to.equal(false)
    })

    it('nextSeal() after a mid-block nextPreconfirmation seals that same block', async () => {
      await harness.time.nextPreconfirmation()
      const block = await harness.time.nextSeal()
      expect(block.header.number).to.equal(1n)
      expect(chain.clock.now()).to.equal(START_MS + 2000)
    })

    it('advance(ms) moves the clock, firing each tick and seal that falls due', async () => {
      const hash = await sendValue(chain, alice, bob.address, 5n)
      await harness.time.advance(199)
      expect(chain.findTransaction(hash)?.status).to.equal('mempool')
      await harness.time.advance(1)
      expect(chain.findTransaction(hash)?.status).to.equal('preconfirmed')
      await harness.time.advance(1800)
      expect(chain.blockNumber()).to.equal(1n)
      expect(chain.clock.now()).to.equal(START_MS + 2000)
      await harness.time.advance(4500)
      expect(chain.blockNumber()).to.equal(3n)
      expect(chain.clock.now()).to.equal(START_MS + 6500)
    })

    it('latest() is the newest sealed block timestamp (Hardhat time.latest)', async () => {
      expect(await harness.time.latest()).to.equal(GENESIS_TIMESTAMP)
      await harness.time.nextSeal()
      expect(await harness.time.latest()).to.equal(GENESIS_TIMESTAMP + 2n)
      await harness.time.advance(4000)
      expect(await harness.time.latest()).to.equal(GENESIS_TIMESTAMP + 6n)
    })

    it('increaseTo(ts) seals a block stamped exactly ts, with the mempool in it (Hardhat: evm_setNextBlockTimestamp + evm_mine)', async () => {
      const hash = await sendValue(chain, alice, bob.address, 5n)
      const target = GENESIS_TIMESTAMP + 1000n
      await harness.time.increaseTo(target)
      expect(chain.blockNumber()).to.equal(1n)
      expect(await harness.time.latest()).to.equal(target)
      const block = chain.blockByNumber(1)!
      expect(block.header.timestamp).to.equal(target)
      expect(block.transactions.map((included) => included.transaction.hash)).to.deep.equal([hash])
      expect(chain.clock.now()).to.equal(START_MS) // the clock itself did not move
      // Later blocks follow on from the new time.
      const next = await harness.time.nextSeal()
      expect(next.header.timestamp > target).to.equal(true)
    })

    it('increaseTo(ts) also seals a block stamped ts when the pending block already pre-confirmed transactions', async () => {
      const hash = await sendValue(chain, alice, bob.address, 5n)
      await harness.time.nextPreconfirmation() // pending block 1 holds the transfer (stamped genesis + 2)
      const target = GENESIS_TIMESTAMP + 1000n
      await harness.time.increaseTo(target)
      // time.increaseTo's contract: "Seals a block stamped `timestamp` now".
      expect(await harness.time.latest()).to.equal(target)
      expect(chain.findTransaction(hash)?.status).to.equal('sealed')
    })

    it('on an OP-stack chain: nextPreconfirmation() returns the first user pre-confirmation (index 1, as preconf_tick does), and increaseTo(ts) mid-block seals one block, stamped ts', async () => {
      const op = await createChain({ preset: 'base' })
      const { time } = createHarness(op)
      const hash = await op.sendTransaction({ from: op.accounts[0].address, to: op.accounts[1].address, value: 1n })
      const first = await time.nextPreconfirmation()
      expect([first.blockNumber, first.index, first.transactions.map(({ transaction }) => transaction.hash)]).to.deep.equal([1n, 1, [hash]])
      expect((await time.nextPreconfirmation()).index).to.equal(2)
      await time.nextSeal()
      await time.nextPreconfirmation() // block 2 holds its L1-attributes deposit alone
      const target = GENESIS_TIMESTAMP + 1000n
      await time.increaseTo(target)
      expect([op.blockNumber(), await time.latest()]).to.deep.equal([2n, target])
      op.close()
    })

    it('increaseTo(ts) at or before the latest timestamp rejects (-32000, as Hardhat answers evm_setNextBlockTimestamp)', async () => {
      await harness.time.nextSeal()
      let caught: unknown
      try {
        await harness.time.increaseTo(GENESIS_TIMESTAMP + 2n)
      } catch (error) {
        caught = error
      }
      expect(caught).to.be.instanceOf(RPCError)
      expect((caught as RPCError).code).to.equal(-32000)
      expect((caught as RPCError).message).to.equal(`Timestamp ${GENESIS_TIMESTAMP + 2n} is lower than or equal to previous block's timestamp ${GENESIS_TIMESTAMP + 2n}`)
      expect(chain.blockNumber()).to.equal(1n)
    })

    it('increaseTo(ts) not after the pre-confirmed block that would seal first is refused before anything seals (audit R, R5)', async () => {
      const hash = await sendValue(chain, alice, bob.address, 5n)
      await harness.time.nextPreconfirmation()
      const refused = await rejection(harness.time.increaseTo(GENESIS_TIMESTAMP + 1n))
      expect([refused.code, refused.message]).to.deep.equal([
        -32000,
        `Timestamp ${GENESIS_TIMESTAMP + 1n} is lower than or equal to previous block's timestamp ${GENESIS_TIMESTAMP + 2n} (the pre-confirmed block, which seals first)`,
      ])
      expect(chain.blockNumber()).to.equal(0n)
      expect(chain.findTransaction(hash)?.status).to.equal('preconfirmed')
    })

    it("nextPreconfirmation() and nextSeal() with mining 'auto' reject with a clear error (nothing is scheduled) and leave the clock alone", async () => {
      const auto = await createChain({ clock: 'manual', mining: 'auto' })
      const { time } = createHarness(auto)
      for (const [step, message] of [
        [() => time.nextPreconfirmation(), 'no tick is scheduled (mining: auto)'],
        [() => time.nextSeal(), 'no seal is scheduled (mining: auto)'],
      ] as const) {
        let caught: unknown
        try {
          await step()
        } catch (error) {
          caught = error
        }
        expect(caught).to.be.instanceOf(Error)
        expect((caught as Error).message).to.equal(message)
      }
      expect(auto.clock.now()).to.equal(START_MS)
      expect(auto.listenerCount('preconfirmation')).to.equal(0)
      expect(auto.listenerCount('block')).to.equal(0)
    })

    it("switching chain.mining to 'auto' at run time makes nextPreconfirmation() reject the same way", async () => {
      await chain.setMining('auto')
      let caught: unknown
      try {
        await harness.time.nextPreconfirmation()
      } catch (error) {
        caught = error
      }
      expect((caught as Error).message).to.equal('no tick is scheduled (mining: auto)')
    })
  })

  describe('chaiMatchers (chai.use(harness.chaiMatchers))', () => {
    let setup: Awaited<ReturnType<typeof viemSetup>>
    let chain: Chain
    let harness: Harness
    let provider: BrowserProvider
    let ethersAlice: Wallet
    let alice: Signer
    let bob: Signer
    let reverterAddress: Address
    let tokenAddress: Address
    let reverter: Contract

    async function deployContracts() {
      const reverterAt = await deploy(chain, alice, Reverter, [], 0)
      const tokenAt = await deploy(chain, alice, Token, ['Token', 'TKN', SUPPLY], 1)
      return { reverterAt, tokenAt }
    }

    /** viem readContract on the Reverter, from alice. */
    function read(functionName: string, args: readonly unknown[] = []) {
      return setup.publicClient.readContract({ address: reverterAddress, abi: Reverter.abi, functionName, args, account: setup.alice.account } as never)
    }

    /** Plain eth_call through the chain's function API. */
    function call(functionName: string, args: readonly unknown[] = []) {
      return chain.call({ from: alice.address, to: reverterAddress, data: encodeFunctionData({ abi: Reverter.abi, functionName, args } as never) })
    }

    before(async () => {
      setup = await viemSetup()
      chain = setup.chain
      harness = createHarness(chain)
      use(harness.chaiMatchers)
      provider = new BrowserProvider(chain, undefined, { pollingInterval: 10, cacheTimeout: -1 })
      ethersAlice = new Wallet(chain.accounts[0].privateKey, provider)
      alice = signer(chain, 0)
      bob = signer(chain, 1)
    })

    after(() => {
      provider.destroy()
    })

    beforeEach(async () => {
      const { reverterAt, tokenAt } = await harness.loadFixture(deployContracts)
      reverterAddress = reverterAt
      tokenAddress = tokenAt
      reverter = new Contract(reverterAddress, Reverter.abi as never, ethersAlice)
    })

    describe('revertedWith', () => {
      it("passes for a viem readContract of revertWithReason('boom')", async () => {
        await expect(read('revertWithReason', ['boom'])).to.be.revertedWith('boom')
      })

      it('passes for an ethers contract static call', async () => {
        await expect(reverter.revertWithReason('boom')).to.be.revertedWith('boom')
      })

      it('passes for a plain chain.call(...) rejection (RPCError -32000 "execution reverted" + data)', async () => {
        await expect(call('revertWithReason', ['boom'])).to.be.revertedWith('boom')
        // a function returning the promise works as well
        await expect(() => call('revertWithReason', ['boom'])).to.be.revertedWith('boom')
      })

      it('passes for require(false, reason): requireTrue(false) → "requirement failed"', async () => {
        await expect(read('requireTrue', [false])).to.be.revertedWith('requirement failed')
      })

      it('passes for a viem writeContract that reverts in eth_estimateGas (nothing is sent)', async () => {
        const nonceBefore = await chain.getTransactionCount(alice.address, 'pending')
        // touchThenRevert is the Reverter's state-changing function: revert("touched then reverted").
        await expect(setup.alice.writeContract({ address: reverterAddress, abi: Reverter.abi, functionName: 'touchThenRevert' })).to.be.revertedWith(
          'touched then reverted',
        )
        expect(await chain.getTransactionCount(alice.address, 'pending')).to.equal(nonceBefore)
        expect(chain.pending.transactions).to.have.length(0)
      })

      it('fails with an AssertionError naming both reasons when the reason differs', async () => {
        const error = await assertionFailure(expect(read('revertWithReason', ['boom'])).to.be.revertedWith('bam'))
        expect(error.message).to.equal('expected a revert with reason "bam", but the reason was "boom"')
      })

      it('fails when the call does not revert', async () => {
        const error = await assertionFailure(expect(read('requireTrue', [true])).to.be.revertedWith('boom'))
        expect(error.message).to.equal('expected a revert with reason "boom", but it did not revert')
      })

      it('fails when it reverts with something other than Error(string), showing the revert data', async () => {
        const error = await assertionFailure(expect(call('panicDivideByZero', [0n])).to.be.revertedWith('boom'))
        expect(error.message).to.equal(`expected a revert with reason "boom", but it reverted with 0x4e487b71${(0x12).toString(16).padStart(64, '0')}`)
      })

      it('.not.to.be.revertedWith passes when there is no revert or another reason, fails on that reason', async () => {
        await expect(read('requireTrue', [true])).not.to.be.revertedWith('boom')
        await expect(read('revertWithReason', ['bam'])).not.to.be.revertedWith('boom')
        const error = await assertionFailure(expect(read('revertWithReason', ['boom'])).not.to.be.revertedWith('boom'))
        expect(error.message).to.equal('expected no revert with reason "boom"')
      })
    })

    describe('revertedWithCustomError', () => {
      it("viem: revertedWithCustomError(Reverter.abi, 'Unauthorized').withArgs(caller, 7n)", async () => {
        await expect(read('revertWithCustomError', [7n])).to.be.revertedWithCustomError(Reverter.abi, 'Unauthorized').withArgs(alice.address, 7n)
        // addresses compare case-insensitively, integers as bigints
        await expect(read('revertWithCustomError', [7n])).to.be.revertedWithCustomError(Reverter.abi, 'Unauthorized').withArgs(alice.address.toLowerCase(), 7)
        // awaited without withArgs
        await expect(read('revertWithCustomError', [7n])).to.be.revertedWithCustomError(Reverter, 'Unauthorized')
      })

      it('ethers: the contract object as decoder (interface.parseError)', async () => {
        await expect(reverter.revertWithCustomError(7n)).to.be.revertedWithCustomError(reverter, 'Unauthorized').withArgs(ethersAlice.address, 7n)
        await expect(reverter.revertWithCustomError(7n)).to.be.revertedWithCustomError(reverter.interface, 'Unauthorized').withArgs(ethersAlice.address, 7n)
      })

      it('fails when the error has another name', async () => {
        const error = await assertionFailure(expect(read('revertWithCustomError', [7n])).to.be.revertedWithCustomError(Reverter.abi, 'Forbidden'))
        expect(error.message).to.equal('expected a revert with custom error Forbidden, but the error was Unauthorized')
      })

      it('fails when the arguments differ', async () => {
        const error = await assertionFailure(
          expect(read('revertWithCustomError', [7n])).to.be.revertedWithCustomError(Reverter.abi, 'Unauthorized').withArgs(alice.address, 8n),
        )
        expect(error.message).to.equal(`expected Unauthorized with arguments ${alice.address},8, got ${alice.address},7`)
      })

      it('fails when the call does not revert, also through withArgs', async () => {
        const error = await assertionFailure(expect(read('requireTrue', [true])).to.be.revertedWithCustomError(Reverter.abi, 'Unauthorized'))
        expect(error.message).to.equal('expected a revert with custom error Unauthorized, but it did not revert')
        const viaArgs = await assertionFailure(expect(read('requireTrue', [true])).to.be.revertedWithCustomError(Reverter.abi, 'Unauthorized').withArgs(alice.address, 7n))
        expect(viaArgs.message).to.equal('expected a revert with custom error Unauthorized, but it did not revert')
      })

      it('fails when the revert data does not decode with the ABI given', async () => {
        const error = await assertionFailure(expect(read('revertWithCustomError', [7n])).to.be.revertedWithCustomError(Token.abi, 'Unauthorized'))
        expect(error.message).to.match(/^expected a revert with custom error Unauthorized, but it reverted with 0xda472023/)
      })

      it('.not.to.be.revertedWithCustomError passes for another revert, fails for that error', async () => {
        await expect(read('revertWithReason', ['boom'])).not.to.be.revertedWithCustomError(Reverter.abi, 'Unauthorized')
        const error = await assertionFailure(expect(read('revertWithCustomError', [7n])).not.to.be.revertedWithCustomError(Reverter.abi, 'Unauthorized'))
        expect(error.message).to.equal('expected no revert with custom error Unauthorized')
      })

      it('.not.to.be.revertedWithCustomError passes when the call does not revert at all', async () => {
        await expect(read('requireTrue', [true])).not.to.be.revertedWithCustomError(Reverter.abi, 'Unauthorized')
      })
    })

    describe('revertedWithPanic and reverted', () => {
      it('revertedWithPanic(0x12) for panicDivideByZero(0) (viem, ethers, chain.call); no code matches any panic', async () => {
        await expect(read('panicDivideByZero', [0n])).to.be.revertedWithPanic(0x12)
        await expect(reverter.panicDivideByZero(0n)).to.be.revertedWithPanic(0x12n)
        await expect(call('panicDivideByZero', [0n])).to.be.revertedWithPanic()
      })

      it('revertedWithPanic fails for another code, another revert, or no revert', async () => {
        const otherCode = await assertionFailure(expect(read('panicDivideByZero', [0n])).to.be.revertedWithPanic(0x11))
        expect(otherCode.message).to.equal('expected a panic with code 17, got code 18')
        const noPanic = await assertionFailure(expect(call('revertWithoutData')).to.be.revertedWithPanic(0x12))
        expect(noPanic.message).to.equal('expected a panic with code 18, got 0x')
        const noRevert = await assertionFailure(expect(read('panicDivideByZero', [1n])).to.be.revertedWithPanic(0x12))
        expect(noRevert.message).to.equal('expected a panic with code 18, got no revert')
      })

      it('.not.to.be.revertedWithPanic passes without a panic, fails with one', async () => {
        await expect(read('panicDivideByZero', [1n])).not.to.be.revertedWithPanic(0x12)
        const error = await assertionFailure(expect(read('panicDivideByZero', [0n])).not.to.be.revertedWithPanic(0x12))
        expect(error.message).to.equal('expected no panic')
      })

      it('.to.be.reverted for revertWithoutData (empty revert data) through chain.call, viem and ethers', async () => {
        await expect(call('revertWithoutData')).to.be.reverted
        await expect(read('revertWithoutData')).to.be.reverted
        await expect(reverter.revertWithoutData()).to.be.reverted
      })

      it('.to.be.reverted fails without a revert; .not.to.be.reverted fails with one', async () => {
        await expect(read('requireTrue', [true])).not.to.be.reverted
        const notReverted = await assertionFailure(expect(read('requireTrue', [true])).to.be.reverted)
        expect(notReverted.message).to.equal('expected the call or transaction to revert, but it did not')
        const reverted = await assertionFailure(expect(call('revertWithoutData')).not.to.be.reverted)
        expect(reverted.message).to.equal('expected no revert, but it reverted')
      })

      it('a rejection that is not a revert is not swallowed by .not.to.be.reverted (Hardhat re-throws errors without return data)', async () => {
        // nonce 0 is used by the Reverter deployment: the pool rejects with geth's 'nonce too low'.
        const stale = await alice.sign({ to: bob.address, value: 1n, nonce: 0 })
        let caught: unknown
        try {
          await expect(chain.sendRawTransaction(stale)).not.to.be.reverted
        } catch (error) {
          caught = error
        }
        expect(caught, 'the pool rejection must surface').to.be.instanceOf(Error)
        expect(String((caught as Error).message)).to.contain('nonce too low: next nonce 2, tx nonce 0')
      })

      it('.to.be.reverted on a rejection that is not a revert surfaces that rejection, not "it did not revert" (Hardhat re-throws)', async () => {
        const stale = await alice.sign({ to: bob.address, value: 1n, nonce: 0 })
        let caught: unknown
        try {
          await expect(chain.sendRawTransaction(stale)).to.be.reverted
        } catch (error) {
          caught = error
        }
        expect(caught).to.be.instanceOf(Error)
        expect(String((caught as Error).message)).to.contain('nonce too low: next nonce 2, tx nonce 0')
      })

      it('a run that halts without revert data (INVALID, out of gas) is reverted, as in Hardhat: chain.call, viem, ethers (audit R, R9)', async () => {
        await expect(call('consumeAllGas')).to.be.reverted
        await expect(read('consumeAllGas')).to.be.reverted
        await expect(reverter.consumeAllGas()).to.be.reverted
        const withReason = await assertionFailure(expect(read('consumeAllGas')).to.be.revertedWith('x'))
        expect(withReason.message).to.equal('expected a revert with reason "x", but it reverted with 0x')
        // A creation refused before it runs (init code past EIP-3860's limit) is no revert: rethrown, as Hardhat does (review N).
        const refused = await rejection(expect(chain.call({ from: alice.address, data: `0x${'00'.repeat(49_153)}` })).to.be.reverted as unknown as Promise<void>)
        expect(refused.message).to.match(/max initcode size exceeded/)
      })

      it("a sent transaction is judged by its receipt, as Hardhat's matchers judge it: its hash, an ethers response, a viem receipt; the reason from its trace (audit R, R2)", async () => {
        const data = encodeFunctionData({ abi: Reverter.abi, functionName: 'touchThenRevert' })
        const nonce = await chain.getTransactionCount(alice.address, 'pending')
        const failed = await chain.sendRawTransaction(await alice.sign({ to: reverterAddress, data, gas: 100_000n, nonce }))
        const halted = await chain.sendRawTransaction(await alice.sign({ to: reverterAddress, data: encodeFunctionData({ abi: Reverter.abi, functionName: 'consumeAllGas' }), gas: 100_000n, nonce: nonce + 1 }))
        const fine = await sendValue(chain, alice, bob.address, 1n)
        const early = await rejection(expect(failed).to.be.reverted as unknown as Promise<void>)
        expect(early.message).to.equal(`transaction ${failed} has not run yet (it is in the mempool): move the clock on, then assert`)
        await chain.tick()
        await expect(failed).to.be.reverted
        await expect(failed).to.be.revertedWith('touched then reverted')
        await expect(halted).to.be.reverted
        await expect(fine).not.to.be.reverted
        const negated = await assertionFailure(expect(failed).not.to.be.reverted)
        expect(negated.message).to.equal('expected no revert, but it reverted')
        await chain.mine()
        await expect(setup.publicClient.getTransactionReceipt({ hash: failed })).to.be.revertedWith('touched then reverted')
        const response = await ethersAlice.sendTransaction({ to: reverterAddress, data, gasLimit: 100_000n })
        await harness.time.nextPreconfirmation()
        await expect(response).to.be.revertedWith('touched then reverted')
        // A call's 32-byte result is no transaction: it did not revert.
        await expect(chain.call({ to: tokenAddress, data: encodeFunctionData({ abi: Token.abi, functionName: 'totalSupply' }) })).not.to.be.reverted
      })
    })

    describe('inMempool / preconfirmed / sealedInBlock', () => {
      it('with a hash string: in the mempool, then pre-confirmed after a tick, then sealed', async () => {
        const hash = await sendValue(chain, alice, bob.address, 5n)
        await expect(hash).to.be.inMempool()
        await expect(hash).not.to.be.preconfirmed()
        await chain.tick()
        await expect(hash).to.be.preconfirmed()
        await expect(hash).not.to.be.inMempool()
        await expect(hash).not.to.be.sealedInBlock()
        await chain.mine()
        await expect(hash).to.be.sealedInBlock()
        await expect(hash.toUpperCase().replace('0X', '0x')).to.be.sealedInBlock()
      })

      it('with an ethers TransactionResponse (and a promise of one)', async () => {
        const sent = ethersAlice.sendTransaction({ to: bob.address, value: 5n })
        await expect(sent).to.be.inMempool()
        const response = await sent
        await expect(response).to.be.inMempool()
        await harness.time.nextPreconfirmation()
        await expect(response).to.be.preconfirmed()
        await harness.time.nextSeal()
        await expect(response).to.be.sealedInBlock()
      })

      it('fails with an AssertionError saying where the transaction is', async () => {
        const hash = await sendValue(chain, alice, bob.address, 5n)
        const inPool = await assertionFailure(expect(hash).to.be.preconfirmed())
        expect(inPool.message).to.equal(`expected transaction ${hash} to be pre-confirmed (and not yet sealed), but it is in the mempool`)
        await chain.tick()
        const preconfirmed = await assertionFailure(expect(hash).to.be.sealedInBlock())
        expect(preconfirmed.message).to.equal(`expected transaction ${hash} to be sealed in a block, but it is preconfirmed`)
        const negated = await assertionFailure(expect(hash).not.to.be.preconfirmed())
        expect(negated.message).to.equal(`expected transaction ${hash} not to be pre-confirmed (and not yet sealed)`)
        const unknownHash = `0x${'ab'.repeat(32)}`
        const unknown = await assertionFailure(expect(unknownHash).to.be.inMempool())
        expect(unknown.message).to.equal(`expected transaction ${unknownHash} to be in the mempool, but it is unknown`)
      })

      it('a subject that names no transaction is a TypeError, never a pass; a viem receipt counts by its transactionHash; dropped() wants a pre-confirmation taken back (audit R, R6)', async () => {
        for (const subject of [undefined, 'hello', 42]) {
          const error = await rejection(expect(subject).to.be.dropped() as unknown as Promise<void>)
          expect(error).to.be.instanceOf(TypeError)
          expect(error.message).to.match(/^expected a transaction hash, a transaction or a receipt, got /)
        }
        const hash = await sendValue(chain, alice, bob.address, 5n)
        await chain.tick()
        await chain.mine()
        const receipt = await setup.publicClient.getTransactionReceipt({ hash })
        await expect(receipt).to.be.sealedInBlock()
        const sealed = await assertionFailure(expect(receipt).to.be.dropped())
        expect(sealed.message).to.equal(`expected transaction ${hash} to be dropped (taken back, neither pre-confirmed nor sealed), but it is sealed`)
        const unknownHash = `0x${'cd'.repeat(32)}`
        const never = await assertionFailure(expect(unknownHash).to.be.dropped())
        expect(never.message).to.equal(`expected transaction ${unknownHash} to be dropped (taken back, neither pre-confirmed nor sealed), but it is unknown (never pre-confirmed here)`)
        const before = await chain.snapshot()
        const raw = await alice.sign({ to: bob.address, value: 6n, nonce: await chain.getTransactionCount(alice.address, 'pending') })
        const taken = await chain.sendRawTransaction(raw)
        await chain.tick()
        await harness.faults.drop({ mode: 'discard' })
        await expect(taken).to.be.dropped()
        // The same transaction sent again after a revert is a new one, in the mempool: not dropped (review N).
        await chain.revert(before)
        await chain.sendRawTransaction(raw)
        const again = await assertionFailure(expect(taken).to.be.dropped())
        expect(again.message).to.equal(`expected transaction ${taken} to be dropped (taken back, neither pre-confirmed nor sealed), but it is in the mempool`)
      })

      it("with two chains, the transaction matchers answer for the chain that knows the transaction, whichever harness was installed last (audit R, R4)", async () => {
        const other = await createChain({ clock: 'manual' })
        use(createHarness(other).chaiMatchers)
        const hash = await sendValue(chain, alice, bob.address, 5n)
        await chain.tick()
        await expect(hash).to.be.preconfirmed()
        const elsewhere = await sendValue(other, signer(other, 0), bob.address, 5n)
        await expect(elsewhere).to.be.inMempool()
        await chain.mine()
        await expect(hash).to.be.sealedInBlock()
        // changeBalance reads the chain of the harness installed last: this one's again, for the specs after this.
        use(createHarness(chain).chaiMatchers)
        other.close()
      })
    })

    describe('changeBalance', () => {
      /** Sends 5 wei alice → bob and runs one tick: pre-confirmed, not sealed. */
      const sendAndTick = async () => {
        await sendValue(chain, alice, bob.address, 5n)
        await chain.tick()
      }

      it("changeBalance(bob, 5n, 'pending') around an action that sends and ticks", async () => {
        await expect(sendAndTick).to.changeBalance(bob.address, 5n, 'pending')
      })

      it("the same action measured at 'latest' changes by 0 until the block is sealed", async () => {
        await expect(sendAndTick).to.changeBalance(bob.address, 0n, 'latest')
        await expect(sendAndTick).not.to.changeBalance(bob.address, 5n) // 'latest' is the default
        await expect(() => harness.time.nextSeal()).to.changeBalance(bob.address, 10n, 'latest')
      })

      it('fails with an AssertionError giving the actual change', async () => {
        const error = await assertionFailure(expect(sendAndTick).to.changeBalance(bob.address, 6n, 'pending'))
        expect(error.message).to.equal(`expected the balance of ${bob.address} at pending to change by 6, but it changed by 5`)
        const negated = await assertionFailure(expect(sendAndTick).not.to.changeBalance(bob.address, 5n, 'pending'))
        expect(negated.message).to.equal(`expected the balance of ${bob.address} not to change by 5`)
      })

      it('needs a function (a promise has already run): TypeError', async () => {
        let caught: unknown
        try {
          await expect(sendAndTick()).to.changeBalance(bob.address, 5n, 'pending')
        } catch (error) {
          caught = error
        }
        expect(caught).to.be.instanceOf(TypeError)
        expect(caught).to.not.be.instanceOf(AssertionError)
        expect((caught as TypeError).message).to.equal('changeBalance needs a function that performs the action: expect(() => send()).to.changeBalance(...)')
      })
    })

    describe('afterwards', () => {
      it('loadFixture restored the world before each of these tests (dogfooding: contracts deployed once)', async () => {
        expect(chain.blockNumber()).to.equal(2n)
        expect(await tokenBalance(chain, tokenAddress, alice.address)).to.equal(SUPPLY)
        expect(await chain.getTransactionCount(alice.address, 'pending')).to.equal(2)
        expect(chain.findTransaction(`0x${'00'.repeat(32)}`)).to.equal(undefined)
        expect(chain.pending.transactions).to.have.length(0)
      })
    })
  })
})
