/**
 * Snapshots of the whole world (`evm_snapshot` / `evm_revert`, as Hardhat and Anvil give them,
 * and EDR's snapshot.rs: state, chain, mempool and time together): a revert restores
 * everything a client can observe — sealed blocks, latest and pending state, the pre-confirmed
 * block, the mempool with its held transactions, the clock and the tick/seal schedule, the
 * time offset, the mining mode and impersonations — and costs what changed since, not a copy.
 */
import { expect } from 'chai'
import { getContractAddress, type Hex } from 'viem'
import { Counter } from '../../fixtures/artifacts/Counter.ts'
import { createChain, type Chain } from '../../lib/index.ts'
import type { Address } from '../../lib/types.ts'
import { rejection, signCall, ZERO_HASH, type RpcReceipt } from '../support/chain-helpers.ts'
import { pictureOf, recordEvents } from '../support/controls-world.ts'
import { GWEI, signer } from '../support/wallet.ts'

const ETHER = 10n ** 18n
const carol = `0x${'00'.repeat(18)}ca41` as Address
const erin = `0x${'00'.repeat(18)}e410` as Address
/** An address with no key: sends only while impersonated. */
const whale = `0x${'77'.repeat(20)}` as Address

/** The signed transactions every scenario uses (viem signs deterministically: same bytes on every chain). */
async function transactions() {
  const chain = await createChain({ clock: 'manual' })
  const [alice, bob, dave] = [0, 1, 3].map((i) => signer(chain, i))
  const counter = getContractAddress({ from: dave.address, nonce: 0n }) as Address
  const increment = (from: typeof alice, nonce: number) => signCall(from, counter, Counter.abi, 'increment', [], { nonce })
  return {
    alice,
    bob,
    dave,
    counter,
    raw: {
      deploy: await dave.sign({ to: null, data: Counter.bytecode, gas: 3_000_000n }),
      aliceToCarol: await alice.sign({ to: carol, value: ETHER }),
      aliceIncrement: await increment(alice, 1),
      /** Held behind bob's nonce gap until bob's nonce 0 arrives. */
      bobHeld: await bob.sign({ to: carol, value: 2n * ETHER, nonce: 1 }),
      /** Waits in the pool: its fee cap is below the pending base fee (875000000). */
      daveUnderpriced: await dave.sign({ to: carol, value: 3n, nonce: 1, maxFeePerGas: GWEI / 2n, maxPriorityFeePerGas: GWEI / 2n }),
      // The detour's inputs.
      bobGapFiller: await bob.sign({ to: erin, value: 5n, nonce: 0 }),
      aliceMore: await alice.sign({ to: erin, value: 7n, nonce: 2 }),
      aliceIncrementAgain: await increment(alice, 3),
      daveReplacement: await dave.sign({ to: carol, value: 3n, nonce: 1, maxFeePerGas: 10n * GWEI, maxPriorityFeePerGas: 2n * GWEI }),
      aliceAfterSetNonce: await alice.sign({ to: erin, value: 9n, nonce: 50 }),
    },
  }
}

type Inputs = Awaited<ReturnType<typeof transactions>>

/**
 * The world before the snapshot: Counter deployed and sealed in block 1; then two of alice's
 * transactions pre-confirmed in block 2, bob's nonce 1 held behind his gap and dave's
 * underpriced transfer waiting in the pool.
 */
async function prelude(chain: Chain, inputs: Inputs): Promise<Hex[]> {
  const { raw } = inputs
  await chain.sendRawTransaction(raw.deploy)
  await chain.clock.advance(2000)
  const hashes = [
    await chain.sendRawTransaction(raw.aliceToCarol),
    await chain.sendRawTransaction(raw.bobHeld),
    await chain.sendRawTransaction(raw.daveUnderpriced),
  ]
  await chain.clock.advance(200)
  hashes.push(await chain.sendRawTransaction(raw.aliceIncrement))
  await chain.clock.advance(300)
  return hashes
}

const slots = [0n, 1n]

