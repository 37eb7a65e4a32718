/**
 * Forking real upstream processes on 127.0.0.1: a second preconf-devnet (`node dist/cli.js
 * --clock manual`) and Anvil 1.7.1, each given four blocks of history over RPC
 * (eth_sendTransaction + evm_mine) and forked at block 3. Reads at and before the fork block
 * equal the upstream's; a transaction on the fork pre-confirms and seals without touching the
 * upstream; the disk cache spares a second run every state request; the CLI serves a fork; a
 * killed upstream gives a clear -32000 and a restarted one (same port) serves again.
 */
import { expect } from 'chai'
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { encodeFunctionData, getContractAddress, toEventSelector, type Abi } from 'viem'
import { Counter } from '../../fixtures/artifacts/Counter.ts'
import { createChain, type Chain } from '../../lib/index.ts'
import type { Address, Hex } from '../../lib/types.ts'
import { rejection } from '../support/chain-helpers.ts'
import { pollUntil, ROOT, startCli, type ReadyCli } from '../support/server-cli.ts'
import { startProxy } from '../support/upstream-proxy.ts'
import { signer } from '../support/wallet.ts'

const N = 3n
const X = '0x00000000000000000000000000000000000000aa' as Address
const ETHER = 10n ** 18n
const hex = (value: bigint): Hex => `0x${value.toString(16)}`
const count = encodeFunctionData({ abi: Counter.abi as Abi, functionName: 'count' })
const increment = encodeFunctionData({ abi: Counter.abi as Abi, functionName: 'increment' })

type Endpoint = { request(args: { method: string; params?: unknown[] }): Promise<unknown> }
const rpc = <T = any>(endpoint: Endpoint, method: string, ...params: unknown[]) => endpoint.request({ method, params }) as Promise<T>

/** A JSON-RPC endpoint over HTTP; an error answer rejects with its code and message. */
function http(url: string): Endpoint {
  let id = 0
  return {
    async request({ method, params = [] }) {
      const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }) })
      const body = (await response.json()) as { result?: unknown; error?: { code: number; message: string } }
      if (body.error !== undefined) throw Object.assign(new Error(body.error.message), { code: body.error.code })
      return body.result
    },
  }
}

/** An answer or the error's message, to compare a fork's answer with the upstream's either way. */
const outcome = (promise: Promise<unknown>) => promise.then((result) => ({ result }), (error: Error) => ({ error: error.message }))

/** An upstream node process: started on a port (0: any), killable, restartable on the same port. */
interface UpstreamNode {
  url: string
  start(port: number): Promise<void>
  kill(): Promise<void>
  /** After a restart: brings back the history the node had (replayed, or loaded from its state file). */
  recover(): Promise<void>
}

/** A second preconf-devnet: `node dist/cli.js --clock manual`. */
function devnetNode(): UpstreamNode {
  let cli: ReadyCli | undefined
  const node: UpstreamNode = {
    url: '',
    async start(port) {
      cli = await startCli(['--port', String(port), '--clock', 'manual', '--silent'], { timeoutMs: 15_000 })
      node.url = cli.url
    },
    async kill() {
      cli?.signal('SIGKILL')
      await cli?.exited
    },
    // The devnet is deterministic: the same requests on a manual clock give the same blocks.
    recover: async () => void (await writeHistory(http(node.url))),
  }
  return node
}

/** Anvil with a state file (written when it is stopped with SIGTERM, read when it starts). */
function anvilNode(stateFile: string): UpstreamNode {
  let child: ChildProcess | undefined
  const node: UpstreamNode = {
    url: '',
    async start(port) {
      const chosen = port === 0 ? await freePort() : port
      child = spawn(join(ROOT, 'node_modules/.bin/anvil'), ['--host', '127.0.0.1', '--port', String(chosen), '--silent', '--state', stateFile], { detached: true, stdio: 'ignore' })
      const failed = new Promise<never>((_, reject) => child!.once('error', reject).once('exit', (code) => reject(new Error(`anvil exited with code ${code}`))))
      node.url = `http://127.0.0.1:${chosen}`
      await Promise.race([failed, pollUntil(() => rpc(http(node.url), 'eth_chainId').catch(() => undefined), 15_000)])
    },
    async kill() {
      if (child?.exitCode !== null || child.pid === undefined) return
      const exited = new Promise((resolve) => child!.once('exit', resolve))
      process.kill(-child.pid, 'SIGTERM')
      await exited
    },
    recover: async () => undefined,
  }
  return node
}

