/**
 * A clean exit (lib/cli.ts, DevnetServer.close in lib/server/server.ts): on SIGTERM or SIGINT the
 * node stops accepting connections, answers the requests in flight while the chain runs on, then
 * stops the chain and exits 0; a request that would never finish is cut after the grace period.
 * The in-flight requests are `eth_sendRawTransactionSync` on the standard endpoint, which answer
 * only once their block seals (the event loop idle meanwhile, as under a slow upstream).
 */
import { expect } from 'chai'
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { keccak256, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { createChain, type Chain } from '../lib/index.ts'
import { startServer } from '../lib/server/server.ts'
import { http, rpc, type HttpReply } from './support/server-http.ts'
import { killAll, pollUntil, ROOT, startCli, tryConnect } from './support/server-cli.ts'

/** Dev accounts 0-2 of `test test … junk` (Anvil's and Hardhat's). */
const KEYS: Hex[] = [
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
]
const RECIPIENT = `0x${'ab'.repeat(20)}` as const

/** A signed 1-wei transfer at nonce 0 from dev account `index` (chain 31337). */
function transfer(index: number): Promise<Hex> {
  return privateKeyToAccount(KEYS[index]).signTransaction({
    chainId: 31337,
    nonce: 0,
    to: RECIPIENT,
    value: 1n,
    gas: 21_000n,
    maxFeePerGas: 100_000_000_000n,
    maxPriorityFeePerGas: 1_000_000_000n,
  })
}

/** Sends `raw` with eth_sendRawTransactionSync to `url`, on a connection of its own. */
function sendSync(url: string, raw: Hex): Promise<HttpReply> {
  return http(url, { body: { jsonrpc: '2.0', id: 1, method: 'eth_sendRawTransactionSync', params: [raw] } })
}

/** Whether the chain's pool holds one pending transaction (the request has been admitted). */
async function pooled(chain: Chain): Promise<boolean> {
  return ((await chain.request({ method: 'txpool_status' })) as { pending: string }).pending === '0x1'
}

describe('clean exit: in-flight requests survive SIGTERM and SIGINT', () => {
  before(function () {
    if (!existsSync(join(ROOT, 'dist/cli.js'))) {
      this.timeout(180_000)
      execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'ignore' })
    }
  })
  afterEach(killAll)

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`${signal}: three requests waiting for their seal are answered with their receipts, new connections are refused, exit 0`, async () => {
      const cli = await startCli(['--port', '0', '--silent'])
      const raws = await Promise.all(KEYS.map((_, index) => transfer(index)))
      const replies = raws.map((raw) => sendSync(`${cli.url}/sealed`, raw))
      // In flight: each is pre-confirmed (seen on the pre-confirmation endpoint), its reply waits for the seal.
      for (const raw of raws) await pollUntil(async () => ((await rpc(cli.url, 'eth_getTransactionByHash', [keccak256(raw)])) === null ? undefined : true), 2000)
      cli.signal(signal)
      await pollUntil(async () => ((await tryConnect(cli.port)) === 'ECONNREFUSED' ? true : undefined), 2000)
      const answered = await Promise.all(replies)
      for (const [index, reply] of answered.entries()) {
        expect(reply.status, `request ${index}`).to.equal(200)
        const { result } = JSON.parse(reply.text) as { result: { transactionHash: string; status: string; blockNumber: string } }
        expect([result.transactionHash, result.status, result.blockNumber], `request ${index}`).to.deep.equal([keccak256(raws[index]), '0x1', '0x1'])
      }
      const exit = await cli.exited
      expect({ code: exit.code, signal: exit.signal }).to.deep.equal({ code: 0, signal: null })
      expect(cli.stdout()).to.include(`${signal}: shutting down`)
    })
  }

  describe('DevnetServer.close({ graceMs })', () => {
    it('waits for an in-flight request (answered with Connection: close) and closes as soon as it is answered', async () => {
      const chain = await createChain({ clock: 'manual' })
      const server = await startServer(chain, { port: 0 })
      const reply = sendSync(server.sealedUrl, await transfer(0))
      await pollUntil(async () => (await pooled(chain)) || undefined, 1000)
      let closed = false
      const closing = server.close({ graceMs: 5000 }).then(() => (closed = true))
      await new Promise((resolve) => setImmediate(resolve))
      expect(closed).to.equal(false)
      await chain.clock.advance(2000) // the block seals: the receipt is the answer
      const answer = await reply
      expect(answer.status).to.equal(200)
      expect(answer.headers.connection).to.equal('close')
      expect((JSON.parse(answer.text) as { result: { status: string } }).result.status).to.equal('0x1')
      const started = performance.now()
      await closing
      expect(performance.now() - started).to.be.below(500)
    })

    it('cuts a request that does not finish within graceMs, then frees the port', async () => {
      const chain = await createChain({ clock: 'manual' })
      const server = await startServer(chain, { port: 0 })
      const port = Number(new URL(server.url).port)
      // Under the manual clock the seal never comes: the request waits for good.
      const reply = sendSync(server.sealedUrl, await transfer(0)).then(
        () => 'answered',
        (error: NodeJS.ErrnoException) => error.code,
      )
      await pollUntil(async () => (await pooled(chain)) || undefined, 1000)
      const started = performance.now()
      await server.close({ graceMs: 200 })
      expect(performance.now() - started).to.be.within(190, 1000)
      expect(await reply).to.equal('ECONNRESET')
      expect(await tryConnect(port)).to.equal('ECONNREFUSED')
    })
  })
})
