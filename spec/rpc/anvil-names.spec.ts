/**
 * The names Anvil answers besides the usual ones (`eth_networkId`, `eth_requestAccounts`,
 * `evm_setAccountNonce`, `tenderly_setBalance` / `tenderly_addBalance`, `hardhat_dumpState` /
 * `hardhat_loadState`; `eth_sendTransactionSync`, `eth_getStorageValues`,
 * `anvil_getGenesisTime`), the raw transactions by
 * block and position and a transaction by sender and nonce (reth's, which cast sends), checked
 * against Anvil 1.7.1 taking the same steps.
 */
import { expect } from 'chai'
import { createChain, type Chain } from '../../lib/index.ts'
import { anvilOrSkip, type AnvilNode } from '../support/anvil-node.ts'

const ALICE = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'
const BOB = `0x${'00'.repeat(19)}b0`
const UNKNOWN_HASH = `0x${'11'.repeat(32)}`

type Request = <T = unknown>(method: string, params?: unknown[]) => Promise<T>

/** What each node answers to the same steps: a transfer mined, then each name asked. */
async function answers(request: Request, mine: (hash: string) => Promise<void>): Promise<Record<string, unknown>> {
  const hash = await request<string>('eth_sendTransaction', [{ from: ALICE, to: BOB, value: '0x1' }])
  await mine(hash)
  const block = await request<{ hash: string }>('eth_getBlockByNumber', ['latest', false])
  const raw = await request<string>('eth_getRawTransactionByHash', [hash])
  return {
    networkIdIsNetVersion: (await request('eth_networkId')) === (await request('net_version')),
    requestAccountsIsAccounts: JSON.stringify(await request('eth_requestAccounts')) === JSON.stringify(await request('eth_accounts')),
    rawByNumberIsRawByHash: (await request('eth_getRawTransactionByBlockNumberAndIndex', ['latest', '0x0'])) === raw,
    rawByHashIsRawByHash: (await request('eth_getRawTransactionByBlockHashAndIndex', [block.hash, '0x0'])) === raw,
    rawPastTheLast: await request('eth_getRawTransactionByBlockNumberAndIndex', ['latest', '0x5']),
    rawOfAnUnknownBlock: await request('eth_getRawTransactionByBlockHashAndIndex', [UNKNOWN_HASH, '0x0']),
    rawBeyondTheHead: await request('eth_getRawTransactionByBlockNumberAndIndex', ['0x99', '0x0']),
    bySenderAndNonce: (await request<{ hash: string } | null>('eth_getTransactionBySenderAndNonce', [ALICE, '0x0']))?.hash === hash,
    bySenderAndUnusedNonce: await request('eth_getTransactionBySenderAndNonce', [ALICE, '0x9']),
    setAccountNonce: await request('evm_setAccountNonce', [BOB, '0x7']),
    nonceAfter: await request('eth_getTransactionCount', [BOB, 'latest']),
    tenderlySetBalance: await request('tenderly_setBalance', [BOB, '0x64']),
    tenderlyAddBalance: await request('tenderly_addBalance', [BOB, '0x1']),
    balanceAfter: await request('eth_getBalance', [BOB, 'latest']),
    genesisTimeIsFirstBlocks: (await request('anvil_getGenesisTime')) === Number((await request<{ timestamp: string }>('eth_getBlockByNumber', ['0x0', false])).timestamp),
    storageValues: await (async () => {
      await request('anvil_setStorageAt', [BOB, '0x1', `0x${'0'.repeat(62)}2a`])
      const slots = [`0x${'0'.repeat(63)}1`, `0x${'0'.repeat(63)}2`]
      return request('eth_getStorageValues', [{ [BOB]: slots, [ALICE]: slots.slice(1) }, 'latest'])
    })(),
    syncReceipt: await (async () => {
      const receipt = await request<Record<string, unknown>>('eth_sendTransactionSync', [{ from: ALICE, to: BOB, value: '0x1' }])
      const { status, from, to, gasUsed, transactionIndex, type } = receipt
      return { status, from, to, gasUsed, transactionIndex, type, includedInLatest: receipt.blockNumber === (await request('eth_blockNumber')) }
    })(),
  }
}