/** A port free on 127.0.0.1 right now (Anvil is started on a port of its own, so it can be restarted there). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

/** Four blocks: 1 sends X one ether, 2 deploys Counter, 3 increments it (the fork block), 4 sends X two more and increments again. */
async function writeHistory(node: Endpoint) {
  const [dev0, dev1, dev2] = await rpc<Address[]>(node, 'eth_accounts')
  await rpc(node, 'evm_setAutomine', false).catch(() => undefined)
  const send = (fields: Record<string, unknown>) => rpc<Hex>(node, 'eth_sendTransaction', { gas: hex(1_000_000n), ...fields })
  const transfer = await send({ from: dev0, to: X, value: hex(ETHER) })
  await rpc(node, 'evm_mine')
  await send({ from: dev0, data: Counter.bytecode })
  await rpc(node, 'evm_mine')
  const counter = getContractAddress({ from: dev0, nonce: 1n }).toLowerCase() as Address
  const incremented = await send({ from: dev1, to: counter, data: increment })
  await rpc(node, 'evm_mine')
  const afterFork = await send({ from: dev2, to: X, value: hex(2n * ETHER) })
  await send({ from: dev0, to: counter, data: increment })
  await rpc(node, 'evm_mine')
  return { counter, transfer, incremented, afterFork, dev: [dev0, dev1, dev2] }
}

/** The upstream processes forked, by name. */
const kinds: Record<string, () => UpstreamNode> = { 'preconf-devnet': devnetNode, 'Anvil 1.7.1': () => anvilNode(join(scratch(), 'anvil-state.json')) }
const scratchDirectories: string[] = []
/** A temporary directory, removed after the specs. */
function scratch(): string {
  const directory = mkdtempSync(join(tmpdir(), 'fork-real-'))
  scratchDirectories.push(directory)
  return directory
}

