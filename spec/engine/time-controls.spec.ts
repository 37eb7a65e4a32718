/**
 * Time controls (Hardhat's and Anvil's): `evm_increaseTime` moves block timestamps ahead of the
 * clock, `evm_setNextBlockTimestamp` / `evm_mine [timestamp]` pin the next block's, `hardhat_mine`
 * / `anvil_mine` seal several blocks spaced by an interval, `anvil_setBlockTimestampInterval`
 * steps each block from its parent regardless of the clock. With pre-confirmations: the pending
 * block takes the new time at once only while it has pre-confirmed nothing (what its transactions
 * saw must stay what the sealed block records), else the change starts with the next block.
 * Whatever the controls do, block timestamps strictly increase.
 */
import { expect } from 'chai'
import { createTestClient, custom, decodeFunctionResult, encodeFunctionData } from 'viem'
import { Counter } from '../../fixtures/artifacts/Counter.ts'
import { createChain, type Chain } from '../../lib/index.ts'
import type { Address } from '../../lib/types.ts'
import { rejection, type RpcBlock } from '../support/chain-helpers.ts'
import { hex, strictlyIncreasing, timestamps } from '../support/controls-world.ts'
import { signer } from '../support/wallet.ts'

/** Genesis timestamp under the manual clock (2025-01-01T00:00:00Z); block 1 is stamped +2 s. */
const G = 1_735_689_600n
const counter = `0x${'c0'.repeat(20)}` as Address
const carol = `0x${'00'.repeat(18)}ca41` as Address

async function request<T = unknown>(chain: Chain, method: string, ...params: unknown[]): Promise<T> {
  return (await chain.request({ method, params })) as T
}

async function timestampOf(chain: Chain, tag: string): Promise<bigint> {
  return BigInt((await request<RpcBlock>(chain, 'eth_getBlockByNumber', tag, false)).timestamp)
}

/** block.number and block.timestamp as Counter.blockContext() sees them at `tag`. */
async function blockContext(chain: Chain, tag: 'latest' | 'pending'): Promise<{ number: bigint; timestamp: bigint }> {
  const data = await chain.call({ to: counter, data: encodeFunctionData({ abi: Counter.abi, functionName: 'blockContext' }) }, tag)
  const [number, timestamp] = decodeFunctionResult({ abi: Counter.abi, functionName: 'blockContext', data }) as readonly bigint[]
  return { number, timestamp }
}

/** A chain with Counter's code planted (blockContext() is a view: no transaction needed). */
async function chainWithCounter(): Promise<Chain> {
  const chain = await createChain({ clock: 'manual' })
  await chain.setCode(counter, Counter.deployedBytecode)
  return chain
}

/** Pre-confirms a transfer so the pending block is no longer empty. */
async function preconfirmSomething(chain: Chain, nonce = 0): Promise<void> {
  await chain.sendRawTransaction(await signer(chain, 0).sign({ to: carol, value: 1n, nonce }))
  await chain.tick()
  expect(chain.pending.transactions.length).to.be.greaterThan(0)
}