describe("rpc: Anvil's other names, and raw transactions by position", () => {
  let chain: Chain
  let ours: Record<string, unknown>
  before(async () => {
    chain = await createChain({ mining: 'auto' })
    ours = await answers(<T>(method: string, params: unknown[] = []) => chain.request({ method, params }) as Promise<T>, async () => {})
  })

  it('eth_networkId is net_version and eth_requestAccounts is eth_accounts (lowercase)', async () => {
    expect(await chain.request({ method: 'eth_networkId' })).to.equal('31337')
    expect(ours.networkIdIsNetVersion).to.equal(true)
    expect(ours.requestAccountsIsAccounts).to.equal(true)
    expect(((await chain.request({ method: 'eth_requestAccounts' })) as string[])[0]).to.equal(ALICE)
  })

  it('the raw transaction at a position is the signed envelope; null past the last, for an unknown hash and beyond the head', () => {
    expect(ours).to.include({ rawByNumberIsRawByHash: true, rawByHashIsRawByHash: true, rawPastTheLast: null, rawOfAnUnknownBlock: null, rawBeyondTheHead: null })
  })

  it('at pending, the raw transaction is the pre-confirmed one, as eth_getTransactionByBlockNumberAndIndex answers', async () => {
    const paused = await createChain()
    const hash = await paused.request({ method: 'eth_sendTransaction', params: [{ from: ALICE, to: BOB, value: '0x1' }] })
    expect(await paused.request({ method: 'eth_getRawTransactionByBlockNumberAndIndex', params: ['pending', '0x0'] })).to.equal(null)
    await paused.tick()
    expect(await paused.request({ method: 'eth_getRawTransactionByBlockNumberAndIndex', params: ['pending', '0x0'] })).to.equal(
      await paused.request({ method: 'eth_getRawTransactionByHash', params: [hash] }),
    )
  })

  it('eth_getTransactionBySenderAndNonce finds a sealed, a pre-confirmed and a pooled transaction; null for a nonce not sent', async () => {
    expect(ours).to.include({ bySenderAndNonce: true, bySenderAndUnusedNonce: null })
    const paused = await createChain()
    const first = await paused.request({ method: 'eth_sendTransaction', params: [{ from: ALICE, to: BOB, value: '0x1' }] })
    const find = (nonce: string) => paused.request({ method: 'eth_getTransactionBySenderAndNonce', params: [ALICE, nonce] }) as Promise<{ hash: string; blockNumber: string | null }>
    expect(await find('0x0')).to.include({ hash: first, blockNumber: null })
    await paused.tick()
    expect(await find('0x0')).to.include({ hash: first, blockNumber: '0x1' })
    await paused.mine()
    const second = await paused.request({ method: 'eth_sendTransaction', params: [{ from: ALICE, to: BOB, value: '0x1' }] })
    expect((await find('0x0')).hash).to.equal(first)
    expect((await find('0x1')).hash).to.equal(second)
    // Otterscan's own reads sealed blocks only.
    expect(await paused.request({ method: 'ots_getTransactionBySenderAndNonce', params: [ALICE, '0x1'] })).to.equal(null)
    expect(await paused.request({ method: 'ots_getTransactionBySenderAndNonce', params: [ALICE, '0x0'] })).to.equal(first)
  })

  it('evm_setAccountNonce sets the nonce and answers null, as anvil_setNonce', () => {
    expect(ours).to.include({ setAccountNonce: null, nonceAfter: '0x7' })
  })

  it("tenderly_setBalance and tenderly_addBalance are Anvil's aliases of the balance setters (answering null)", () => {
    expect(ours).to.include({ tenderlySetBalance: null, tenderlyAddBalance: null, balanceAfter: '0x65' })
  })

  it('anvil_getGenesisTime is the first block\'s timestamp as a JSON number', () => {
    expect(ours.genesisTimeIsFirstBlocks).to.equal(true)
  })

  it('eth_getStorageValues answers each address\'s slots as 32-byte words, keyed by the lowercase address', () => {
    expect(ours.storageValues).to.deep.equal({ [BOB]: [`0x${'0'.repeat(62)}2a`, `0x${'0'.repeat(64)}`], [ALICE]: [`0x${'0'.repeat(64)}`] })
  })

  it("eth_getStorageValues: the block defaults to latest (geth's); geth's limits and texts", async () => {
    const fail = (params: unknown[]) => chain.request({ method: 'eth_getStorageValues', params }).then(() => ({}) as { code?: number; message?: string }, (caught: { code?: number; message?: string }) => caught)
    expect(await chain.request({ method: 'eth_getStorageValues', params: [{ [BOB]: [`0x${'0'.repeat(63)}1`] }] })).to.deep.equal({ [BOB]: [`0x${'0'.repeat(62)}2a`] })
    expect(await fail([{}])).to.include({ code: -32602, message: 'empty request' })
    expect(await fail([{ [BOB]: Array.from({ length: 1025 }, () => `0x${'0'.repeat(64)}`) }])).to.include({ code: -38026, message: 'too many slots (max 1024)' })
    expect((await fail([{ [BOB]: ['0x1'] }])).code).to.equal(-32602)
    expect((await fail([{ nobody: [] }])).code).to.equal(-32602)
  })

  it('eth_sendTransactionSync sends from a dev account and answers the receipt once the transaction is in', () => {
    expect(ours.syncReceipt).to.deep.include({ status: '0x1', from: ALICE, to: BOB, gasUsed: '0x5208', includedInLatest: true })
  })

  it('anvil_setERC20Balance is anvil_dealERC20', async () => {
    const other = await createChain({ mining: 'auto' })
    // A token whose balanceOf(owner) reads mapping slot 0: balances[owner] at keccak(owner . 0).
    const code = '0x60043560005260006020526040600020545f5260205ff3'
    await other.request({ method: 'anvil_setCode', params: [BOB, code] })
    expect(await other.request({ method: 'anvil_setERC20Balance', params: [ALICE, BOB, '0x3e8'] })).to.equal(null)
    const balanceOf = async (owner: string) => BigInt((await other.request({ method: 'eth_call', params: [{ to: BOB, data: `0x70a08231${owner.slice(2).padStart(64, '0')}` }] })) as string)
    expect(await balanceOf(ALICE)).to.equal(1000n)
    expect(await balanceOf(BOB)).to.equal(0n)
  })

  it('hardhat_dumpState and hardhat_loadState are anvil_dumpState and anvil_loadState', async () => {
    const dump = (await chain.request({ method: 'hardhat_dumpState' })) as string
    expect(dump).to.equal(await chain.request({ method: 'anvil_dumpState' }))
    const other = await createChain()
    expect(await other.request({ method: 'hardhat_loadState', params: [dump] })).to.equal(true)
    expect(await other.request({ method: 'eth_getTransactionCount', params: [BOB, 'latest'] })).to.equal('0x7')
  })

  it("anvil_nodeInfo names the hardfork as Anvil 1.7.1 does ('Prague'); anvil_metadata has Anvil's clientSemver after clientVersion", async () => {
    expect(((await chain.request({ method: 'anvil_nodeInfo' })) as { hardFork: string }).hardFork).to.equal('Prague')
    const metadata = (await chain.request({ method: 'anvil_metadata' })) as Record<string, unknown>
    expect(Object.keys(metadata).slice(0, 3)).to.deep.equal(['clientVersion', 'clientSemver', 'chainId'])
    expect(metadata.clientSemver).to.equal('0.1.0')
  })

  it('a bad position is -32602 naming the argument', async () => {
    const error = await chain.request({ method: 'eth_getRawTransactionByBlockNumberAndIndex', params: ['latest', 'zero'] }).then(
      () => ({}) as { code?: number; message?: string },
      (caught: { code?: number; message?: string }) => caught,
    )
    expect(error.code).to.equal(-32602)
    expect(error.message).to.match(/^invalid argument 1 \(index\)/)
  })

  describe('against Anvil 1.7.1 taking the same steps', () => {
    let anvil: AnvilNode | undefined
    after(() => anvil?.stop())

    it('every answer is the same', async function () {
      anvil = await anvilOrSkip(this, [])
      const theirs = await answers((method, params = []) => anvil!.request(method, params), (hash) => anvil!.mined(hash))
      expect(ours).to.deep.equal(theirs)
    })
  })
})
