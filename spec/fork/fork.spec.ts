/**
 * Forking a live chain, in process: an upstream devnet (chain id 4242, gas limit 25M) with five
 * blocks of history (Counter, Token, transfers, code on a dev account), served over HTTP behind
 * a counting proxy and forked at block 4. Answers about blocks up to the fork block are checked
 * field by field against the upstream's own answers; blocks after it against values worked out
 * here (parent hash, timestamp, EIP-1559 base fee, logs).
 */
import { expect } from 'chai'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createTestClient, custom, decodeFunctionResult, encodeFunctionData, pad, toEventSelector, type Abi } from 'viem'
import { Counter } from '../../fixtures/artifacts/Counter.ts'
import { Token } from '../../fixtures/artifacts/Token.ts'
import { createChain, startServer, type Chain, type ChainOptions, type DevnetServer } from '../../lib/index.ts'
import type { Address, Hex } from '../../lib/types.ts'
import { deploy, eip1559NextBaseFee, rejection, sendDeploy, signCall, type RpcBlock, type RpcLog } from '../support/chain-helpers.ts'
import { until } from '../support/http-clients-node.ts'
import { startProxy, type CountingProxy } from '../support/upstream-proxy.ts'
import { signer } from '../support/wallet.ts'

const ETHER = 10n ** 18n
const DEV_BALANCE = 10_000n * ETHER
const N = 4n
const X = '0x00000000000000000000000000000000000000aa' as Address
const CODE_ON_DEV_9 = '0x60006000f3'
const keccak256Empty = '0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470'
const hex = (value: bigint): Hex => `0x${value.toString(16)}`
/** Every method a fork may send its upstream: reads only. */
const READS = new Set(['eth_chainId', 'eth_getBlockByNumber', 'eth_getBlockByHash', 'eth_getBalance', 'eth_getTransactionCount', 'eth_getCode', 'eth_getStorageAt', 'eth_getLogs', 'eth_getTransactionByHash'])

const rpc = <T = any>(chain: { request(args: { method: string; params?: unknown[] }): Promise<unknown> }, method: string, ...params: unknown[]) =>
  chain.request({ method, params }) as Promise<T>
const seal = async (chain: Chain) => (await chain.tick(), await chain.mine())
const callData = (abi: Abi, functionName: string, args: unknown[] = []) => encodeFunctionData({ abi, functionName, args } as never)

let up: Chain
let server: DevnetServer
let proxy: CountingProxy
let counter: Address
let token: Address
const hashes = {} as Record<'increment' | 'tokenTransfer' | 'afterFork', Hex>
const block: Record<number, RpcBlock> = {}
const forks: Chain[] = []

/** A fork of the upstream (through the proxy, at block N unless told), its start-up batch cleared from the proxy. */
async function forkAt(options: ChainOptions = {}, fork: Partial<NonNullable<ChainOptions['fork']>> = {}): Promise<Chain> {
  const chain = await createChain({ ...options, fork: { url: proxy.url, blockNumber: N, cache: false, ...fork } })
  forks.push(chain)
  proxy.clear()
  return chain
}

/** The fork's answer to `method(params)` equals the upstream's to `method(upstreamParams)`. */
async function sameAsUpstream(fork: Chain, method: string, params: unknown[], upstreamParams = params): Promise<void> {
  const expected = await rpc(up, method, ...upstreamParams)
  expect(expected, `upstream ${method}`).to.not.equal(null)
  expect(await rpc(fork, method, ...params), `${method}(${JSON.stringify(params)})`).to.deep.equal(expected)
}

