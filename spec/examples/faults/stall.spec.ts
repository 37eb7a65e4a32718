import { expect } from 'chai'
import { createChain, type Chain } from 'preconf-devnet'
import { createHarness, type Harness } from 'preconf-devnet/harness'

// A UI that shows a payment as done once 'pending' shows it freezes when pre-confirmations
// stall, unless it also watches 'latest': blocks keep sealing meanwhile.
describe('stalled pre-confirmations: a UI waiting on pending', () => {
  let chain: Chain
  let harness: Harness
  const shop = '0x000000000000000000000000000000000000c0de'

  beforeEach(async () => {
    chain = await createChain()
    harness = createHarness(chain)
  })
  afterEach(() => chain.close())

  /** The UI's check: the payment shows at 'pending', or (the fallback) at 'latest'. */
  async function paid(fallBackToLatest: boolean): Promise<boolean> {
    if ((await chain.getBalance(shop, 'pending')) > 0n) return true
    return fallBackToLatest && (await chain.getBalance(shop, 'latest')) > 0n
  }

  it("sees the payment only through 'latest' while pre-confirmations are stalled", async () => {
    await harness.faults.stall(10_000, 'frozen') // the stale-node bug: pending stays where it was
    const [alice] = chain.accounts
    await chain.sendTransaction({ from: alice.address, to: shop, value: 1n })
    await harness.time.nextSeal() // no tick runs during the stall; the block is built at its seal

    expect(await paid(false)).to.equal(false) // frozen
    expect(await paid(true)).to.equal(true) // sealed in block 1 all the same
  })
})
