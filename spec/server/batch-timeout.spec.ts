/**
 * A batch's time budget (geth: the members still unanswered near its HTTP WriteTimeout get
 * -32002 `request timed out`, rpc/handler.go handleBatch): members start one after another until
 * the budget is spent, each later one is answered with the timeout, and each call in it is
 * time-boxed on its own, so a batch of endless loops ends at the budget plus one call.
 */
import { expect } from 'chai'
import WebSocket from 'ws'
import { createChain, startServer, type DevnetServer } from '../../lib/index.ts'
import type { Address } from '../../lib/types.ts'
import { ENDLESS_LOOP } from '../support/endless-loop.ts'

const LOOP_AT = `0x${'00'.repeat(19)}aa` as Address

type Reply = { id: number | null; result?: unknown; error?: { code: number; message: string } }

function loopCall(id: number): object {
  return { jsonrpc: '2.0', id, method: 'eth_call', params: [{ to: LOOP_AT, gas: '0xffffffffffffffff' }, 'latest'] }
}

async function served(): Promise<DevnetServer> {
  const chain = await createChain({ callTimeoutMs: 200 })
  await chain.request({ method: 'anvil_setCode', params: [LOOP_AT, ENDLESS_LOOP] })
  return startServer(chain, { port: 0, batchTimeoutMs: 300 })
}

describe('batch time budget (geth: -32002 request timed out)', () => {
  let server: DevnetServer
  before(async () => {
    server = await served()
  })
  after(() => server.close())

  it('over HTTP, members not started within the budget get -32002; those run keep their own answers', async () => {
    const batch = [loopCall(1), loopCall(2), loopCall(3), { jsonrpc: '2.0', method: 'eth_chainId' }, { jsonrpc: '2.0', id: 5, method: 'eth_chainId' }, { jsonrpc: '2.0', id: 6 }]
    const start = performance.now()
    const response = await fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(batch) })
    const replies = (await response.json()) as Reply[]
    const elapsed = performance.now() - start
    // The first two calls start before 300 ms (at 0 and ~200 ms) and each stops at 200 ms.
    expect(replies.slice(0, 2).map((reply) => reply.error)).to.deep.equal([
      { code: -32000, message: 'execution aborted (timeout = 200ms)' },
      { code: -32000, message: 'execution aborted (timeout = 200ms)' },
    ])
    // The third call and the request after the notification are past the budget; the
    // notification gets nothing, and a malformed member still gets its own error.
    expect(replies.slice(2)).to.deep.equal([
      { jsonrpc: '2.0', id: 3, error: { code: -32002, message: 'request timed out' } },
      { jsonrpc: '2.0', id: 5, error: { code: -32002, message: 'request timed out' } },
      { jsonrpc: '2.0', id: 6, error: { code: -32600, message: 'invalid request: method must be a string' } },
    ])
    expect(elapsed).to.be.below(1000)
  })

  it('over WebSocket, the same budget', async () => {
    const socket = new WebSocket(server.url.replace('http', 'ws'))
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject))
    const answer = new Promise<Reply[]>((resolve) => socket.once('message', (data) => resolve(JSON.parse(data.toString()) as Reply[])))
    socket.send(JSON.stringify([loopCall(1), loopCall(2), loopCall(3), loopCall(4)]))
    const replies = await answer
    socket.close()
    expect(replies.map((reply) => reply.error?.code)).to.deep.equal([-32000, -32000, -32002, -32002])
  })

  it('a batch within its budget is answered in full', async () => {
    const batch = [1, 2, 3].map((id) => ({ jsonrpc: '2.0', id, method: 'eth_chainId' }))
    const response = await fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(batch) })
    expect(((await response.json()) as Reply[]).map((reply) => reply.result)).to.deep.equal(['0x7a69', '0x7a69', '0x7a69'])
  })

  it('the option takes milliseconds from 1; 29,900 by default (geth: WriteTimeout 30 s less 100 ms)', async () => {
    const chain = await createChain()
    let error: unknown
    await startServer(chain, { port: 0, batchTimeoutMs: 0 }).catch((caught: unknown) => (error = caught))
    expect(String(error)).to.equal('TypeError: invalid option batchTimeoutMs: expected an integer from 1, got 0')
  })
})
