import { expect } from 'chai'
import { parseEther } from 'viem'
import { createChain } from '../lib/index.ts'
import { signer } from './support/wallet.ts'

describe('a transfer: mempool → pre-confirmed (pending) → sealed (latest)', () => {
  it('is visible at pending after one tick and at latest after the seal', async () => {
    const chain = await createChain({ clock: 'manual' })
    const alice = signer(chain, 0)
    const bob = chain.accounts[1].address
    const before = await chain.getBalance(bob)

    const hash = await chain.sendRawTransaction(await alice.sign({ to: bob, value: parseEther('1') }))
    expect(await chain.getBalance(bob, 'pending')).to.equal(before)

    await chain.clock.advance(200)
    expect(await chain.getBalance(bob, 'pending')).to.equal(before + parseEther('1'))
    expect(await chain.getBalance(bob, 'latest')).to.equal(before)
    expect(chain.blockNumber()).to.equal(0n)

    await chain.clock.advance(1800)
    expect(chain.blockNumber()).to.equal(1n)
    expect(await chain.getBalance(bob, 'latest')).to.equal(before + parseEther('1'))
    const receipt = (await chain.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { status: string }
    expect(receipt.status).to.equal('0x1')
  })
})
