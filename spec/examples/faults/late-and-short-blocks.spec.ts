import { expect } from 'chai'
import { createChain } from 'preconf-devnet'
import { createHarness } from 'preconf-devnet/harness'

// On Base, flashblock j of 10 may have used j/10 of the block's gas, and a block's first
// flashblocks can be missing when its start arrives late: a large transaction is not
// pre-confirmed at the first tick, and an app must not time out after one tick.
describe('late and short blocks: a large transaction waits for its tick', () => {
  it('a 12M-gas deployment misses the first ticks of a 30M block and lands at the fourth', async () => {
    const chain = await createChain({ blockGasLimit: 30_000_000n, faults: { tickGasBudget: true } })
    const { time } = createHarness(chain)
    const [alice] = chain.accounts
    const hash = await chain.sendTransaction({ from: alice.address, data: '0x00', gas: 12_000_000n })

    const ticks: number[] = []
    while (chain.findTransaction(hash)?.status !== 'preconfirmed') ticks.push((await time.nextPreconfirmation()).transactions.length)
    expect(ticks).to.deep.equal([0, 0, 0, 1]) // budgets 3M, 6M, 9M, then 12M
    chain.close()
  })

  it('a late block skips its first ticks: nothing is pre-confirmed before the third', async () => {
    const chain = await createChain({ faults: { lateBlockRate: 1, lateTicks: 1 } })
    const { time, faults } = createHarness(chain)
    await faults.skipTicks(1) // and one more, on request
    const first = await time.nextPreconfirmation()
    expect(chain.clock.now() % 2000).to.equal(600)
    expect(first.index).to.equal(0)
    chain.close()
  })
})
