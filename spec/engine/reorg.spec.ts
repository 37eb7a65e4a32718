/**
 * `anvil_reorg` (engine/reorg.ts): the last blocks replaced by new ones holding only the given
 * transactions, judged against Anvil 1.7.1 taking the same steps; then what Anvil has no notion
 * of: the pre-confirmed block's transactions back in the mempool, an OP-stack chain's new
 * blocks each opening with its L1-attributes deposit, a snapshot's revert, and the same
 * replacement blocks on two identical chains.
 */
import { expect } from 'chai'
import { createChain, type Chain } from '../../lib/index.ts'
import type { Address, Hex } from '../../lib/types.ts'
import { anvilOrSkip, answerOrError, type AnvilNode } from '../support/anvil-node.ts'

const ALICE = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266' as Address
const DAVE = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8' as Address
const BOB = `0x${'00'.repeat(19)}b0` as Address
const CAROL = `0x${'00'.repeat(19)}c0` as Address

type Request = <T = unknown>(method: string, params?: unknown[]) => Promise<T>
type Transaction = { from: Hex; to: Hex; value: Hex; nonce: Hex; type: Hex; blockNumber: Hex | null }
type Block = { number: Hex; hash: Hex; parentHash: Hex; timestamp: Hex; gasUsed: Hex; transactions: Transaction[] }

/** Dave's transfer to Carol with nonce `nonce`, signed by the node (the same bytes on both: same key, chain id and fields). */
const signedTransfer = (request: Request, nonce: Hex, value: Hex) =>
  request<Hex>('eth_signTransaction', [{ from: DAVE, to: CAROL, value, nonce, gas: '0x5208', maxFeePerGas: '0x77359400', maxPriorityFeePerGas: '0x1' }])

/**
 * The steps both nodes take: three transfers to Bob, the two refusals, then a reorg of depth 2
 * holding requests (one without `from`), a signed transaction and one that cannot execute (a
 * nonce gap), each at its block; what each node answers after.
 */
async function reorgSteps(request: Request, mined: (hash: Hex) => Promise<void>): Promise<Record<string, unknown>> {
  const replaced: Hex[] = []
  for (let i = 0; i < 3; i++) {
    replaced.push(await request<Hex>('eth_sendTransaction', [{ from: ALICE, to: BOB, value: '0x1' }]))
    await mined(replaced[i])
  }
  const raw = await signedTransfer(request, '0x0', '0x7')
  const gapped = await signedTransfer(request, '0x5', '0x9')
  const answers: Record<string, unknown> = {}
  answers.tooDeep = await answerOrError(() => request('anvil_reorg', [9, []]))
  answers.offsetBeyond = await answerOrError(() => request('anvil_reorg', [2, [[{ from: ALICE, to: CAROL, value: '0x1' }, 2]]]))
  answers.reorg = await request('anvil_reorg', [2, [[{ from: ALICE, to: CAROL, value: '0x5' }, 1], [raw, 0], [{ to: CAROL, value: '0x6' }, 0], [gapped, 1]]])
  answers.head = await request('eth_blockNumber')
  answers.balances = await Promise.all([BOB, CAROL].map((address) => request('eth_getBalance', [address, 'latest'])))
  answers.nonces = await Promise.all([ALICE, DAVE].map((address) => request('eth_getTransactionCount', [address, 'latest'])))
  const blocks = await Promise.all(['0x1', '0x2', '0x3'].map((number) => request<Block>('eth_getBlockByNumber', [number, true])))
  answers.blocks = blocks.map(({ gasUsed, transactions }) => [gasUsed, transactions.map(({ from, to, value, nonce, type }) => [from, to, value, nonce, type])])
  answers.linked = blocks[2]!.parentHash === blocks[1]!.hash && blocks[1]!.parentHash === blocks[0]!.hash
  answers.replacedReceipts = await Promise.all(replaced.map(async (hash) => ((await request<{ blockNumber: Hex } | null>('eth_getTransactionReceipt', [hash])) ?? {}).blockNumber ?? null))
  answers.pool = await request('txpool_status')
  answers.emptyBlock = [await request('anvil_reorg', [1, []]), await request('eth_blockNumber'), (await request<Block>('eth_getBlockByNumber', ['latest', false])).transactions]
  const next = await request<Hex>('eth_sendTransaction', [{ from: ALICE, to: BOB, value: '0x1' }])
  await mined(next)
  answers.nextNonce = (await request<Transaction>('eth_getTransactionByHash', [next])).nonce
  return answers
}