describe('time controls', () => {
  describe('evm_increaseTime', () => {
    it('with nothing pre-confirmed, the pending block moves by the offset at once (header and block.timestamp), and later blocks keep it', async () => {
      const chain = await chainWithCounter()
      expect(await timestampOf(chain, 'pending')).to.equal(G + 2n)

      expect(await request(chain, 'evm_increaseTime', hex(3600))).to.equal(3600)

      expect(await timestampOf(chain, 'pending')).to.equal(G + 2n + 3600n)
      expect(await blockContext(chain, 'pending')).to.deep.equal({ number: 1n, timestamp: G + 2n + 3600n })
      expect(await timestampOf(chain, 'latest')).to.equal(G)
      expect(chain.clock.now()).to.equal(Number(G) * 1000)

      await chain.clock.advance(2000)
      expect(await timestampOf(chain, 'latest')).to.equal(G + 2n + 3600n)
      expect(await blockContext(chain, 'latest')).to.deep.equal({ number: 1n, timestamp: G + 2n + 3600n })
      await chain.clock.advance(4000)
      expect(chain.blockByNumber(2)!.header.timestamp).to.equal(G + 4n + 3600n)
      expect(chain.blockByNumber(3)!.header.timestamp).to.equal(G + 6n + 3600n)
      expect(await timestampOf(chain, 'pending')).to.equal(G + 8n + 3600n)
    })

    it('answers the total offset: calls add up (Hardhat)', async () => {
      const chain = await createChain({ clock: 'manual' })
      expect(await request(chain, 'evm_increaseTime', 3600)).to.equal(3600)
      expect(await request(chain, 'evm_increaseTime', '0x3c')).to.equal(3660)
      expect(await chain.increaseTime(0)).to.equal(3660)
      expect(await timestampOf(chain, 'pending')).to.equal(G + 2n + 3660n)
    })

    // Anvil and Hardhat mine the pending transactions in a block with the offset (networkHelpers.time.increase after a transaction sent without waiting; audit K, D1).
    it('with pre-confirmed transactions, the pending block takes the offset at once: they are taken back and pre-confirmed again in it (an offset of 0 takes nothing back)', async () => {
      const chain = await chainWithCounter()
      await preconfirmSomething(chain)
      const withdrawn: unknown[] = []
      chain.on('withdrawn', (event) => withdrawn.push(event))
      // evm_increaseTime 0 (Hardhat's way to read the offset) changes nothing: nothing is taken back.
      expect(await chain.increaseTime(0)).to.equal(0)
      expect([withdrawn.length, chain.pending.transactions.length]).to.deep.equal([0, 1])

      expect(await chain.increaseTime(3600)).to.equal(3600)

      expect(withdrawn).to.have.length(1)
      expect(chain.pending.transactions).to.have.length(0)
      expect(await timestampOf(chain, 'pending')).to.equal(G + 2n + 3600n)
      expect(await blockContext(chain, 'pending')).to.deep.equal({ number: 1n, timestamp: G + 2n + 3600n })
      await chain.clock.advance(2000)
      expect(await timestampOf(chain, 'latest')).to.equal(G + 2n + 3600n)
      expect(chain.blockByNumber(1)!.transactions).to.have.length(1)
    })
  })

  describe('evm_setNextBlockTimestamp', () => {
    it("refuses a timestamp a header cannot hold (2^64 - 1 on) with Anvil's -32602 'The timestamp is too big', and a gas limit or interval past uint64, changing nothing", async () => {
      const chain = await createChain({ mining: 'off' })
      const pending = await timestampOf(chain, 'pending')
      for (const [method, params] of [
        ['evm_setNextBlockTimestamp', ['0xffffffffffffffff']],
        ['anvil_setNextBlockTimestamp', ['0x10000000000000000']],
        ['evm_setTime', ['0xffffffffffffffff']],
        ['evm_mine', ['0x10000000000000000']],
        ['evm_mine', [{ timestamp: '0xffffffffffffffff' }]],
      ] as const) {
        expect(await rejection(chain.request({ method, params: [...params] })), method).to.include({ code: -32602, message: 'The timestamp is too big' })
      }
      for (const method of ['evm_setBlockGasLimit', 'anvil_setBlockTimestampInterval']) {
        expect(await rejection(chain.request({ method, params: ['0x10000000000000000'] })), method).to.include({ code: -32602 })
      }
      expect([chain.blockNumber(), await timestampOf(chain, 'pending')]).to.deep.equal([0n, pending])
    })

    it('takes the largest it allows (2^64 - 2), and the blocks after it stay there rather than pass 2^64, as Anvil 1.7.1 does', async () => {
      const largest = 2n ** 64n - 2n
      const chain = await createChain({ mining: 'off' })
      await request(chain, 'evm_setNextBlockTimestamp', hex(largest))
      await request(chain, 'anvil_mine', 3)
      expect((await timestamps(chain)).slice(1)).to.deep.equal([largest, largest, largest])
      await request(chain, 'anvil_setBlockTimestampInterval', hex(2n ** 64n - 1n))
      await request(chain, 'evm_increaseTime', hex(2n ** 52n))
      await request(chain, 'evm_mine')
      expect(await timestampOf(chain, 'latest')).to.equal(largest)
      expect(await timestampOf(chain, 'pending')).to.equal(largest)
    })

    it('survives a later evm_increaseTime or timestamp interval: the explicit timestamp stays on the pending block', async () => {
      const chain = await createChain()
      await request(chain, 'evm_setNextBlockTimestamp', hex(G + 100n))
      await request(chain, 'evm_increaseTime', 10)
      await request(chain, 'anvil_setBlockTimestampInterval', 5)
      expect(await timestampOf(chain, 'pending')).to.equal(G + 100n)
      await chain.clock.advance(2000)
      expect(await timestampOf(chain, 'latest')).to.equal(G + 100n)
    })

    it('the next sealed block has exactly that timestamp and later blocks continue from it (+2 s each)', async () => {
      const chain = await chainWithCounter()
      const ts = G + 1000n
      expect(await request(chain, 'evm_setNextBlockTimestamp', hex(ts))).to.equal(null)
      expect(await timestampOf(chain, 'pending')).to.equal(ts)
      expect((await blockContext(chain, 'pending')).timestamp).to.equal(ts)
      await chain.clock.advance(2000)
      expect(await timestampOf(chain, 'latest')).to.equal(ts)
      await chain.clock.advance(4000)
      expect(chain.blockByNumber(2)!.header.timestamp).to.equal(ts + 2n)
      expect(chain.blockByNumber(3)!.header.timestamp).to.equal(ts + 4n)
    })

    it('set mid-block, the block still seals on the clock with exactly that timestamp, and the next follows +2 s', async () => {
      const chain = await createChain({ clock: 'manual' })
      await chain.clock.advance(700)
      const ts = G + 5000n
      await chain.setNextBlockTimestamp(ts)
      await chain.clock.advance(1300)
      expect(chain.blockNumber()).to.equal(1n)
      expect(chain.blockByNumber(1)!.header.timestamp).to.equal(ts)
      await chain.clock.advance(2000)
      expect(chain.blockByNumber(2)!.header.timestamp).to.equal(ts + 2n)
    })

    it("on an OP-stack chain, mid-block (its opening L1-attributes deposit pre-confirmed, nothing else): the pending block opens anew with that timestamp and a deposit made for it, as Anvil's next block takes it", async () => {
      const chain = await createChain({ clock: 'manual', preset: 'base' })
      await chain.clock.advance(700)
      const ts = G + 5000n
      await request(chain, 'evm_setNextBlockTimestamp', hex(ts))
      // Until its opening pre-confirmation runs again, 'pending' reads as 'latest' (as an OP chain's pending block before index 0).
      expect(await timestampOf(chain, 'pending')).to.equal(G)
      await request(chain, 'evm_mine')
      const block = await request<RpcBlock & { transactions: { hash: string }[] }>(chain, 'eth_getBlockByNumber', 'latest', true)
      expect([BigInt(block.number), BigInt(block.timestamp), block.transactions.length]).to.deep.equal([1n, ts, 1])
      // The deposit sets L1Block's timestamp of the origin for this block's time: 12 s L1 blocks, so well past the genesis origin's.
      const l1Time = BigInt(await chain.call({ to: '0x4200000000000000000000000000000000000015', data: '0xb80777ea' }, 'latest'))
      expect(l1Time > G + 4000n && l1Time <= ts).to.equal(true)
      await request(chain, 'evm_mine', hex(ts + 100n))
      expect(await timestampOf(chain, 'latest')).to.equal(ts + 100n)
    })

    // Anvil and Hardhat stamp the block that mines the pending transactions (audit K, D1).
    it('with pre-confirmed transactions, the pending block gets the one asked for at once, its transactions pre-confirmed again in it', async () => {
      const chain = await createChain({ clock: 'manual' })
      await preconfirmSomething(chain)
      const ts = G + 1000n
      await chain.setNextBlockTimestamp(ts)
      expect(await timestampOf(chain, 'pending')).to.equal(ts)
      await request(chain, 'evm_mine')
      expect(chain.blockByNumber(1)!.header.timestamp).to.equal(ts)
      expect(chain.blockByNumber(1)!.transactions).to.have.length(1)
      await chain.clock.advance(2000)
      expect(chain.blockByNumber(2)!.header.timestamp).to.equal(ts + 2n)
    })

    it("a timestamp at or before the previous block's → -32000 'Timestamp X is lower than or equal to previous block's timestamp Y' (Hardhat's text)", async () => {
      const chain = await createChain({ clock: 'manual' })
      await chain.clock.advance(2000)
      for (const ts of [G + 2n, G + 1n, 0n]) {
        const error = await rejection(request(chain, 'evm_setNextBlockTimestamp', hex(ts)))
        expect(error.code).to.equal(-32000)
        expect(error.message).to.equal(`Timestamp ${ts} is lower than or equal to previous block's timestamp ${G + 2n}`)
      }
      // Nothing changed: the pending block is still stamped by the clock.
      expect(await timestampOf(chain, 'pending')).to.equal(G + 4n)
      // With a pre-confirmed transaction, the sealed head is still the one to beat: the pending block takes the new time.
      await preconfirmSomething(chain)
      const error = await rejection(chain.setNextBlockTimestamp(G + 2n))
      expect(error.message).to.equal(`Timestamp ${G + 2n} is lower than or equal to previous block's timestamp ${G + 2n}`)
      await chain.setNextBlockTimestamp(G + 3n)
      expect(await timestampOf(chain, 'pending')).to.equal(G + 3n)
    })
  })

  describe('evm_mine with a timestamp', () => {
    it("seals a block now with exactly that timestamp and answers '0x0'", async () => {
      const chain = await createChain({ clock: 'manual' })
      await chain.clock.advance(2000)
      const ts = G + 100n
      expect(await request(chain, 'evm_mine', hex(ts))).to.equal('0x0')
      expect(chain.blockNumber()).to.equal(2n)
      expect(await timestampOf(chain, 'latest')).to.equal(ts)
      expect(chain.clock.now()).to.equal(Number(G) * 1000 + 2000)
    })

    it('the blocks after it continue from it: +2 s per clock seal (Hardhat and Anvil set the offset to timestamp − now)', async () => {
      const chain = await createChain({ clock: 'manual' })
      await chain.clock.advance(2000)
      const ts = G + 100n
      await request(chain, 'evm_mine', hex(ts))
      await chain.clock.advance(2000)
      expect(chain.blockByNumber(3)!.header.timestamp).to.equal(ts + 2n)
      await chain.clock.advance(2000)
      expect(chain.blockByNumber(4)!.header.timestamp).to.equal(ts + 4n)
    })

    it("a timestamp at or before the head's is refused with the same error and seals nothing", async () => {
      const chain = await createChain({ clock: 'manual' })
      await chain.clock.advance(2000)
      const error = await rejection(request(chain, 'evm_mine', hex(G + 2n)))
      expect(error.code).to.equal(-32000)
      expect(error.message).to.equal(`Timestamp ${G + 2n} is lower than or equal to previous block's timestamp ${G + 2n}`)
      expect(chain.blockNumber()).to.equal(1n)
    })
  })

  describe('hardhat_mine / anvil_mine [blocks, interval]', () => {
    it('hardhat_mine [0x5, 0x3c] seals 5 blocks spaced 60 s, the first with what the mempool can execute; answers true', async () => {
      const chain = await createChain({ clock: 'manual' })
      const hash = await chain.sendRawTransaction(await signer(chain, 0).sign({ to: carol, value: 1n }))
      expect(await request(chain, 'hardhat_mine', '0x5', '0x3c')).to.equal(true)
      expect(chain.blockNumber()).to.equal(5n)
      const stamps = (await timestamps(chain)).slice(1)
      // The first as mined now (the clock has not moved: the genesis's second + 1), as Hardhat's EDR.
      expect(stamps).to.deep.equal([G + 1n, G + 61n, G + 121n, G + 181n, G + 241n])
      expect(chain.blockByNumber(1)!.transactions.map((t) => t.transaction.hash)).to.deep.equal([hash])
      expect(chain.blockByNumber(2)!.transactions).to.have.length(0)
      expect(chain.clock.now()).to.equal(Number(G) * 1000)
      // Later blocks come after the last one.
      await chain.clock.advance(4000)
      expect(strictlyIncreasing(await timestamps(chain))).to.equal(true)
      expect(chain.blockByNumber(6)!.header.timestamp > G + 242n).to.equal(true)
    })

    it('anvil_mine answers null; without parameters it seals one block', async () => {
      const chain = await createChain({ clock: 'manual' })
      expect(await request(chain, 'anvil_mine')).to.equal(null)
      expect(chain.blockNumber()).to.equal(1n)
      expect(await request(chain, 'anvil_mine', '0x2')).to.equal(null)
      expect(chain.blockNumber()).to.equal(3n)
      expect(strictlyIncreasing(await timestamps(chain))).to.equal(true)
    })

    // Anvil and Hardhat would stamp these blocks alike (Anvil only lifts a timestamp that is *below* its
    // parent's); this engine promises strictly increasing timestamps (block-schedule.ts: "never at or
    // before its parent's"), and viem's testClient.mine({ blocks }) sends interval 0x0 by default.
    it("interval 0x0 — what viem's testClient.mine({ blocks }) sends — still gives strictly increasing timestamps (this engine's promise)", async () => {
      const chain = await createChain({ clock: 'manual' })
      await request(chain, 'anvil_mine', '0x3', '0x0')
      expect(chain.blockNumber()).to.equal(3n)
      const stamps = await timestamps(chain)
      expect(strictlyIncreasing(stamps), `timestamps ${stamps.join(', ')}`).to.equal(true)
    })
  })

  describe('anvil_setBlockTimestampInterval / anvil_removeBlockTimestampInterval', () => {
    it('each block is its parent + 10 s regardless of the clock, whether sealed by the clock or by evm_mine', async () => {
      const chain = await createChain({ clock: 'manual' })
      expect(await request(chain, 'anvil_setBlockTimestampInterval', '0xa')).to.equal(null)
      await chain.clock.advance(2000) // block 1: opened before the call
      const first = chain.blockByNumber(1)!.header.timestamp
      await chain.clock.advance(4000)
      await chain.clock.advance(700)
      await chain.mine()
      await chain.mine()
      expect((await timestamps(chain)).slice(1)).to.deep.equal([first, first + 10n, first + 20n, first + 30n, first + 40n])
    })

    it('the very next block is already +10 s: the pending block, empty, takes the interval at once (as increaseTime and setNextBlockTimestamp re-stamp it; Anvil: next block = previous + interval)', async () => {
      const chain = await createChain({ clock: 'manual' })
      await chain.setBlockTimestampInterval(10n)
      expect(await timestampOf(chain, 'pending')).to.equal(G + 10n)
      await chain.clock.advance(2000)
      expect(chain.blockByNumber(1)!.header.timestamp).to.equal(G + 10n)
    })

    it('removing it gives the clock back: once the clock catches up, a block sealed at time T is stamped T; answers true', async () => {
      const chain = await createChain({ clock: 'manual' })
      await chain.setBlockTimestampInterval(10n)
      await chain.clock.advance(6000)
      expect(await request(chain, 'anvil_removeBlockTimestampInterval')).to.equal(true)
      await chain.clock.advance(100_000)
      const stamps = await timestamps(chain)
      expect(strictlyIncreasing(stamps), `timestamps ${stamps.join(', ')}`).to.equal(true)
      const head = chain.blockByNumber(Number(chain.blockNumber()))!
      expect(head.header.timestamp).to.equal(BigInt(chain.clock.now() / 1000))
    })

    it('removing it when none is set answers false (Anvil: whether an interval was removed)', async () => {
      const chain = await createChain({ clock: 'manual' })
      expect(await request(chain, 'anvil_removeBlockTimestampInterval')).to.equal(false)
    })
  })

  it('timestamps strictly increase throughout a mix of every control, clock seals and evm_mine at one instant', async () => {
    const chain = await createChain({ clock: 'manual' })
    await chain.clock.advance(2000)
    await chain.mine()
    await chain.mine()
    await chain.mine()
    await chain.increaseTime(3600)
    await chain.clock.advance(2000)
    await preconfirmSomething(chain, 0)
    await chain.increaseTime(60)
    await chain.clock.advance(2000)
    await chain.setNextBlockTimestamp(chain.blockByNumber(Number(chain.blockNumber()))!.header.timestamp + 1n)
    await chain.mine()
    await request(chain, 'evm_mine', hex(chain.blockByNumber(Number(chain.blockNumber()))!.header.timestamp + 500n))
    await chain.mine()
    await request(chain, 'hardhat_mine', '0x3', '0x1')
    await chain.clock.advance(4000)
    await chain.setBlockTimestampInterval(3n)
    await chain.clock.advance(4000)
    await chain.mine()
    await chain.setBlockTimestampInterval(undefined)
    await chain.clock.advance(6000)
    await chain.mine()
    const stamps = await timestamps(chain)
    expect(stamps.length).to.be.greaterThan(20)
    expect(strictlyIncreasing(stamps), `timestamps ${stamps.join(', ')}`).to.equal(true)
    expect(await timestampOf(chain, 'pending') > stamps[stamps.length - 1]).to.equal(true)
  })

  it("viem's test client: increaseTime, setNextBlockTimestamp, setBlockTimestampInterval, removeBlockTimestampInterval, mine (mode anvil)", async () => {
    const chain = await createChain({ clock: 'manual' })
    const client = createTestClient({ mode: 'anvil', transport: custom(chain) })
    expect(await client.increaseTime({ seconds: 100 })).to.equal(100)
    expect(await timestampOf(chain, 'pending')).to.equal(G + 102n)
    await client.mine({ blocks: 1 })
    // Mined before it pre-confirmed anything: stamped with the clock's time, as Anvil and Hardhat.
    expect(chain.blockByNumber(1)!.header.timestamp).to.equal(G + 100n)
    await client.setNextBlockTimestamp({ timestamp: G + 1000n })
    await client.mine({ blocks: 1 })
    expect(chain.blockByNumber(2)!.header.timestamp).to.equal(G + 1000n)
    await client.setBlockTimestampInterval({ interval: 5 })
    await client.mine({ blocks: 2, interval: 5 })
    await client.removeBlockTimestampInterval()
    await chain.clock.advance(2000)
    const stamps = await timestamps(chain)
    expect(strictlyIncreasing(stamps), `timestamps ${stamps.join(', ')}`).to.equal(true)
    expect(chain.blockByNumber(4)!.header.timestamp - chain.blockByNumber(3)!.header.timestamp).to.equal(5n)
  })
})
