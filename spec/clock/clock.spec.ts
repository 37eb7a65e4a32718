/**
 * The manual clock: advancing virtual time fires each pre-confirmation tick (every
 * preconfIntervalMs, flashblock indexes 0, 1, … within a block, as Base's flashblocks) and each
 * seal (every blockTimeMs) in order; a tick due at the same instant as a seal runs first.
 * evm_mine (Anvil/Hardhat) seals now and restarts the schedule.
 */
import { expect } from 'chai'
import { parseEther } from 'viem'
import { createChain, RPCError, type Chain, type ChainOptions } from '../../lib/index.ts'
import { signer } from '../support/wallet.ts'
import { blockOf, receiptOf, rejection, type RpcBlock } from '../support/chain-helpers.ts'

const GENESIS = 1_735_689_600
const T0 = GENESIS * 1000

type Event = { kind: 'preconfirmation'; at: number; blockNumber: bigint; index: number; transactions: string[] } | { kind: 'block'; at: number; number: bigint; timestamp: bigint }

async function recordingChain(options: ChainOptions = {}): Promise<{ chain: Chain; events: Event[] }> {
  const chain = await createChain({ clock: 'manual', ...options })
  const events: Event[] = []
  chain.on('preconfirmation', (p) =>
    events.push({ kind: 'preconfirmation', at: chain.clock.now(), blockNumber: p.blockNumber, index: p.index, transactions: p.transactions.map((t) => t.transaction.hash) }),
  )
  chain.on('block', (b) => events.push({ kind: 'block', at: chain.clock.now(), number: b.header.number, timestamp: b.header.timestamp }))
  return { chain, events }
}

/** The expected schedule of one block: ticks at +interval … +blockTime (indexes 0…), then the seal. */
function scheduleOf(blockNumber: bigint, startMs: number, intervalMs: number, blockTimeMs: number, timestamp: bigint): Event[] {
  const events: Event[] = []
  let index = 0
  for (let at = startMs + intervalMs; at <= startMs + blockTimeMs; at += intervalMs) {
    events.push({ kind: 'preconfirmation', at, blockNumber, index: index++, transactions: [] })
  }
  events.push({ kind: 'block', at: startMs + blockTimeMs, number: blockNumber, timestamp })
  return events
}