describe('engine: anvil_reorg', () => {
  describe('against Anvil 1.7.1 taking the same steps', () => {
    let anvil: AnvilNode | undefined
    after(() => anvil?.stop())

    it('answers every step as Anvil does: new blocks with only the given transactions, in block order, the unexecutable left out', async function () {
      anvil = await anvilOrSkip(this, [])
      const chain = await createChain({ clock: 'manual', mining: 'auto' })
      const ours = await reorgSteps((method, params = []) => chain.request({ method, params }) as never, async () => {})
      const theirs = await reorgSteps((method, params = []) => anvil!.request(method, params), (hash) => anvil!.mined(hash))
      expect(ours).to.deep.equal(theirs)
      expect(ours).to.deep.include({
        tooDeep: { code: -32602, message: 'Reorg depth must not exceed current chain height: current height 3, depth 9' },
        head: '0x3',
        balances: ['0x1', '0x12'],
        nonces: ['0x3', '0x1'],
        linked: true,
        replacedReceipts: ['0x1', null, null],
      })
      // Block 2 holds Dave's signed transfer and Alice's request without `from`, block 3 her request with it; the gapped one is nowhere.
      expect((ours.blocks as unknown[][])[1]![1]).to.deep.equal([
        [DAVE, CAROL, '0x7', '0x0', '0x2'],
        [ALICE, CAROL, '0x6', '0x1', '0x2'],
      ])
    })
  })

  const send = (chain: Chain, to: Address, value = '0x1') => chain.request({ method: 'eth_sendTransaction', params: [{ from: ALICE, to, value }] }) as Promise<Hex>
  const block = (chain: Chain, tag: string) => chain.request({ method: 'eth_getBlockByNumber', params: [tag, true] }) as Promise<Block>

  it('leaves the mempool as it is, and puts what the pending block pre-confirmed back in it', async () => {
    const chain = await createChain({ clock: 'manual' })
    for (let i = 0; i < 2; i++) {
      await send(chain, BOB)
      await chain.mine()
    }
    const preconfirmed = await send(chain, BOB)
    await chain.tick()
    await chain.request({ method: 'anvil_reorg', params: [1, [[{ from: DAVE, to: CAROL, value: '0x3' }, 0]]] })
    const replacement = await block(chain, 'latest')
    expect(replacement.transactions.map(({ from, value }) => [from, value])).to.deep.equal([[DAVE, '0x3']])
    // Alice's nonce 2 waits behind her rolled-back nonce 1: queued, as geth's pool keeps it.
    expect(await chain.request({ method: 'txpool_status' })).to.deep.equal({ pending: '0x0', queued: '0x1' })
    expect(await chain.request({ method: 'eth_getTransactionByHash', params: [preconfirmed] })).to.include({ blockNumber: null })
  })

  it("on an OP-stack chain, each new block opens with its L1-attributes deposit, as every block does", async () => {
    const chain = await createChain({ clock: 'manual', mining: 'auto', preset: 'base' })
    for (let i = 0; i < 2; i++) await send(chain, BOB)
    await chain.request({ method: 'anvil_reorg', params: [2, [[{ from: ALICE, to: CAROL, value: '0x4' }, 1]]] })
    const [first, second] = [await block(chain, '0x1'), await block(chain, '0x2')]
    expect(first.transactions.map(({ type }) => type)).to.deep.equal(['0x7e'])
    expect(second.transactions.map(({ type, value }) => [type, value])).to.deep.equal([
      ['0x7e', '0x0'],
      ['0x2', '0x4'],
    ])
  })

  it("a snapshot's revert brings the replaced blocks back", async () => {
    const chain = await createChain({ clock: 'manual', mining: 'auto' })
    const hashes = [await send(chain, BOB), await send(chain, BOB)]
    const before = await block(chain, 'latest')
    const snapshot = await chain.request({ method: 'evm_snapshot' })
    await chain.request({ method: 'anvil_reorg', params: [2, []] })
    expect((await block(chain, 'latest')).hash).to.not.equal(before.hash)
    expect(await chain.request({ method: 'evm_revert', params: [snapshot] })).to.equal(true)
    expect(await block(chain, 'latest')).to.deep.equal(before)
    for (const hash of hashes) expect(await chain.request({ method: 'eth_getTransactionReceipt', params: [hash] })).to.include({ status: '0x1' })
  })

  it('two identical chains reorged alike end with the same blocks (hashes and timestamps depend only on the clock)', async () => {
    const heads: Block[] = []
    for (let run = 0; run < 2; run++) {
      const chain = await createChain({ clock: 'manual', mining: 'auto' })
      for (let i = 0; i < 3; i++) await send(chain, BOB)
      await chain.clock.advance(5000)
      await chain.request({ method: 'anvil_reorg', params: [2, [[{ from: ALICE, to: CAROL, value: '0x2' }, 0]]] })
      heads.push(await block(chain, 'latest'))
    }
    expect(heads[0]).to.deep.equal(heads[1])
    expect(heads[0]!.number).to.equal('0x3')
  })

  it('refuses a malformed placement with -32602, changing nothing', async () => {
    const chain = await createChain({ clock: 'manual', mining: 'auto' })
    await send(chain, BOB)
    const head = await block(chain, 'latest')
    for (const placements of [[['0x12', 0, 1]], [[{ from: ALICE }, -1]], ['0x00'], {}]) {
      expect(await answerOrError(() => chain.request({ method: 'anvil_reorg', params: [1, placements] }))).to.include({ code: -32602 })
    }
    expect(await block(chain, 'latest')).to.deep.equal(head)
  })
})
