/**
 * What a client sees of a pre-confirmed transaction through the node (HTTP and WebSocket), as
 * Base's flashblocks RPC serves it (base/base crates/flashblocks-rpc/spec.md): the transaction
 * status, the receipt with 32 zero bytes as block hash until the seal, the pending block, the
 * transaction by hash, eth_sendRawTransactionSync (EIP-7966) and eth_getLogs up to `pending`.
 */
import { expect } from 'chai'
import { JsonRpcProvider } from 'ethers'
import { keccak256 } from 'viem'
import type { Chain } from '../../lib/index.ts'
import type { DevnetServer } from '../../lib/server/server.ts'
import type { Hex } from '../../lib/types.ts'
import { sendDeploy, ZERO_ADDRESS, ZERO_HASH, type RpcBlock, type RpcLog, type RpcReceipt } from '../support/chain-helpers.ts'
import { Counter } from '../../fixtures/artifacts/Counter.ts'
import { GWEI, signer } from '../support/wallet.ts'
import { httpRequest, httpResponse, type WireResponse } from '../support/ws-client.ts'
import { startWsNode, type WsNode } from '../support/ws-node.ts'
import {
  deployScene,
  firstIncrementLog,
  INCREMENTED,
  signEthTransfer,
  signIncrement,
  signTokenTransfer,
  SUPPLY,
  topicOf,
  TRANSFER,
  word,
  type Scene,
} from '../support/ws-contracts.ts'

/** The fields of a receipt (geth's, which ethers' formatReceipt reads). */
const RECEIPT_KEYS = [
  'transactionHash',
  'transactionIndex',
  'blockHash',
  'blockNumber',
  'from',
  'to',
  'cumulativeGasUsed',
  'gasUsed',
  'contractAddress',
  'logs',
  'logsBloom',
  'status',
  'effectiveGasPrice',
  'blobGasPrice',
  'type',
  'blockTimestamp',
]
const LOG_KEYS = ['address', 'topics', 'data', 'blockNumber', 'transactionHash', 'transactionIndex', 'blockHash', 'blockTimestamp', 'logIndex', 'removed']

/** Base fee of block 1, from genesis' 1 gwei and an empty genesis (EIP-1559: 7/8). */
const BLOCK_1_BASE_FEE = 875_000_000n

function quantity(value: bigint | number): Hex {
  return `0x${value.toString(16)}`
}

/** Replaces every block hash in a receipt (and its logs). */
function withBlockHash(receipt: RpcReceipt, blockHash: Hex): RpcReceipt {
  return { ...receipt, blockHash, logs: receipt.logs.map((log) => ({ ...log, blockHash })) }
}

