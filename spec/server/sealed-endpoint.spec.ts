/**
 * The standard endpoint of the same chain (`/sealed`, `chain.sealed`), as Base serves one beside
 * its flashblocks endpoint: a receipt exists once its block seals, `pending` reads the newest
 * sealed block, and the pending nonce still counts every transaction the node has taken — so a
 * tool that reads a receipt and then the nonce at `latest` (cast, forge) never reuses a nonce.
 */
import { expect } from 'chai'
import { createPublicClient, http, parseEther, type Hex } from 'viem'
import { createChain, startServer, type Chain, type DevnetServer } from '../../lib/index.ts'
import type { Address } from '../../lib/types.ts'
import { type RpcBlock, type RpcReceipt } from '../support/chain-helpers.ts'
import { signer } from '../support/wallet.ts'
import { WsClient } from '../support/ws-client.ts'

const BOB = `0x${'b0'.repeat(20)}` as Address

describe('server: the sealed-only endpoint', () => {
  let chain: Chain
  let server: DevnetServer

  beforeEach(async () => {
    chain = await createChain()
    server = await startServer(chain, { port: 0 })
  })
  afterEach(() => server.close())

  const sealed = <T>(method: string, ...params: unknown[]) => chain.sealed.request({ method, params }) as Promise<T>
  const preconf = <T>(method: string, ...params: unknown[]) => chain.request({ method, params }) as Promise<T>

  it('serves /sealed over HTTP beside / (DevnetServer.sealedUrl)', async () => {
    expect(server.sealedUrl).to.equal(`${server.url}/sealed`)
    const client = createPublicClient({ transport: http(server.sealedUrl) })
    expect(await client.getChainId()).to.equal(31337)
  })

  it('answers any other path 404 with no body, as geth and Anvil 1.7.1 do: a mistyped /sealed never reads pre-confirmed state', async () => {
    const post = (path: string) =>
      fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}' })
    for (const path of ['/foo', '//sealed', '/SEALED', '/sealed/foo', '/rpc']) {
      const response = await post(path)
      expect([response.status, await response.text()], path).to.deep.equal([404, ''])
    }
    for (const path of ['/', '/?x=1', '/sealed', '/sealed/', '/sealed?x=1']) expect((await post(path)).status, path).to.equal(200)
  })

  it('a pre-confirmed transaction has no receipt there, is pending by hash, and appears once sealed', async () => {
    const hash = await chain.sendRawTransaction(await signer(chain, 0).sign({ to: BOB, value: parseEther('1') }))
    await chain.clock.advance(200)
    expect(await preconf<RpcReceipt>('eth_getTransactionReceipt', hash)).to.not.equal(null)
    expect(await sealed('eth_getTransactionReceipt', hash)).to.equal(null)
    const pendingTransaction = await sealed<{ blockHash: null; blockNumber: null; transactionIndex: null }>('eth_getTransactionByHash', hash)
    expect([pendingTransaction.blockHash, pendingTransaction.blockNumber, pendingTransaction.transactionIndex]).to.deep.equal([null, null, null])
    await chain.clock.advance(1800)
    const receipt = await sealed<RpcReceipt>('eth_getTransactionReceipt', hash)
    expect(receipt.blockNumber).to.equal('0x1')
    expect(receipt).to.deep.equal(await preconf('eth_getTransactionReceipt', hash))
  })

  it('over WebSocket, has the standard streams but not the pre-confirmation ones, as a node without them: a pre-confirmation is heard of only once sealed', async () => {
    const socket = await WsClient.connect(`${server.wsUrl}/sealed`)
    try {
      for (const kind of ['newFlashblocks', 'newPreconfBlockTransactions', 'newFlashblockTransactions', 'pendingLogs']) {
        const error = await socket.response('eth_subscribe', [kind])
        expect(error.error, kind).to.deep.include({ code: -32602, message: `invalid argument 0 (subscription): no "${kind}" subscription` })
      }
      const heads = await socket.subscribe('newHeads')
      await chain.sendRawTransaction(await signer(chain, 0).sign({ to: BOB, value: 1n }))
      await chain.clock.advance(200)
      await socket.sync()
      expect(socket.notifications(heads)).to.deep.equal([])
      await chain.clock.advance(1800)
      expect(await socket.waitForNotifications<{ number: Hex }>(heads, 1)).to.have.nested.property('[0].number', '0x1')
    } finally {
      await socket.close()
    }
  })

  it("reads 'pending' at the newest sealed block, but counts pre-confirmed and pooled transactions in the pending nonce", async () => {
    const alice = signer(chain, 0)
    await chain.sendRawTransaction(await alice.sign({ to: BOB, value: 5n }))
    await chain.clock.advance(200)
    await chain.sendRawTransaction(await alice.sign({ to: BOB, value: 5n, nonce: 1 }))
    expect(await sealed('eth_getBalance', BOB, 'pending')).to.equal('0x0')
    expect(await preconf('eth_getBalance', BOB, 'pending')).to.equal('0x5')
    expect(await sealed('eth_getTransactionCount', alice.address, 'latest')).to.equal('0x0')
    expect(await sealed('eth_getTransactionCount', alice.address, 'pending')).to.equal('0x2')
    const pendingBlock = await sealed<RpcBlock>('eth_getBlockByNumber', 'pending', false)
    expect(pendingBlock).to.deep.equal(await sealed('eth_getBlockByNumber', 'latest', false))
    expect(await sealed('eth_getLogs', { fromBlock: '0x0', toBlock: 'pending' })).to.deep.equal([])
  })

  it('eth_sendRawTransactionSync waits for the seal there, not the pre-confirmation (EIP-7966 on a standard node)', async () => {
    const raw = (await signer(chain, 0).sign({ to: BOB, value: 1n })) as Hex
    const answer = sealed<RpcReceipt>('eth_sendRawTransactionSync', raw)
    await chain.clock.advance(200)
    let settled = false
    void answer.then(() => (settled = true))
    await new Promise((resolve) => setImmediate(resolve))
    expect(settled, 'not at the pre-confirmation').to.equal(false)
    await chain.clock.advance(1800)
    expect((await answer).blockNumber).to.equal('0x1')
  })
})
