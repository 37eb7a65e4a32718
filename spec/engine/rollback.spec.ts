/**
 * `anvil_rollback` (engine/rollback.ts): the last blocks taken away, judged against Anvil 1.7.1
 * taking the same steps, then what Anvil has no notion of: the state root rebuilt (a block mined
 * again after a rollback is the block a chain that never rolled back mines), the pre-confirmed
 * block's transactions back in the mempool, a snapshot's revert, a fork's and a pruned chain's
 * limits.
 */
import { expect } from 'chai'
import { createChain, type Chain } from '../../lib/index.ts'
import type { Address, Hex } from '../../lib/types.ts'
import { anvilOrSkip, answerOrError, type AnvilNode } from '../support/anvil-node.ts'

const ALICE = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266' as Address
const BOB = `0x${'00'.repeat(19)}b0` as Address
/** PUSH1 1 PUSH1 0 SSTORE: each call writes 1 to slot 0. */
const STORER = `0x${'00'.repeat(19)}5e` as Address
const STORE_ONE = '0x6001600055'

type Request = <T = unknown>(method: string, params?: unknown[]) => Promise<T>
type Block = { number: Hex; hash: Hex; parentHash: Hex; stateRoot: Hex; transactions: Hex[] }

/** The steps both nodes take (three transfers, then rollbacks of 1, 0, none, too many and all) and what each answers. */
async function rollbackSteps(request: Request, mined: (hash: Hex) => Promise<void>): Promise<Record<string, unknown>> {
  const hashes: Hex[] = []
  for (let i = 0; i < 3; i++) {
    hashes.push(await request<Hex>('eth_sendTransaction', [{ from: ALICE, to: BOB, value: '0x1' }]))
    await mined(hashes[i])
  }
  const answers: Record<string, unknown> = {}
  answers.rollback = await request('anvil_rollback', [1])
  answers.head = await request('eth_blockNumber')
  answers.balance = await request('eth_getBalance', [BOB, 'latest'])
  answers.nonce = await request('eth_getTransactionCount', [ALICE, 'latest'])
  answers.pendingNonce = await request('eth_getTransactionCount', [ALICE, 'pending'])
  answers.dropped = await request('eth_getTransactionByHash', [hashes[2]])
  answers.droppedReceipt = await request('eth_getTransactionReceipt', [hashes[2]])
  answers.pool = await request('txpool_status')
  answers.block3 = await request('eth_getBlockByNumber', ['0x3', false])
  answers.kept = ((await request<{ blockNumber: Hex }>('eth_getTransactionReceipt', [hashes[1]])) ?? {}).blockNumber
  answers.rollbackNone = [await request('anvil_rollback', [0]), await request('eth_blockNumber')]
  answers.rollbackNull = [await request('anvil_rollback', [null]), await request('eth_blockNumber')]
  answers.tooDeep = await answerOrError(() => request('anvil_rollback', [9]))
  answers.toGenesis = [await request('anvil_rollback', [1]), await request('eth_blockNumber'), await request('eth_getBalance', [BOB, 'latest'])]
  return answers
}