describe('snapshots/snapshots', () => {
  let inputs: Inputs
  before(async () => {
    inputs = await transactions()
  })

  function watched(): Address[] {
    return [inputs.alice.address, inputs.bob.address, inputs.dave.address, carol, erin, whale, inputs.counter, '0xc014ba5ec014ba5ec014ba5ec014ba5ec014ba5e']
  }

  describe('a revert restores everything observable (Hardhat/Anvil evm_revert; EDR snapshots the mempool and time with the chain)', () => {
    let chain: Chain
    let preludeHashes: Hex[]
    let detourHashes: Hex[]
    let snapshotPicture: Awaited<ReturnType<typeof pictureOf>>
    let reverted: boolean

    before(async () => {
      chain = await createChain({ clock: 'manual' })
      preludeHashes = await prelude(chain, inputs)
      const id = await chain.snapshot()
      snapshotPicture = await pictureOf(chain, watched(), slots, preludeHashes)

      // The detour: every kind of change the engine knows.
      const { raw } = inputs
      detourHashes = []
      await chain.setBalance(carol, 123n) // while block 1 is the head: rewrites block 1's state
      detourHashes.push(await chain.sendRawTransaction(raw.bobGapFiller)) // bob's nonce 1 becomes executable
      detourHashes.push(await chain.sendRawTransaction(raw.aliceMore))
      detourHashes.push(await chain.sendRawTransaction(raw.daveReplacement)) // replaces the underpriced one
      await chain.tick()
      await chain.clock.advance(5000) // seals blocks 2 and 3
      detourHashes.push(await chain.sendRawTransaction(raw.aliceIncrementAgain))
      await chain.tick()
      await chain.setCode(erin, Counter.deployedBytecode)
      await chain.setStorageAt(inputs.counter, 0n, 999n)
      await chain.setStorageAt(inputs.counter, 1n, 1n)
      await chain.setNonce(inputs.alice.address, 50n)
      detourHashes.push(await chain.sendRawTransaction(raw.aliceAfterSetNonce))
      await chain.setBalance(whale, 100n * ETHER)
      chain.impersonateAccount(whale)
      detourHashes.push((await chain.request({ method: 'eth_sendTransaction', params: [{ from: whale, to: carol, value: '0x5' }] })) as Hex)
      await chain.mine()
      await chain.increaseTime(3600)
      await chain.setNextBlockTimestamp(chain.blockByNumber(Number(chain.blockNumber()))!.header.timestamp + 100_000n)
      await chain.setBlockTimestampInterval(7n)
      await chain.clock.advance(4100)
      await chain.setMining('instant')
      detourHashes.push(await chain.sendRawTransaction(await inputs.bob.sign({ to: erin, value: 11n, nonce: 2 })))
      expect(chain.blockNumber() > 4n, `head ${chain.blockNumber()}`).to.equal(true)

      reverted = await chain.revert(id)
    })

    it('answers true', () => {
      expect(reverted).to.equal(true)
    })

    it('restores block number, clock, every sealed block, latest and pending blocks, balances, nonces, code, storage and history reads', async () => {
      const after = await pictureOf(chain, watched(), slots, preludeHashes)
      expect(after.blockNumber).to.equal(1n)
      expect(after.now).to.equal(snapshotPicture.now)
      expect(after).to.deep.equal(snapshotPicture)
    })

    it('forgets the detour: its transactions are unknown (null lookups and receipts, status Unknown)', async () => {
      for (const hash of detourHashes) {
        expect(await chain.request({ method: 'eth_getTransactionByHash', params: [hash] }), hash).to.equal(null)
        expect(await chain.request({ method: 'eth_getTransactionReceipt', params: [hash] }), hash).to.equal(null)
        expect(await chain.request({ method: 'service_transactionStatus', params: [hash] }), hash).to.deep.equal({ status: 'Unknown' })
      }
    })

    it('forgets the blocks sealed in the detour: by number beyond the head and by hash', async () => {
      expect(await chain.request({ method: 'eth_getBlockByNumber', params: ['0x2', false] })).to.equal(null)
      const twin = await createChain({ clock: 'manual' })
      await prelude(twin, inputs)
      await twin.clock.advance(1500)
      expect(twin.blockNumber()).to.equal(2n)
      expect(await chain.request({ method: 'eth_getBlockByHash', params: [twin.blockByNumber(2)!.hash, false] })).to.equal(null)
    })

    it('keeps the pooled transactions taken before the snapshot: the held one and the underpriced one, still in the mempool', async () => {
      const [, bobHeld, daveUnderpriced] = preludeHashes
      for (const hash of [bobHeld, daveUnderpriced]) {
        const tx = (await chain.request({ method: 'eth_getTransactionByHash', params: [hash] })) as { blockHash: unknown; blockNumber: unknown }
        expect(tx.blockHash).to.equal(null)
        expect(tx.blockNumber).to.equal(null)
        expect(await chain.request({ method: 'eth_getTransactionReceipt', params: [hash] })).to.equal(null)
        expect(await chain.request({ method: 'service_transactionStatus', params: [hash] })).to.deep.equal({ status: 'Known' })
      }
      // geth's pending nonce skips nothing: bob still has no nonce 0, so his pending nonce is 0.
      expect(await chain.getTransactionCount(inputs.bob.address, 'pending')).to.equal(0)
    })

    it('restores the mining mode, the time offset, the timestamp interval and ends impersonations', async () => {
      expect(chain.mining).to.equal('interval')
      expect(await chain.request({ method: 'evm_increaseTime', params: [0] })).to.equal(0)
      const error = await rejection(chain.request({ method: 'eth_sendTransaction', params: [{ from: whale, to: carol, value: '0x5' }] }))
      expect(error.code).to.equal(-32000)
      expect(error.message).to.equal('unknown account')
    })

    it('ticks and seals at the same times and with the same results as a chain that never took the detour', async () => {
      const twin = await createChain({ clock: 'manual' })
      await prelude(twin, inputs)
      const events = recordEvents(chain)
      const twinEvents = recordEvents(twin)
      for (const c of [chain, twin]) {
        await c.sendRawTransaction(inputs.raw.bobGapFiller)
        await c.clock.advance(4500)
      }
      expect(events).to.have.length.greaterThan(20)
      expect(events).to.deep.equal(twinEvents)
      // The first event is the tick the schedule had due next (2.2 at +2600 ms): bob's gap filled, both his transactions.
      expect(events[0]).to.equal(`tick 2.2 [${detourHashes[0]},${preludeHashes[1]}] @1735689602600`)
      expect(events.filter((line) => line.startsWith('block'))).to.have.length(2)
      const hashes = [...preludeHashes, detourHashes[0]]
      expect(await pictureOf(chain, watched(), slots, hashes)).to.deep.equal(await pictureOf(twin, watched(), slots, hashes))
    })
  })

  it('a snapshot taken with a non-empty pending block restores exactly that block: transactions, pre-confirmed receipts (zero block hash), pending balances', async () => {
    const chain = await createChain({ clock: 'manual' })
    const { raw, alice } = inputs
    const first = await chain.sendRawTransaction(raw.aliceToCarol)
    await chain.tick()
    const second = await chain.sendRawTransaction(await alice.sign({ to: erin, value: 4n, nonce: 1 }))
    await chain.tick()
    const pendingBlock = await chain.request({ method: 'eth_getBlockByNumber', params: ['pending', true] })
    const receipts = [await chain.request({ method: 'eth_getTransactionReceipt', params: [first] }), await chain.request({ method: 'eth_getTransactionReceipt', params: [second] })]
    const aliceBalance = await chain.getBalance(alice.address, 'pending')

    const id = await chain.snapshot()
    await chain.clock.advance(2000) // seals them into block 1
    expect(chain.blockNumber()).to.equal(1n)
    expect(((await chain.request({ method: 'eth_getTransactionReceipt', params: [first] })) as RpcReceipt).blockHash).to.not.equal(ZERO_HASH)
    await chain.sendRawTransaction(await alice.sign({ to: erin, value: 5n, nonce: 2 }))
    await chain.tick()
    expect(await chain.revert(id)).to.equal(true)

    expect(chain.blockNumber()).to.equal(0n)
    expect(await chain.request({ method: 'eth_getBlockByNumber', params: ['pending', true] })).to.deep.equal(pendingBlock)
    const after = [await chain.request({ method: 'eth_getTransactionReceipt', params: [first] }), await chain.request({ method: 'eth_getTransactionReceipt', params: [second] })]
    expect(after).to.deep.equal(receipts)
    expect(after.map((receipt) => (receipt as RpcReceipt).blockHash)).to.deep.equal([ZERO_HASH, ZERO_HASH])
    expect(after.map((receipt) => (receipt as RpcReceipt).blockNumber)).to.deep.equal(['0x1', '0x1'])
    expect(await chain.getBalance(alice.address, 'pending')).to.equal(aliceBalance)
    expect(await chain.getBalance(carol, 'pending')).to.equal(ETHER)
    expect(await chain.getBalance(erin, 'pending')).to.equal(4n)
    expect(await chain.getBalance(carol, 'latest')).to.equal(0n)
    expect(await chain.getTransactionCount(alice.address, 'pending')).to.equal(2)
    expect(await chain.request({ method: 'service_transactionStatus', params: [first] })).to.deep.equal({ status: 'Known' })
    // The next tick is the block's third flashblock (index 2), as it would have been.
    const tick = await chain.tick()
    expect(tick.blockNumber).to.equal(1n)
    expect(tick.index).to.equal(2)
  })

  it('restores the mempool in arrival order: equal tips are pre-confirmed first come, first served (geth)', async () => {
    const chain = await createChain({ clock: 'manual' })
    const bobFirst = await chain.sendRawTransaction(await inputs.bob.sign({ to: carol, value: 1n }))
    const aliceSecond = await chain.sendRawTransaction(await inputs.alice.sign({ to: carol, value: 1n }))
    const id = await chain.snapshot()
    // The detour empties the pool, then fills it again in the other order.
    await chain.tick()
    expect(chain.pending.transactions.map((t) => t.transaction.hash)).to.deep.equal([bobFirst, aliceSecond])
    expect(await chain.revert(id)).to.equal(true)
    expect(chain.pending.transactions).to.have.length(0)
    const tick = await chain.tick()
    expect(tick.transactions.map((t) => t.transaction.hash)).to.deep.equal([bobFirst, aliceSecond])
  })

  it('determinism: after a revert, replaying the same inputs gives byte-identical blocks to the detour and to a fresh chain fed the same inputs', async () => {
    const { raw } = inputs
    const replay = async (chain: Chain): Promise<string[]> => {
      const events = recordEvents(chain)
      await chain.sendRawTransaction(raw.bobGapFiller)
      await chain.sendRawTransaction(raw.aliceMore)
      await chain.clock.advance(700)
      await chain.sendRawTransaction(raw.aliceIncrementAgain)
      await chain.sendRawTransaction(raw.daveReplacement)
      await chain.clock.advance(3900)
      await chain.mine()
      await chain.clock.advance(2000)
      chain.removeAllListeners()
      return events
    }
    const chain = await createChain({ clock: 'manual' })
    await prelude(chain, inputs)
    const id = await chain.snapshot()
    const detour = await replay(chain)
    const detourBlocks = [2, 3, 4, 5].map((n) => chain.blockByNumber(n)!.hash)
    expect(await chain.revert(id)).to.equal(true)
    const again = await replay(chain)

    const fresh = await createChain({ clock: 'manual' })
    await prelude(fresh, inputs)
    const freshEvents = await replay(fresh)

    expect(again).to.deep.equal(detour)
    expect(freshEvents).to.deep.equal(detour)
    expect([2, 3, 4, 5].map((n) => chain.blockByNumber(n)!.hash)).to.deep.equal(detourBlocks)
    expect([2, 3, 4, 5].map((n) => fresh.blockByNumber(n)!.hash)).to.deep.equal(detourBlocks)
    expect(chain.blockByNumber(5)!.header.stateRoot).to.deep.equal(fresh.blockByNumber(5)!.header.stateRoot)
  })

  describe('ids and nesting (Hardhat/Anvil: reverting discards the snapshot and every later one)', () => {
    it("ids count up from 0 and are never reused (Anvil 1.7.1: 0x0, 0x1, 0x2, revert 0x1, then 0x3; Hardhat's start at 1)", async () => {
      const chain = await createChain({ clock: 'manual' })
      expect(await chain.snapshot()).to.equal(0)
      expect(await chain.snapshot()).to.equal(1)
      expect(await chain.revert(0)).to.equal(true)
      expect(await chain.snapshot()).to.equal(2)
    })

    it('ids go on counting across anvil_reset and anvil_loadState (Anvil): an id taken before one names no later snapshot (review O)', async () => {
      const chain = await createChain({ clock: 'manual' })
      const dump = await chain.dumpState()
      expect(await chain.snapshot()).to.equal(0)
      await chain.request({ method: 'anvil_reset', params: [] })
      expect(await chain.snapshot()).to.equal(1)
      await chain.setBalance(carol, 5n)
      expect(await chain.revert(0)).to.equal(false)
      expect(await chain.getBalance(carol)).to.equal(5n)
      await chain.loadState(dump)
      expect(await chain.snapshot()).to.equal(2)
    })

    it('s1, s2, revert(s1): s2 is gone (revert(s2) → false) and s1 is consumed (revert(s1) again → false)', async () => {
      const chain = await createChain({ clock: 'manual' })
      const s1 = await chain.snapshot()
      await chain.setBalance(carol, 1n)
      const s2 = await chain.snapshot()
      await chain.setBalance(carol, 2n)
      expect(await chain.revert(s1)).to.equal(true)
      expect(await chain.getBalance(carol)).to.equal(0n)
      expect(await chain.revert(s2)).to.equal(false)
      expect(await chain.revert(s1)).to.equal(false)
      expect(await chain.getBalance(carol)).to.equal(0n)
    })

    it('revert(s2) then revert(s1) restores each level in turn', async () => {
      const chain = await createChain({ clock: 'manual' })
      const s1 = await chain.snapshot()
      await chain.setBalance(carol, 1n)
      await chain.clock.advance(2000)
      const s2 = await chain.snapshot()
      await chain.setBalance(carol, 2n)
      await chain.clock.advance(4000)
      expect(chain.blockNumber()).to.equal(3n)
      expect(await chain.revert(s2)).to.equal(true)
      expect(chain.blockNumber()).to.equal(1n)
      expect(chain.clock.now()).to.equal(1735689602000)
      expect(await chain.getBalance(carol, 'pending')).to.equal(1n)
      expect(await chain.revert(s1)).to.equal(true)
      expect(chain.blockNumber()).to.equal(0n)
      expect(chain.clock.now()).to.equal(1735689600000)
      expect(await chain.getBalance(carol, 'pending')).to.equal(0n)
    })

    it('an unknown id → false, and changes nothing', async () => {
      const chain = await createChain({ clock: 'manual' })
      await chain.setBalance(carol, 1n)
      expect(await chain.revert(1)).to.equal(false)
      expect(await chain.revert(0)).to.equal(false)
      expect(await chain.revert(99)).to.equal(false)
      expect(await chain.getBalance(carol)).to.equal(1n)
    })

    it('after every snapshot is gone the world keeps moving and a new snapshot works', async () => {
      const chain = await createChain({ clock: 'manual' })
      const s1 = await chain.snapshot()
      await chain.clock.advance(2000)
      expect(await chain.revert(s1)).to.equal(true)
      await chain.clock.advance(4000)
      expect(chain.blockNumber()).to.equal(2n)
      const s2 = await chain.snapshot()
      await chain.setBalance(carol, 5n)
      await chain.clock.advance(2000)
      expect(await chain.revert(s2)).to.equal(true)
      expect(chain.blockNumber()).to.equal(2n)
      expect(await chain.getBalance(carol)).to.equal(0n)
    })
  })

  describe('over RPC', () => {
    it("evm_snapshot answers '0x0', '0x1'… (Anvil's); evm_revert answers true, then false for a consumed or unknown id", async () => {
      const chain = await createChain({ clock: 'manual' })
      expect(await chain.request({ method: 'evm_snapshot', params: [] })).to.equal('0x0')
      await chain.request({ method: 'preconf_advanceClock', params: ['0x7d0'] })
      expect(await chain.request({ method: 'evm_snapshot' })).to.equal('0x1')
      await chain.request({ method: 'evm_mine', params: [] })
      expect(await chain.request({ method: 'eth_blockNumber', params: [] })).to.equal('0x2')
      expect(await chain.request({ method: 'evm_revert', params: ['0x1'] })).to.equal(true)
      expect(await chain.request({ method: 'eth_blockNumber', params: [] })).to.equal('0x1')
      expect(await chain.request({ method: 'evm_revert', params: ['0x1'] })).to.equal(false)
      expect(await chain.request({ method: 'evm_revert', params: ['0x0'] })).to.equal(true)
      expect(await chain.request({ method: 'eth_blockNumber', params: [] })).to.equal('0x0')
      expect(await chain.request({ method: 'evm_revert', params: ['0x0'] })).to.equal(false)
      expect(await chain.request({ method: 'evm_revert', params: ['0x63'] })).to.equal(false)
    })

    it('evm_revert without an id → -32602 naming the argument', async () => {
      const chain = await createChain({ clock: 'manual' })
      const error = await rejection(chain.request({ method: 'evm_revert', params: [] }))
      expect(error.code).to.equal(-32602)
      expect(error.message).to.equal('missing value for required argument 0')
    })
  })

  describe('cost: what changed since, not a copy of the world', () => {
    it('reverts 100 transactions over 50 sealed blocks in well under a deep copy of the world (loose bound: < 10 ms; it takes about 1 ms)', async () => {
      const chain = await createChain({ clock: 'manual', accounts: 100 })
      // A world worth copying: 3000 more accounts and 50 blocks of history before the snapshot.
      for (let i = 0; i < 3000; i++) await chain.setBalance(`0x${(0x100000 + i).toString(16).padStart(40, '0')}`, BigInt(i + 1))
      await chain.clock.advance(100_000)
      const senders = Array.from({ length: 50 }, (_, i) => signer(chain, i))
      const raws: Hex[] = []
      for (const sender of senders) for (const nonce of [0, 1]) raws.push(await sender.sign({ to: carol, value: 1n, nonce }))
      const head = chain.blockNumber()
      const root = chain.blockByNumber(Number(head))!.header.stateRoot

      const id = await chain.snapshot()
      for (let block = 0; block < 50; block++) {
        await chain.sendRawTransaction(raws[2 * block])
        await chain.sendRawTransaction(raws[2 * block + 1])
        await chain.clock.advance(2000)
      }
      expect(chain.blockNumber()).to.equal(head + 50n)
      expect(await chain.getBalance(carol)).to.equal(100n)

      const started = performance.now()
      expect(await chain.revert(id)).to.equal(true)
      const elapsed = performance.now() - started

      expect(chain.blockNumber()).to.equal(head)
      expect(await chain.getBalance(carol)).to.equal(0n)
      expect(chain.blockByNumber(Number(head))!.header.stateRoot).to.deep.equal(root)
      expect(elapsed, `revert took ${elapsed.toFixed(2)} ms`).to.be.lessThan(10)
      // And the world still works from there.
      await chain.sendRawTransaction(raws[0])
      await chain.clock.advance(2000)
      expect(await chain.getBalance(carol)).to.equal(1n)
    })

    it('a revert right after the snapshot costs next to nothing however large the world is (< 5 ms)', async () => {
      const chain = await createChain({ clock: 'manual' })
      for (let i = 0; i < 3000; i++) await chain.setBalance(`0x${(0x200000 + i).toString(16).padStart(40, '0')}`, 1n)
      await chain.clock.advance(20_000)
      const id = await chain.snapshot()
      await chain.setBalance(carol, 1n)
      const started = performance.now()
      expect(await chain.revert(id)).to.equal(true)
      expect(performance.now() - started).to.be.lessThan(5)
    })
  })
})
