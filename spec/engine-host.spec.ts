/**
 * The engine host across a chain's replacement (`anvil_reset`, `anvil_loadState`): the mining
 * mode switched at run time carries over, as Anvil's miner keeps its mode (and Hardhat's
 * network helpers' `reset()` then leaves a suite's automine on); the chain itself starts over.
 */
import { expect } from 'chai'
import { createChain } from '../lib/index.ts'

const ALICE = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'
const BOB = `0x${'00'.repeat(19)}b0`

describe('engine host: what user code can reach', () => {
  it('the engine hides behind a key only the library imports; `pending` is a frozen view without state: nothing writes past the serializer', async () => {
    const chain = (await createChain({ clock: 'manual' })) as unknown as Record<string, unknown>
    for (const name of ['engine', 'blocks', 'builder', 'state', 'reads']) expect(chain[name], name).to.equal(undefined)
    const pending = chain.pending as Record<string, unknown>
    expect(pending.state).to.equal(undefined)
    expect(Object.isFrozen(pending)).to.equal(true)
    const reachable = new Set<string>()
    for (let object: object | null = chain; object !== null && object !== Object.prototype; object = Object.getPrototypeOf(object)) {
      for (const name of Object.getOwnPropertyNames(object)) reachable.add(name)
    }
    expect([...reachable].filter((name) => /engine/i.test(name))).to.deep.equal([])
  })
})

describe('engine host: replacing the chain', () => {
  it('anvil_reset and hardhat_reset keep automine switched on at run time; the blocks start over', async () => {
    const chain = await createChain({ clock: 'manual' })
    await chain.request({ method: 'evm_setAutomine', params: [true] })
    await chain.request({ method: 'eth_sendTransaction', params: [{ from: ALICE, to: BOB, value: '0x1' }] })
    expect(await chain.request({ method: 'eth_blockNumber' })).to.equal('0x1')
    for (const reset of ['anvil_reset', 'hardhat_reset']) {
      await chain.request({ method: reset, params: [] })
      expect(await chain.request({ method: 'eth_blockNumber' })).to.equal('0x0')
      expect(await chain.request({ method: 'hardhat_getAutomine' })).to.equal(true)
      const hash = await chain.request({ method: 'eth_sendTransaction', params: [{ from: ALICE, to: BOB, value: '0x1' }] })
      expect(await chain.request({ method: 'eth_getTransactionReceipt', params: [hash] })).to.include({ blockNumber: '0x1' })
    }
  })

  it("a reset to a fork block with no URL, on a chain that is no fork, is refused with Anvil 1.7.1's -32602 and changes nothing; viem's reset() (forking with neither) starts over", async () => {
    const chain = await createChain({ clock: 'manual', mining: 'auto' })
    await chain.request({ method: 'evm_mine' })
    for (const reset of ['anvil_reset', 'hardhat_reset']) {
      const error = await chain.request({ method: reset, params: [{ forking: { blockNumber: 50 } }] }).catch((caught: { code: number; message: string }) => caught)
      expect(error).to.include({ code: -32602, message: 'Forking not enabled and RPC URL not provided to start forking' })
      expect(await chain.request({ method: 'eth_blockNumber' })).to.equal('0x1')
    }
    await chain.request({ method: 'anvil_reset', params: [{ forking: {} }] })
    expect(await chain.request({ method: 'eth_blockNumber' })).to.equal('0x0')
  })

  it('a reset keeps mining switched off (interval 0) and an interval set at run time', async () => {
    const chain = await createChain({ clock: 'manual' })
    await chain.request({ method: 'evm_setIntervalMining', params: [0] })
    await chain.request({ method: 'anvil_reset', params: [] })
    expect(await chain.request({ method: 'anvil_getIntervalMining' })).to.equal(null)
    await chain.clock.advance(10_000)
    expect(await chain.request({ method: 'eth_blockNumber' })).to.equal('0x0')
    await chain.request({ method: 'evm_setIntervalMining', params: [5] })
    await chain.request({ method: 'anvil_reset', params: [] })
    expect(await chain.request({ method: 'anvil_getIntervalMining' })).to.equal(5)
  })

  it('a chain whose mode was never switched resets to the mode it was created with', async () => {
    const chain = await createChain({ clock: 'manual', blockTimeMs: 1000 })
    await chain.request({ method: 'anvil_reset', params: [] })
    expect(await chain.request({ method: 'anvil_getIntervalMining' })).to.equal(1)
    expect(await chain.request({ method: 'hardhat_getAutomine' })).to.equal(false)
  })

  it('anvil_loadState keeps automine switched on, and loads the dumped blocks', async () => {
    const source = await createChain({ clock: 'manual', mining: 'auto' })
    await source.request({ method: 'eth_sendTransaction', params: [{ from: ALICE, to: BOB, value: '0x1' }] })
    const dump = await source.request({ method: 'anvil_dumpState' })
    const chain = await createChain({ clock: 'manual' })
    await chain.request({ method: 'evm_setAutomine', params: [true] })
    await chain.request({ method: 'anvil_loadState', params: [dump] })
    expect(await chain.request({ method: 'eth_getBalance', params: [BOB, 'latest'] })).to.equal('0x1')
    expect(await chain.request({ method: 'hardhat_getAutomine' })).to.equal(true)
  })
})
