import { expect } from 'chai'
import { createChain } from 'preconf-devnet'
import { createHarness } from 'preconf-devnet/harness'

// Base's node does not serve eth_getCode and eth_getStorageAt from pre-confirmations: at
// 'pending' they answer from 'latest'. An app that checks "is my contract deployed?" at
// 'pending' right after a pre-confirmed deployment sees no code until the block seals.
describe("Base's pending reads: code and storage come from latest", () => {
  it('a pre-confirmed deployment has no code at pending until its block seals', async () => {
    const chain = await createChain({ profile: 'base' })
    const { time } = createHarness(chain)
    const [alice] = chain.accounts
    // Init code returning the one-byte runtime code 0x00.
    const hash = await chain.sendTransaction({ from: alice.address, data: '0x60016000f3' })
    await time.nextPreconfirmation()
    const { contractAddress } = (await chain.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { contractAddress: string }

    expect(await chain.getCode(contractAddress, 'pending')).to.equal('0x') // pre-confirmed, yet no code
    await time.nextSeal()
    expect(await chain.getCode(contractAddress, 'pending')).to.equal('0x00')
    chain.close()
  })
})
