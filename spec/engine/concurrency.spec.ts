import { expect } from 'chai'
import { createChain } from '../../lib/index.ts'

describe('chain: concurrent callers', () => {
  it('concurrent clock advances add up (two advance(1000) move the clock 2000 ms and seal block 1)', async () => {
    const chain = await createChain()
    const start = chain.clock.now()
    await Promise.all([chain.clock.advance(1000), chain.clock.advance(1000)])
    expect(chain.clock.now()).to.equal(start + 2000)
    expect(chain.blockNumber()).to.equal(1n)
  })

  it('concurrent eth_sendTransaction calls from one account get consecutive nonces', async () => {
    const chain = await createChain()
    const from = chain.accounts[0].address
    const to = chain.accounts[1].address
    const hashes = await Promise.all(
      [1, 2, 3].map((value) => chain.request({ method: 'eth_sendTransaction', params: [{ from, to, value: `0x${value.toString(16)}` }] })),
    )
    const nonces = await Promise.all(hashes.map(async (hash) => ((await chain.request({ method: 'eth_getTransactionByHash', params: [hash] })) as { nonce: string }).nonce))
    expect(nonces).to.deep.equal(['0x0', '0x1', '0x2'])
  })

  it('sendTransaction (the library function) takes a checksummed from, as the RPC does', async () => {
    const chain = await createChain()
    const hash = await chain.sendTransaction({ from: chain.accounts[0].address, to: chain.accounts[1].address, value: 1n })
    expect(hash).to.match(/^0x[0-9a-f]{64}$/)
  })
})
