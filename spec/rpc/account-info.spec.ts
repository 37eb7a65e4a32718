/**
 * `eth_getAccountInfo` (Anvil's): an account's balance, nonce and code at a block in one answer,
 * checked against Anvil 1.7.1 doing the same steps, and at `pending`.
 */
import { expect } from 'chai'
import { createChain, type Chain } from '../../lib/index.ts'
import { anvilOrSkip, type AnvilNode } from '../support/anvil-node.ts'

const CODE_AT = `0x${'00'.repeat(19)}c0`
const CODE = '0x36600f57600054'
const ALICE = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'
const BOB = `0x${'00'.repeat(19)}b0`

type Info = { balance: string; nonce: string; code: string }

/** The steps both nodes take: code set at one address, a transfer from Alice to Bob, mined. */
async function steps(request: (method: string, params: unknown[]) => Promise<unknown>, mine: () => Promise<void>): Promise<void> {
  await request('anvil_setCode', [CODE_AT, CODE])
  await request('anvil_setNonce', [CODE_AT, '0x5'])
  await request('anvil_setBalance', [CODE_AT, '0x64'])
  await request('eth_sendTransaction', [{ from: ALICE, to: BOB, value: '0x3e8' }])
  await mine()
}

describe("eth_getAccountInfo (Anvil's)", () => {
  let chain: Chain
  before(async () => {
    chain = await createChain({ mining: 'auto' })
    await steps((method, params) => chain.request({ method, params }), async () => {})
  })

  it('answers balance, nonce and code in Anvil’s field order, at latest and at older blocks', async () => {
    const info = (address: string, block: string) => chain.request({ method: 'eth_getAccountInfo', params: [address, block] }) as Promise<Info>
    expect(Object.keys(await info(CODE_AT, 'latest'))).to.deep.equal(['balance', 'nonce', 'code'])
    expect(await info(CODE_AT, 'latest')).to.deep.equal({ balance: '0x64', nonce: '0x5', code: CODE })
    expect(await info(BOB, 'latest')).to.deep.equal({ balance: '0x3e8', nonce: '0x0', code: '0x' })
    expect(await info(BOB, '0x0')).to.deep.equal({ balance: '0x0', nonce: '0x0', code: '0x' })
    expect((await info(ALICE, 'latest')).nonce).to.equal('0x1')
  })

  it('at pending, the nonce counts the mempool as eth_getTransactionCount does', async () => {
    const paused = await createChain()
    await paused.request({ method: 'eth_sendTransaction', params: [{ from: ALICE, to: BOB, value: '0x1' }] })
    const info = (await paused.request({ method: 'eth_getAccountInfo', params: [ALICE, 'pending'] })) as Info
    expect(info.nonce).to.equal(await paused.request({ method: 'eth_getTransactionCount', params: [ALICE, 'pending'] }))
    expect(info.nonce).to.equal('0x1')
  })

  it('rejects a bad address with -32602 naming the argument', async () => {
    let error: { code?: number; message?: string } = {}
    await chain.request({ method: 'eth_getAccountInfo', params: ['0x12', 'latest'] }).catch((caught: typeof error) => (error = caught))
    expect(error.code).to.equal(-32602)
    expect(error.message).to.match(/^invalid argument 0 \(address\)/)
  })

  describe('against Anvil 1.7.1 taking the same steps', () => {
    let anvil: AnvilNode | undefined
    before(async function () {
      anvil = await anvilOrSkip(this, [])
      let last = ''
      await steps(async (method, params) => {
        const result = await anvil!.request(method, params)
        if (method === 'eth_sendTransaction') last = result as string
        return result
      }, () => anvil!.mined(last))
    })
    after(() => anvil?.stop())

    it('gives the same answers for an account with code, a recipient and the sender (balances aside: gas prices differ)', async () => {
      for (const address of [CODE_AT, BOB]) {
        expect(await chain.request({ method: 'eth_getAccountInfo', params: [address, 'latest'] })).to.deep.equal(await anvil!.request('eth_getAccountInfo', [address, 'latest']))
      }
      const ours = (await chain.request({ method: 'eth_getAccountInfo', params: [ALICE, 'latest'] })) as Info
      const theirs = await anvil!.request<Info>('eth_getAccountInfo', [ALICE, 'latest'])
      expect({ nonce: ours.nonce, code: ours.code }).to.deep.equal({ nonce: theirs.nonce, code: theirs.code })
    })
  })
})