describe('engine: anvil_rollback', () => {
  describe('against Anvil 1.7.1 taking the same steps', () => {
    let anvil: AnvilNode | undefined
    after(() => anvil?.stop())

    it('answers every step as Anvil does: the blocks, their transactions and their state gone, the pool untouched', async function () {
      anvil = await anvilOrSkip(this, [])
      const chain = await createChain({ clock: 'manual', mining: 'auto' })
      const ours = await rollbackSteps((method, params = []) => chain.request({ method, params }) as never, async () => {})
      const theirs = await rollbackSteps((method, params = []) => anvil!.request(method, params), (hash) => anvil!.mined(hash))
      expect(ours).to.deep.equal(theirs)
      expect(ours).to.deep.include({ head: '0x2', balance: '0x2', dropped: null, rollbackNone: [null, '0x2'], rollbackNull: [null, '0x1'] })
    })
  })

  /** A chain with STORER's code, then a block per call. */
  async function storerChain(): Promise<Chain> {
    const chain = await createChain({ clock: 'manual', mining: 'auto' })
    await chain.request({ method: 'anvil_setCode', params: [STORER, STORE_ONE] })
    await chain.request({ method: 'evm_mine', params: [] })
    return chain
  }
  const latest = (chain: Chain) => chain.request({ method: 'eth_getBlockByNumber', params: ['latest', false] }) as Promise<Block>
  const send = (chain: Chain, to: Address, value = '0x1') => chain.request({ method: 'eth_sendTransaction', params: [{ from: ALICE, to, value }] }) as Promise<Hex>

  it('rebuilds the state root: a block mined again after a rollback is the one a chain that never rolled back mines', async () => {
    const rolled = await storerChain()
    await send(rolled, STORER, '0x0') // block 2 writes slot 0
    await send(rolled, BOB) // block 3
    expect(await rolled.request({ method: 'eth_getStorageAt', params: [STORER, '0x0', 'latest'] })).to.match(/1$/)
    await rolled.request({ method: 'anvil_rollback', params: [2] })
    expect(BigInt((await rolled.request({ method: 'eth_getStorageAt', params: [STORER, '0x0', 'latest'] })) as string)).to.equal(0n)
    await send(rolled, BOB, '0x2')
    const straight = await storerChain()
    await send(straight, BOB, '0x2')
    const [again, never] = [await latest(rolled), await latest(straight)]
    expect(again.number).to.equal('0x2')
    expect([again.stateRoot, again.hash]).to.deep.equal([never.stateRoot, never.hash])
  })

  it('puts what the pending block pre-confirmed back in the mempool, and opens the pending block on the new head', async () => {
    const chain = await createChain({ clock: 'manual' })
    for (let i = 0; i < 2; i++) {
      await send(chain, BOB)
      await chain.mine()
    }
    const waiting = await send(chain, BOB)
    await chain.tick()
    expect(await chain.request({ method: 'eth_getTransactionReceipt', params: [waiting] })).to.include({ status: '0x1' })
    await chain.request({ method: 'anvil_rollback', params: [1] })
    const pending = (await chain.request({ method: 'eth_getBlockByNumber', params: ['pending', false] })) as Block
    expect([pending.number, pending.transactions]).to.deep.equal(['0x2', []])
    // Its nonce (2) now waits behind the rolled-back transaction's (1): queued, as geth's pool keeps it.
    expect(await chain.request({ method: 'txpool_status' })).to.deep.equal({ pending: '0x0', queued: '0x1' })
    expect(await chain.request({ method: 'eth_getTransactionByHash', params: [waiting] })).to.include({ blockNumber: null })
  })

  it("a snapshot's revert brings the blocks, their transactions and their state back", async () => {
    const chain = await storerChain()
    const hashes = [await send(chain, STORER, '0x0'), await send(chain, BOB)]
    const before = await latest(chain)
    const snapshot = await chain.request({ method: 'evm_snapshot' })
    await chain.request({ method: 'anvil_rollback', params: [2] })
    expect(await chain.request({ method: 'eth_blockNumber' })).to.equal('0x1')
    expect(await chain.request({ method: 'evm_revert', params: [snapshot] })).to.equal(true)
    expect(await latest(chain)).to.deep.equal(before)
    for (const hash of hashes) expect(await chain.request({ method: 'eth_getTransactionReceipt', params: [hash] })).to.include({ status: '0x1' })
    expect(await chain.request({ method: 'eth_getStorageAt', params: [STORER, '0x0', 'latest'] })).to.match(/1$/)
    await send(chain, BOB)
    expect((await latest(chain)).parentHash).to.equal(before.hash)
  })

  it('a pruned chain refuses to go below the oldest state it keeps (Anvil: BlockOutOfRangeError)', async () => {
    const chain = await createChain({ clock: 'manual', mining: 'auto', pruneHistory: 1 })
    for (let i = 0; i < 4; i++) await send(chain, BOB)
    const error = (await answerOrError(() => chain.request({ method: 'anvil_rollback', params: [3] }))) as { code: number; message: string }
    expect(error).to.deep.equal({ code: -32602, message: 'BlockOutOfRangeError: block height is 4 but requested was 1' })
    expect(await chain.request({ method: 'eth_blockNumber' })).to.equal('0x4')
    await chain.request({ method: 'anvil_rollback', params: [1] })
    expect(await chain.request({ method: 'eth_getBalance', params: [BOB, 'latest'] })).to.equal('0x3')
  })
})