describe('fork of real upstream processes', () => {
  after(() => scratchDirectories.splice(0).forEach((directory) => rmSync(directory, { recursive: true, force: true })))

  for (const [name, makeNode] of Object.entries(kinds)) {
    describe(`fork of a real upstream: ${name}`, function () {
      this.timeout(30_000)
      let node: UpstreamNode
      let upstream: Endpoint
      let history: Awaited<ReturnType<typeof writeHistory>>
      const chains: Chain[] = []
      const fork = async (options: { url?: string; blockNumber?: bigint; cache?: string | false } = {}) => {
        const chain = await createChain({ fork: { url: node.url, blockNumber: N, cache: false, retries: 0, timeoutMs: 5000, ...options } })
        chains.push(chain)
        return chain
      }

      before(async function () {
        node = makeNode()
        try {
          await node.start(0)
        } catch (error) {
          console.log(`      SKIPPED (visible): ${name} could not start: ${(error as Error).message}`)
          this.skip()
        }
        upstream = http(node.url)
        history = await writeHistory(upstream)
      })
      afterEach(() => chains.splice(0).forEach((chain) => chain.close()))
      after(async () => node?.kill())

      it('reads at and before the fork block equal the upstream’s; a transaction mined after it is not found', async () => {
        const chain = await fork()
        expect(chain.blockNumber()).to.equal(N)
        const sameAt = async (method: string, params: unknown[], upstreamParams: unknown[]) =>
          expect(await outcome(rpc(chain, method, ...params)), `${method}(${JSON.stringify(params)})`).to.deep.equal(await outcome(rpc(upstream, method, ...upstreamParams)))
        const { counter } = history
        for (const [method, params] of [
          ['eth_getBalance', [X]],
          ['eth_getCode', [counter]],
          ['eth_getStorageAt', [counter, '0x0']],
          ['eth_getTransactionCount', [counter]],
          ['eth_call', [{ to: counter, data: count }]],
        ] as [string, unknown[]][]) {
          await sameAt(method, [...params, 'latest'], [...params, '0x3'])
          await sameAt(method, [...params, '0x2'], [...params, '0x2'])
        }
        expect(BigInt(await rpc(chain, 'eth_getStorageAt', counter, '0x0', 'latest'))).to.equal(1n)
        expect(await rpc(chain, 'eth_getTransactionCount', history.dev[1], 'latest')).to.equal('0x1')
        for (const [method, params] of [
          ['eth_getBlockByNumber', ['0x1', true]],
          ['eth_getBlockByNumber', ['0x3', false]],
          ['eth_getBlockReceipts', ['0x2']],
          ['eth_getTransactionByHash', [history.incremented]],
          ['eth_getTransactionReceipt', [history.transfer]],
          ['eth_getLogs', [{ fromBlock: '0x0', toBlock: '0x3' }]],
          ['eth_getProof', [X, [], '0x2']],
        ] as [string, unknown[]][]) {
          await sameAt(method, params, params)
        }
        await sameAt('eth_getProof', [X, [], 'latest'], [X, [], '0x3'])
        await sameAt('eth_feeHistory', ['0x2', 'latest', [50]], ['0x2', '0x3', [50]])
        const upstreamBlock = await rpc(upstream, 'eth_getBlockByNumber', '0x3', false)
        expect((await rpc(chain, 'eth_getBlockByNumber', 'pending', false)).parentHash).to.equal(upstreamBlock.hash)
        expect(await rpc(chain, 'eth_getTransactionByHash', history.afterFork)).to.equal(null)
      })

      it('pre-confirms and seals a transaction on the fork; the upstream is never written to', async () => {
        const chain = await fork()
        const before = await Promise.all([rpc(upstream, 'eth_blockNumber'), rpc(upstream, 'eth_getBalance', X, 'latest'), rpc(upstream, 'eth_getTransactionCount', history.dev[1], 'latest')])
        const f1 = signer(chain, 1)
        const hash = await chain.sendRawTransaction(await f1.sign({ to: history.counter, data: increment, gas: 100_000n, nonce: 1 }))
        await chain.sendRawTransaction(await f1.sign({ to: X, value: ETHER, nonce: 2 }))
        await chain.tick()
        expect((await rpc(chain, 'eth_getTransactionReceipt', hash)).status).to.equal('0x1')
        expect(BigInt(await rpc(chain, 'eth_getStorageAt', history.counter, '0x0', 'pending'))).to.equal(2n)
        await chain.clock.advance(2000)
        const [forkBlock, sealed] = [await rpc(upstream, 'eth_getBlockByNumber', '0x3', false), await rpc(chain, 'eth_getBlockByNumber', '0x4', false)]
        expect(sealed.transactions).to.have.length(2)
        expect(sealed.parentHash).to.equal(forkBlock.hash)
        expect(BigInt(sealed.timestamp)).to.equal(BigInt(forkBlock.timestamp) + 2n)
        expect(await rpc(chain, 'eth_getBalance', X, 'latest')).to.equal(hex(2n * ETHER))
        expect(await Promise.all([rpc(upstream, 'eth_blockNumber'), rpc(upstream, 'eth_getBalance', X, 'latest'), rpc(upstream, 'eth_getTransactionCount', history.dev[1], 'latest')])).to.deep.equal(before)
        expect(await rpc(upstream, 'eth_getTransactionByHash', hash)).to.equal(null)
        const incremented = { fromBlock: '0x0', toBlock: 'latest', topics: [toEventSelector('Incremented(address,uint256)')] }
        const logs = await rpc(chain, 'eth_getLogs', incremented)
        expect(logs.slice(0, -1)).to.deep.equal(await rpc(upstream, 'eth_getLogs', { ...incremented, toBlock: '0x3' }))
        expect(logs.map(({ blockNumber, transactionHash }: { blockNumber: Hex; transactionHash: Hex }) => [blockNumber, transactionHash])).to.deep.equal([
          ['0x3', history.incremented],
          ['0x4', hash],
        ])
      })

      it('sends no state request from a second run with the same cache directory (only the start-up batch)', async () => {
        const directory = scratch()
        const reads = (chain: Chain) =>
          Promise.all([
            rpc(chain, 'eth_getBalance', X, 'latest'),
            rpc(chain, 'eth_getStorageAt', history.counter, '0x0', 'latest'),
            rpc(chain, 'eth_call', { to: history.counter, data: count }, 'latest'),
            rpc(chain, 'eth_getTransactionCount', history.dev[1], 'latest'),
            rpc(chain, 'eth_getBalance', history.dev[1], 'latest'),
          ])
        const answers: unknown[] = []
        const bodies: number[] = []
        for (let run = 0; run < 2; run++) {
          const proxy = await startProxy(node.url)
          try {
            const chain = await fork({ url: proxy.url, cache: directory })
            answers.push(await reads(chain))
            chain.close()
            bodies.push(proxy.bodies.length)
            if (run === 1) expect(proxy.calls().map(({ method }) => method)).to.deep.equal(['eth_chainId', 'eth_getBlockByNumber'])
          } finally {
            await proxy.close()
          }
        }
        expect(bodies[0]).to.be.greaterThan(1)
        expect(bodies[1]).to.equal(1)
        expect(answers[1]).to.deep.equal(answers[0])
      })

      it('serves the fork from the CLI: --fork-url, --fork-block-number, --fork-cache off', async () => {
        const cli = await startCli(['--port', '0', '--fork-url', node.url, '--fork-block-number', String(N), '--clock', 'manual', '--fork-cache', 'off', '--silent'], { timeoutMs: 15_000 })
        try {
          expect(cli.stdout()).to.contain(`Fork: block ${N} of ${new URL(node.url).host}, chain id 31337; cache off`)
          const served = http(cli.url)
          expect(await rpc(served, 'eth_blockNumber')).to.equal('0x3')
          expect(await rpc(served, 'eth_getBalance', X, 'latest')).to.equal(hex(ETHER))
          expect(await rpc(served, 'eth_getBlockByNumber', '0x2', true)).to.deep.equal(await rpc(upstream, 'eth_getBlockByNumber', '0x2', true))
          const hash = await rpc<Hex>(served, 'eth_sendTransaction', { from: history.dev[2], to: X, value: hex(ETHER) })
          await rpc(served, 'evm_mine')
          const sealed = await rpc(served, 'eth_getBlockByNumber', '0x4', false)
          expect(sealed.transactions).to.deep.equal([hash])
          expect(sealed.parentHash).to.equal((await rpc(upstream, 'eth_getBlockByNumber', '0x3', false)).hash)
          expect(await rpc(upstream, 'eth_getTransactionByHash', hash)).to.equal(null)
        } finally {
          cli.signal('SIGKILL')
          await cli.exited
        }
      })

      it('keeps the CLI’s disk cache across runs stopped with SIGINT: the second sends only the start-up batch', async () => {
        const directory = scratch()
        const seen: string[][] = []
        const answers: unknown[] = []
        for (let run = 0; run < 2; run++) {
          const proxy = await startProxy(node.url)
          const cli = await startCli(['--port', '0', '--fork-url', proxy.url, '--fork-block-number', String(N), '--clock', 'manual', '--fork-cache', directory, '--silent'], { timeoutMs: 15_000 })
          try {
            const served = http(cli.url)
            answers.push([await rpc(served, 'eth_getBalance', X, 'latest'), await rpc(served, 'eth_call', { to: history.counter, data: count }, 'latest')])
            cli.signal('SIGINT')
            expect((await cli.exited).code).to.equal(0)
            seen.push(proxy.calls().map(({ method, params }) => `${method}(${params.join(',')})`))
          } finally {
            cli.signal('SIGKILL')
            await proxy.close()
          }
        }
        expect(seen[0].length).to.be.greaterThan(2)
        expect(seen[1], 'the second run').to.deep.equal(['eth_chainId()', `eth_getBlockByNumber(0x3,false)`])
        expect(answers[1]).to.deep.equal(answers[0])
      })

      it('answers a killed upstream with -32000 naming it; loaded keys still read; restarted on the same port, it serves again', async () => {
        const chain = await fork({ blockNumber: 4n })
        expect(await rpc(chain, 'eth_getBalance', X, 'latest')).to.equal(hex(3n * ETHER))
        const port = Number(new URL(node.url).port)
        await node.kill()
        const Y = '0x00000000000000000000000000000000000000cc'
        const error = await rejection(rpc(chain, 'eth_getBalance', Y, 'latest'))
        expect(error.code).to.equal(-32000)
        expect(error.message).to.contain(`upstream http://127.0.0.1:${port} failed on eth_getBalance`)
        expect((await rejection(rpc(chain, 'eth_getBlockByNumber', '0x1', false))).code).to.equal(-32000)
        expect(await rpc(chain, 'eth_getBalance', X, 'latest')).to.equal(hex(3n * ETHER))
        await node.start(port)
        await node.recover()
        expect(await rpc(chain, 'eth_getBalance', Y, 'latest')).to.equal('0x0')
        expect(BigInt(await rpc(chain, 'eth_getStorageAt', history.counter, '0x0', 'latest'))).to.equal(2n)
      })
    })
  }
})
