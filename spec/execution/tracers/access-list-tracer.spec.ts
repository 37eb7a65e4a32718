/**
 * eth_createAccessList's tracer, as geth's (eth/tracers/logger/access_list_tracer.go): the list
 * comes from the opcodes that name an address or a slot, never from the EIP-2929 warm set. Each
 * case is compared with Anvil 1.7.1 (revm-inspectors' AccessListInspector, the same rules) after
 * sorting Anvil's list, which it leaves in hash-map order where geth sorts it; the two cases
 * where geth and Anvil part come last, as geth.
 */
import { expect } from 'chai'
import { createChain, type Chain } from '../../../lib/index.ts'
import { anvilOrSkip, type AnvilNode } from '../../support/anvil-node.ts'

const FROM = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'
const BOB_KEY = '0x59c6995e998f97a5a0044966f0945389dc9c86dae88c7a8412f4603b6b78690d'
const CODE_AT = '0x00000000000000000000000000000000000c0de1'
const OTHER = '0x1111111111111111111111111111111111111111'
const NAMED = '0x0000000000000000000000000000000000000abc'
const SLOT_ONE = `0x${'0'.repeat(63)}1`

type AccessListAnswer = { accessList: Array<{ address: string; storageKeys: string[] }>; gasUsed: string; error?: string }

/** PUSH20 `address`. */
const push = (address: string): string => `73${address.slice(2)}`

/** Each case: the code at CODE_AT (if any) and the request. */
const CASES: Record<string, { code?: string; request: Record<string, unknown> }> = {
  'a contract created in the call and never named again is not listed': { code: '0x600060006000f000', request: { to: CODE_AT } },
  'a created contract whose balance is then read is listed': { code: '0x600060006000f03100', request: { to: CODE_AT } },
  'a creation transaction lists its own slots under the new address': { request: { data: '0x600160005500' } },
  'EXTCODESIZE lists the address; SLOAD lists the slot under the recipient': { code: `0x${push(OTHER)}3b5060055400`, request: { to: CODE_AT } },
  'a call to a precompile is not listed': { code: '0x600060006000600060045afa00', request: { to: CODE_AT } },
  'the sender and the recipient are not listed when named': { code: '0x303150333100', request: { to: CODE_AT } },
  'the coinbase is listed when named (it is warm, but not excluded)': { code: '0x413100', request: { to: CODE_AT } },
  "a given list's entries stay, with their slots": { code: '0x00', request: { to: CODE_AT, accessList: [{ address: OTHER, storageKeys: [SLOT_ONE] }] } },
  'a STATICCALL lists its callee, and the slots the callee reads under it': {
    code: `0x6000600060006000${push(OTHER)}5afa00`,
    request: { to: CODE_AT },
  },
}

