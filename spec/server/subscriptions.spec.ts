/**
 * WebSocket subscriptions of the node (lib/server/subscriptions.ts, websocket-session.ts):
 * geth's eth_subscribe streams (newHeads, logs, newPendingTransactions) and Base's
 * pre-confirmation streams (newPreconfBlockTransactions / newFlashblockTransactions,
 * newFlashblocks, pendingLogs), driven by a manual clock, plus every RPC method over the socket
 * and the connection's robustness: abrupt disconnects, subscribers that never read.
 */
import { EventEmitter, once } from 'node:events'
import { connect as connectTcp } from 'node:net'
import { expect } from 'chai'
import WebSocket from 'ws'
import { encodeFunctionData, decodeFunctionResult, keccak256, parseEther } from 'viem'
import { Counter } from '../../fixtures/artifacts/Counter.ts'
import { ENGINE } from '../../lib/engine-host.ts'
import type { Engine } from '../../lib/engine/engine.ts'
import type { Chain } from '../../lib/index.ts'
import type { Address, Hex } from '../../lib/types.ts'
import { ZERO_HASH, type RpcBlock, type RpcLog, type RpcReceipt } from '../support/chain-helpers.ts'
import { GWEI, signer } from '../support/wallet.ts'
import { until, WsClient, type WireResponse } from '../support/ws-client.ts'
import { startWsNode, type WsNode } from '../support/ws-node.ts'
import {
  deployScene,
  firstIncrementLog,
  INCREMENTED,
  signEthTransfer,
  signIncrement,
  signTokenTransfer,
  topicOf,
  TRANSFER,
  word,
} from '../support/ws-contracts.ts'

/** geth's rpc.ID: 0x and 32 hex digits (16 random bytes; here a counter). */
const SUBSCRIPTION_ID = /^0x[0-9a-f]{32}$/
const ETH = 10n ** 18n

/** A header as geth's newHeads sends it: the block without its body fields, size and total difficulty. */
function headerOf(block: Record<string, unknown>): Record<string, unknown> {
  const { transactions, uncles, withdrawals, size, totalDifficulty, ...header } = block
  return header
}