describe('clock: ticks every 200 ms and seals every 2000 ms, in order', () => {
  it('starts at the genesis timestamp in ms (manual clock default 2025-01-01T00:00:00Z)', async () => {
    const chain = await createChain({ clock: 'manual' })
    expect(chain.clock.mode).to.equal('manual')
    expect(chain.clock.now()).to.equal(T0)
    expect(((await blockOf(chain, 'earliest')) as RpcBlock).timestamp).to.equal(`0x${GENESIS.toString(16)}`)
  })

  it('advance(4000) fires 10 ticks then a seal, twice, each at its due time; the tick at 2000 runs before the seal', async () => {
    const { chain, events } = await recordingChain()
    await chain.clock.advance(4000)
    expect(events).to.deep.equal([
      ...scheduleOf(1n, T0, 200, 2000, BigInt(GENESIS + 2)),
      ...scheduleOf(2n, T0 + 2000, 200, 2000, BigInt(GENESIS + 4)),
    ])
    expect(chain.clock.now()).to.equal(T0 + 4000)
    expect(chain.blockNumber()).to.equal(2n)
  })

  it('small advances fire the same events as one big advance; time lands between events', async () => {
    const { chain, events } = await recordingChain()
    await chain.clock.advance(150)
    expect(events).to.deep.equal([])
    expect(chain.clock.now()).to.equal(T0 + 150)
    await chain.clock.advance(50)
    expect(events.map((e) => e.at)).to.deep.equal([T0 + 200])
    for (let i = 0; i < 38; i++) await chain.clock.advance(50)
    expect(chain.clock.now()).to.equal(T0 + 2100)
    expect(events).to.deep.equal(scheduleOf(1n, T0, 200, 2000, BigInt(GENESIS + 2)))
  })

  it('the flashblock index resets to 0 in each new block', async () => {
    const { chain, events } = await recordingChain()
    await chain.clock.advance(6000)
    const ticks = events.filter((e) => e.kind === 'preconfirmation')
    expect(ticks.map((e) => [Number(e.blockNumber), e.index])).to.deep.equal(
      [1, 2, 3].flatMap((n) => Array.from({ length: 10 }, (_, i) => [n, i])),
    )
  })

  it('advance(0) fires nothing, even right after an event', async () => {
    const { chain, events } = await recordingChain()
    await chain.clock.advance(0)
    expect(events).to.deep.equal([])
    expect(chain.clock.now()).to.equal(T0)
    await chain.clock.advance(200)
    expect(events).to.have.length(1)
    await chain.clock.advance(0)
    expect(events).to.have.length(1)
    expect(chain.clock.now()).to.equal(T0 + 200)
  })

  it('a negative (or non-finite) advance rejects and moves nothing', async () => {
    const { chain, events } = await recordingChain()
    for (const ms of [-1, -2000, Number.NaN, Number.POSITIVE_INFINITY]) {
      const error = await rejection(chain.clock.advance(ms))
      expect(error, String(ms)).to.be.instanceOf(RangeError)
      expect(error.message).to.equal(`cannot advance the clock by ${ms} ms`)
    }
    expect(events).to.deep.equal([])
    expect(chain.clock.now()).to.equal(T0)
  })

  it('a tx sent at t=1900 is pre-confirmed by the tick at 2000, which runs before the seal at 2000: it is in block 1', async () => {
    const { chain, events } = await recordingChain()
    await chain.clock.advance(1900)
    const hash = await chain.sendRawTransaction(await signer(chain, 0).sign({ to: chain.accounts[1].address, value: 1n }))
    await chain.clock.advance(100)
    expect(events.slice(-2)).to.deep.equal([
      { kind: 'preconfirmation', at: T0 + 2000, blockNumber: 1n, index: 9, transactions: [hash] },
      { kind: 'block', at: T0 + 2000, number: 1n, timestamp: BigInt(GENESIS + 2) },
    ])
    const receipt = await receiptOf(chain, hash)
    expect(receipt?.blockNumber).to.equal('0x1')
    expect(receipt?.blockHash).to.equal(((await blockOf(chain, '0x1')) as RpcBlock).hash)
    expect(((await blockOf(chain, '0x1')) as RpcBlock).transactions).to.deep.equal([hash])
  })

  it('block timestamps with defaults are genesis + 2, + 4, + 6 … (the scheduled seal time, in seconds)', async () => {
    const chain = await createChain({ clock: 'manual' })
    expect(((await blockOf(chain, 'pending')) as RpcBlock).timestamp).to.equal(`0x${(GENESIS + 2).toString(16)}`)
    await chain.clock.advance(10_000)
    for (let n = 1; n <= 5; n++) {
      expect(((await blockOf(chain, `0x${n}`)) as RpcBlock).timestamp, `block ${n}`).to.equal(`0x${(GENESIS + 2 * n).toString(16)}`)
    }
    expect(((await blockOf(chain, 'pending')) as RpcBlock).timestamp).to.equal(`0x${(GENESIS + 12).toString(16)}`)
  })

  it('a custom genesisTimestamp, blockTimeMs and preconfIntervalMs shape the schedule and timestamps', async () => {
    const genesis = 1_800_000_000
    const { chain, events } = await recordingChain({ genesisTimestamp: genesis, blockTimeMs: 3000, preconfIntervalMs: 500 })
    const t0 = genesis * 1000
    expect(chain.clock.now()).to.equal(t0)
    expect(((await blockOf(chain, 'earliest')) as RpcBlock).timestamp).to.equal(`0x${genesis.toString(16)}`)
    await chain.clock.advance(6000)
    expect(events).to.deep.equal([...scheduleOf(1n, t0, 500, 3000, BigInt(genesis + 3)), ...scheduleOf(2n, t0 + 3000, 500, 3000, BigInt(genesis + 6))])
    expect(((await blockOf(chain, '0x2')) as RpcBlock).timestamp).to.equal(`0x${(genesis + 6).toString(16)}`)
  })

  it('a tick interval that does not divide the block time: ticks keep their own cadence after each seal', async () => {
    const { chain, events } = await recordingChain({ blockTimeMs: 1000, preconfIntervalMs: 300 })
    await chain.clock.advance(2000)
    // Ticks at 300, 600, 900, seal at 1000, then ticks restart from the seal: 1300, 1600, 1900, seal at 2000.
    expect(events.map((e) => [e.kind, e.at - T0])).to.deep.equal([
      ['preconfirmation', 300],
      ['preconfirmation', 600],
      ['preconfirmation', 900],
      ['block', 1000],
      ['preconfirmation', 1300],
      ['preconfirmation', 1600],
      ['preconfirmation', 1900],
      ['block', 2000],
    ])
  })
})

