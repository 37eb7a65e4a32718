import { expect } from 'chai'
import { createChain } from 'preconf-devnet'

// On Base, eth_call at 'pending' sees pre-confirmed state but the block number, timestamp and
// base fee of a block 3 to 5 behind the tip (base/base#1439). A deadline or an auction that
// reads block.number or block.timestamp at 'pending' gets the stale values.
describe('stale pending block context: block.number at pending', () => {
  it('a contract reading block.number at pending gets head − 3', async () => {
    const chain = await createChain({ faults: { pendingContextLag: 3 } })
    // Runtime code: return block.number (NUMBER PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN).
    const clock = '0x00000000000000000000000000000000000c10c4'
    await chain.setCode(clock, '0x4360005260206000f3')
    await chain.mineBlocks(10)

    const atPending = BigInt(await chain.call({ to: clock }, 'pending'))
    const atLatest = BigInt(await chain.call({ to: clock }, 'latest'))
    expect(atLatest).to.equal(10n)
    expect(atPending).to.equal(7n) // not 11, the pending block's number
    chain.close()
  })
})