describe('server: WebSocket subscriptions', function () {
  let chain: Chain
  let connect: WsNode['connect']
  let close: WsNode['close']
  let server: WsNode['server']

  beforeEach(async function () {
    ;({ chain, connect, close, server } = await startWsNode())
  })

  afterEach(() => close())

  async function blockByNumber(client: WsClient, number: bigint | 'pending' | 'latest', full = false): Promise<RpcBlock> {
    const tag = typeof number === 'bigint' ? `0x${number.toString(16)}` : number
    return client.request<RpcBlock>('eth_getBlockByNumber', [tag, full])
  }

  describe('eth_subscribe', function () {
    it('answers a subscription id of 0x + 32 hex digits (geth rpc.ID), a different one per subscription and connection', async function () {
      const a = await connect()
      const b = await connect()
      const ids = [
        await a.subscribe('newHeads'),
        await a.subscribe('newHeads'),
        await a.subscribe('logs', {}),
        await a.subscribe('newPendingTransactions'),
        await a.subscribe('newPreconfBlockTransactions'),
        await a.subscribe('newFlashblockTransactions', true),
        await a.subscribe('newFlashblocks'),
        await a.subscribe('pendingLogs'),
        await b.subscribe('newHeads'),
      ]
      for (const id of ids) expect(id).to.match(SUBSCRIPTION_ID)
      expect(new Set(ids).size).to.equal(ids.length)
    })

    it('rejects a malformed filter with -32602 and subscribes nothing', async function () {
      const client = await connect()
      const bad = await client.response('eth_subscribe', ['logs', { address: '0x12' }])
      expect(bad.error?.code).to.equal(-32602)
      expect(bad.error?.message).to.match(/^invalid argument 1 \(filter\)\.address: expected a 20-byte hex address/)
      const badTopic = await client.response('eth_subscribe', ['pendingLogs', { topics: ['0x1234'] }])
      expect(badTopic.error?.code).to.equal(-32602)
      expect(chain.listenerCount('block') + chain.listenerCount('preconfirmation') + chain.listenerCount('transaction')).to.equal(0)
    })

    it('sends the eth_subscribe response before any notification of it, even when a tick runs in the same batch (geth)', async function () {
      const alice = signer(chain, 0)
      await chain.sendRawTransaction(await alice.sign({ to: signer(chain, 1).address, nonce: 0 }))
      const client = await connect()
      const [subscribed, ticked] = await client.batch([
        { method: 'eth_subscribe', params: ['newFlashblocks'] },
        { method: 'preconf_tick' },
      ])
      const id = subscribed.result as string
      expect(id).to.match(SUBSCRIPTION_ID)
      expect((ticked.result as { transactions: Hex[] }).transactions).to.have.length(1)
      const [block] = await client.waitForNotifications<RpcBlock>(id, 1)
      expect(block.number).to.equal('0x1')
      const batchAt = client.received.findIndex((message) => Array.isArray(message))
      const notificationAt = client.received.findIndex((message) => (message as { method?: string }).method === 'eth_subscription')
      expect(batchAt, 'batch response index').to.be.greaterThan(-1)
      expect(notificationAt, 'notification index').to.be.greaterThan(batchAt)
    })

    it('sends the response first when a tick request races the subscribe request on the same socket', async function () {
      const alice = signer(chain, 0)
      const hash = await chain.sendRawTransaction(await alice.sign({ to: signer(chain, 1).address, nonce: 0 }))
      const client = await connect()
      // Two frames back to back: the server starts the tick before it has answered the subscribe.
      const subscribed = client.response('eth_subscribe', ['newPreconfBlockTransactions'])
      const ticked = client.response('preconf_tick')
      const id = (await subscribed).result as string
      await ticked
      expect(await client.waitForNotifications(id, 1)).to.deep.equal([hash])
      const responseAt = client.received.findIndex((message) => (message as WireResponse).result === id)
      const notificationAt = client.received.findIndex((message) => (message as { method?: string }).method === 'eth_subscription')
      expect(notificationAt).to.be.greaterThan(responseAt)
    })
  })

  describe('newHeads (geth)', function () {
    it('sends each sealed header with the number, hash and parentHash eth_getBlockByNumber reports', async function () {
      const client = await connect()
      const id = await client.subscribe('newHeads')
      const alice = signer(chain, 0)
      await chain.sendRawTransaction(await alice.sign({ to: signer(chain, 1).address, nonce: 0 }))
      await chain.clock.advance(1999)
      await client.sync()
      expect(client.notifications(id), 'no header before the first seal').to.deep.equal([])
      await chain.clock.advance(1) // seal of block 1 at genesis + 2 s
      await client.request('preconf_advanceClock', [2000]) // block 2, over the socket
      await client.request('evm_mine') // block 3
      const heads = await client.waitForNotifications<Record<string, string>>(id, 3)
      await client.sync()
      expect(client.notifications(id)).to.have.length(3)
      const genesis = await blockByNumber(client, 0n)
      let parent: string = genesis.hash
      for (let n = 1; n <= 3; n++) {
        const block = (await blockByNumber(client, BigInt(n))) as unknown as Record<string, unknown>
        const head = heads[n - 1]
        expect(head.number).to.equal(`0x${n}`)
        expect(head.hash).to.equal(block.hash)
        expect(head.parentHash).to.equal(parent)
        expect(head).to.deep.equal(headerOf(block))
        expect(head).to.not.have.any.keys('transactions', 'uncles', 'withdrawals', 'size', 'totalDifficulty')
        parent = head.hash
      }
      expect(heads[0].gasUsed).to.equal('0x5208')
    })
  })

  describe('logs (geth)', function () {
    it('sends matching logs only when their block seals, with the real block hash', async function () {
      const { alice, bob, carol, counter, token } = await deployScene(chain)
      const client = await connect()
      const ofCounter = await client.subscribe('logs', { address: counter })
      const toBob = await client.subscribe('logs', { address: token, topics: [TRANSFER, null, topicOf(bob.address)] })
      const all = await client.subscribe('logs', {})
      const byBobOrCarol = await client.subscribe('logs', { topics: [INCREMENTED, [topicOf(bob.address), topicOf(carol.address)]] })

      const increment = await chain.sendRawTransaction(await signIncrement(bob, counter, 0))
      const transferToBob = await chain.sendRawTransaction(await signTokenTransfer(alice, token, bob.address, 5n, 2))
      const transferToCarol = await chain.sendRawTransaction(await signTokenTransfer(alice, token, carol.address, 7n, 3))
      await chain.clock.advance(200)
      await client.sync()
      for (const id of [ofCounter, toBob, all, byBobOrCarol]) expect(client.notifications(id), 'nothing while pre-confirmed').to.deep.equal([])

      await chain.clock.advance(1800) // seal of block 3
      const sealed = await blockByNumber(client, 3n)
      expect(sealed.transactions).to.deep.equal([increment, transferToBob, transferToCarol])
      const logsOf = async (hash: Hex) => (await client.request<RpcReceipt>('eth_getTransactionReceipt', [hash])).logs
      const [incrementLog] = await logsOf(increment)
      const [toBobLog] = await logsOf(transferToBob)
      const [toCarolLog] = await logsOf(transferToCarol)

      expect(await client.waitForNotifications(all, 3)).to.deep.equal([incrementLog, toBobLog, toCarolLog])
      await client.sync()
      expect(client.notifications(ofCounter)).to.deep.equal([incrementLog])
      expect(client.notifications(toBob)).to.deep.equal([toBobLog])
      expect(client.notifications(byBobOrCarol)).to.deep.equal([incrementLog])
      expect(client.notifications(all)).to.have.length(3)

      const log = incrementLog as RpcLog
      expect(log).to.deep.equal(firstIncrementLog(counter, bob.address, increment, sealed.hash, sealed.timestamp))
      expect(sealed.hash).to.not.equal(ZERO_HASH)
      expect((toCarolLog as RpcLog).logIndex).to.equal('0x2')
    })
  })

  describe('newPendingTransactions (geth)', function () {
    it('sends the hash, or with true the mempool transaction, on admission, before any tick', async function () {
      const client = await connect()
      const hashes = await client.subscribe('newPendingTransactions')
      const full = await client.subscribe('newPendingTransactions', true)
      const alice = signer(chain, 0)
      const raw = await alice.sign({ to: signer(chain, 1).address, value: 5n, nonce: 0 })
      const hash = await client.request<Hex>('eth_sendRawTransaction', [raw])
      expect(hash).to.equal(keccak256(raw))
      await client.sync()
      expect(client.notifications(hashes)).to.deep.equal([hash])
      const [transaction] = client.notifications<Record<string, unknown>>(full)
      expect(transaction).to.deep.equal(await client.request('eth_getTransactionByHash', [hash]))
      expect(transaction).to.include({ hash, blockHash: null, blockNumber: null, transactionIndex: null, from: alice.address.toLowerCase(), value: '0x5', nonce: '0x0' })

      // A rejected transaction is not announced; nor is the later pre-confirmation of an announced one.
      const again = await client.response('eth_sendRawTransaction', [raw])
      expect(again.error).to.deep.equal({ code: -32000, message: 'already known' })
      const sent = await client.request<Hex>('eth_sendTransaction', [{ from: chain.accounts[2].address, to: chain.accounts[3].address, value: '0x1' }])
      await chain.clock.advance(2000)
      await client.sync()
      expect(client.notifications(hashes)).to.deep.equal([hash, sent])
      expect(client.notifications(full).map((tx) => (tx as { hash: Hex }).hash)).to.deep.equal([hash, sent])
    })
  })

  describe('newPreconfBlockTransactions / newFlashblockTransactions (Base)', function () {
    it('sends one hash per transaction new in a tick, in block order, and nothing on an empty tick', async function () {
      const client = await connect()
      const id = await client.subscribe('newPreconfBlockTransactions')
      const alice = signer(chain, 0)
      const bob = signer(chain, 1)
      const first = await chain.sendRawTransaction(await alice.sign({ to: bob.address, nonce: 0 }))
      const second = await chain.sendRawTransaction(await bob.sign({ to: alice.address, nonce: 0, maxPriorityFeePerGas: 2n * GWEI }))
      await client.sync()
      expect(client.notifications(id), 'nothing on admission').to.deep.equal([])
      await chain.clock.advance(200)
      await client.sync()
      expect(client.notifications(id), 'best tip first').to.deep.equal([second, first])
      await chain.clock.advance(400) // two empty ticks
      await client.sync()
      expect(client.notifications(id)).to.have.length(2)
      const third = await chain.sendRawTransaction(await alice.sign({ to: bob.address, nonce: 1 }))
      await chain.clock.advance(200)
      await client.sync()
      expect(client.notifications(id)).to.deep.equal([second, first, third])
      await chain.clock.advance(1200) // the rest of the block and its seal
      await client.sync()
      expect(client.notifications(id), 'the seal sends nothing again').to.have.length(3)
    })

    it('with true sends the transaction (blockHash null) with its receipt fields, logs carrying 32 zero bytes as block hash', async function () {
      const { bob, carol, counter } = await deployScene(chain)
      const client = await connect()
      const id = await client.subscribe('newPreconfBlockTransactions', true)
      const increment = await chain.sendRawTransaction(await signIncrement(bob, counter, 0))
      const plain = await chain.sendRawTransaction(await signEthTransfer(carol, bob.address, 0))
      await chain.clock.advance(200)
      const [incrementJson, plainJson] = await client.waitForNotifications<Record<string, unknown>>(id, 2)

      for (const [json, hash] of [
        [incrementJson, increment],
        [plainJson, plain],
      ] as const) {
        const transaction = await client.request<Record<string, unknown>>('eth_getTransactionByHash', [hash])
        const receipt = await client.request<RpcReceipt>('eth_getTransactionReceipt', [hash])
        expect(json).to.deep.equal({
          ...transaction,
          logs: receipt.logs,
          gasUsed: receipt.gasUsed,
          status: receipt.status,
          cumulativeGasUsed: receipt.cumulativeGasUsed,
          contractAddress: receipt.contractAddress,
          logsBloom: receipt.logsBloom,
        })
        expect(json.blockHash).to.equal(null)
        expect(json.blockNumber).to.equal('0x3')
      }
      expect(incrementJson).to.include({ hash: increment, transactionIndex: '0x0', status: '0x1', contractAddress: null })
      expect(plainJson).to.include({ hash: plain, transactionIndex: '0x1', gasUsed: '0x5208' })
      const logs = incrementJson.logs as RpcLog[]
      expect(logs).to.have.length(1)
      const { timestamp } = await client.request<RpcBlock>('eth_getBlockByNumber', ['pending', false])
      expect(logs[0]).to.deep.equal(firstIncrementLog(counter, bob.address, increment, ZERO_HASH, timestamp))
      expect(plainJson.logs).to.deep.equal([])
      expect(BigInt(plainJson.cumulativeGasUsed as Hex)).to.equal(BigInt(incrementJson.gasUsed as Hex) + 21000n)
    })

    it('with a filter object sends only the full transactions having a matching log', async function () {
      const { alice, bob, carol, counter, token } = await deployScene(chain)
      const client = await connect()
      const ofCounter = await client.subscribe('newPreconfBlockTransactions', { address: counter })
      const transfersToCarol = await client.subscribe('newPreconfBlockTransactions', { topics: [TRANSFER, null, topicOf(carol.address)] })
      const none = await client.subscribe('newPreconfBlockTransactions', { address: carol.address })
      const unfiltered = await client.subscribe('newPreconfBlockTransactions', true)

      await chain.sendRawTransaction(await signEthTransfer(carol, bob.address, 0))
      const increment = await chain.sendRawTransaction(await signIncrement(bob, counter, 0))
      await chain.sendRawTransaction(await signTokenTransfer(alice, token, bob.address, 1n, 2))
      const toCarol = await chain.sendRawTransaction(await signTokenTransfer(alice, token, carol.address, 2n, 3))
      await chain.clock.advance(200)
      const everything = await client.waitForNotifications<{ hash: Hex }>(unfiltered, 4)
      await client.sync()
      const byHash = new Map(everything.map((json) => [json.hash, json]))
      expect(client.notifications(ofCounter)).to.deep.equal([byHash.get(increment)])
      expect(client.notifications(transfersToCarol)).to.deep.equal([byHash.get(toCarol)])
      expect(client.notifications(none)).to.deep.equal([])
    })

    it('newFlashblockTransactions is the same stream (alias), with hashes, true and a filter', async function () {
      const { alice, bob, counter, token } = await deployScene(chain)
      const client = await connect()
      const pairs: Array<[string, string]> = []
      for (const option of [undefined, true, { address: token }]) {
        const params = option === undefined ? [] : [option]
        pairs.push([await client.subscribe('newPreconfBlockTransactions', ...params), await client.subscribe('newFlashblockTransactions', ...params)])
      }
      await chain.sendRawTransaction(await signIncrement(bob, counter, 0))
      await chain.sendRawTransaction(await signTokenTransfer(alice, token, bob.address, 1n, 2))
      await chain.clock.advance(200)
      await chain.sendRawTransaction(await signIncrement(bob, counter, 1))
      await chain.clock.advance(1800)
      await client.waitForNotifications(pairs[0][1], 3)
      await client.sync()
      const counts = pairs.map(([original, alias]) => {
        expect(client.notifications(alias)).to.deep.equal(client.notifications(original))
        return client.notifications(alias).length
      })
      expect(counts).to.deep.equal([3, 3, 1])
    })

    it('sends every pre-confirmed transaction exactly once per subscriber, across ticks, seals, evm_mine and a filled nonce gap', async function () {
      const { alice, bob, carol, dave, counter, token } = await deployScene(chain)
      const client = await connect()
      const hashes = await client.subscribe('newPreconfBlockTransactions')
      const full = await client.subscribe('newPreconfBlockTransactions', true)
      const alias = await client.subscribe('newFlashblockTransactions')
      const sent: Hex[] = []
      const send = async (raw: Promise<Hex>) => sent.push(await client.request<Hex>('eth_sendRawTransaction', [await raw]))
      let carolNonce = 0
      let bobNonce = 0
      let aliceNonce = 2

      // Block 3 (schedule restarted by the deploy's evm_mine at the current time).
      await send(signEthTransfer(carol, dave.address, carolNonce++))
      await send(signEthTransfer(carol, dave.address, carolNonce++))
      await send(signIncrement(bob, counter, bobNonce++))
      await chain.clock.advance(200)
      await send(signEthTransfer(carol, dave.address, 3)) // behind a gap
      await chain.clock.advance(400)
      await send(signEthTransfer(carol, dave.address, 2)) // fills the gap: 2 and 3 next tick
      carolNonce = 4
      await send(signTokenTransfer(alice, token, dave.address, 1n, aliceNonce++))
      await chain.clock.advance(1400) // ticks to the seal instant, then the seal
      expect(chain.blockNumber()).to.equal(3n)
      // Block 4 by evm_mine: its last tick pre-confirms what is pending, then it seals.
      await send(signIncrement(bob, counter, bobNonce++))
      await send(signEthTransfer(carol, dave.address, carolNonce++))
      await client.request('evm_mine')
      expect(chain.blockNumber()).to.equal(4n)
      // Block 5: one tick, then a transaction caught by the tick at the seal instant.
      await send(signTokenTransfer(alice, token, bob.address, 2n, aliceNonce++))
      await send(signIncrement(bob, counter, bobNonce++))
      await chain.clock.advance(200)
      await send(signIncrement(bob, counter, bobNonce++))
      await chain.clock.advance(1600)
      await send(signEthTransfer(carol, dave.address, carolNonce++))
      await chain.clock.advance(200)
      expect(chain.blockNumber()).to.equal(5n)
      // Block 6 via preconf_advanceClock over the socket, one transaction per tick.
      for (let i = 0; i < 3; i++) {
        await send(signEthTransfer(carol, dave.address, carolNonce++))
        await client.request('preconf_advanceClock', [200])
      }
      await client.request('preconf_advanceClock', [1400])
      expect(chain.blockNumber()).to.equal(6n)
      await chain.clock.advance(4000) // two empty blocks

      await client.waitForNotifications(hashes, sent.length)
      await client.sync()
      const seen = client.notifications<Hex>(hashes)
      expect(seen).to.have.length(sent.length)
      expect(new Set(seen).size, 'no hash twice').to.equal(sent.length)
      expect([...seen].sort()).to.deep.equal([...sent].sort())
      expect(client.notifications<{ hash: Hex }>(full).map((json) => json.hash)).to.deep.equal(seen)
      expect(client.notifications(alias)).to.deep.equal(seen)
      for (const hash of sent) {
        const receipt = await client.request<RpcReceipt>('eth_getTransactionReceipt', [hash])
        expect(receipt.blockHash, `${hash} sealed`).to.not.equal(ZERO_HASH)
      }
    })
  })

  describe('newFlashblocks (Base)', function () {
    it('sends the pending block after every tick: hash 32 zero bytes, number head+1, transactions accumulating until the seal', async function () {
      const client = await connect()
      const id = await client.subscribe('newFlashblocks')
      const alice = signer(chain, 0)
      const bob = signer(chain, 1)
      const genesis = await blockByNumber(client, 0n)
      const a = await chain.sendRawTransaction(await alice.sign({ to: bob.address, nonce: 0 }))
      await chain.clock.advance(200)
      const [first] = await client.waitForNotifications<RpcBlock & { transactions: Array<Record<string, unknown>> }>(id, 1)
      expect(first).to.deep.equal(await blockByNumber(client, 'pending', true))
      expect(first).to.include({ number: '0x1', hash: ZERO_HASH, parentHash: genesis.hash, gasUsed: '0x5208' })
      expect(first.transactions).to.have.length(1)
      expect(first.transactions[0]).to.deep.equal(await client.request('eth_getTransactionByHash', [a]))
      expect(first.transactions[0]).to.include({ hash: a, blockHash: null, blockNumber: '0x1', transactionIndex: '0x0' })

      const b = await chain.sendRawTransaction(await bob.sign({ to: alice.address, nonce: 0 }))
      await chain.clock.advance(200)
      await chain.clock.advance(200) // an empty tick still sends the block
      const [, second, third] = await client.waitForNotifications<{ number: Hex; hash: Hex; gasUsed: Hex; transactions: Array<{ hash: Hex }> }>(id, 3)
      expect(second.transactions.map((tx) => tx.hash)).to.deep.equal([a, b])
      expect(second.gasUsed).to.equal('0xa410')
      expect(third).to.deep.equal(second)

      await chain.clock.advance(1400) // 7 more ticks, the last at the seal instant, then the seal
      await client.sync()
      const afterSeal = client.notifications<{ number: Hex; hash: Hex; parentHash: Hex; transactions: Array<{ hash: Hex }> }>(id)
      expect(afterSeal, 'one per tick: ten ticks in block 1').to.have.length(10)
      expect(afterSeal[9].number).to.equal('0x1')
      expect(afterSeal[9].transactions.map((tx) => tx.hash)).to.deep.equal([a, b])
      const block1 = await blockByNumber(client, 1n)
      expect(block1.transactions).to.deep.equal([a, b])

      await chain.clock.advance(200)
      const next = await client.waitForNotifications<{ number: Hex; hash: Hex; parentHash: Hex; transactions: unknown[] }>(id, 11)
      expect(next[10]).to.include({ number: '0x2', hash: ZERO_HASH, parentHash: block1.hash })
      expect(next[10].transactions).to.deep.equal([])
    })
    it('every subscriber gets each pending block as one text message of the same JSON, and a tick that adds nothing sends the block again', async function () {
      // The node writes the block's JSON once and hands the same bytes to every socket, as the
      // fragments of a text message (RFC 6455 §5.4); the client sees one message.
      const raw = await Promise.all([0, 1, 2].map(() => rawSubscriber(server.wsUrl, 'newFlashblocks')))
      const alice = signer(chain, 0)
      for (let nonce = 0; nonce < 60; nonce++) await chain.sendRawTransaction(await alice.sign({ to: signer(chain, 1).address, nonce }))
      await chain.clock.advance(200)
      await chain.clock.advance(200)
      const client = await connect()
      const pending = await blockByNumber(client, 'pending', true)
      const messages = await Promise.all(raw.map((subscriber) => subscriber.messages(2)))
      for (const [first, second] of messages) {
        expect([first.binary, second.binary]).to.deep.equal([false, false])
        expect(JSON.parse(first.text).params.result).to.deep.equal(pending)
        expect(JSON.parse(second.text).params.result).to.deep.equal(pending)
      }
      expect(pending.transactions).to.have.length(60)
      // The same bytes but for each subscriber's own subscription id.
      const results = messages.flat().map(({ text }) => text.slice(text.indexOf('"result":')))
      expect(new Set(results).size).to.equal(1)
      for (const subscriber of raw) subscriber.socket.terminate()
    })
    it('the pending block\'s text, written from its transactions\' texts (serialized once per block, at a tick or at its draft), is the block\'s JSON', async function () {
      const [raw] = await Promise.all([rawSubscriber(server.wsUrl, 'newFlashblocks')])
      const alice = signer(chain, 0)
      const bob = signer(chain, 1).address
      for (let nonce = 0; nonce < 5; nonce++) await chain.sendRawTransaction(await alice.sign({ to: bob, nonce }))
      await chain.clock.advance(200)
      for (let nonce = 5; nonce < 10; nonce++) await chain.sendRawTransaction(await alice.sign({ to: bob, nonce }))
      // The realtime clock drafts the next tick between ticks; here the spec does.
      await (chain as unknown as { [ENGINE]: Engine })[ENGINE].mining.timeline.prepareNext()
      await chain.clock.advance(200)
      const pending = await blockByNumber(await connect(), 'pending', true)
      const [first, second] = await raw.messages(2)
      for (const { text } of [first, second]) expect(text, 'compact JSON, as JSON.stringify writes it').to.equal(JSON.stringify(JSON.parse(text)))
      expect(JSON.parse(first.text).params.result.transactions).to.have.length(5)
      expect(JSON.parse(second.text).params.result).to.deep.equal(pending)
      expect(pending.transactions).to.have.length(10)
      raw.socket.terminate()
    })
  })

  describe('pendingLogs (Base)', function () {
    it('sends the logs of newly pre-confirmed transactions once (blockHash 32 zero bytes), with and without a filter', async function () {
      const { alice, bob, carol, counter, token } = await deployScene(chain)
      const client = await connect()
      const all = await client.subscribe('pendingLogs')
      const ofToken = await client.subscribe('pendingLogs', { address: token })
      const byBob = await client.subscribe('pendingLogs', { topics: [INCREMENTED, topicOf(bob.address)] })
      const byCarol = await client.subscribe('pendingLogs', { topics: [INCREMENTED, topicOf(carol.address)] })

      const increment = await chain.sendRawTransaction(await signIncrement(bob, counter, 0))
      const transfer = await chain.sendRawTransaction(await signTokenTransfer(alice, token, carol.address, 3n, 2))
      await chain.sendRawTransaction(await signEthTransfer(carol, bob.address, 0))
      await chain.clock.advance(200)
      const logs = await client.waitForNotifications<RpcLog>(all, 2)
      const receiptLogs = async (hash: Hex) => (await client.request<RpcReceipt>('eth_getTransactionReceipt', [hash])).logs
      const [incrementLog] = await receiptLogs(increment)
      const [transferLog] = await receiptLogs(transfer)
      expect(logs).to.deep.equal([incrementLog, transferLog])
      expect(incrementLog).to.deep.include({ blockHash: ZERO_HASH, blockNumber: '0x3', logIndex: '0x0', transactionHash: increment })
      expect(transferLog).to.deep.include({
        address: token,
        topics: [TRANSFER, topicOf(alice.address), topicOf(carol.address)],
        data: word(3n),
        blockHash: ZERO_HASH,
        logIndex: '0x1',
        transactionIndex: '0x1',
      })
      await client.sync()
      expect(client.notifications(ofToken)).to.deep.equal([transferLog])
      expect(client.notifications(byBob)).to.deep.equal([incrementLog])
      expect(client.notifications(byCarol)).to.deep.equal([])

      const second = await chain.sendRawTransaction(await signIncrement(bob, counter, 1))
      await chain.clock.advance(1800) // next tick, the rest of the block and the seal
      await client.sync()
      const [secondLog] = await receiptLogs(second)
      expect(client.notifications(all), 'each log once, none again at the seal').to.have.length(3)
      expect(client.notifications(all)[2]).to.deep.equal({ ...secondLog, blockHash: ZERO_HASH })
      expect(secondLog.logIndex).to.equal('0x2')
      expect(client.notifications(byBob)).to.have.length(2)
    })
  })

  describe('eth_unsubscribe', function () {
    it('returns true and stops the notifications; false for an unknown id or another connection\'s subscription (Anvil)', async function () {
      const client = await connect()
      const other = await connect()
      const stream = await client.subscribe('newPreconfBlockTransactions')
      const heads = await client.subscribe('newHeads')
      const others = await other.subscribe('newHeads')
      const alice = signer(chain, 0)
      const bob = signer(chain, 1)
      await chain.sendRawTransaction(await alice.sign({ to: bob.address, nonce: 0 }))
      await chain.clock.advance(200)
      await client.waitForNotifications(stream, 1)

      expect(await client.request('eth_unsubscribe', [stream])).to.equal(true)
      await chain.sendRawTransaction(await alice.sign({ to: bob.address, nonce: 1 }))
      await chain.clock.advance(1800)
      await client.sync()
      expect(client.notifications(stream)).to.have.length(1)
      expect(client.notifications(heads), 'the other subscription continues').to.have.length(1)

      expect(await client.request('eth_unsubscribe', [stream]), 'twice').to.equal(false)
      expect(await client.request('eth_unsubscribe', [`0x${'f'.repeat(32)}`])).to.equal(false)
      expect(await client.request('eth_unsubscribe', [others]), "another connection's id").to.equal(false)
      await chain.clock.advance(2000)
      expect(await other.waitForNotifications(others, 2)).to.have.length(2)
      expect(await client.request('eth_unsubscribe', [heads])).to.equal(true)
      await chain.clock.advance(2000)
      await client.sync()
      expect(client.notifications(heads)).to.have.length(2)
      expect(chain.listenerCount('preconfirmation')).to.equal(0)
      expect(chain.listenerCount('block')).to.equal(1)
    })
  })

  describe('several subscribers', function () {
    it('two connections each receive every notification', async function () {
      const { bob, carol, counter } = await deployScene(chain)
      const first = await connect()
      const second = await connect()
      const kinds: unknown[][] = [['newHeads'], ['newPreconfBlockTransactions', true], ['newFlashblocks'], ['pendingLogs'], ['logs', { address: counter }]]
      const ids1 = await Promise.all(kinds.map((params) => first.subscribe(...params)))
      const ids2 = await Promise.all(kinds.map((params) => second.subscribe(...params)))
      for (let i = 0; i < 3; i++) {
        await chain.sendRawTransaction(await signIncrement(bob, counter, i))
        await chain.sendRawTransaction(await signEthTransfer(carol, bob.address, i))
        await chain.clock.advance(1000)
      }
      await chain.clock.advance(1000)
      await first.sync()
      await second.sync()
      const expected = [2, 6, 20, 3, 3]
      kinds.forEach((_, k) => {
        expect(first.notifications(ids1[k]), `first ${JSON.stringify(kinds[k])}`).to.have.length(expected[k])
        expect(second.notifications(ids2[k]), `second ${JSON.stringify(kinds[k])}`).to.deep.equal(first.notifications(ids1[k]))
      })
    })
  })

  describe('RPC over the socket', function () {
    it('answers every method: eth_chainId, eth_getBalance at pending, eth_call, eth_sendRawTransaction', async function () {
      const { bob, counter } = await deployScene(chain)
      const client = await connect()
      expect(await client.request('eth_chainId')).to.equal('0x7a69')
      expect(await client.request('net_version')).to.equal('31337')
      expect(await client.request('web3_clientVersion')).to.equal('anvil-compatible/preconf-devnet/v0.1.0')
      expect(await client.request('eth_blockNumber')).to.equal('0x2')

      const carol = chain.accounts[2].address
      const raw = await bob.sign({ to: carol as Address, value: parseEther('1'), nonce: 0 })
      const hash = await client.request<Hex>('eth_sendRawTransaction', [raw])
      expect(hash).to.equal(keccak256(raw))
      const increment = await client.request<Hex>('eth_sendRawTransaction', [await signIncrement(bob, counter, 1)])
      await client.request('preconf_advanceClock', [200])
      expect(BigInt(await client.request<Hex>('eth_getBalance', [carol, 'pending']))).to.equal(10001n * ETH)
      expect(BigInt(await client.request<Hex>('eth_getBalance', [carol, 'latest']))).to.equal(10000n * ETH)
      const data = encodeFunctionData({ abi: Counter.abi, functionName: 'count' })
      const count = (tag: string) => client.request<Hex>('eth_call', [{ to: counter, data }, tag])
      expect(decodeFunctionResult({ abi: Counter.abi, functionName: 'count', data: await count('pending') })).to.equal(1n)
      expect(decodeFunctionResult({ abi: Counter.abi, functionName: 'count', data: await count('latest') })).to.equal(0n)
      const receipt = await client.request<RpcReceipt>('eth_getTransactionReceipt', [increment])
      expect(receipt).to.include({ blockHash: ZERO_HASH, blockNumber: '0x3', status: '0x1' })

      const rejected = await client.response('eth_sendRawTransaction', [raw])
      expect(rejected.error).to.deep.equal({ code: -32000, message: 'already known' })
      const bad = await client.response('eth_getBalance', ['0x12', 'latest'])
      expect(bad.error?.code).to.equal(-32602)
    })

    it('answers batches in order with ids echoed, errors in place; invalid JSON gets -32700 with id null (geth)', async function () {
      const client = await connect()
      const alice = chain.accounts[0].address
      const responses = await client.batch([
        { method: 'eth_chainId' },
        { method: 'eth_blockNumber' },
        { method: 'no_such_method' },
        { method: 'eth_getBalance', params: [alice, 'pending'] },
        { method: 'eth_subscribe', params: ['newHeads'] },
      ])
      expect(responses).to.have.length(5)
      const ids = responses.map((response) => response.id)
      expect(ids.every((id) => typeof id === 'string' && id.startsWith('b'))).to.equal(true)
      expect(new Set(ids).size).to.equal(5)
      expect(responses[0].result).to.equal('0x7a69')
      expect(responses[1].result).to.equal('0x0')
      expect(responses[2].error).to.deep.equal({ code: -32601, message: 'the method no_such_method does not exist/is not available' })
      expect(BigInt(responses[3].result as Hex)).to.equal(10000n * ETH)
      expect(responses[4].result).to.match(SUBSCRIPTION_ID)
      await chain.clock.advance(2000)
      expect(await client.waitForNotifications(responses[4].result as string, 1)).to.have.length(1)

      client.sendText('{"jsonrpc":"2.0","id":1,')
      await client.sync()
      const parseError = client.received.find((message) => (message as WireResponse).error?.code === -32700) as WireResponse
      expect(parseError).to.not.equal(undefined)
      expect(parseError.id).to.equal(null)
      expect(parseError.error?.message).to.match(/^parse error: /)

      const empty = await new Promise<unknown>((resolve) => {
        client.socket.once('message', (data) => resolve(JSON.parse(data.toString())))
        client.sendText('[]')
      })
      expect(empty).to.deep.equal({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'invalid request: empty batch' } })
    })
  })

  describe('misbehaving clients', function () {
    it('a client that disconnects abruptly does not break the chain: ticks and seals continue, others still receive', async function () {
      const gone = await connect()
      const stays = await connect()
      await gone.subscribe('newFlashblocks')
      await gone.subscribe('newPreconfBlockTransactions', true)
      await gone.subscribe('newHeads')
      const heads = await stays.subscribe('newHeads')
      const stream = await stays.subscribe('newPreconfBlockTransactions')
      expect(chain.listenerCount('preconfirmation')).to.equal(3)
      const alice = signer(chain, 0)
      const bob = signer(chain, 1)

      gone.tcp.resetAndDestroy() // TCP reset, no close frame
      const first = await chain.sendRawTransaction(await alice.sign({ to: bob.address, nonce: 0 }))
      await chain.clock.advance(200)
      const second = await chain.sendRawTransaction(await alice.sign({ to: bob.address, nonce: 1 }))
      await chain.clock.advance(3800)
      expect(chain.blockNumber()).to.equal(2n)
      expect(await stays.waitForNotifications(heads, 2)).to.have.length(2)
      expect(await stays.waitForNotifications(stream, 2)).to.deep.equal([first, second])
      await until(() => chain.listenerCount('preconfirmation') === 1 && chain.listenerCount('block') === 1, "the server dropping the lost client's subscriptions")

      const late = await connect()
      const lateHeads = await late.subscribe('newHeads')
      await chain.clock.advance(2000)
      expect(await late.waitForNotifications(lateHeads, 1)).to.have.length(1)
      expect(await stays.waitForNotifications(heads, 3)).to.have.length(3)
    })

    it('a client that closes while thousands of its subscribe requests still wait their turn leaves no subscription behind', async function () {
      const before = chain.listenerCount('block')
      const port = Number(new URL(server.url).port)
      const tcp = connectTcp(port, '127.0.0.1')
      await once(tcp, 'connect')
      tcp.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`)
      await once(tcp, 'data')
      // Masked text frames, as a client sends them, then a half-close: the server reads them all after the socket is gone.
      const frame = (text: string): Buffer => {
        const payload = Buffer.from(text)
        const mask = Buffer.from([1, 2, 3, 4])
        const head = payload.length < 126 ? Buffer.from([0x81, 0x80 | payload.length]) : Buffer.from([0x81, 0x80 | 126, payload.length >> 8, payload.length & 255])
        return Buffer.concat([head, mask, Buffer.from(payload.map((byte, i) => byte ^ mask[i % 4]!))])
      }
      tcp.end(Buffer.concat(Array.from({ length: 3000 }, (_, id) => frame(JSON.stringify({ jsonrpc: '2.0', id, method: 'eth_subscribe', params: ['newHeads'] })))))
      await once(tcp, 'close')
      await until(() => chain.listenerCount('block') === before, 'every subscription of the closed socket ended', 5000)
      await new Promise((resolve) => setTimeout(resolve, 200))
      expect(chain.listenerCount('block')).to.equal(before)
    })

    it('a client sending a malformed frame (invalid UTF-8 text) is dropped without an uncaught error (geth closes it)', async function () {
      // An uncaught exception would end the preconf-devnet process; record them instead of letting mocha abort the run.
      const uncaught: Error[] = []
      const record = (error: Error): void => {
        uncaught.push(error)
      }
      const saved = process.listeners('uncaughtException')
      process.removeAllListeners('uncaughtException')
      process.on('uncaughtException', record)
      try {
        const bad = await connect()
        const good = await connect()
        await bad.subscribe('newHeads')
        const heads = await good.subscribe('newHeads')
        bad.socket.send(Buffer.from([0xff, 0xfe, 0xfd]), { binary: false })
        await until(() => bad.isClosed, 'the server closing the bad connection')
        await chain.clock.advance(2000)
        expect(await good.waitForNotifications(heads, 1)).to.have.length(1)
        expect(await good.request('eth_blockNumber')).to.equal('0x1')
        expect(
          uncaught.map((error) => error.message),
          'uncaught exceptions in the node',
        ).to.deep.equal([])
      } finally {
        process.off('uncaughtException', record)
        for (const listener of saved) process.on('uncaughtException', listener)
      }
    })

    it('a subscriber that never reads does not stall the chain: it keeps sealing and other clients are served', async function () {
      const slow = await connect()
      const fast = await connect()
      for (let i = 0; i < 4; i++) await slow.subscribe('newFlashblocks')
      const slowStream = await slow.subscribe('newPreconfBlockTransactions', true)
      const heads = await fast.subscribe('newHeads')
      const stream = await fast.subscribe('newPreconfBlockTransactions')
      slow.tcp.pause()

      const alice = signer(chain, 0)
      const dave = signer(chain, 3)
      const sent: Hex[] = []
      for (let block = 0; block < 3; block++) {
        for (let i = 0; i < 30; i++) sent.push(await chain.sendRawTransaction(await alice.sign({ to: dave.address, nonce: sent.length })))
        await chain.clock.advance(2000)
      }
      expect(chain.blockNumber()).to.equal(3n)
      expect(await fast.waitForNotifications(heads, 3)).to.have.length(3)
      expect(await fast.waitForNotifications(stream, 90)).to.deep.equal(sent)
      expect(await fast.request('eth_blockNumber')).to.equal('0x3')
      expect(slow.notifications(slowStream), 'the slow client read nothing yet').to.have.length(0)

      // Once it reads again it gets its backlog, in order (well under the 16 MiB limit).
      slow.tcp.resume()
      const backlog = await slow.waitForNotifications<{ hash: Hex }>(slowStream, 90)
      expect(backlog.map((json) => json.hash)).to.deep.equal(sent)
    })

    it('a subscriber whose unsent backlog passes 16 MiB is disconnected and its subscriptions end; the chain goes on', async function () {
      this.timeout(15000)
      const slow = await connect()
      const fast = await connect()
      for (let i = 0; i < 24; i++) await slow.subscribe('newPreconfBlockTransactions', true)
      const stream = await fast.subscribe('newPreconfBlockTransactions')
      expect(chain.listenerCount('preconfirmation')).to.equal(25)
      slow.tcp.pause()

      // 14 transactions of ~120 kB calldata: each notification is ~240 kB of hex, 24 times over.
      const alice = signer(chain, 0)
      const sent: Hex[] = []
      const data = `0x${'00'.repeat(120_000)}` as Hex
      for (let nonce = 0; nonce < 14; nonce++) {
        sent.push(await chain.sendRawTransaction(await alice.sign({ to: signer(chain, 4).address, data, gas: 1_300_000n, nonce })))
      }
      await chain.clock.advance(200)
      await chain.sendRawTransaction(await alice.sign({ to: signer(chain, 4).address, nonce: 14 }))
      await chain.clock.advance(1800)
      expect(chain.blockNumber()).to.equal(1n)
      expect(await fast.waitForNotifications(stream, 15)).to.have.length(15)
      await until(() => chain.listenerCount('preconfirmation') === 1, 'the slow subscriber being dropped', 5000)
      await chain.clock.advance(2000)
      expect(chain.blockNumber()).to.equal(2n)
    })
  })
})

/** A bare `ws` socket subscribed to `kind`: each notification's text and whether it came as binary. */
async function rawSubscriber(url: string, kind: string) {
  const socket = new WebSocket(url)
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject))
  const received: { text: string; binary: boolean }[] = []
  const arrived = new EventEmitter()
  socket.on('message', (data: Buffer, binary: boolean) => {
    received.push({ text: data.toString(), binary })
    arrived.emit('message')
  })
  socket.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: [kind] }))
  await once(arrived, 'message')
  return {
    socket,
    /** The first `count` notifications (the subscribe response left out). */
    async messages(count: number) {
      while (received.length < count + 1) await once(arrived, 'message')
      return received.slice(1, count + 1)
    },
  }
}