describe('fork (in process, an upstream devnet over HTTP)', () => {
  before(async () => {
    up = await createChain({ chainId: 4242, blockGasLimit: 25_000_000n })
    const [u0, u1, u2, u3] = [0, 1, 2, 3].map((i) => signer(up, i))
    counter = (await deploy(up, u0, Counter as never)).toLowerCase() as Address // block 1
    hashes.increment = await up.sendRawTransaction(await signCall(u0, counter, Counter.abi as Abi, 'increment', [], { nonce: 1 }))
    await up.sendRawTransaction(await u1.sign({ to: X, value: ETHER }))
    await seal(up) // block 2: count 1, X 1 ether
    token = (await sendDeploy(up, u2, Token as never, ['Token', 'TKN', 1000n * ETHER])).address.toLowerCase() as Address
    hashes.tokenTransfer = await up.sendRawTransaction(await signCall(u2, token, Token.abi as Abi, 'transfer', [u3.address, 100n * ETHER], { nonce: 1 }))
    await seal(up) // block 3
    await rpc(up, 'anvil_setCode', up.accounts[9].address, CODE_ON_DEV_9)
    await up.sendRawTransaction(await signCall(u1, counter, Counter.abi as Abi, 'increment', [], { nonce: 1 }))
    await seal(up) // block 4 (the fork block): count 2
    hashes.afterFork = await up.sendRawTransaction(await signCall(u0, counter, Counter.abi as Abi, 'increment', [], { nonce: 2 }))
    await up.sendRawTransaction(await u1.sign({ to: X, value: 2n * ETHER, nonce: 2 }))
    await seal(up) // block 5: count 3, X 3 ether
    for (let i = 0; i <= 5; i++) block[i] = await rpc(up, 'eth_getBlockByNumber', hex(BigInt(i)), false)
    server = await startServer(up, { port: 0 })
    proxy = await startProxy(server.url)
  })

  afterEach(() => forks.splice(0).forEach((chain) => chain.close()))

  after(async () => {
    await proxy?.close()
    await server?.close()
  })

  describe('fork: start-up', () => {
    it('sends one batch of eth_chainId and eth_getBlockByNumber(N); the head is the upstream block N', async () => {
      proxy.clear()
      const fork = await createChain({ fork: { url: proxy.url, blockNumber: N, cache: false } })
      forks.push(fork)
      expect(proxy.bodies).to.have.length(1)
      expect(proxy.bodies[0]).to.be.an('array')
      expect(proxy.calls()).to.deep.equal([{ method: 'eth_chainId', params: [] }, { method: 'eth_getBlockByNumber', params: ['0x4', false] }])
      expect(fork.blockNumber()).to.equal(N)
      expect(await rpc(fork, 'eth_chainId')).to.equal('0x1092')
      const pending = await rpc<RpcBlock>(fork, 'eth_getBlockByNumber', 'pending', false)
      expect([pending.number, pending.parentHash]).to.deep.equal(['0x5', block[4].hash])
      expect(await rpc(fork.sealed, 'eth_getBlockByNumber', 'pending', false)).to.deep.equal(block[4])
    })

    it("forks the upstream's latest block when no block number is given", async () => {
      proxy.clear()
      const fork = await createChain({ fork: { url: proxy.url, cache: false } })
      forks.push(fork)
      expect(proxy.calls()).to.deep.equal([{ method: 'eth_chainId', params: [] }, { method: 'eth_getBlockByNumber', params: ['latest', false] }])
      expect(fork.blockNumber()).to.equal(5n)
    })

    it('refuses to fork a block the upstream does not have, or an upstream that is down, with -32000 naming it', async () => {
      const beyond = await rejection(createChain({ fork: { url: proxy.url, blockNumber: 99n, cache: false } }))
      expect([beyond.code, beyond.message]).to.deep.equal([-32000, `upstream ${proxy.url} has no block 99 to fork at`])
      const down = await rejection(createChain({ fork: { url: 'http://127.0.0.1:1', cache: false, retries: 0 } }))
      expect(down.code).to.equal(-32000)
      expect(down.message).to.contain('upstream http://127.0.0.1:1 failed on eth_chainId')
    })

    it("an upstream that answers its own error, or null for its latest block, is named with the call at start, as every fault of a running fork is (audit Q, Q7)", async () => {
      for (const [answer, expected] of [
        [{ error: { code: -32000, message: 'upstream says no' } }, (url: string) => `upstream ${url} failed on eth_chainId: -32000 upstream says no`],
        [{ result: null }, (url: string) => `upstream ${url} has no block latest to fork at`],
      ] as const) {
        // Every call answered alike (the chain id too, for the null case: it is refused after the block).
        const server = createServer((request, response) => {
          let body = ''
          request.on('data', (chunk: Buffer) => (body += chunk))
          request.on('end', () => {
            const calls = JSON.parse(body) as { id: number } | { id: number }[]
            const reply = (call: { id: number }) => ({ jsonrpc: '2.0', id: call.id, ...answer })
            response.setHeader('content-type', 'application/json').end(JSON.stringify(Array.isArray(calls) ? calls.map(reply) : reply(calls)))
          })
        })
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
        const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
        const refused = await rejection(createChain({ fork: { url, cache: false, retries: 0 } }))
        server.close()
        expect([refused.code, refused.message]).to.deep.equal([-32000, expected(url)])
      }
    })

    it("seals N+1 on the fork block: its hash as parent, its timestamp + 2 s, its gas limit, EIP-1559's base fee", async () => {
      const fork = await forkAt()
      await fork.clock.advance(2000)
      const next = await rpc<RpcBlock>(fork, 'eth_getBlockByNumber', '0x5', false)
      const parent = block[4]
      expect(next.parentHash).to.equal(parent.hash)
      expect(BigInt(next.timestamp)).to.equal(BigInt(parent.timestamp) + 2n)
      expect(next.gasLimit).to.equal(hex(25_000_000n))
      expect(BigInt(next.baseFeePerGas)).to.equal(eip1559NextBaseFee(BigInt(parent.baseFeePerGas), BigInt(parent.gasUsed), BigInt(parent.gasLimit)))
      expect(next.hash).to.not.equal(block[5].hash)
    })

    it("takes chainId and blockGasLimit from the options when given, and balance for the dev accounts", async () => {
      const fork = await forkAt({ chainId: 7, blockGasLimit: 30_000_001n, balance: 5 })
      expect(await rpc(fork, 'eth_chainId')).to.equal('0x7')
      expect(await rpc(fork, 'eth_getBalance', fork.accounts[0].address, 'latest')).to.equal(hex(5n * ETHER))
      await fork.clock.advance(2000)
      expect((await rpc<RpcBlock>(fork, 'eth_getBlockByNumber', 'latest', false)).gasLimit).to.equal(hex(30_000_001n))
      expect((await rpc(fork, 'hardhat_metadata')).forkedNetwork.chainId).to.equal(4242)
    })

    it("funds the dev accounts on top of the upstream's accounts, keeping their nonces and code (Anvil)", async () => {
      const fork = await forkAt()
      const [u0, u9] = [fork.accounts[0].address, fork.accounts[9].address]
      expect(await rpc(up, 'eth_getBalance', u0, '0x4')).to.not.equal(hex(DEV_BALANCE))
      expect(await rpc(fork, 'eth_getBalance', u0, 'latest')).to.equal(hex(DEV_BALANCE))
      expect(await rpc(fork, 'eth_getTransactionCount', u0, 'latest')).to.equal('0x2')
      expect(await rpc(fork, 'eth_getBalance', u9, 'latest')).to.equal(hex(DEV_BALANCE))
      expect(await rpc(fork, 'eth_getCode', u9, 'latest')).to.equal(CODE_ON_DEV_9)
    })
  })

  describe('fork: state at the fork block', () => {
    it('reads balances, nonces, code, storage and calls at block N, not at the upstream head', async () => {
      const fork = await forkAt()
      for (const [method, params] of [
        ['eth_getBalance', [X]],
        ['eth_getTransactionCount', [fork.accounts[2].address]],
        ['eth_getCode', [counter]],
        ['eth_getStorageAt', [counter, '0x0']],
        ['eth_call', [{ to: token, data: callData(Token.abi as Abi, 'balanceOf', [fork.accounts[3].address]) }]],
      ] as const) {
        await sameAsUpstream(fork, method, [...params, 'latest'], [...params, '0x4'])
      }
      expect(await rpc(fork, 'eth_getBalance', X, 'latest')).to.equal(hex(ETHER))
      expect(BigInt(await rpc(fork, 'eth_getStorageAt', counter, '0x0', 'latest'))).to.equal(2n)
    })

    it('loads a key once: the first read is one round trip (balance, nonce and code in one batch), later reads none', async () => {
      const fork = await forkAt()
      await rpc(fork, 'eth_getBalance', X, 'latest')
      expect(proxy.bodies).to.have.length(1)
      expect(proxy.calls()).to.deep.equal(['eth_getBalance', 'eth_getTransactionCount', 'eth_getCode'].map((method) => ({ method, params: [X, '0x4'] })))
      for (const tag of ['latest', 'pending', '0x4']) {
        await rpc(fork, 'eth_getBalance', X, tag)
        await rpc(fork, 'eth_getCode', X, tag)
        await rpc(fork, 'eth_getTransactionCount', X, tag)
      }
      expect(proxy.bodies).to.have.length(1)
    })

    it('shares one upstream call among concurrent first reads of a key; reads made together go in one batch', async () => {
      const fork = await forkAt()
      const Y = '0x00000000000000000000000000000000000000bb'
      const answers = await Promise.all([
        ...[1, 2, 3].map(() => rpc(fork, 'eth_getStorageAt', counter, '0x0', 'latest')),
        ...[1, 2].map(() => rpc(fork, 'eth_getBalance', Y, 'latest')),
        rpc(fork, 'eth_getStorageAt', token, '0x2', 'pending'),
      ])
      expect(answers.slice(0, 3).map(BigInt)).to.deep.equal([2n, 2n, 2n])
      expect(answers[5]).to.equal(pad(hex(1000n * ETHER))) // slot 2: totalSupply
      await rpc(fork, 'eth_getCode', Y, 'latest')
      expect(proxy.bodies).to.have.length(1)
      expect(proxy.calls().map(({ method, params }) => `${method}(${params.join(',')})`).sort()).to.deep.equal(
        [`eth_getStorageAt(${counter},0x0,0x4)`, `eth_getStorageAt(${token},0x2,0x4)`, ...['eth_getBalance', 'eth_getTransactionCount', 'eth_getCode'].map((m) => `${m}(${Y},0x4)`)].sort(),
      )
    })

    it('sends reads of state before N to the upstream as they were sent; the state at N is local', async () => {
      const fork = await forkAt()
      const u1 = fork.accounts[1].address
      const sent: [string, unknown[]][] = [
        ['eth_getBalance', [X, '0x3']],
        ['eth_getStorageAt', [counter, '0x0', '0x1']],
        ['eth_getTransactionCount', [u1, { blockHash: block[3].hash }]],
        ['eth_call', [{ to: counter, data: callData(Counter.abi as Abi, 'count') }, '0x2']],
        ['eth_getCode', [token, { blockNumber: '0x2' }]],
      ]
      for (const [method, params] of sent) await sameAsUpstream(fork, method, params)
      expect(proxy.calls().filter(({ method }) => method !== 'eth_getBlockByHash')).to.deep.equal(sent.map(([method, params]) => ({ method, params })))
      expect(await rpc(fork, 'eth_getBalance', u1, '0x4')).to.equal(hex(DEV_BALANCE))
      expect(await rpc(fork, 'eth_getBalance', u1, { blockHash: block[4].hash })).to.equal(hex(DEV_BALANCE))
    })

    it("answers the plain functions' reads of state before N with the upstream's answers, as request does; at N they stay local", async () => {
      const fork = await forkAt()
      const u1 = fork.accounts[1].address
      const count = { to: counter, data: callData(Counter.abi as Abi, 'count') }
      expect(await fork.getBalance(X, 3n)).to.equal(await up.getBalance(X, 3n))
      expect(await fork.getStorageAt(counter, 0n, { blockNumber: 1n })).to.equal(await up.getStorageAt(counter, 0n, 1n))
      expect(await fork.getTransactionCount(u1, 3)).to.equal(await up.getTransactionCount(u1, 3))
      expect(await fork.getCode(token, '0x2')).to.equal(await up.getCode(token, 2n))
      expect(await fork.call(count, 2n)).to.equal(await up.call(count, 2n))
      expect(await fork.estimateGas({ ...count, from: u1 }, 3n)).to.equal(await up.estimateGas({ ...count, from: u1 }, 3n))
      expect(proxy.calls().map(({ method, params }) => [method, params.at(-1)])).to.deep.equal([
        ['eth_getBalance', '0x3'],
        ['eth_getStorageAt', '0x1'],
        ['eth_getTransactionCount', '0x3'],
        ['eth_getCode', '0x2'],
        ['eth_call', '0x2'],
        ['eth_estimateGas', '0x3'],
      ])
      // At N: the dev account's state is loaded at N (its first read) and read locally.
      expect(await fork.getBalance(u1, N)).to.equal(DEV_BALANCE)
      expect(proxy.calls().slice(6).map(({ params }) => params.at(-1))).to.satisfy((blocks: unknown[]) => blocks.length > 0 && blocks.every((at) => at === hex(N)))
    })

    it("answers eth_getAccount from the fork block on: the chain's fields, the upstream's storage root at N (Anvil answers so); refused for an account whose storage the chain wrote", async () => {
      const fork = await forkAt({ mining: 'auto' })
      const u0 = signer(fork, 0)
      const atN = await rpc(up, 'eth_getAccount', counter, '0x4')
      expect(await rpc(fork, 'eth_getAccount', counter, 'latest')).to.deep.equal(atN)
      expect(await rpc(fork, 'eth_getAccount', token, '0x4')).to.deep.equal(await rpc(up, 'eth_getAccount', token, '0x4'))
      expect(await rpc(fork, 'eth_getAccount', u0.address, 'pending')).to.deep.equal({ ...(await rpc(up, 'eth_getAccount', u0.address, '0x4')), balance: hex(DEV_BALANCE) })
      expect(await rpc(fork, 'eth_getAccount', '0x000000000000000000000000000000000000dead', 'latest')).to.deep.equal({
        nonce: '0x0',
        balance: '0x0',
        storageRoot: '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421',
        codeHash: keccak256Empty,
      })
      const nonce = Number(await rpc(fork, 'eth_getTransactionCount', u0.address, 'latest'))
      await fork.sendRawTransaction(await signCall(u0, counter, Counter.abi as Abi, 'increment', [], { nonce }))
      expect(await rpc(fork, 'eth_getAccount', counter, '0x4')).to.deep.equal(atN)
      const refused = await rejection(rpc(fork, 'eth_getAccount', counter, 'latest'))
      expect([refused.code, refused.message]).to.deep.equal([-32000, `the storage root of ${counter} is not known on a forked chain once the chain has written to its storage: it does not hold the upstream's state trie`])
    })

    it("sends safe, finalized and earliest that name a block before N as that block's number", async () => {
      const fork = await forkAt({ safeLag: 1, finalizedLag: 3 })
      expect(await rpc(fork, 'eth_getBalance', X, 'safe')).to.equal(hex(ETHER))
      expect(await rpc(fork, 'eth_getBalance', X, 'finalized')).to.equal('0x0')
      expect(await rpc(fork, 'eth_getBalance', X, 'earliest')).to.equal('0x0')
      expect(proxy.calls()).to.deep.equal(['0x3', '0x1', '0x0'].map((number) => ({ method: 'eth_getBalance', params: [X, number] })))
      expect(await rpc(fork, 'eth_getBlockByNumber', 'safe', false)).to.deep.equal(block[3])
      expect(await rpc(fork, 'eth_getBlockByNumber', 'earliest', false)).to.deep.equal(block[0])
    })
  })

  describe('fork: blocks and transactions up to the fork block', () => {
    it("answers reads of block contents up to N with the upstream's answers", async () => {
      const fork = await forkAt()
      const cases: [string, unknown[], unknown[]?][] = [
        ['eth_getBlockByNumber', ['0x2', true]],
        ['eth_getBlockByNumber', ['latest', false], ['0x4', false]],
        ['eth_getBlockByHash', [block[3].hash, true]],
        ['eth_getBlockTransactionCountByNumber', ['0x3']],
        ['eth_getBlockTransactionCountByHash', [block[2].hash]],
        ['eth_getTransactionByBlockNumberAndIndex', ['0x3', '0x1']],
        ['eth_getTransactionByBlockHashAndIndex', [block[2].hash, '0x0']],
        ['eth_getBlockReceipts', ['0x3']],
        ['eth_getUncleCountByBlockNumber', ['0x2']],
        ['debug_traceBlockByNumber', ['0x2']],
        ['debug_traceBlockByHash', [block[3].hash]],
        ['debug_getRawHeader', ['0x4']],
        ['debug_getRawBlock', ['0x3']],
        ['debug_getRawReceipts', ['0x3']],
        ['eth_feeHistory', ['0x3', '0x4', [25, 75]]],
      ]
      for (const [method, params, upstreamParams] of cases) await sameAsUpstream(fork, method, params, upstreamParams)
      // Block N's proof is the upstream's (the fork holds no tries of its own).
      expect(await rpc(fork, 'eth_getProof', X, [], '0x4')).to.deep.equal(await rpc(up, 'eth_getProof', X, [], '0x4'))
      expect(await rpc(fork, 'eth_getBlockTransactionCountByNumber', '0x3')).to.equal('0x2')
      expect(proxy.calls()).to.deep.include({ method: 'eth_getBlockByNumber', params: ['0x4', false] })
    })

    it("answers Otterscan's reads of blocks and transactions up to N with the upstream's answers (Anvil reads them there too); the fork's own blocks are local", async () => {
      const fork = await forkAt({ mining: 'auto' })
      const cases: [string, unknown[]][] = [
        ['ots_getBlockDetails', [4]],
        ['ots_getBlockDetails', [3]],
        ['ots_getBlockDetailsByHash', [block[2].hash]],
        ['ots_getBlockTransactions', [3, 0, 5]],
        ['erigon_getHeaderByNumber', [4]],
        ['ots_hasCode', [counter, '0x1']],
        ['ots_traceTransaction', [hashes.increment]],
        ['ots_getInternalOperations', [hashes.tokenTransfer]],
        ['ots_getTransactionError', [hashes.increment]],
      ]
      for (const [method, params] of cases) await sameAsUpstream(fork, method, params)
      expect((await rpc(fork, 'ots_getBlockDetails', 4)).block.transactionCount).to.equal(1)
      expect(proxy.calls().map(({ method }) => method)).to.include.members(cases.map(([method]) => method))
      await fork.sendRawTransaction(await signer(fork, 7).sign({ to: X, value: 1n }))
      proxy.clear()
      expect((await rpc(fork, 'ots_getBlockDetails', 5)).block.transactionCount).to.equal(1)
      expect(await rpc(fork, 'ots_hasCode', counter, 'latest')).to.equal(true)
      expect(proxy.calls().filter(({ method }) => method.startsWith('ots_'))).to.deep.equal([])
    })

    it("holds its own blocks after N: the upstream's block N+1 is not the fork's", async () => {
      const fork = await forkAt()
      expect(await rpc(fork, 'eth_getBlockByNumber', '0x5', false)).to.equal(null)
      expect(await rpc(fork, 'eth_getBlockByHash', block[5].hash, false)).to.equal(null)
      await fork.clock.advance(2000)
      expect((await rpc<RpcBlock>(fork, 'eth_getBlockByNumber', '0x5', false)).transactions).to.deep.equal([])
    })

    it('serves transactions mined up to N from the upstream; one the upstream mined after N is not found', async () => {
      const fork = await forkAt()
      for (const method of ['eth_getTransactionByHash', 'eth_getTransactionReceipt', 'eth_getRawTransactionByHash', 'debug_getRawTransaction', 'debug_traceTransaction']) {
        await sameAsUpstream(fork, method, [hashes.increment])
        await sameAsUpstream(fork, method, [hashes.tokenTransfer])
      }
      expect(await rpc(fork, 'eth_getTransactionByHash', hashes.afterFork)).to.equal(null)
      expect(await rpc(fork, 'eth_getTransactionReceipt', hashes.afterFork)).to.equal(null)
      expect(await rpc(fork, 'eth_getRawTransactionByHash', hashes.afterFork)).to.equal(null)
    })

    it('gives BLOCKHASH of blocks before the fork from the upstream, and of the fork block itself', async () => {
      const fork = await forkAt()
      const blockHashOf = async (number: bigint, tag: string) =>
        decodeFunctionResult({ abi: Counter.abi as Abi, functionName: 'blockHashOf', data: await rpc(fork, 'eth_call', { to: counter, data: callData(Counter.abi as Abi, 'blockHashOf', [number]) }, tag) })
      expect(await blockHashOf(3n, 'pending')).to.equal(block[3].hash)
      expect(await blockHashOf(4n, 'pending')).to.equal(block[4].hash)
      await fork.clock.advance(4000)
      expect(await blockHashOf(1n, 'latest')).to.equal(block[1].hash)
      expect(await blockHashOf(4n, 'latest')).to.equal(block[4].hash)
    })
  })

  describe('fork: transactions on the fork', () => {
    it('pre-confirms after a tick and seals in N+1, never writing to the upstream', async () => {
      const fork = await forkAt()
      const [f1, f2, f3] = [1, 2, 3].map((i) => signer(fork, i))
      const upstreamBefore = await Promise.all([rpc(up, 'eth_blockNumber'), rpc(up, 'eth_getBalance', X, 'latest'), rpc(up, 'eth_getTransactionCount', f1.address, 'latest')])
      const hashA = await fork.sendRawTransaction(await f3.sign({ to: counter, data: callData(Counter.abi as Abi, 'increment'), gas: 100_000n }))
      const hashB = await fork.sendRawTransaction(await signCall(f2, token, Token.abi as Abi, 'transfer', [f3.address, 50n * ETHER], { nonce: 2 }))
      const hashC = await fork.sendRawTransaction(await f1.sign({ to: X, value: ETHER / 2n, nonce: 2 }))
      expect(await rpc(fork, 'eth_getBalance', X, 'pending')).to.equal(hex(ETHER))
      await fork.tick()
      expect(await rpc(fork, 'eth_getBalance', X, 'pending')).to.equal(hex(ETHER + ETHER / 2n))
      expect(BigInt(await rpc(fork, 'eth_getStorageAt', counter, '0x0', 'pending'))).to.equal(3n)
      expect((await rpc(fork, 'eth_getTransactionReceipt', hashB)).status).to.equal('0x1')
      expect(await rpc(fork.sealed, 'eth_getTransactionReceipt', hashB)).to.equal(null)
      await fork.clock.advance(2000)
      const sealed = await rpc<RpcBlock>(fork, 'eth_getBlockByNumber', '0x5', false)
      expect(sealed.transactions).to.deep.equal([hashA, hashB, hashC])
      expect(sealed.parentHash).to.equal(block[4].hash)
      expect(await rpc(fork, 'eth_getBalance', X, 'latest')).to.equal(hex(ETHER + ETHER / 2n))
      const balanceOf = callData(Token.abi as Abi, 'balanceOf', [f3.address])
      expect(BigInt(await rpc(fork, 'eth_call', { to: token, data: balanceOf }, 'latest'))).to.equal(150n * ETHER)
      expect(await Promise.all([rpc(up, 'eth_blockNumber'), rpc(up, 'eth_getBalance', X, 'latest'), rpc(up, 'eth_getTransactionCount', f1.address, 'latest')])).to.deep.equal(upstreamBefore)
      expect(BigInt(await rpc(up, 'eth_call', { to: token, data: balanceOf }, 'latest'))).to.equal(100n * ETHER)
      expect(await rpc(up, 'txpool_status')).to.deep.equal({ pending: '0x0', queued: '0x0' })
      expect(proxy.calls().filter(({ method }) => !READS.has(method))).to.deep.equal([])
    })

    it('with the Base preset, a user transaction pre-confirms and seals, paying the fee vaults it loads from the upstream', async () => {
      // The upstream is a plain chain: no L1Block code, so the L1 fee is 0 and the L1FeeVault is credited 0, as the receipt says.
      const fork = await forkAt({ preset: 'base' })
      const sender = signer(fork, 1)
      const hash = await fork.sendRawTransaction(await sender.sign({ to: X, value: 1n, nonce: 2 }))
      await fork.tick()
      const receipt = await rpc<{ status: string; l1Fee: string; gasUsed: string; effectiveGasPrice: string } | null>(fork, 'eth_getTransactionReceipt', hash)
      expect(receipt?.status).to.equal('0x1')
      await fork.mine()
      expect((await rpc<RpcBlock>(fork, 'eth_getBlockByNumber', '0x5', false)).transactions).to.include(hash)
      expect(await rpc(fork, 'eth_getBalance', '0x4200000000000000000000000000000000000019', 'latest')).to.not.equal('0x0')
      expect(await rpc(fork, 'eth_getBalance', '0x420000000000000000000000000000000000001a', 'latest')).to.equal(receipt!.l1Fee)
    })

    it("answers eth_getLogs of 'latest' at the fork block with the upstream's logs of block N", async () => {
      const fork = await forkAt()
      const logs = await rpc<RpcLog[]>(fork, 'eth_getLogs', { fromBlock: 'latest', toBlock: 'latest' })
      expect(logs).to.deep.equal(await rpc(up, 'eth_getLogs', { fromBlock: '0x4', toBlock: '0x4' }))
      expect(logs).to.have.length(1)
    })

    it('answers eth_getFilterLogs of a filter over a straddling range as eth_getLogs does (Anvil)', async () => {
      const fork = await forkAt()
      await fork.clock.advance(2000)
      const filter = await rpc(fork, 'eth_newFilter', { fromBlock: '0x1', toBlock: 'latest', address: counter })
      expect(await rpc(fork, 'eth_getFilterLogs', filter)).to.deep.equal(await rpc(fork, 'eth_getLogs', { fromBlock: '0x1', toBlock: 'latest', address: counter }))
    })

    it("merges the upstream's logs up to N and the fork's after it in eth_getLogs over a straddling range", async () => {
      const fork = await forkAt()
      const [f2, f3] = [2, 3].map((i) => signer(fork, i))
      const local = [
        await fork.sendRawTransaction(await f3.sign({ to: counter, data: callData(Counter.abi as Abi, 'increment'), gas: 100_000n })),
        await fork.sendRawTransaction(await signCall(f2, token, Token.abi as Abi, 'transfer', [f3.address, 50n * ETHER], { nonce: 2 })),
      ]
      await fork.tick()
      await fork.clock.advance(2000)
      const sealed = await rpc<RpcBlock>(fork, 'eth_getBlockByNumber', '0x5', false)
      const topic = (address: Address) => pad(address.toLowerCase() as Address)
      const ours = [
        { address: counter, topics: [toEventSelector('Incremented(address,uint256)'), topic(f3.address)], data: pad('0x3'), transactionHash: local[0], logIndex: '0x0', transactionIndex: '0x0' },
        { address: token, topics: [toEventSelector('Transfer(address,address,uint256)'), topic(f2.address), topic(f3.address)], data: pad(hex(50n * ETHER)), transactionHash: local[1], logIndex: '0x1', transactionIndex: '0x1' },
      ].map((log) => ({ ...log, blockNumber: '0x5', blockHash: sealed.hash, removed: false }))
      const pick = (logs: RpcLog[]) => logs.map(({ address, topics, data, transactionHash, logIndex, transactionIndex, blockNumber, blockHash, removed }) => ({ address, topics, data, transactionHash, logIndex, transactionIndex, blockNumber, blockHash, removed }))

      const all = await rpc<RpcLog[]>(fork, 'eth_getLogs', { fromBlock: '0x1', toBlock: 'latest' })
      const upstreamAll = await rpc<RpcLog[]>(up, 'eth_getLogs', { fromBlock: '0x1', toBlock: '0x4' })
      expect(upstreamAll.map(({ blockNumber }) => blockNumber)).to.deep.equal(['0x2', '0x3', '0x3', '0x4'])
      expect(all.slice(0, 4)).to.deep.equal(upstreamAll)
      expect(pick(all.slice(4))).to.deep.equal(ours)

      const toF3 = { fromBlock: 'earliest', toBlock: 'latest', topics: [toEventSelector('Transfer(address,address,uint256)'), null, topic(f3.address)] }
      const transfers = await rpc<RpcLog[]>(fork, 'eth_getLogs', toF3)
      expect(transfers.slice(0, 1)).to.deep.equal(await rpc(up, 'eth_getLogs', { ...toF3, fromBlock: '0x0', toBlock: '0x4' }))
      expect(transfers[0].transactionHash).to.equal(hashes.tokenTransfer)
      expect(pick(transfers.slice(1))).to.deep.equal(ours.slice(1))

      await sameAsUpstream(fork, 'eth_getLogs', [{ fromBlock: '0x2', toBlock: '0x3' }])
      await sameAsUpstream(fork, 'eth_getLogs', [{ blockHash: block[3].hash }])
      proxy.clear()
      expect(pick(await rpc(fork, 'eth_getLogs', { fromBlock: '0x5', toBlock: 'latest' }))).to.deep.equal(ours)
      expect(proxy.calls()).to.deep.equal([])
    })
  })

  describe('fork: upstream faults', () => {
    let faulty: DevnetServer
    let port: number
    beforeEach(async () => {
      faulty = await startServer(up, { port: 0 })
      port = Number(new URL(faulty.url).port)
    })
    afterEach(async () => faulty.close())

    it('answers a dead upstream with -32000 naming it and the call; loaded keys still read; a restarted upstream serves again', async () => {
      const fork = await createChain({ fork: { url: faulty.url, blockNumber: N, cache: false, retries: 0 } })
      forks.push(fork)
      const [f4, f5] = [4, 5].map((i) => signer(fork, i))
      expect(await rpc(fork, 'eth_getBalance', X, 'latest')).to.equal(hex(ETHER))
      expect(await rpc(fork, 'eth_getBalance', f4.address, 'latest')).to.equal(hex(DEV_BALANCE))
      await faulty.close()
      const Y = '0x00000000000000000000000000000000000000cc'
      const error = await rejection(rpc(fork, 'eth_getBalance', Y, 'latest'))
      expect(error.code).to.equal(-32000)
      expect(error.message).to.contain(`upstream http://127.0.0.1:${port}`).and.to.contain('eth_getBalance')
      expect((await rejection(rpc(fork, 'eth_getBlockByNumber', '0x2', false))).code).to.equal(-32000)
      expect(await rpc(fork, 'eth_getBalance', X, 'latest')).to.equal(hex(ETHER))
      expect(await rpc(fork, 'eth_getBalance', f4.address, 'pending')).to.equal(hex(DEV_BALANCE))

      const refused = await rejection(fork.sendRawTransaction(await f5.sign({ to: X, value: 1n })))
      expect(refused.code).to.equal(-32000)
      expect(refused.message).to.contain(`upstream http://127.0.0.1:${port} failed on eth_getBalance`)
      expect(await rpc(fork, 'txpool_status')).to.deep.equal({ pending: '0x0', queued: '0x0' })

      faulty = await startServer(up, { port })
      expect(await rpc(fork, 'eth_getBalance', Y, 'latest')).to.equal('0x0')
      expect(await rpc(fork, 'eth_getTransactionCount', f5.address, 'pending')).to.equal('0x0')
      expect(await rpc(fork, 'eth_getBlockByNumber', '0x2', false)).to.deep.equal(block[2])
    })

    it('answers an upstream that hangs with -32000 once the fork timeout passes', async () => {
      const fork = await forkAt({}, { retries: 0, timeoutMs: 100 })
      proxy.holding = true
      try {
        const error = await rejection(rpc(fork, 'eth_getStorageAt', counter, '0x9', 'latest'))
        expect([error.code, error.message]).to.deep.equal([-32000, `upstream ${proxy.url} failed on eth_getStorageAt: no response within 100 ms (after 1 attempt)`])
      } finally {
        proxy.holding = false
      }
      expect(await rpc(fork, 'eth_getStorageAt', counter, '0x9', 'latest')).to.equal(pad('0x0'))
    })

    it('passes over transactions whose tick needs state the dead upstream cannot give: the other senders go on, later ticks do not wait on it, they run once it is back', async () => {
      const fork = await createChain({ fork: { url: faulty.url, blockNumber: N, cache: false, retries: 1 } })
      forks.push(fork)
      const [f2, f4, f6] = [2, 4, 6].map((i) => signer(fork, i))
      const Z = '0x00000000000000000000000000000000000000dd' as Address
      const tokens = async (owner: Address) => BigInt(await rpc(fork, 'eth_call', { to: token, data: callData(Token.abi as Abi, 'balanceOf', [owner]) }, 'pending'))
      expect(await tokens(f2.address)).to.equal(900n * ETHER)
      for (const address of [f2.address, f4.address, f6.address, await rpc(fork, 'eth_coinbase')]) await rpc(fork, 'eth_getBalance', address, 'latest')
      await faulty.close()
      // The senders, the coinbase, the token and its balance are loaded; the recipient Z's account and token balance are not.
      const held = [
        await fork.sendRawTransaction(await f4.sign({ to: Z, value: 7n })),
        await fork.sendRawTransaction(await signCall(f2, token, Token.abi as Abi, 'transfer', [Z, 50n * ETHER], { nonce: 2 })),
      ]
      const free = await fork.sendRawTransaction(await f6.sign({ to: f4.address, value: 5n }))
      const first = await fork.tick() // waits out the upstream's retry once for each held transaction
      expect(first.transactions.map(({ transaction }) => transaction.hash)).to.deep.equal([free])
      const started = performance.now()
      const second = await fork.tick()
      expect(performance.now() - started, 'a later tick does not wait on the upstream (its retry waits 200 ms)').to.be.below(100)
      expect(second.transactions).to.deep.equal([])
      await fork.mine()
      expect((await rpc(fork, 'eth_getTransactionReceipt', free)).status).to.equal('0x1')
      expect(await rpc(fork, 'txpool_status')).to.deep.equal({ pending: '0x2', queued: '0x0' })
      expect(await tokens(f2.address)).to.equal(900n * ETHER)

      // Back: the keys are fetched again in the background, and the next tick after that runs them.
      faulty = await startServer(up, { port })
      await until('the held transactions to run', async () => {
        await fork.tick()
        return (await rpc(fork, 'txpool_status')).pending === '0x0' ? true : undefined
      }, 5000, 50)
      for (const hash of held) expect((await rpc(fork, 'eth_getTransactionReceipt', hash)).status).to.equal('0x1')
      expect(await rpc(fork, 'eth_getBalance', Z, 'pending')).to.equal('0x7')
      expect([await tokens(f2.address), await tokens(Z)]).to.deep.equal([850n * ETHER, 50n * ETHER])
    })

    it('under automine, mines the other senders at once and a held transaction by itself once its state has loaded', async () => {
      const fork = await createChain({ mining: 'auto', fork: { url: faulty.url, blockNumber: N, cache: false, retries: 0 } })
      forks.push(fork)
      const [f4, f6] = [4, 6].map((i) => signer(fork, i))
      const W = '0x00000000000000000000000000000000000000ee' as Address
      // The senders and the coinbase (every transaction credits it) are loaded; W is not.
      for (const address of [f4.address, f6.address, await rpc(fork, 'eth_coinbase')]) await rpc(fork, 'eth_getBalance', address, 'latest')
      await faulty.close()
      const held = await fork.sendRawTransaction(await f4.sign({ to: W, value: 3n }))
      const free = await fork.sendRawTransaction(await f6.sign({ to: f4.address, value: 1n }))
      expect((await rpc(fork, 'eth_getTransactionReceipt', free)).blockNumber).to.equal(hex(N + 1n))
      expect(await rpc(fork, 'eth_getTransactionReceipt', held)).to.equal(null)
      faulty = await startServer(up, { port })
      const receipt = await until('the held transaction to be mined', () => rpc(fork, 'eth_getTransactionReceipt', held).then((found) => found ?? undefined), 5000, 50)
      expect([receipt.status, receipt.blockNumber]).to.deep.equal(['0x1', hex(N + 2n)])
      expect(await rpc(fork, 'eth_getBalance', W, 'latest')).to.equal('0x3')
    })
  })

  describe('fork: disk cache', () => {
    it('sends only the start-up batch from a second fork of the same block with the same cache directory', async () => {
      const directory = mkdtempSync(join(tmpdir(), 'fork-cache-'))
      try {
        const reads = (fork: Chain) =>
          Promise.all([
            rpc(fork, 'eth_getBalance', X, 'latest'),
            rpc(fork, 'eth_getStorageAt', counter, '0x0', 'latest'),
            rpc(fork, 'eth_getCode', token, 'latest'),
            rpc(fork, 'eth_call', { to: token, data: callData(Token.abi as Abi, 'balanceOf', [fork.accounts[3].address]) }, 'latest'),
            rpc(fork, 'eth_getTransactionCount', fork.accounts[2].address, 'latest'),
            rpc(fork, 'eth_getBalance', fork.accounts[2].address, 'latest'),
          ])
        const first = await forkAt({}, { cache: directory })
        const answers = await reads(first)
        expect(proxy.bodies.length).to.be.greaterThan(0)
        await rpc(first, 'anvil_setBalance', X, '0x1')
        await first.sendRawTransaction(await signCall(signer(first, 2), token, Token.abi as Abi, 'transfer', [X, 1n], { nonce: 2 }))
        await first.clock.advance(2000)
        first.close()
        proxy.clear()
        const second = await forkAt({}, { cache: directory })
        expect(await reads(second)).to.deep.equal(answers)
        expect(answers[0]).to.equal(hex(ETHER))
        expect(answers[5]).to.equal(hex(DEV_BALANCE))
        expect(proxy.bodies).to.deep.equal([])
        const earlier = await forkAt({}, { cache: directory, blockNumber: 3n })
        expect(BigInt(await rpc(earlier, 'eth_getStorageAt', counter, '0x0', 'latest'))).to.equal(1n)
        expect(proxy.calls()).to.deep.equal([{ method: 'eth_getStorageAt', params: [counter, '0x0', '0x3'] }])
        earlier.close()
      } finally {
        rmSync(directory, { recursive: true, force: true })
      }
    })

    it('has every fetched record on disk when close() returns (a CLI exits right after)', async () => {
      const directory = mkdtempSync(join(tmpdir(), 'fork-cache-'))
      try {
        const fork = await forkAt({}, { cache: directory })
        await rpc(fork, 'eth_getBalance', X, 'latest')
        await new Promise((resolve) => setImmediate(resolve))
        fork.close()
        // The cache's documented layout: <directory>/<chainId>/<blockNumber>.jsonl.
        expect(readFileSync(join(directory, '4242', '4.jsonl'), 'utf8')).to.contain(`["a","${X}"`)
      } finally {
        rmSync(directory, { recursive: true, force: true })
      }
    })
  })

  describe('fork: reset, anvil_setRpcUrl and metadata', () => {
    it('anvil_reset [] starts over as created: the fork of block N without the local blocks', async () => {
      const fork = await forkAt()
      const hash = await fork.sendRawTransaction(await signer(fork, 1).sign({ to: X, value: ETHER, nonce: 2 }))
      await fork.tick()
      await fork.clock.advance(4000)
      expect(fork.blockNumber()).to.equal(6n)
      expect(await rpc(fork, 'anvil_reset')).to.equal(null)
      expect(fork.blockNumber()).to.equal(N)
      expect(await rpc(fork, 'eth_getBalance', X, 'latest')).to.equal(hex(ETHER))
      expect(await rpc(fork, 'eth_getTransactionByHash', hash)).to.equal(null)
      expect((await rpc<RpcBlock>(fork, 'eth_getBlockByNumber', 'pending', false)).parentHash).to.equal(block[4].hash)
      expect((await rpc(fork, 'hardhat_metadata')).forkedNetwork.forkBlockNumber).to.equal(4)
    })

    it('anvil_reset [] of a fork created without a block number returns to the same block, not the upstream head', async () => {
      const other = await createChain()
      await other.mine()
      const otherServer = await startServer(other, { port: 0 })
      try {
        const fork = await createChain({ fork: { url: otherServer.url, cache: false } })
        forks.push(fork)
        await other.mine()
        await rpc(fork, 'anvil_reset')
        expect(fork.blockNumber()).to.equal(1n)
      } finally {
        await otherServer.close()
      }
    })

    it('anvil_reset with forking makes a fresh chain a fork, and anvil_reset [] makes it fresh again', async () => {
      const chain = await createChain()
      forks.push(chain)
      expect(await rpc(chain, 'anvil_reset', { forking: { jsonRpcUrl: server.url, blockNumber: '0x2' } })).to.equal(null)
      expect([chain.blockNumber(), await rpc(chain, 'eth_chainId')]).to.deep.equal([2n, '0x1092'])
      expect((await rpc(chain, 'hardhat_metadata')).forkedNetwork).to.deep.equal({ chainId: 4242, forkBlockNumber: 2, forkBlockHash: block[2].hash })
      expect(await rpc(chain, 'anvil_reset')).to.equal(null)
      expect([chain.blockNumber(), await rpc(chain, 'eth_chainId'), (await rpc(chain, 'hardhat_metadata')).forkedNetwork]).to.deep.equal([0n, '0x7a69', null])
    })

    it('anvil_reset and hardhat_reset with forking fork that block (null and true)', async () => {
      const fork = await forkAt()
      expect(await rpc(fork, 'anvil_reset', { forking: { jsonRpcUrl: proxy.url, blockNumber: 2 } })).to.equal(null)
      expect(fork.blockNumber()).to.equal(2n)
      expect(BigInt(await rpc(fork, 'eth_getStorageAt', counter, '0x0', 'latest'))).to.equal(1n)
      expect(await rpc(fork, 'eth_getBalance', X, 'latest')).to.equal(hex(ETHER))
      expect(await rpc(fork, 'hardhat_reset', { forking: { jsonRpcUrl: server.url, blockNumber: '0x3' } })).to.equal(true)
      expect(fork.blockNumber()).to.equal(3n)
      expect((await rpc(fork, 'anvil_nodeInfo')).forkConfig.forkUrl).to.equal(server.url)
      expect((await rpc(fork, 'hardhat_metadata')).forkedNetwork.forkBlockHash).to.equal(block[3].hash)
      expect((await rpc<RpcBlock>(fork, 'eth_getBlockByNumber', 'pending', false)).parentHash).to.equal(block[3].hash)
    })

    it("anvil_reset with forking but no jsonRpcUrl keeps the current fork's url: after a reset elsewhere, after anvil_setRpcUrl (Anvil)", async () => {
      const fork = await forkAt()
      const [b, c] = [await startProxy(server.url), await startProxy(server.url)]
      try {
        await rpc(fork, 'anvil_reset', { forking: { jsonRpcUrl: b.url, blockNumber: 2 } })
        await rpc(fork, 'anvil_reset', { forking: { blockNumber: 1 } })
        expect([fork.blockNumber(), (await rpc(fork, 'anvil_nodeInfo')).forkConfig.forkUrl]).to.deep.equal([1n, b.url])
        await rpc(fork, 'anvil_setRpcUrl', c.url)
        await rpc(fork, 'anvil_reset', { forking: { blockNumber: 3 } })
        expect([fork.blockNumber(), (await rpc(fork, 'anvil_nodeInfo')).forkConfig.forkUrl]).to.deep.equal([3n, c.url])
      } finally {
        await Promise.all([b.close(), c.close()])
      }
    })

    it('anvil_reset [] after anvil_setRpcUrl starts over as created through the new endpoint (the old one may be dead); after a reset to another url, as created through the created one', async () => {
      const [dying, moved, other] = [await startProxy(server.url), await startProxy(server.url), await startProxy(server.url)]
      try {
        const fork = await createChain({ fork: { url: dying.url, blockNumber: N, cache: false, retries: 0 } })
        forks.push(fork)
        await rpc(fork, 'anvil_setRpcUrl', moved.url)
        await dying.close()
        expect(await rpc(fork, 'anvil_reset')).to.equal(null)
        expect([fork.blockNumber(), (await rpc(fork, 'anvil_nodeInfo')).forkConfig.forkUrl]).to.deep.equal([N, moved.url])
        expect(await rpc(fork, 'eth_getBalance', X, 'latest')).to.equal(hex(ETHER))
        const second = await createChain({ fork: { url: moved.url, blockNumber: N, cache: false } })
        forks.push(second)
        await rpc(second, 'anvil_reset', { forking: { jsonRpcUrl: other.url, blockNumber: 2 } })
        await rpc(second, 'anvil_reset')
        expect([second.blockNumber(), (await rpc(second, 'anvil_nodeInfo')).forkConfig.forkUrl]).to.deep.equal([N, moved.url])
      } finally {
        await Promise.all([moved.close(), other.close()])
      }
    })

    it("viem's testClient.reset({ blockNumber }) forks that block of the same upstream", async () => {
      const fork = await forkAt()
      const test = createTestClient({ mode: 'anvil', transport: custom({ request: (args) => fork.request(args) }, { retryCount: 0 }) })
      await test.reset({ blockNumber: 3n })
      expect(fork.blockNumber()).to.equal(3n)
      expect((await rpc(fork, 'anvil_nodeInfo')).forkConfig.forkUrl).to.equal(proxy.url)
      expect(BigInt(await rpc(fork, 'eth_getStorageAt', counter, '0x0', 'latest'))).to.equal(1n)
    })

    it("viem's testClient.reset() without a block number forks the upstream's latest (in process viem sends NaN)", async () => {
      const fork = await forkAt()
      const test = createTestClient({ mode: 'anvil', transport: custom({ request: (args) => fork.request(args) }, { retryCount: 0 }) })
      await test.reset()
      expect(fork.blockNumber()).to.equal(5n)
    })

    it('anvil_setRpcUrl (and hardhat_setRpcUrl) moves reads to another endpoint of the same chain', async () => {
      const fork = await forkAt()
      const other = await startProxy(server.url)
      try {
        expect(await rpc(fork, 'anvil_setRpcUrl', other.url)).to.equal(null)
        expect(await rpc(fork, 'hardhat_setRpcUrl', other.url)).to.equal(null) // the name viem's test client sends in hardhat mode
        expect(await rpc(fork, 'eth_getBalance', X, 'latest')).to.equal(hex(ETHER))
        expect(await rpc(fork, 'eth_getBlockByNumber', '0x1', false)).to.deep.equal(block[1])
        expect(proxy.bodies).to.deep.equal([])
        expect(other.calls().map(({ method }) => method)).to.include.members(['eth_getBalance', 'eth_getBlockByNumber'])
      } finally {
        await other.close()
      }
    })

    it("names the fork in hardhat_metadata.forkedNetwork and anvil_nodeInfo.forkConfig (Hardhat, Anvil)", async () => {
      const fork = await forkAt()
      expect((await rpc(fork, 'hardhat_metadata')).forkedNetwork).to.deep.equal({ chainId: 4242, forkBlockNumber: 4, forkBlockHash: block[4].hash })
      expect((await rpc(fork, 'anvil_nodeInfo')).forkConfig).to.include({ forkUrl: proxy.url, forkBlockNumber: 4 })
    })
  })
})