describe('execution: the access list tracer (eth_createAccessList)', () => {
  let chain: Chain
  const ask = (request: Record<string, unknown>): Promise<AccessListAnswer> =>
    chain.request({ method: 'eth_createAccessList', params: [{ from: FROM, ...request }, 'latest'] }) as Promise<AccessListAnswer>
  before(async () => {
    chain = await createChain()
    // OTHER reads slot 7 when called.
    await chain.request({ method: 'anvil_setCode', params: [OTHER, '0x60075400'] })
  })

  it('lists an address once, with its slots sorted, and the addresses sorted (geth sorts both)', async () => {
    await chain.request({ method: 'anvil_setCode', params: [CODE_AT, `0x60095450600254506000600060006000${push(OTHER)}5afa50${push(NAMED)}3100`] })
    const { accessList } = await ask({ to: CODE_AT })
    expect(accessList.map((entry) => entry.address)).to.deep.equal([NAMED, CODE_AT, OTHER])
    expect(accessList[1]!.storageKeys).to.deep.equal([`0x${'0'.repeat(63)}2`, `0x${'0'.repeat(63)}9`])
    expect(accessList[2]!.storageKeys).to.deep.equal([`0x${'0'.repeat(63)}7`])
  })

  it('a transaction sent with the list found uses the gas eth_createAccessList reported', async () => {
    await chain.request({ method: 'anvil_setCode', params: [CODE_AT, `0x600060006000f03150${push(OTHER)}3b5060055400`] })
    const { accessList, gasUsed } = await ask({ to: CODE_AT })
    const hash = await chain.request({ method: 'eth_sendTransaction', params: [{ from: FROM, to: CODE_AT, accessList, gas: '0x30000' }] })
    await chain.mine()
    const receipt = (await chain.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { gasUsed: string; status: string }
    expect(receipt.status).to.equal('0x1')
    expect(receipt.gasUsed).to.equal(gasUsed)
  })

  it('leaves out the authority of a valid authorization (geth and Anvil: it is warm anyway)', async () => {
    const { privateKeyToAccount } = await import('viem/accounts')
    const bob = privateKeyToAccount(BOB_KEY)
    const signed = await bob.signAuthorization({ chainId: 31337, contractAddress: OTHER, nonce: 0 })
    const authorization = { chainId: '0x7a69', address: OTHER, nonce: '0x0', yParity: `0x${signed.yParity!.toString(16)}`, r: signed.r, s: signed.s }
    await chain.request({ method: 'anvil_setCode', params: [CODE_AT, `0x${push(bob.address.toLowerCase())}3100`] })
    expect((await ask({ to: CODE_AT })).accessList).to.deep.equal([{ address: bob.address.toLowerCase(), storageKeys: [] }])
    expect((await ask({ to: CODE_AT, authorizationList: [authorization] })).accessList).to.deep.equal([])
  })

  it("lists an opcode only once its gas is paid, where geth's OnOpcode runs (Anvil's step hook runs before)", async () => {
    await chain.request({ method: 'anvil_setCode', params: [CODE_AT, `0x${push(OTHER)}3100`] })
    // 21000 intrinsic + 3 for PUSH20 leaves 100 gas for BALANCE's cold access (2600).
    expect(await ask({ to: CODE_AT, gas: '0x526f' })).to.deep.equal({ accessList: [], gasUsed: '0x526f', error: 'out of gas' })
    expect((await ask({ to: CODE_AT })).accessList).to.deep.equal([{ address: OTHER, storageKeys: [] }])
  })

  it('traces a long run at the speed of eth_call: an endless loop ends out of gas, not at the time box', async () => {
    await chain.request({ method: 'anvil_setCode', params: [CODE_AT, '0x5b600056'] })
    expect(await ask({ to: CODE_AT, gas: '0x1c9c380' })).to.deep.equal({ accessList: [], gasUsed: '0x1c9c380', error: 'out of gas' })
  })

  it("drops the recipient from a given list, as geth's NewAccessListTracer does (Anvil keeps it)", async () => {
    await chain.request({ method: 'anvil_setCode', params: [CODE_AT, '0x00'] })
    const answer = await ask({ to: CODE_AT, accessList: [{ address: CODE_AT, storageKeys: [SLOT_ONE] }, { address: FROM, storageKeys: [] }] })
    expect(answer).to.deep.equal({ accessList: [], gasUsed: '0x5208' })
  })

  describe('against Anvil 1.7.1, case by case', () => {
    let anvil: AnvilNode | undefined
    let fresh: Chain
    before(async function () {
      anvil = await anvilOrSkip(this, [])
      fresh = await createChain()
      // The same coinbase in the latest block of both (the devnet's default is Hardhat's, Anvil's the zero address).
      for (const request of [(method: string, params: unknown[]) => fresh.request({ method, params }), anvil.request]) {
        await request('anvil_setCoinbase', [`0x${'c0'.repeat(20)}`])
        await request('anvil_setCode', [OTHER, '0x60075400'])
        await request('evm_mine', [])
      }
    })
    after(() => anvil?.stop())

    for (const [name, { code, request }] of Object.entries(CASES)) {
      it(name, async () => {
        if (code !== undefined) {
          await fresh.request({ method: 'anvil_setCode', params: [CODE_AT, code] })
          await anvil!.request('anvil_setCode', [CODE_AT, code])
        }
        const params = [{ from: FROM, ...request }, 'latest']
        const ours = (await fresh.request({ method: 'eth_createAccessList', params })) as AccessListAnswer
        const theirs = await anvil!.request<AccessListAnswer>('eth_createAccessList', params)
        theirs.accessList.sort((a, b) => (a.address < b.address ? -1 : 1))
        expect(ours).to.deep.equal(theirs)
      })
    }
  })
})