describe('server: the pre-confirmation surface', function () {
  let chain: Chain
  let server: DevnetServer
  let connect: WsNode['connect']
  let close: WsNode['close']

  beforeEach(async function () {
    ;({ chain, server, connect, close } = await startWsNode())
  })

  afterEach(() => close())

  const rpc = <T = unknown>(method: string, params: unknown[] = []): Promise<T> => httpRequest<T>(server.url, method, params)
  const receipt = (hash: Hex) => rpc<RpcReceipt | null>('eth_getTransactionReceipt', [hash])
  const block = (tag: Hex | 'pending' | 'latest', full = false) => rpc<RpcBlock>('eth_getBlockByNumber', [tag, full])
  const send = (raw: Hex) => rpc<Hex>('eth_sendRawTransaction', [raw])

  describe('service_transactionStatus / base_transactionStatus (Base)', function () {
    it('Known in the mempool and while pre-confirmed, Unknown once sealed and for a hash never seen', async function () {
      const alice = signer(chain, 0)
      const hash = await send(await alice.sign({ to: signer(chain, 1).address, nonce: 0 }))
      const status = async () => [
        await rpc('service_transactionStatus', [hash]),
        await rpc('base_transactionStatus', [hash]),
      ]
      expect(await status(), 'in the mempool').to.deep.equal([{ status: 'Known' }, { status: 'Known' }])
      await chain.clock.advance(200)
      expect((await receipt(hash))?.blockHash, 'pre-confirmed').to.equal(ZERO_HASH)
      expect(await status(), 'pre-confirmed').to.deep.equal([{ status: 'Known' }, { status: 'Known' }])
      await chain.clock.advance(1800)
      expect(chain.blockNumber()).to.equal(1n)
      expect(await status(), 'sealed').to.deep.equal([{ status: 'Unknown' }, { status: 'Unknown' }])
      const unknown = `0x${'ab'.repeat(32)}`
      expect(await rpc('service_transactionStatus', [unknown])).to.deep.equal({ status: 'Unknown' })
      expect(await rpc('base_transactionStatus', [unknown])).to.deep.equal({ status: 'Unknown' })
      const bad = await httpResponse(server.url, 'service_transactionStatus', ['0x1234'])
      expect(bad.error?.code).to.equal(-32602)
    })
  })

  describe('eth_getTransactionReceipt of a pre-confirmed transaction', function () {
    let scene: Scene
    let increment: Hex
    let plain: Hex

    beforeEach(async function () {
      scene = await deployScene(chain)
      increment = await send(await signIncrement(scene.bob, scene.counter, 0))
      plain = await send(await signEthTransfer(scene.carol, scene.bob.address, 0, 5n))
      expect(await receipt(increment), 'no receipt in the mempool').to.equal(null)
      await chain.clock.advance(200)
    })

    it('has every receipt field, blockHash 32 zero bytes, the pending block number, logs with the zero block hash (Base)', async function () {
      const { bob, carol, counter } = scene
      const pending = await block('pending')
      expect(pending.number).to.equal('0x3')
      const first = (await receipt(increment))!
      const second = (await receipt(plain))!
      expect(Object.keys(first)).to.have.members(RECEIPT_KEYS)
      expect(Object.keys(second)).to.have.members(RECEIPT_KEYS)
      const effectiveGasPrice = quantity(BigInt(pending.baseFeePerGas) + GWEI)
      expect(first).to.deep.include({
        transactionHash: increment,
        transactionIndex: '0x0',
        blockHash: ZERO_HASH,
        blockNumber: '0x3',
        from: bob.address.toLowerCase(),
        to: counter,
        contractAddress: null,
        status: '0x1',
        effectiveGasPrice,
        type: '0x2',
      })
      expect(first.cumulativeGasUsed).to.equal(first.gasUsed)
      expect(second).to.deep.include({
        transactionHash: plain,
        transactionIndex: '0x1',
        blockHash: ZERO_HASH,
        blockNumber: '0x3',
        from: carol.address.toLowerCase(),
        to: bob.address.toLowerCase(),
        gasUsed: '0x5208',
        cumulativeGasUsed: quantity(BigInt(first.gasUsed) + 21000n),
        contractAddress: null,
        logs: [],
        logsBloom: `0x${'00'.repeat(256)}`,
        status: '0x1',
        effectiveGasPrice,
        type: '0x2',
      })
      expect(first.logs).to.have.length(1)
      expect(Object.keys(first.logs[0])).to.have.members(LOG_KEYS)
      expect(first.logs[0]).to.deep.equal(firstIncrementLog(counter, bob.address, increment, ZERO_HASH, pending.timestamp))
      expect(first.logsBloom).to.match(/^0x[0-9a-f]{512}$/)
      expect(first.logsBloom).to.not.equal(`0x${'00'.repeat(256)}`)
      expect(BigInt(first.gasUsed) > 21000n, 'gas beyond a plain transfer').to.equal(true)
      expect(first.logsBloom, "the pending block's bloom is its receipts' union").to.equal(pending.logsBloom)
    })

    it("passes ethers v6's receipt formatter (JsonRpcProvider over HTTP)", async function () {
      const provider = new JsonRpcProvider(server.url, 31337, { staticNetwork: true })
      try {
        const formatted = await provider.getTransactionReceipt(increment)
        expect(formatted).to.not.equal(null)
        expect(formatted!.blockHash).to.equal(ZERO_HASH)
        expect(formatted!.blockNumber).to.equal(3)
        expect(formatted!.index).to.equal(0)
        expect(formatted!.status).to.equal(1)
        expect(formatted!.from).to.equal(scene.bob.address)
        expect(formatted!.logs).to.have.length(1)
        expect(formatted!.logs[0].blockHash).to.equal(ZERO_HASH)
        expect(formatted!.logs[0].index).to.equal(0)
        expect(formatted!.gasPrice).to.equal(BigInt((await block('pending')).baseFeePerGas) + GWEI)
      } finally {
        provider.destroy()
      }
    })

    it('switches to the sealed block hash on seal, every other field identical', async function () {
      const before = [(await receipt(increment))!, (await receipt(plain))!]
      await chain.clock.advance(1800)
      const sealed = await block('0x3')
      expect(sealed.transactions).to.deep.equal([increment, plain])
      expect(sealed.hash).to.not.equal(ZERO_HASH)
      const after = [(await receipt(increment))!, (await receipt(plain))!]
      expect(after).to.deep.equal(before.map((json) => withBlockHash(json, sealed.hash)))
      expect(sealed.logsBloom).to.equal(after[0].logsBloom)
    })
  })

  describe('a pre-confirmed contract creation', function () {
    it('has to null and the new contractAddress in its receipt, and its code at pending', async function () {
      const alice = signer(chain, 0)
      const { hash, address } = await sendDeploy(chain, alice, Counter)
      await chain.clock.advance(200)
      const json = (await receipt(hash))!
      expect(json).to.deep.include({ to: null, contractAddress: address.toLowerCase(), blockHash: ZERO_HASH, blockNumber: '0x1', status: '0x1', logs: [] })
      expect(await rpc('eth_getCode', [address, 'pending'])).to.equal(Counter.deployedBytecode)
      expect(await rpc('eth_getCode', [address, 'latest'])).to.equal('0x')
      await chain.clock.advance(1800)
      expect(await receipt(hash)).to.deep.equal({ ...json, blockHash: (await block('0x1')).hash })
    })
  })

  describe("eth_getBlockByNumber('pending')", function () {
    it('is never null: hash 32 zero bytes, number head+1, the transactions pre-confirmed so far (hashes, or full with true)', async function () {
      const alice = signer(chain, 0)
      const bob = signer(chain, 1)
      const genesis = await block('0x0')
      let pending = await block('pending')
      expect(pending, 'before any tick').to.include({ number: '0x1', hash: ZERO_HASH, parentHash: genesis.hash, gasUsed: '0x0' })
      expect(pending.transactions).to.deep.equal([])
      expect(BigInt(pending.baseFeePerGas)).to.equal(BLOCK_1_BASE_FEE)

      const a = await send(await alice.sign({ to: bob.address, nonce: 0 }))
      expect((await block('pending')).transactions, 'mempool transactions are not in it').to.deep.equal([])
      await chain.clock.advance(200)
      const b = await send(await bob.sign({ to: alice.address, nonce: 0 }))
      await chain.clock.advance(200)
      pending = await block('pending')
      expect(pending).to.include({ number: '0x1', hash: ZERO_HASH, gasUsed: '0xa410' })
      expect(pending.transactions).to.deep.equal([a, b])
      const full = (await block('pending', true)) as unknown as { transactions: Array<Record<string, unknown>> }
      expect(full.transactions).to.have.length(2)
      for (const [i, hash] of [a, b].entries()) {
        expect(full.transactions[i]).to.deep.equal(await rpc('eth_getTransactionByHash', [hash]))
        expect(full.transactions[i]).to.include({ hash, blockHash: null, blockNumber: '0x1', transactionIndex: quantity(i) })
      }

      await chain.clock.advance(1600)
      const sealed = await block('0x1')
      expect(sealed.transactions).to.deep.equal([a, b])
      pending = await block('pending')
      expect(pending, 'right after the seal').to.include({ number: '0x2', hash: ZERO_HASH, parentHash: sealed.hash, gasUsed: '0x0' })
      expect(pending.transactions).to.deep.equal([])
      expect((await block('pending', true)).transactions).to.deep.equal([])
    })
  })

  describe('eth_getTransactionByHash', function () {
    it('mempool: no block fields; pre-confirmed: block number and index, blockHash null; sealed: the block hash (geth, Base)', async function () {
      const alice = signer(chain, 0)
      const bob = signer(chain, 1)
      const raw = await alice.sign({ to: bob.address, value: 7n, nonce: 0, maxFeePerGas: 3n * GWEI, maxPriorityFeePerGas: 2n * GWEI })
      const hash = await send(raw)
      expect(hash).to.equal(keccak256(raw))
      const common = {
        hash,
        from: alice.address.toLowerCase(),
        to: bob.address.toLowerCase(),
        value: '0x7',
        nonce: '0x0',
        gas: '0x5208',
        input: '0x',
        type: '0x2',
        chainId: '0x7a69',
        maxFeePerGas: quantity(3n * GWEI),
        maxPriorityFeePerGas: quantity(2n * GWEI),
      }
      const inPool = await rpc<Record<string, unknown>>('eth_getTransactionByHash', [hash])
      expect(inPool).to.deep.include({ ...common, blockHash: null, blockNumber: null, transactionIndex: null, gasPrice: quantity(3n * GWEI) })

      await chain.clock.advance(200)
      const preconfirmed = await rpc<Record<string, unknown>>('eth_getTransactionByHash', [hash])
      const effective = quantity(BLOCK_1_BASE_FEE + 2n * GWEI)
      expect(preconfirmed).to.deep.include({ ...common, blockHash: null, blockNumber: '0x1', transactionIndex: '0x0', gasPrice: effective })

      await chain.clock.advance(1800)
      const sealedBlock = await block('0x1')
      const sealed = await rpc<Record<string, unknown>>('eth_getTransactionByHash', [hash])
      expect(sealed).to.deep.equal({ ...preconfirmed, blockHash: sealedBlock.hash })
      expect(await rpc('eth_getTransactionByHash', [`0x${'cd'.repeat(32)}`])).to.equal(null)
    })
  })

  describe('eth_sendRawTransactionSync (EIP-7966)', function () {
    it('answers with the receipt as soon as the transaction is pre-confirmed, not at the seal', async function () {
      const client = await connect()
      const alice = signer(chain, 0)
      const raw = await alice.sign({ to: signer(chain, 1).address, nonce: 0 })
      let settled = false
      const answer = client.response('eth_sendRawTransactionSync', [raw]).finally(() => {
        settled = true
      })
      await client.sync()
      expect(settled, 'no answer before a tick').to.equal(false)
      expect(await client.request('preconf_advanceClock', [200])).to.equal(chain.options.genesisTimestamp * 1000 + 200)
      const response = await answer
      expect(response.error).to.equal(undefined)
      const result = response.result as RpcReceipt
      expect(result).to.deep.equal(await client.request('eth_getTransactionReceipt', [keccak256(raw)]))
      expect(result).to.include({ transactionHash: keccak256(raw), blockHash: ZERO_HASH, blockNumber: '0x1', status: '0x1' })
      expect(chain.blockNumber(), 'not sealed yet').to.equal(0n)
    })

    it('over HTTP: waits on the chain clock, which the caller advances', async function () {
      const alice = signer(chain, 0)
      const raw = await alice.sign({ to: signer(chain, 1).address, nonce: 0 })
      const admitted = new Promise((resolve) => chain.once('transaction', resolve))
      const answer = httpResponse(server.url, 'eth_sendRawTransactionSync', [raw, 1000])
      await admitted
      await chain.clock.advance(200)
      const response = await answer
      expect(response.result).to.deep.equal(await receipt(keccak256(raw)))
      expect((response.result as RpcReceipt).blockHash).to.equal(ZERO_HASH)
    })

    it('times out with code 4 and the hash as data when the fee cap stays below the base fee', async function () {
      const client = await connect()
      const alice = signer(chain, 0)
      const raw = await alice.sign({ to: signer(chain, 1).address, nonce: 0, maxFeePerGas: 500_000_000n, maxPriorityFeePerGas: 100_000_000n })
      let settled = false
      const answer = client.response('eth_sendRawTransactionSync', [raw, 1000]).finally(() => {
        settled = true
      })
      await client.request('preconf_advanceClock', [800])
      await client.sync()
      expect(settled, 'still waiting at 800 ms').to.equal(false)
      await client.request('preconf_advanceClock', [400])
      const response = await answer
      expect(response.result).to.equal(undefined)
      expect(response.error).to.deep.equal({
        code: 4,
        message: `Transaction ${keccak256(raw)} was added to the mempool but wasn't confirmed within 1s.`,
        data: keccak256(raw),
      })
      expect(await client.request('service_transactionStatus', [keccak256(raw)]), 'it stays in the mempool').to.deep.equal({ status: 'Known' })
    })

    it('times out behind a nonce gap, and by default after 6000 ms of the chain clock', async function () {
      const client = await connect()
      const alice = signer(chain, 0)
      const raw = await alice.sign({ to: signer(chain, 1).address, nonce: 1 })
      let settled = false
      const answer = client.response('eth_sendRawTransactionSync', [raw]).finally(() => {
        settled = true
      })
      await client.request('preconf_advanceClock', [5800])
      await client.sync()
      expect(settled, 'still waiting at 5800 ms').to.equal(false)
      expect(chain.blockNumber()).to.equal(2n)
      await client.request('preconf_advanceClock', [200])
      expect((await answer).error).to.deep.equal({
        code: 4,
        message: `Transaction ${keccak256(raw)} was added to the mempool but wasn't confirmed within 6s.`,
        data: keccak256(raw),
      })
    })

    it('rejects a timeout over 6000 ms with -32602 and admits nothing; 6000 itself is allowed', async function () {
      const alice = signer(chain, 0)
      const raw = await alice.sign({ to: signer(chain, 1).address, nonce: 0 })
      const tooLong = await httpResponse(server.url, 'eth_sendRawTransactionSync', [raw, 6001])
      expect(tooLong.error).to.deep.equal({
        code: -32602,
        message: 'invalid argument 1 (timeout ms): time out too long, timeout: 6001 ms, max: 6000 ms',
      })
      expect(await rpc('service_transactionStatus', [keccak256(raw)])).to.deep.equal({ status: 'Unknown' })

      const client = await connect()
      const answer = client.response('eth_sendRawTransactionSync', [raw, 6000])
      await client.request('preconf_advanceClock', [200])
      expect(((await answer).result as RpcReceipt).transactionHash).to.equal(keccak256(raw))
    })

    it('answers a pool rejection at once, with the pool error', async function () {
      const alice = signer(chain, 0)
      const raw = await alice.sign({ to: signer(chain, 1).address, nonce: 0 })
      await send(raw)
      const again: WireResponse = await httpResponse(server.url, 'eth_sendRawTransactionSync', [raw, 1000])
      expect(again.error).to.deep.equal({ code: -32000, message: 'already known' })
    })
  })

  describe("eth_getLogs up to 'pending'", function () {
    let scene: Scene
    /** Block 2's mint log, block 3's increment, and the two pre-confirmed logs of block 4. */
    let mint: RpcLog
    let sealedIncrement: RpcLog
    let pendingIncrement: Hex
    let pendingTransfer: Hex

    beforeEach(async function () {
      scene = await deployScene(chain)
      const { alice, bob, carol, counter, token } = scene
      const deployReceipt = (await rpc<RpcBlock>('eth_getBlockByNumber', ['0x2', false])).transactions[0]
      mint = (await receipt(deployReceipt))!.logs[0]
      const first = await send(await signIncrement(bob, counter, 0))
      await chain.clock.advance(2000) // block 3
      sealedIncrement = (await receipt(first))!.logs[0]
      pendingIncrement = await send(await signIncrement(bob, counter, 1))
      pendingTransfer = await send(await signTokenTransfer(alice, token, carol.address, 9n, 2))
      await send(await signEthTransfer(carol, bob.address, 0))
      await chain.clock.advance(200) // pre-confirmed in block 4
      expect(chain.blockNumber()).to.equal(3n)
    })

    const logs = (filter: Record<string, unknown>) => rpc<RpcLog[]>('eth_getLogs', [filter])
    const logsOf = async (hash: Hex) => (await receipt(hash))!.logs

    it('includes the pre-confirmed logs once (blockHash 32 zero bytes) after the sealed ones (real hashes)', async function () {
      const { token, alice } = scene
      expect(mint).to.deep.include({ address: token, topics: [TRANSFER, topicOf(ZERO_ADDRESS), topicOf(alice.address)], data: word(SUPPLY), blockNumber: '0x2' })
      const [incrementLog] = await logsOf(pendingIncrement)
      const [transferLog] = await logsOf(pendingTransfer)
      expect(incrementLog).to.deep.include({ blockHash: ZERO_HASH, blockNumber: '0x4', logIndex: '0x0' })
      expect(transferLog).to.deep.include({ blockHash: ZERO_HASH, blockNumber: '0x4', logIndex: '0x1' })
      expect(await logs({ fromBlock: '0x0', toBlock: 'pending' })).to.deep.equal([mint, sealedIncrement, incrementLog, transferLog])
      expect(await logs({ fromBlock: '0x0', toBlock: 'latest' }), 'latest: sealed only').to.deep.equal([mint, sealedIncrement])
      expect(await logs({ fromBlock: 'pending', toBlock: 'pending' })).to.deep.equal([incrementLog, transferLog])
      expect(await logs({ fromBlock: 'latest', toBlock: 'pending' })).to.deep.equal([sealedIncrement, incrementLog, transferLog])
      expect(await logs({}), 'default range latest..latest').to.deep.equal([sealedIncrement])
      expect(mint.blockHash).to.equal((await block('0x2')).hash)
      expect(sealedIncrement.blockHash).to.equal((await block('0x3')).hash)
    })

    it('after the seal returns the same logs with the real block hash, no duplicates', async function () {
      const before = await logs({ fromBlock: '0x0', toBlock: 'pending' })
      await chain.clock.advance(1800)
      expect(chain.blockNumber()).to.equal(4n)
      const block4 = await block('0x4')
      const after = await logs({ fromBlock: '0x0', toBlock: 'pending' })
      expect(after).to.deep.equal([before[0], before[1], { ...before[2], blockHash: block4.hash }, { ...before[3], blockHash: block4.hash }])
      expect(await logs({ fromBlock: '0x0', toBlock: 'latest' })).to.deep.equal(after)
      expect(await logs({ fromBlock: 'pending', toBlock: 'pending' }), 'the new pending block has no logs yet').to.deep.equal([])
    })

    it('selects one sealed block by blockHash; an unknown hash is -32000 unknown block (geth)', async function () {
      const { token } = scene
      const block3 = await block('0x3')
      expect(await logs({ blockHash: block3.hash })).to.deep.equal([sealedIncrement])
      expect(await logs({ blockHash: block3.hash, address: token })).to.deep.equal([])
      const block2 = await block('0x2')
      expect(await logs({ blockHash: block2.hash, topics: [TRANSFER] })).to.deep.equal([mint])
      const unknown = await httpResponse(server.url, 'eth_getLogs', [{ blockHash: `0x${'12'.repeat(32)}` }])
      expect(unknown.error).to.deep.equal({ code: -32000, message: 'unknown block' })
      const both = await httpResponse(server.url, 'eth_getLogs', [{ blockHash: block3.hash, fromBlock: '0x1' }])
      expect(both.error?.code).to.equal(-32602)
    })

    it('filters by address (one or any of several) and by topics (position, null wildcard, OR lists)', async function () {
      const { alice, bob, carol, counter, token } = scene
      const [incrementLog] = await logsOf(pendingIncrement)
      const [transferLog] = await logsOf(pendingTransfer)
      const range = { fromBlock: '0x0', toBlock: 'pending' }
      expect(await logs({ ...range, address: counter })).to.deep.equal([sealedIncrement, incrementLog])
      expect(await logs({ ...range, address: token })).to.deep.equal([mint, transferLog])
      expect(await logs({ ...range, address: [token, counter] })).to.deep.equal([mint, sealedIncrement, incrementLog, transferLog])
      expect(await logs({ ...range, address: carol.address })).to.deep.equal([])
      expect(await logs({ ...range, topics: [TRANSFER] })).to.deep.equal([mint, transferLog])
      expect(await logs({ ...range, topics: [INCREMENTED, topicOf(bob.address)] })).to.deep.equal([sealedIncrement, incrementLog])
      expect(await logs({ ...range, topics: [null, topicOf(alice.address)] }), 'alice sent the pending transfer').to.deep.equal([transferLog])
      expect(await logs({ ...range, topics: [TRANSFER, topicOf(ZERO_ADDRESS)] }), 'the mint').to.deep.equal([mint])
      expect(await logs({ ...range, topics: [[INCREMENTED, TRANSFER], null, topicOf(carol.address)] })).to.deep.equal([transferLog])
      expect(await logs({ ...range, topics: [[INCREMENTED, TRANSFER], [topicOf(bob.address), topicOf(ZERO_ADDRESS)]] })).to.deep.equal([
        mint,
        sealedIncrement,
        incrementLog,
      ])
      expect(await logs({ ...range, topics: [null, null, null, topicOf(bob.address)] }), 'no log has a 4th topic').to.deep.equal([])
    })

    it('rejects fromBlock > toBlock with -32602 invalid block range params (geth, eth/filters)', async function () {
      for (const range of [
        { fromBlock: '0x3', toBlock: '0x2' },
        { fromBlock: 'pending', toBlock: 'latest' },
        { fromBlock: '0x5', toBlock: 'pending' },
      ]) {
        const response = await httpResponse(server.url, 'eth_getLogs', [range])
        expect(response.error, JSON.stringify(range)).to.deep.equal({ code: -32602, message: 'invalid block range params' })
      }
    })

    it('a range that starts past the pending block is -32602, as geth and Anvil refuse one past their head; one that ends past it stops there', async function () {
      // The pre-confirmed logs are in block 4 (the head is 3).
      const response = await httpResponse(server.url, 'eth_getLogs', [{ fromBlock: '0x5', toBlock: '0x6' }])
      expect(response.error).to.deep.equal({ code: -32602, message: 'block range extends beyond current head block' })
      expect(await logs({ fromBlock: '0x4', toBlock: '0x9' })).to.deep.equal(await logs({ fromBlock: '0x4', toBlock: 'pending' })).and.not.be.empty
    })
  })
})