describe('clock: evm_mine, preconf_tick and preconf_advanceClock', () => {
  it('chain.mine() runs a last tick and seals immediately without moving time; the schedule restarts from that instant', async () => {
    const { chain, events } = await recordingChain()
    await chain.clock.advance(500)
    expect(events).to.have.length(2)
    const block = await chain.mine()
    expect(block.header.number).to.equal(1n)
    // Block 1 pre-confirmed nothing: it is stamped with the clock's time, as Anvil and Hardhat
    // stamp a mined block; genesis + 0.5 s is the genesis's second, so the parent's + 1.
    expect(block.header.timestamp).to.equal(BigInt(GENESIS + 1))
    expect(chain.clock.now()).to.equal(T0 + 500)
    expect(events.slice(2)).to.deep.equal([
      { kind: 'preconfirmation', at: T0 + 500, blockNumber: 1n, index: 2, transactions: [] },
      { kind: 'block', at: T0 + 500, number: 1n, timestamp: BigInt(GENESIS + 1) },
    ])
    events.length = 0

    await chain.clock.advance(2000)
    // The next tick is 200 ms after the mine (not at the old 600), the next seal 2000 ms after it,
    // at genesis + 2.5 s: block 2 is stamped genesis + 2.
    expect(events).to.deep.equal(scheduleOf(2n, T0 + 500, 200, 2000, BigInt(GENESIS + 2)))
  })

  it('evm_mine through request seals now and answers 0x0', async () => {
    const { chain, events } = await recordingChain()
    expect(await chain.request({ method: 'evm_mine', params: [] })).to.equal('0x0')
    expect(await chain.request({ method: 'evm_mine' })).to.equal('0x0')
    expect(chain.blockNumber()).to.equal(2n)
    expect(await chain.request({ method: 'eth_blockNumber' })).to.equal('0x2')
    expect(chain.clock.now()).to.equal(T0)
    expect(events.map((e) => e.kind)).to.deep.equal(['preconfirmation', 'block', 'preconfirmation', 'block'])
    // Timestamps stay strictly increasing even though no time passed.
    const [one, two] = [(await blockOf(chain, '0x1')) as RpcBlock, (await blockOf(chain, '0x2')) as RpcBlock]
    expect(BigInt(two.timestamp) > BigInt(one.timestamp)).to.equal(true)
  })

  it('evm_mine includes what the mempool can execute, as Anvil and Hardhat mine pending transactions', async () => {
    const chain = await createChain()
    const bob = chain.accounts[1].address
    const hash = await chain.sendRawTransaction(await signer(chain, 0).sign({ to: bob, value: 5n }))
    await chain.request({ method: 'evm_mine' })
    const receipt = (await chain.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { blockNumber: string; blockHash: string }
    expect(receipt.blockNumber).to.equal('0x1')
    expect(receipt.blockHash).to.equal(((await blockOf(chain, '0x1')) as RpcBlock).hash)
  })

  it('rejects a pre-confirmation interval longer than the block time (no tick would ever run)', async () => {
    let error: unknown
    try {
      await createChain({ preconfIntervalMs: 3000, blockTimeMs: 2000 })
    } catch (caught) {
      error = caught
    }
    expect(error).to.be.instanceOf(TypeError)
    expect((error as Error).message).to.match(/preconfIntervalMs \(3000\) must not exceed blockTimeMs \(2000\)/)
  })

  it('preconf_tick / chain.tick() pre-confirms now without moving time; the scheduled tick then gets the next index', async () => {
    const { chain, events } = await recordingChain()
    const bob = chain.accounts[1].address
    const before = await chain.getBalance(bob)
    const hash = await chain.sendRawTransaction(await signer(chain, 0).sign({ to: bob, value: parseEther('1') }))

    const result = await chain.request({ method: 'preconf_tick', params: [] })
    expect(result).to.deep.equal({ blockNumber: '0x1', index: 0, transactions: [hash] })
    expect(chain.clock.now()).to.equal(T0)
    expect(await chain.getBalance(bob, 'pending')).to.equal(before + parseEther('1'))
    expect(await chain.getBalance(bob, 'latest')).to.equal(before)

    const tick = await chain.tick()
    expect(tick.index).to.equal(1)
    expect(tick.transactions).to.deep.equal([])
    expect(chain.clock.now()).to.equal(T0)

    await chain.clock.advance(200)
    expect(events.map((e) => (e.kind === 'preconfirmation' ? [e.index, e.at - T0] : e.kind))).to.deep.equal([
      [0, 0],
      [1, 0],
      [2, 200],
    ])
    expect(chain.blockNumber()).to.equal(0n)
  })

  it('preconf_advanceClock [ms] advances the clock through request (hex quantity) and answers the new time', async () => {
    const { chain, events } = await recordingChain()
    expect(await chain.request({ method: 'preconf_advanceClock', params: ['0x7d0'] })).to.equal(T0 + 2000)
    expect(chain.blockNumber()).to.equal(1n)
    expect(events).to.deep.equal(scheduleOf(1n, T0, 200, 2000, BigInt(GENESIS + 2)))
    expect(await chain.request({ method: 'preconf_advanceClock', params: ['0x0'] })).to.equal(T0 + 2000)
    expect(events).to.have.length(11)
  })

  it('preconf_advanceClock rejects a missing or malformed duration with -32602', async () => {
    const { chain } = await recordingChain()
    for (const params of [[], ['-0x1'], ['100'], [-5]]) {
      const error = await rejection(chain.request({ method: 'preconf_advanceClock', params }))
      expect(error, JSON.stringify(params)).to.be.instanceOf(RPCError)
      expect(error.code, JSON.stringify(params)).to.equal(-32602)
    }
    expect(chain.clock.now()).to.equal(T0)
  })
})
