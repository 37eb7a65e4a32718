import { expect } from 'chai'
import { createChain } from 'preconf-devnet'

// Pre-confirmations do not arrive every 200 ms on the dot. An app that polls 'pending' once,
// exactly 200 ms after sending, misses some; one that waits for the next tick does not.
describe('jitter: pre-confirmations around their 200 ms', () => {
  it('with ±40 ms of seeded jitter, a single poll at +200 ms sometimes finds nothing', async () => {
    const chain = await createChain({ seed: 3, faults: { tickJitterMs: 40 } })
    const [alice] = chain.accounts
    let missed = 0
    for (let i = 0; i < 10; i++) {
      const hash = await chain.sendTransaction({ from: alice.address, to: alice.address })
      await chain.clock.advance(200)
      if (chain.findTransaction(hash)?.status === 'mempool') missed++
      await chain.mine()
    }
    expect(missed).to.be.greaterThan(0) // the same count on every run with seed 3
    chain.close()
  })
})
