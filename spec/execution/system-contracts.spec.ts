/**
 * The system contracts of a fresh chain (execution/system-contracts.ts), judged against Anvil
 * 1.7.1: Arachnid's deterministic deployment proxy and EIP-2935's history contract at genesis,
 * with the same code and nonce; each block's parent hash in the history ring (the system call),
 * which a call reads back; a CREATE2 deployment through the proxy, as `forge script` makes one;
 * and no history contract before Prague.
 */
import { expect } from 'chai'
import { concat, getContractAddress, pad, toHex, type Hex } from 'viem'
import { createChain } from '../../lib/index.ts'
import { DETERMINISTIC_DEPLOYMENT_PROXY, HISTORY_STORAGE } from '../../lib/execution/system-contracts.ts'
import { anvilOrSkip, type AnvilNode } from '../support/anvil-node.ts'

type Request = <T = unknown>(method: string, params?: unknown[]) => Promise<T>

/** What a node holds at the two addresses, and, after three blocks, whether each ring slot and each `get` call gives the block's hash. */
async function systemContractSteps(request: Request): Promise<Record<string, unknown>> {
  const answers: Record<string, unknown> = {}
  for (const address of [DETERMINISTIC_DEPLOYMENT_PROXY, HISTORY_STORAGE]) {
    answers[address] = [await request('eth_getCode', [address, 'latest']), await request('eth_getTransactionCount', [address, 'latest'])]
  }
  await request('anvil_mine', ['0x3'])
  const hashes = await Promise.all(['0x0', '0x1', '0x2'].map(async (number) => (await request<{ hash: Hex }>('eth_getBlockByNumber', [number, false])).hash))
  answers.ring = await Promise.all(hashes.map(async (hash, n) => (await request('eth_getStorageAt', [HISTORY_STORAGE, toHex(n), 'latest'])) === hash))
  answers.calls = await Promise.all(hashes.map(async (hash, n) => (await request('eth_call', [{ to: HISTORY_STORAGE, data: pad(toHex(n)) }, 'latest'])) === hash))
  answers.headNotYet = await request('eth_getStorageAt', [HISTORY_STORAGE, '0x3', 'latest'])
  return answers
}

describe('execution: the system contracts of a fresh chain', () => {
  let anvil: AnvilNode | undefined
  after(() => anvil?.stop())

  it("holds Anvil's deployment proxy and EIP-2935 history contract, and fills the history ring block by block as Anvil does", async function () {
    anvil = await anvilOrSkip(this, [])
    const chain = await createChain({ clock: 'manual', mining: 'auto' })
    const ours = await systemContractSteps((method, params = []) => chain.request({ method, params }) as never)
    const theirs = await systemContractSteps((method, params = []) => anvil!.request(method, params))
    expect(ours).to.deep.equal(theirs)
    expect(ours).to.deep.include({ ring: [true, true, true], calls: [true, true, true] })
  })

  it('the pending block holds its parent hash before any transaction, and keeps it when its pre-confirmations are dropped', async () => {
    const chain = await createChain({ clock: 'manual' })
    await chain.mine()
    const head = (await chain.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as { hash: Hex }
    const slot = () => chain.getStorageAt(HISTORY_STORAGE, '0x1', 'pending')
    expect(await slot()).to.equal(head.hash)
    await chain.request({ method: 'eth_sendTransaction', params: [{ from: chain.accounts[0]!.address, to: chain.accounts[1]!.address, value: '0x1' }] })
    await chain.tick()
    await chain.request({ method: 'preconf_dropPreconfirmations', params: [{ count: 1 }] })
    expect(await slot()).to.equal(head.hash)
  })

  it('deploys through the proxy with CREATE2 at the address forge computes (salt, then init code, as calldata)', async () => {
    const chain = await createChain({ clock: 'manual', mining: 'auto' })
    const salt = pad('0x5a17')
    // PUSH1 1 PUSH1 0 RETURN: the runtime is memory's first byte, 0x00 (STOP).
    const initCode: Hex = '0x60016000f3'
    await chain.request({ method: 'eth_sendTransaction', params: [{ from: chain.accounts[0]!.address, to: DETERMINISTIC_DEPLOYMENT_PROXY, data: concat([salt, initCode]) }] })
    const created = getContractAddress({ opcode: 'CREATE2', from: DETERMINISTIC_DEPLOYMENT_PROXY, salt, bytecode: initCode })
    expect(await chain.getCode(created, 'latest')).to.equal('0x00')
  })

  it('before Prague (--hardfork cancun) there is no history contract and no block writes one', async () => {
    const chain = await createChain({ clock: 'manual', mining: 'auto', hardfork: 'cancun' })
    await chain.mine()
    expect(await chain.getCode(HISTORY_STORAGE, 'latest')).to.equal('0x')
    expect(await chain.getStorageAt(HISTORY_STORAGE, '0x0', 'latest')).to.equal(pad('0x0'))
    expect(await chain.getCode(DETERMINISTIC_DEPLOYMENT_PROXY, 'latest')).to.not.equal('0x')
  })
})
