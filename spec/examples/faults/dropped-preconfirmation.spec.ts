import * as chai from 'chai'
import { expect } from 'chai'
import { createChain, type Chain } from 'preconf-devnet'
import { createHarness, type Harness } from 'preconf-devnet/harness'

// An app that credits a deposit as soon as its receipt shows up at 'pending' must take the
// credit back when the pre-confirmation is dropped: the receipt returns to null, and no
// subscription tells it so.
describe('dropped pre-confirmations: a credited deposit vanishes', () => {
  let chain: Chain
  let harness: Harness
  const shop = '0x000000000000000000000000000000000000c0de'

  beforeEach(async () => {
    chain = await createChain({ faults: { dropMode: 'discard' } })
    harness = createHarness(chain)
    chai.use(harness.chaiMatchers)
  })
  afterEach(() => chain.close())

  it('un-credits the user when the receipt disappears', async () => {
    const [alice] = chain.accounts
    const hash = await chain.sendTransaction({ from: alice.address, to: shop, value: 10n ** 18n })
    await harness.time.nextPreconfirmation()
    const credited = (await chain.request({ method: 'eth_getTransactionReceipt', params: [hash] })) !== null
    expect(credited).to.equal(true)

    await harness.faults.drop({ transactions: [hash] }) // a flashblock reorg
    await expect(hash).to.be.dropped()
    expect(await chain.request({ method: 'eth_getTransactionReceipt', params: [hash] })).to.equal(null)
    expect(await chain.getBalance(shop, 'pending')).to.equal(0n)

    await harness.time.nextSeal()
    expect(await chain.getBalance(shop, 'latest')).to.equal(0n) // discarded: it never lands
  })
})
