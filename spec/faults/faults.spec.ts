/**
 * The failure modes of real pre-confirmation nodes (shared/research/flashblocks.md §1.7, §2, §4,
 * §6), each a switch: dropped pre-confirmations, stalls, a stale pending call context, Base's
 * pending nonce, late and short blocks, Base's pending code and storage reads, tick jitter; the
 * profiles that set them; and the determinism of every seeded decision.
 */
import { expect } from 'chai'
import { parseTransaction, type Hex } from 'viem'
import { createChain, type Chain, type ChainOptions } from '../../lib/index.ts'
import type { Address } from '../../lib/types.ts'
import { receiptOf, rejection } from '../support/chain-helpers.ts'
import { GWEI, signer } from '../support/wallet.ts'

const BOB = `0x${'b0'.repeat(20)}` as Address
/** Runtime code returning one block property as a word: <opcode> PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN. */
const returning = (opcode: string): Hex => `0x${opcode}60005260206000f3`
const PROBE = `0x${'0b'.repeat(20)}` as Address

describe('faults: the failure modes of real pre-confirmation nodes', () => {
  let chain: Chain
  const rpc = (method: string, ...params: unknown[]): Promise<any> => chain.request({ method, params })
  const open = async (options: ChainOptions = {}) => {
    chain = await createChain({ clock: 'manual', ...options })
    return chain
  }
  const send = async (index: number, fields: Parameters<ReturnType<typeof signer>['sign']>[0] = {}) =>
    chain.sendRawTransaction(await signer(chain, index).sign({ to: BOB, value: 1n, ...fields }))
  afterEach(() => chain?.close())

  describe('1. dropped pre-confirmations (a flashblock reorg)', () => {
    it('preconf_dropPreconfirmations by hash, requeue: the receipt goes back to null, pending balance and nonce step back, the transaction is Known in the mempool and lands at the next tick', async () => {
      await open()
      const alice = signer(chain, 0).address
      const hash = await send(0, { value: 7n })
      await chain.clock.advance(200)
      expect((await receiptOf(chain, hash))?.blockHash).to.equal(`0x${'0'.repeat(64)}`)
      expect(await rpc('eth_getBalance', BOB, 'pending')).to.equal('0x7')
      const dropped = await rpc('preconf_dropPreconfirmations', { transactions: [hash] })
      expect(dropped).to.deep.equal({ blockNumber: '0x1', preconfirmations: [0], discarded: [], requeued: [hash] })
      expect(await receiptOf(chain, hash)).to.equal(null)
      expect(await rpc('eth_getBalance', BOB, 'pending')).to.equal('0x0')
      expect(await rpc('eth_getTransactionCount', alice, 'pending')).to.equal('0x1') // counts the mempool (geth)
      expect(await rpc('service_transactionStatus', hash)).to.deep.equal({ status: 'Known' })
      await chain.clock.advance(200)
      expect((await receiptOf(chain, hash))?.transactionIndex).to.equal('0x0')
      expect(await rpc('eth_getBalance', BOB, 'pending')).to.equal('0x7')
    })

    it('discard: the transaction is gone for good (status Unknown, nonce back at 0, never sealed), and a later one of the sender is kept but stuck behind the gap', async () => {
      await open()
      const first = await send(0)
      await chain.clock.advance(200)
      const second = await send(0, { nonce: 1 })
      await chain.clock.advance(200)
      // Dropping the first pre-confirmation takes the second back too: named ones are discarded, the rest requeued.
      const dropped = await rpc('preconf_dropPreconfirmations', { transactions: [first], mode: 'discard' })
      expect(dropped).to.deep.include({ preconfirmations: [0, 1], discarded: [first], requeued: [second] })
      expect(await rpc('service_transactionStatus', first)).to.deep.equal({ status: 'Unknown' })
      expect(await rpc('eth_getTransactionCount', signer(chain, 0).address, 'pending')).to.equal('0x0')
      await chain.clock.advance(1600)
      expect(await rpc('eth_getTransactionByHash', first)).to.equal(null)
      expect((await rpc('eth_getBlockByNumber', '0x1', false)).transactions).to.deep.equal([])
      expect((await rpc('txpool_content')).queued[signer(chain, 0).address.toLowerCase()]).to.have.key('1')
    })

    it('subscribers hear each pre-confirmed transaction once and get no retraction (as on Base); the chain emits `withdrawn`', async () => {
      await open()
      const announced: unknown[] = []
      const withdrawn: bigint[] = []
      chain.on('message', (message) => announced.push(message.data.result))
      chain.on('withdrawn', (event) => withdrawn.push(event.blockNumber))
      await rpc('eth_subscribe', 'newPreconfBlockTransactions')
      const hash = await send(0)
      await chain.clock.advance(200)
      await rpc('preconf_dropPreconfirmations', { count: 1 })
      await chain.clock.advance(200)
      expect(announced).to.deep.equal([hash, hash])
      expect(withdrawn).to.deep.equal([1n])
    })

    it('a seeded drop at the seal (dropRate 1): the sealed block lacks the last pre-confirmation; its transaction lands in the next block', async () => {
      await open({ faults: { dropRate: 1 } })
      const early = await send(0)
      await chain.clock.advance(1900)
      const late = await send(1)
      await chain.clock.advance(100) // the tick at 2000 pre-confirms `late`, then the seal drops that tick
      expect((await receiptOf(chain, early))?.blockNumber).to.equal('0x1')
      expect(await receiptOf(chain, late)).to.equal(null)
      expect((await rpc('eth_getBlockByNumber', '0x1', false)).transactions).to.deep.equal([early])
      await chain.clock.advance(200)
      expect((await receiptOf(chain, late))?.blockNumber).to.equal('0x2')
    })

    it('bad requests are clear errors and change nothing: a hash not pre-confirmed, count and transactions together, an unknown mode', async () => {
      await open()
      const hash = await send(0)
      expect((await rejection(rpc('preconf_dropPreconfirmations', { transactions: [hash] }))).message).to.equal(`transaction ${hash} is not pre-confirmed in the pending block`)
      expect((await rejection(rpc('preconf_dropPreconfirmations', { count: 1, transactions: [hash] }))).code).to.equal(-32602)
      expect((await rejection(rpc('preconf_dropPreconfirmations', { mode: 'lose' }))).code).to.equal(-32602)
      for (const count of [0, 1001]) {
        const refused = await rejection(rpc('preconf_dropPreconfirmations', { count }))
        expect([refused.code, refused.message]).to.deep.equal([-32602, `invalid argument 0 (drop).count: ${count === 0 ? 'at least 1' : 'at most 1000'}`])
      }
      await chain.clock.advance(200)
      expect((await receiptOf(chain, hash))?.status).to.equal('0x1')
    })

    it("on an OP-stack chain the block's opening pre-confirmation (its L1-attributes deposit) is never dropped", async () => {
      await open({ preset: 'base' })
      const hash = await send(0)
      await chain.clock.advance(200)
      const dropped = await rpc('preconf_dropPreconfirmations', { count: 5 })
      expect(dropped).to.deep.include({ preconfirmations: [1], requeued: [hash] })
      expect((await rpc('eth_getBlockByNumber', 'pending', false)).transactions).to.have.length(1)
    })
  })

  describe('2. stalled pre-confirmations', () => {
    it("pending 'latest': ticks stop, pending reads the newest sealed block, blocks keep sealing with the mempool's transactions, subscribers hear nothing until the stall ends", async () => {
      await open()
      const announced: unknown[] = []
      chain.on('message', (message) => announced.push(message.data.result))
      await rpc('eth_subscribe', 'newPreconfBlockTransactions')
      expect(await rpc('preconf_stall', 3000, 'latest')).to.deep.equal({ untilMs: 1_735_689_600_000 + 3000, pending: 'latest' })
      const hash = await send(0, { value: 9n })
      await chain.clock.advance(1800)
      expect(await receiptOf(chain, hash)).to.equal(null)
      expect(await rpc('eth_getBalance', BOB, 'pending')).to.equal('0x0')
      expect((await rpc('eth_getBlockByNumber', 'pending', false)).number).to.equal('0x0')
      expect((await rpc('preconf_tick')).transactions).to.deep.equal([])
      await chain.clock.advance(200) // the seal at 2000 builds block 1 with it, silently
      expect((await receiptOf(chain, hash))?.blockNumber).to.equal('0x1')
      expect(announced).to.deep.equal([])
      const after = await send(1)
      await chain.clock.advance(1000) // the stall ends at 3000: the tick due then runs
      expect((await receiptOf(chain, after))?.blockHash).to.equal(`0x${'0'.repeat(64)}`)
      expect(announced).to.deep.equal([after])
    })

    it("pending 'latest': a transaction pre-confirmed before the stall has no receipt during it (Base's node without a pending snapshot), and is pending by hash", async () => {
      await open()
      const hash = await send(0, { value: 5n })
      await chain.clock.advance(200)
      expect((await receiptOf(chain, hash))?.blockHash).to.equal(`0x${'0'.repeat(64)}`)
      await rpc('preconf_stall', 3000, 'latest')
      expect(await receiptOf(chain, hash)).to.equal(null)
      expect(await rpc('eth_getTransactionByHash', hash)).to.include({ blockNumber: null, blockHash: null })
      expect(await rpc('eth_getBalance', BOB, 'pending')).to.equal('0x0')
      await chain.clock.advance(1800) // the seal at 2000 holds it
      expect((await receiptOf(chain, hash))?.blockNumber).to.equal('0x1')
    })

    it("pending 'frozen' (the stale-node bug): pending stays at the block and state of when the stall began while latest moves on", async () => {
      await open()
      const hash = await send(0, { value: 3n })
      await chain.clock.advance(200)
      await rpc('preconf_stall', 6000, 'frozen')
      await send(1, { value: 4n })
      await chain.clock.advance(4000)
      expect(await rpc('eth_blockNumber')).to.equal('0x2')
      const pending = await rpc('eth_getBlockByNumber', 'pending', false)
      expect([pending.number, pending.transactions]).to.deep.equal(['0x1', [hash]])
      expect(await rpc('eth_getBalance', BOB, 'pending')).to.equal('0x3')
      expect(await rpc('eth_getBalance', BOB, 'latest')).to.equal('0x7')
      await chain.clock.advance(2000)
      expect((await rpc('preconf_getFaults')).stall).to.equal(null)
      expect(await rpc('eth_getBalance', BOB, 'pending')).to.equal('0x7')
    })

    for (const [control, params] of [
      ['hardhat_setCoinbase', [`0x${'c0'.repeat(20)}`]],
      ['evm_increaseTime', [60]],
      ['hardhat_dropTransaction', ['HASH']],
      ['preconf_dropPreconfirmations', []],
    ] as const) {
      it(`pending 'frozen': after ${control} during the stall, the frozen block's transaction keeps its receipt, its trace and pending state (audit L, D6)`, async () => {
        await open()
        const hash = await send(0, { value: 3n })
        await chain.clock.advance(200)
        await rpc('preconf_stall', 4000, 'frozen')
        await rpc(control, ...params.map((param) => (param === 'HASH' ? hash : param)))
        const receipt = await receiptOf(chain, hash)
        expect(receipt).to.include({ transactionHash: hash, blockNumber: '0x1', blockHash: `0x${'0'.repeat(64)}` })
        expect(await rpc('eth_getTransactionByHash', hash)).to.include({ blockNumber: '0x1', transactionIndex: '0x0' })
        // Traced in the block it is served from, not the live one it left (review M).
        expect(await rpc('debug_traceTransaction', hash, { tracer: 'callTracer' })).to.include({ to: BOB.toLowerCase(), value: '0x3' })
        expect((await rpc('eth_getBlockByNumber', 'pending', false)).transactions).to.deep.equal([hash])
        expect(await rpc('eth_getBalance', BOB, 'pending')).to.equal('0x3')
        await chain.clock.advance(4000) // the stall ends at 4200: what the control left is served (a drop requeues by default)
        const kept = control !== 'hardhat_dropTransaction'
        expect((await receiptOf(chain, hash))?.blockNumber).to.equal(kept ? '0x1' : undefined)
        expect(await rpc('eth_getBalance', BOB, 'pending')).to.equal(kept ? '0x3' : '0x0')
      })
    }

    it('preconf_stall 0 ends a stall at once; a snapshot taken before a stall reverts it away', async () => {
      await open()
      const id = await rpc('evm_snapshot')
      await rpc('preconf_stall', 10_000)
      expect((await rpc('preconf_getFaults')).stall).to.deep.include({ pending: 'latest' })
      await rpc('evm_revert', id)
      expect((await rpc('preconf_getFaults')).stall).to.equal(null)
      await rpc('preconf_stall', 10_000)
      expect(await rpc('preconf_stall', 0)).to.equal(null)
    })
  })

  describe('3. stale pending block context (Base runs pending calls in an older header: base/base#1439)', () => {
    const probe = async (tag = 'pending') => BigInt(await rpc('eth_call', { to: PROBE, data: '0x' }, tag))

    it('pendingContextLag 3: block.number, timestamp, basefee, coinbase and prevrandao at pending are those of the head − 3, while the state is pending', async () => {
      await open({ faults: { pendingContextLag: 3 }, coinbase: `0x${'c0'.repeat(20)}` })
      await chain.mineBlocks(5)
      const stale = await rpc('eth_getBlockByNumber', '0x2', false)
      const values: Array<[string, bigint]> = [
        ['43', 2n],
        ['42', BigInt(stale.timestamp)],
        ['48', BigInt(stale.baseFeePerGas)],
        ['41', BigInt(stale.miner)],
        ['44', BigInt(stale.mixHash)],
      ]
      for (const [opcode, expected] of values) {
        await chain.setCode(PROBE, returning(opcode))
        expect(await probe(), `opcode 0x${opcode}`).to.equal(expected)
      }
      await chain.setCode(PROBE, returning('43'))
      expect(await probe('latest')).to.equal(5n)
      // The state is the pre-confirmed one: BALANCE of BOB (PUSH20 BOB BALANCE …) sees the pre-confirmed transfer.
      await send(0, { value: 11n })
      await chain.clock.advance(200)
      await chain.setCode(PROBE, returning(`73${BOB.slice(2)}31`))
      expect(await probe()).to.equal(11n)
    })

    it('with a lag deeper than the chain, the context is genesis; lag 0 (ideal) is the pending block itself', async () => {
      await open({ faults: { pendingContextLag: 3 } })
      await chain.setCode(PROBE, returning('43'))
      expect(await probe()).to.equal(0n)
      await rpc('preconf_setFaults', { pendingContextLag: 0 })
      expect(await probe()).to.equal(1n)
    })
  })

  describe("4. Base's pending nonce: pre-confirmed transactions only", () => {
    it('a wallet that sends twice before a tick reuses the nonce: `already known` for the same bytes, `replacement transaction underpriced` for a new payload at the same fees', async () => {
      await open({ faults: { pendingNonce: 'preconfirmed' } })
      const alice = signer(chain, 0)
      const nonce = Number(await rpc('eth_getTransactionCount', alice.address, 'pending'))
      const raw = await alice.sign({ nonce, to: BOB, value: 1n })
      await chain.sendRawTransaction(raw)
      const again = Number(await rpc('eth_getTransactionCount', alice.address, 'pending'))
      expect(again).to.equal(nonce)
      expect((await rejection(chain.sendRawTransaction(raw))).message).to.equal('already known')
      expect((await rejection(chain.sendRawTransaction(await alice.sign({ nonce: again, to: BOB, value: 2n })))).message).to.equal('replacement transaction underpriced')
      await chain.clock.advance(200)
      expect(await rpc('eth_getTransactionCount', alice.address, 'pending')).to.equal('0x1')
      expect(await rpc('eth_getTransactionCount', alice.address, 'latest')).to.equal('0x0')
    })

    it("the node's own signer still fills the pool's nonce (geth's), so `eth_sendTransaction` sends back to back within a tick (audit P, P1); `eth_fillTransaction` fills the reported one, as Base's reth node fills its pending state's", async () => {
      await open({ faults: { pendingNonce: 'preconfirmed' } })
      const from = chain.accounts[0].address
      const first = (await rpc('eth_sendTransaction', { from, to: BOB, value: '0x1' })) as Hex
      const second = (await rpc('eth_sendTransaction', { from, to: BOB, value: '0x2' })) as Hex
      expect(await rpc('eth_getTransactionCount', from, 'pending')).to.equal('0x0')
      const signed = (await rpc('eth_signTransaction', { from, to: BOB, value: '0x3' })) as Hex
      expect(parseTransaction(signed).nonce).to.equal(2)
      const filled = (await rpc('eth_fillTransaction', { from, to: BOB, value: '0x3' })) as { tx: { nonce: Hex } }
      expect(filled.tx.nonce).to.equal('0x0')
      await chain.clock.advance(200)
      const nonces = await Promise.all([first, second].map(async (hash) => ((await rpc('eth_getTransactionByHash', hash)) as { nonce: Hex }).nonce))
      expect(nonces).to.deep.equal(['0x0', '0x1'])
    })
  })

  describe('5. late and short blocks', () => {
    it('lateBlockRate 1, lateTicks 3: the first ticks of a block are skipped, by the seed (1 to 3 of them), the same each run', async () => {
      const firstTickTimes = async (seed: number) => {
        await open({ seed, faults: { lateBlockRate: 1, lateTicks: 3 } })
        const start = chain.clock.now()
        const times: number[] = []
        chain.on('preconfirmation', ({ index }) => index === 0 && times.push((chain.clock.now() - start) % 2000))
        await chain.clock.advance(20_000)
        chain.close()
        return times
      }
      const times = await firstTickTimes(7)
      expect(times).to.have.length(10)
      for (const at of times) expect([400, 600, 800]).to.include(at)
      expect(new Set(times).size).to.be.greaterThan(1)
      expect(await firstTickTimes(7)).to.deep.equal(times)
    })

    it('preconf_skipTicks: the next ticks do not run, whatever block they fall in', async () => {
      await open()
      const indexes: number[] = []
      chain.on('preconfirmation', ({ index }) => indexes.push(index))
      expect(await rpc('preconf_skipTicks', 12)).to.equal(12)
      await chain.clock.advance(4000)
      expect(indexes).to.deep.equal([0, 1, 2, 3, 4, 5, 6, 7])
    })

    it('tickGasBudget: pre-confirmation j of 10 may have used j/10 of the gas limit, so a 5M-gas transaction misses the first tick (3M) and goes in the second (6M)', async () => {
      await open({ faults: { tickGasBudget: true }, blockGasLimit: 30_000_000n })
      const big = await send(0, { gas: 5_000_000n })
      await chain.clock.advance(200)
      expect(await receiptOf(chain, big)).to.equal(null)
      await chain.clock.advance(200)
      expect((await receiptOf(chain, big))?.status).to.equal('0x1')
    })

    it('tickGasBudget: evm_mine (a last tick that may fill the block) includes it at once', async () => {
      await open({ faults: { tickGasBudget: true }, blockGasLimit: 30_000_000n })
      const big = await send(0, { gas: 25_000_000n, maxFeePerGas: 2n * GWEI })
      await chain.mine()
      expect((await receiptOf(chain, big))?.blockNumber).to.equal('0x1')
    })
  })

  describe("6. Base's node read semantics", () => {
    it("pendingCodeAndStorage 'latest': eth_getCode and eth_getStorageAt at pending answer from latest, while eth_getBalance at pending sees the pre-confirmation", async () => {
      await open({ faults: { pendingCodeAndStorage: 'latest' } })
      // Init code storing 1 at slot 0 and returning the one-byte code 0x00.
      const hash = await send(0, { to: null, value: 0n, gas: 100_000n, data: '0x600160005560016000f3' })
      await chain.clock.advance(200)
      const { contractAddress } = (await receiptOf(chain, hash))!
      expect(await rpc('eth_getCode', contractAddress, 'pending')).to.equal('0x')
      expect(await rpc('eth_getStorageAt', contractAddress, '0x0', 'pending')).to.equal(`0x${'0'.repeat(64)}`)
      await rpc('preconf_setFaults', { pendingCodeAndStorage: 'preconfirmed' })
      expect(await rpc('eth_getCode', contractAddress, 'pending')).to.equal('0x00')
      expect(BigInt(await rpc('eth_getStorageAt', contractAddress, '0x0', 'pending'))).to.equal(1n)
    })
  })

  describe('7. jitter', () => {
    it('tickJitterMs 50: each tick falls within 50 ms of its time, seeded (the same for a seed, different for another), never across the seal', async () => {
      const tickTimes = async (seed: number) => {
        await open({ seed, faults: { tickJitterMs: 50 } })
        const start = chain.clock.now()
        const times: number[] = []
        chain.on('preconfirmation', () => times.push(chain.clock.now() - start))
        await chain.clock.advance(4000)
        chain.close()
        return times
      }
      const times = await tickTimes(1)
      expect(times).to.have.length(20)
      times.forEach((at, i) => {
        const nominal = (i + 1) * 200
        expect(Math.abs(at - nominal), `tick ${i}`).to.be.at.most(50)
        if (nominal % 2000 === 0) expect(at).to.be.at.most(nominal)
      })
      expect(times.some((at, i) => at !== (i + 1) * 200)).to.equal(true)
      expect(await tickTimes(1)).to.deep.equal(times)
      expect(await tickTimes(2)).to.not.deep.equal(times)
    })

    it('a jitter above half the tick interval is refused, as an option and over RPC', async () => {
      expect((await rejection(createChain({ faults: { tickJitterMs: 101 } }))).message).to.match(/half the tick interval/)
      await open()
      expect((await rejection(rpc('preconf_setFaults', { tickJitterMs: 101 }))).code).to.equal(-32602)
    })
  })

  it('a switch given an object shows it as JSON, not `[object Object]`; options that are no object are refused by name (audit Q, Q9)', async () => {
    await open()
    const refused = await rejection(rpc('preconf_setFaults', { dropRate: {}, stallPending: { at: 1 } }))
    expect([refused.code, refused.message]).to.deep.equal([-32602, 'invalid argument 0 (faults): invalid option dropRate: expected a number from 0 to 1, got {}'])
    expect((await rejection(rpc('preconf_setFaults', { stallPending: { at: 1 } }))).message).to.match(/got \{"at":1\}$/)
    expect((await rejection(createChain(null as never))).message).to.equal('invalid options: expected an object, got null')
  })

  describe('profiles and determinism', () => {
    it("profile 'base' sets Base's values; each switch given overrides its own; preconf_getFaults reads them", async () => {
      await open({ profile: 'base', seed: 42, faults: { dropRate: 0.5 } })
      expect(await rpc('preconf_getFaults')).to.deep.equal({
        profile: 'base',
        seed: 42,
        dropRate: 0.5,
        dropDepth: 1,
        dropMode: 'requeue',
        stallRate: 0,
        stallMs: 4000,
        stallPending: 'latest',
        pendingContextLag: 3,
        pendingNonce: 'preconfirmed',
        lateBlockRate: 0.05,
        lateTicks: 1,
        tickGasBudget: true,
        pendingCodeAndStorage: 'latest',
        tickJitterMs: 20,
        stall: null,
        ticksToSkip: 0,
      })
    })

    it("the base profile's jitter is 10 % of the tick interval, so any interval starts (at 30 ms: 3 ms)", async () => {
      await open({ profile: 'base', preconfIntervalMs: 30 })
      expect(await rpc('preconf_getFaults')).to.deep.include({ profile: 'base', tickJitterMs: 3 })
    })

    it('the ideal profile is every switch off', async () => {
      await open()
      expect(await rpc('preconf_getFaults')).to.deep.include({ profile: 'ideal', dropRate: 0, stallRate: 0, pendingContextLag: 0, pendingNonce: 'mempool', lateBlockRate: 0, tickGasBudget: false, pendingCodeAndStorage: 'preconfirmed', tickJitterMs: 0 })
    })

    it('same seed, options and calls: the same chain, block hash for block hash, with every seeded mode on; another seed: another chain', async () => {
      const run = async (seed: number) => {
        await open({ seed, profile: 'base', faults: { dropRate: 0.3, stallRate: 0.2, stallMs: 1000, lateBlockRate: 0.3, lateTicks: 3, tickJitterMs: 60 }, preconfIntervalMs: 200 })
        const hashes: string[] = []
        for (let i = 0; i < 30; i++) {
          await send(i % 5, { nonce: Math.floor(i / 5), value: BigInt(i + 1) })
          await chain.clock.advance(450)
        }
        await chain.clock.advance(4000)
        for (let n = 1n; n <= chain.blockNumber(); n++) hashes.push(chain.blockByNumber(n)!.hash)
        chain.close()
        return hashes
      }
      const first = await run(5)
      expect(first.length).to.be.greaterThan(5)
      expect(await run(5)).to.deep.equal(first)
      expect(await run(6)).to.not.deep.equal(first)
    })
  })
})
