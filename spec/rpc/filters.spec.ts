/**
 * Polled filters. In-process under the manual clock: what eth_getFilterChanges reports for block,
 * pending-transaction and log filters (geth's semantics), eth_getFilterLogs, uninstalling, the
 * errors geth and Anvil answer, the 5-minute expiry on the chain's clock, that nothing listens to
 * the chain while no filter is installed, and evm_revert. Over HTTP (startServer, the manual
 * clock advanced between polls): viem's and ethers' own filter and watch actions. Against Anvil
 * 1.7.1: one sequence of raw calls run on both, answer for answer.
 */
import { expect } from 'chai'
import { Contract, JsonRpcProvider, Network } from 'ethers'
import { BaseError, createPublicClient, getAddress, http, keccak256, pad, parseAbiItem, toHex, type Log } from 'viem'
import { Counter } from '../../fixtures/artifacts/Counter.ts'
import { createChain, type Chain, type ChainOptions } from '../../lib/index.ts'
import type { Hex } from '../../lib/types.ts'
import { startAnvil, type AnvilNode } from '../support/anvil-node.ts'
import { blockOf, deploy, rejection, signCall, ZERO_HASH, type RpcLog, type Signer } from '../support/chain-helpers.ts'
import { devnetChain } from '../support/clients-viem.ts'
import { portable, runFilterSequence, type FilterSequenceRecord } from '../support/filter-sequence.ts'
import { BLOCK_TIME_MS, requestCount, startNode, until, type HttpNode } from '../support/http-clients-node.ts'
import { signer } from '../support/wallet.ts'

/** keccak256("Incremented(address,uint256)"): the Counter event's topic 0. */
const INCREMENTED = keccak256(toHex('Incremented(address,uint256)'))

const request = (chain: Chain | Chain['sealed'], method: string, params: unknown[] = []) => chain.request({ method, params }) as Promise<any>
const failure = (chain: Chain | Chain['sealed'], method: string, params: unknown[] = []) => rejection(request(chain, method, params))

/** Sends Counter.increment() from `from` at its pending nonce; the transaction's hash. */
async function sendIncrement(chain: Chain, counter: Hex, from: Signer): Promise<Hex> {
  const nonce = Number(await request(chain, 'eth_getTransactionCount', [from.address, 'pending']))
  return chain.sendRawTransaction(await signCall(from, counter as never, Counter.abi, 'increment', [], { nonce }))
}

describe('polled filters (eth_newFilter, eth_newBlockFilter, eth_newPendingTransactionFilter, in-process)', () => {
  let chain: Chain
  let alice: Signer
  let bob: Signer
  let counter: Hex
  const increment = (from: Signer) => sendIncrement(chain, counter, from)
  const hashOf = async (number: number) => (await blockOf(chain, toHex(number)))!.hash

  async function setup(options: ChainOptions = {}) {
    chain = await createChain({ clock: 'manual', ...options })
    alice = signer(chain, 0)
    bob = signer(chain, 1)
    counter = await deploy(chain, alice, Counter) // block 1
  }
  beforeEach(() => setup())

  describe('eth_newBlockFilter (geth, Anvil)', () => {
    it('reports the hashes of the blocks sealed since the last poll, oldest first, then nothing; never a block sealed before it', async () => {
      await chain.mine() // block 2: before the filter
      const id = await request(chain, 'eth_newBlockFilter')
      expect(id).to.match(/^0x[0-9a-f]{32}$/)
      await chain.clock.advance(6000) // three 2 s blocks: 3, 4, 5
      expect(await request(chain, 'eth_getFilterChanges', [id])).to.deep.equal([await hashOf(3), await hashOf(4), await hashOf(5)])
      expect(await request(chain, 'eth_getFilterChanges', [id])).to.deep.equal([])
      await chain.mine()
      expect(await request(chain, 'eth_getFilterChanges', [id])).to.deep.equal([await hashOf(6)])
    })

    it('gives each filter its own id and its own cursor', async () => {
      const first = await request(chain, 'eth_newBlockFilter')
      await chain.mine() // block 2
      const second = await request(chain, 'eth_newBlockFilter')
      await chain.mine() // block 3
      expect(first).to.not.equal(second)
      expect(await request(chain, 'eth_getFilterChanges', [first])).to.deep.equal([await hashOf(2), await hashOf(3)])
      expect(await request(chain, 'eth_getFilterChanges', [second])).to.deep.equal([await hashOf(3)])
    })
  })

  describe('eth_newPendingTransactionFilter (geth, Anvil)', () => {
    it('reports the hashes of the transactions that entered the mempool since the last poll, in arrival order; a rejected one never', async () => {
      const id = await request(chain, 'eth_newPendingTransactionFilter')
      const first = await increment(alice)
      await chain.tick() // pre-confirmed: still reported once, as having entered the pool
      const second = await increment(bob)
      await rejection(chain.sendRawTransaction(await alice.sign({ to: bob.address, nonce: 0 }))) // nonce too low
      expect(await request(chain, 'eth_getFilterChanges', [id])).to.deep.equal([first, second])
      await chain.mine()
      expect(await request(chain, 'eth_getFilterChanges', [id]), 'sealing adds nothing').to.deep.equal([])
      const third = await increment(alice)
      expect(await request(chain, 'eth_getFilterChanges', [id])).to.deep.equal([third])
    })

    it("with geth's fullTx true, reports the transactions as objects in the pool (no block yet)", async () => {
      const id = await request(chain, 'eth_newPendingTransactionFilter', [true])
      const hash = await increment(bob)
      const [transaction] = await request(chain, 'eth_getFilterChanges', [id])
      expect(transaction).to.include({ hash, from: bob.address.toLowerCase(), to: counter.toLowerCase(), nonce: '0x0', blockHash: null, blockNumber: null, transactionIndex: null })
    })
  })

  describe('eth_newFilter (geth)', () => {
    /** The log `from` (a signer) leaves when it takes the counter to `count`. */
    const incremented = (from: Signer, count: number) => ({ topics: [INCREMENTED, pad(from.address.toLowerCase() as Hex)], data: pad(toHex(count)) })

    it('reports the matching logs of blocks sealed since the last poll, shaped as eth_getLogs; pre-confirmed logs only once sealed', async () => {
      const id = await request(chain, 'eth_newFilter', [{ address: counter }])
      const hashes = [await increment(alice), await increment(bob)]
      await chain.tick()
      expect(await request(chain, 'eth_getFilterChanges', [id]), 'pre-confirmed, not sealed').to.deep.equal([])
      await chain.mine() // block 2
      const logs: RpcLog[] = await request(chain, 'eth_getFilterChanges', [id])
      const blockHash = await hashOf(2)
      expect(logs.map(({ topics, data }) => ({ topics, data }))).to.deep.equal([incremented(alice, 1), incremented(bob, 2)])
      expect(logs.map((log) => [log.blockNumber, log.blockHash, log.transactionHash, log.transactionIndex, log.logIndex, log.removed])).to.deep.equal([
        ['0x2', blockHash, hashes[0], '0x0', '0x0', false],
        ['0x2', blockHash, hashes[1], '0x1', '0x1', false],
      ])
      expect(logs).to.deep.equal(await request(chain, 'eth_getLogs', [{ blockHash }]))
      expect(await request(chain, 'eth_getFilterChanges', [id])).to.deep.equal([])
    })

    it('matches topics by position (null: any), as eth_getLogs', async () => {
      const id = await request(chain, 'eth_newFilter', [{ topics: [null, pad(bob.address.toLowerCase() as Hex)] }])
      await increment(alice)
      await increment(bob)
      await chain.mine()
      const logs: RpcLog[] = await request(chain, 'eth_getFilterChanges', [id])
      expect(logs.map(({ topics, data }) => ({ topics, data }))).to.deep.equal([incremented(bob, 2)])
      // A wildcard position matches a log without a topic there, as Anvil and Base's reth node match (geth would not);
      // a named topic beyond the log's two does not; a null among a position's choices makes it a wildcard (geth, Anvil).
      const blockHash = await hashOf(Number(chain.blockNumber()))
      expect(await request(chain, 'eth_getLogs', [{ blockHash, topics: [INCREMENTED, null, null] }])).to.have.length(2)
      expect(await request(chain, 'eth_getLogs', [{ blockHash, topics: [null, null, INCREMENTED] }])).to.deep.equal([])
      expect(await request(chain, 'eth_getLogs', [{ blockHash, topics: [[null, INCREMENTED]] }])).to.have.length(2)
    })

    it('an empty address list names no emitter: every log matches, as geth (filter.go: `len(addresses) > 0`) and Anvil (audit P, P3)', async () => {
      const id = await request(chain, 'eth_newFilter', [{ address: [] }])
      await increment(alice)
      await chain.mine()
      expect(await request(chain, 'eth_getFilterChanges', [id])).to.have.length(1)
      const blockHash = await hashOf(Number(chain.blockNumber()))
      expect(await request(chain, 'eth_getLogs', [{ blockHash, address: [] }])).to.have.length(1)
      expect(await request(chain, 'eth_getLogs', [{ blockHash, address: [], topics: [[]] }])).to.have.length(1)
    })

    it('reports only blocks within a numeric range, and nothing sealed before it was installed even from block 0 (geth; Anvil reports those on the first poll)', async () => {
      const fromZero = await request(chain, 'eth_newFilter', [{ fromBlock: '0x0' }])
      const ranged = await request(chain, 'eth_newFilter', [{ fromBlock: '0x3', toBlock: '0x4' }])
      for (let count = 1; count <= 4; count++) {
        await increment(alice)
        await chain.mine() // blocks 2 to 5, the counter at 1 to 4
      }
      const numbers = async (id: Hex) => ((await request(chain, 'eth_getFilterChanges', [id])) as RpcLog[]).map((log) => log.blockNumber)
      expect(await numbers(ranged)).to.deep.equal(['0x3', '0x4'])
      expect(await numbers(fromZero)).to.deep.equal(['0x2', '0x3', '0x4', '0x5'])
    })

    it("accepts toBlock 'pending' (Anvil; geth refuses it) and reports the same as 'latest': sealed logs, once", async () => {
      const id = await request(chain, 'eth_newFilter', [{ fromBlock: 'latest', toBlock: 'pending' }])
      await increment(alice)
      await chain.tick()
      expect(await request(chain, 'eth_getFilterChanges', [id])).to.deep.equal([])
      await chain.mine()
      expect(((await request(chain, 'eth_getFilterChanges', [id])) as RpcLog[]).map((log) => log.blockHash)).to.deep.equal([await hashOf(2)])
    })

    it('a blockHash filter reports no changes; eth_getFilterLogs gives its block', async () => {
      await increment(alice)
      await chain.mine()
      const blockHash = await hashOf(2)
      const id = await request(chain, 'eth_newFilter', [{ blockHash }])
      await increment(alice)
      await chain.mine()
      expect(await request(chain, 'eth_getFilterChanges', [id])).to.deep.equal([])
      expect(await request(chain, 'eth_getFilterLogs', [id])).to.deep.equal(await request(chain, 'eth_getLogs', [{ blockHash }]))
    })

    it("refuses a reversed range with geth's -32602 `invalid block range params`, and a bad field naming it", async () => {
      expect(await failure(chain, 'eth_newFilter', [{ fromBlock: '0x5', toBlock: '0x2' }])).to.include({ code: -32602, message: 'invalid block range params' })
      // From `pending` to `latest` (the default) is reversed too: refused at install, as eth_getLogs refuses it, not at every eth_getFilterLogs (audit N, N3).
      for (const range of [{ fromBlock: 'pending' }, { fromBlock: 'pending', toBlock: 'latest' }, { fromBlock: 'pending', toBlock: 'earliest' }]) {
        expect(await failure(chain, 'eth_newFilter', [range]), JSON.stringify(range)).to.include({ code: -32602, message: 'invalid block range params' })
        expect(await failure(chain, 'eth_getLogs', [range]), JSON.stringify(range)).to.include({ code: -32602, message: 'invalid block range params' })
      }
      expect(await request(chain, 'eth_getFilterLogs', [await request(chain, 'eth_newFilter', [{ fromBlock: 'pending', toBlock: 'pending' }])])).to.deep.equal([])
      const bad = await failure(chain, 'eth_newFilter', [{ fromBlock: 'banana' }])
      expect(bad.code).to.equal(-32602)
      expect(bad.message).to.match(/^invalid argument 0 \(filter\)\.fromBlock: /)
      expect(await failure(chain, 'eth_newFilter')).to.include({ code: -32602 })
    })
  })

  describe('eth_getFilterLogs (geth)', () => {
    it('answers what eth_getLogs answers now for the filter object, and leaves the changes to report', async () => {
      await increment(alice)
      await chain.mine() // block 2
      const object = { address: counter, fromBlock: '0x0' }
      const id = await request(chain, 'eth_newFilter', [object])
      await increment(bob)
      await chain.mine() // block 3
      const all: RpcLog[] = await request(chain, 'eth_getFilterLogs', [id])
      expect(all.map((log) => log.blockNumber)).to.deep.equal(['0x2', '0x3'])
      expect(all).to.deep.equal(await request(chain, 'eth_getLogs', [object]))
      expect(((await request(chain, 'eth_getFilterChanges', [id])) as RpcLog[]).map((log) => log.blockNumber)).to.deep.equal(['0x3'])
    })

    it("with toBlock 'pending', includes pre-confirmed logs on the pre-confirmation endpoint only, as eth_getLogs there", async () => {
      const id = await request(chain, 'eth_newFilter', [{ fromBlock: '0x0', toBlock: 'pending' }])
      await increment(alice)
      await chain.tick()
      const preconfirmed: RpcLog[] = await request(chain, 'eth_getFilterLogs', [id])
      expect(preconfirmed.map((log) => [log.blockNumber, log.blockHash])).to.deep.equal([['0x2', ZERO_HASH]])
      expect(await request(chain.sealed, 'eth_getFilterLogs', [id])).to.deep.equal([])
    })

    it('is `filter not found` (-32000) for a block or pending-transaction filter, as in geth and Anvil', async () => {
      for (const method of ['eth_newBlockFilter', 'eth_newPendingTransactionFilter']) {
        const id = await request(chain, method)
        expect(await failure(chain, 'eth_getFilterLogs', [id])).to.include({ code: -32000, message: 'filter not found' })
      }
    })
  })

  describe('eth_uninstallFilter and unknown ids (geth, Anvil)', () => {
    it('returns true, then false; the filter is then `filter not found` (-32000) for changes and logs', async () => {
      const id = await request(chain, 'eth_newFilter', [{}])
      expect(await request(chain, 'eth_uninstallFilter', [id])).to.equal(true)
      expect(await request(chain, 'eth_uninstallFilter', [id])).to.equal(false)
      for (const method of ['eth_getFilterChanges', 'eth_getFilterLogs']) {
        expect(await failure(chain, method, [id])).to.include({ code: -32000, message: 'filter not found' })
        expect(await failure(chain, method, ['0xdeadbeef'])).to.include({ code: -32000, message: 'filter not found' })
      }
    })

    it('takes ids exactly as given (an upper-cased id is unknown, as in Anvil); a non-string id is -32602', async () => {
      const id: string = await request(chain, 'eth_newBlockFilter')
      expect(await failure(chain, 'eth_getFilterChanges', [`0x${id.slice(2).toUpperCase()}ff`])).to.include({ code: -32000 })
      expect(await failure(chain, 'eth_getFilterChanges', [5])).to.include({ code: -32602 })
      expect(await failure(chain, 'eth_getFilterChanges')).to.include({ code: -32602 })
    })
  })

  it('are shared by the pre-confirmation and standard endpoints of one chain: one poll consumes the changes for both', async () => {
    const id = await request(chain.sealed, 'eth_newBlockFilter')
    await chain.mine()
    expect(await request(chain, 'eth_getFilterChanges', [id])).to.deep.equal([await hashOf(2)])
    expect(await request(chain.sealed, 'eth_getFilterChanges', [id])).to.deep.equal([])
  })

  describe('expiry (geth: 5 minutes without eth_getFilterChanges, on the chain clock)', () => {
    beforeEach(() => setup({ blockTimeMs: 60_000, preconfIntervalMs: 60_000 }))

    it('keeps a filter polled within 5 minutes; drops it after 5 minutes unpolled (eth_getFilterLogs does not count as a poll)', async () => {
      const id = await request(chain, 'eth_newFilter', [{}])
      await chain.clock.advance(299_999)
      expect(await request(chain, 'eth_getFilterChanges', [id])).to.deep.equal([])
      await chain.clock.advance(299_999)
      expect(await request(chain, 'eth_getFilterLogs', [id])).to.deep.equal([])
      await chain.clock.advance(1)
      expect(await failure(chain, 'eth_getFilterChanges', [id])).to.include({ code: -32000, message: 'filter not found' })
    })

    it('does not age with evm_increaseTime (block timestamps, not the clock)', async () => {
      const id = await request(chain, 'eth_newBlockFilter')
      await chain.clock.advance(240_000) // four 60 s blocks
      await request(chain, 'evm_increaseTime', [3600])
      await chain.clock.advance(59_999) // 299 999 ms of the clock since installed, an hour more of block time
      await chain.mine()
      expect(await request(chain, 'eth_getFilterChanges', [id])).to.have.length(5)
    })
  })

  describe('cost: the chain is listened to only while a filter needs it', () => {
    const listeners = () => [chain.listenerCount('block'), chain.listenerCount('transaction')]

    it('adds no listener until a filter is installed, one per event kind in use, and removes them with the last filter', async () => {
      expect(listeners()).to.deep.equal([0, 0])
      const pending = await request(chain, 'eth_newPendingTransactionFilter')
      expect(listeners()).to.deep.equal([0, 1])
      const ids = [await request(chain, 'eth_newBlockFilter'), await request(chain, 'eth_newFilter', [{}]), await request(chain, 'eth_newFilter', [{}])]
      expect(listeners()).to.deep.equal([1, 1])
      for (const id of ids) await request(chain, 'eth_uninstallFilter', [id])
      expect(listeners()).to.deep.equal([0, 1])
      await request(chain, 'eth_uninstallFilter', [pending])
      expect(listeners()).to.deep.equal([0, 0])
    })

    it('removes them when the last filter expires', async () => {
      await request(chain, 'eth_newBlockFilter')
      await request(chain, 'eth_newPendingTransactionFilter')
      await chain.clock.advance(300_000) // the seals on the way find the filters expired
      await increment(alice)
      expect(listeners()).to.deep.equal([0, 0])
    })
  })

  describe('evm_revert (filters are not part of snapshots)', () => {
    it('stay installed; blocks the revert discarded are not reported, blocks sealed after it are', async () => {
      const blocks = await request(chain, 'eth_newBlockFilter')
      const logs = await request(chain, 'eth_newFilter', [{ address: counter }])
      const pending = await request(chain, 'eth_newPendingTransactionFilter')
      const snapshot = await request(chain, 'evm_snapshot')
      const discarded = await increment(alice)
      await chain.mine()
      expect(await request(chain, 'evm_revert', [snapshot])).to.equal(true)
      expect(await request(chain, 'eth_getFilterChanges', [blocks])).to.deep.equal([])
      expect(await request(chain, 'eth_getFilterChanges', [logs])).to.deep.equal([])
      expect(await request(chain, 'eth_getFilterChanges', [pending]), 'it did enter the mempool').to.deep.equal([discarded])
      const again = await increment(bob)
      await chain.mine()
      expect(await request(chain, 'eth_getFilterChanges', [blocks])).to.deep.equal([await hashOf(2)])
      expect(((await request(chain, 'eth_getFilterChanges', [logs])) as RpcLog[]).map((log) => log.transactionHash)).to.deep.equal([again])
    })
  })
})

describe('polled filters over HTTP with viem and ethers, unchanged (startServer, manual clock)', () => {
  let node: HttpNode
  let alice: Signer
  let bob: Signer
  let counter: Hex
  const increment = (from: Signer) => sendIncrement(node.chain, counter, from)
  const client = (url = node.url) => createPublicClient({ chain: devnetChain(), transport: http(url, { retryCount: 0 }), pollingInterval: 20 })
  /** Seals the next block (the node's block time of the clock; the schedule restarted at the deployment's seal). */
  const seal = () => node.chain.clock.advance(BLOCK_TIME_MS)
  /** Waits until clients have polled `polls` filters installed after request `since` (viem and ethers poll once right after installing). */
  const installed = (since: number, polls = 1) =>
    until('the filters to be installed and polled', () => (requestCount(node, 'eth_getFilterChanges', since) >= polls ? true : undefined))
  const count = async () => (await client().readContract({ address: counter, abi: Counter.abi, functionName: 'count' })) as bigint

  before(async () => {
    node = await startNode({ clock: 'manual' })
    alice = signer(node.chain, 0)
    bob = signer(node.chain, 1)
    counter = await deploy(node.chain, alice, Counter)
  })
  after(() => node.close())

  it('viem createContractEventFilter, getFilterChanges, getFilterLogs, uninstallFilter: decoded logs, then `filter not found`', async () => {
    const viem = client()
    const start = await count()
    const filter = await viem.createContractEventFilter({ address: counter, abi: Counter.abi, eventName: 'Incremented' })
    const hashes = [await increment(alice), await increment(bob)]
    await seal()
    const changes = await viem.getFilterChanges({ filter })
    expect(changes.map((log) => [log.eventName, log.args, log.transactionHash])).to.deep.equal([
      ['Incremented', { by: getAddress(alice.address), count: start + 1n }, hashes[0]],
      ['Incremented', { by: getAddress(bob.address), count: start + 2n }, hashes[1]],
    ])
    expect(await viem.getFilterLogs({ filter }), 'both in the head block').to.deep.equal(changes)
    expect(await viem.uninstallFilter({ filter })).to.equal(true)
    const error = (await rejection(viem.getFilterChanges({ filter }), BaseError)).walk((e) => typeof (e as { code?: unknown }).code === 'number')
    expect(error).to.include({ code: -32000, details: 'filter not found' })
  })

  it('viem watchContractEvent (filter mode) delivers a log once sealed, not while pre-confirmed, through eth_getFilterChanges only; unwatching uninstalls', async () => {
    const since = node.methods.length
    const received: Log[] = []
    const unwatch = client().watchContractEvent({ address: counter, abi: Counter.abi, eventName: 'Incremented', onLogs: (logs) => void received.push(...logs) })
    await installed(since)
    const hash = await increment(alice)
    await node.chain.tick()
    const polls = requestCount(node, 'eth_getFilterChanges', since)
    await until('two more polls', () => (requestCount(node, 'eth_getFilterChanges', since) >= polls + 2 ? true : undefined))
    expect(received, 'pre-confirmed only').to.deep.equal([])
    await seal()
    await until('the sealed log', () => (received.length > 0 ? true : undefined))
    unwatch()
    expect(received.map((log) => log.transactionHash)).to.deep.equal([hash])
    expect(requestCount(node, 'eth_getLogs', since)).to.equal(0)
    await until('eth_uninstallFilter', () => (requestCount(node, 'eth_uninstallFilter', since) === 1 ? true : undefined))
  })

  it('viem watchEvent (filter mode) with an indexed argument delivers only the matching logs', async () => {
    const since = node.methods.length
    const received: Log[] = []
    const event = parseAbiItem('event Incremented(address indexed by, uint256 count)')
    const unwatch = client().watchEvent({ address: counter, event, args: { by: getAddress(bob.address) }, onLogs: (logs) => void received.push(...logs) })
    await installed(since)
    await increment(alice)
    const hash = await increment(bob)
    await seal()
    await until('the log', () => (received.length > 0 ? true : undefined))
    unwatch()
    expect(received.map((log) => log.transactionHash)).to.deep.equal([hash])
  })

  it('viem watchPendingTransactions (eth_newPendingTransactionFilter) delivers the hashes in arrival order', async () => {
    const since = node.methods.length
    const received: Hex[] = []
    const unwatch = client().watchPendingTransactions({ onTransactions: (hashes) => void received.push(...hashes) })
    await installed(since)
    const hashes = [await increment(alice), await increment(bob)]
    await until('both hashes', () => (received.length >= 2 ? true : undefined))
    unwatch()
    expect(received).to.deep.equal(hashes)
  })

  it('viem watchBlocks (polling eth_getBlockByNumber) delivers the block each seal makes', async () => {
    const received: { number: bigint | null; hash: Hex | null }[] = []
    const unwatch = client().watchBlocks({ onBlock: (block) => void received.push({ number: block.number, hash: block.hash }) })
    await until('the first poll', () => (received.length > 0 ? true : undefined))
    await seal()
    const head = node.chain.blockNumber()
    const block = await until(`block ${head}`, () => received.find((seen) => seen.number === head))
    unwatch()
    expect(block.hash).to.equal((await blockOf(node.chain, toHex(head)))!.hash)
  })

  it('viem on the standard endpoint (/sealed): a block filter installed there is the same filter on the pre-confirmation endpoint', async () => {
    const filter = await client(node.server.sealedUrl).createBlockFilter()
    await seal()
    expect(await client(node.server.sealedUrl).getFilterChanges({ filter })).to.deep.equal([(await blockOf(node.chain, 'latest'))!.hash])
    expect(await client().getFilterChanges({ filter })).to.deep.equal([])
    await client().uninstallFilter({ filter })
  })

  it("ethers JsonRpcProvider: contract.on (eth_newFilter) and provider.on('pending') (eth_newPendingTransactionFilter), polled on each new block", async () => {
    const provider = new JsonRpcProvider(node.url, Network.from(31337), { staticNetwork: true, pollingInterval: 20, cacheTimeout: -1 })
    const contract = new Contract(counter, Counter.abi, provider)
    const events: [string, bigint][] = []
    const pending: string[] = []
    const start = await count()
    const since = node.methods.length
    await contract.on('Incremented', (by: string, value: bigint) => void events.push([by, value]))
    await provider.on('pending', (hash: string) => void pending.push(hash))
    await installed(since, 2)
    // ethers polls its filters on each new block it sees: its block poller has to know the head first.
    await until('ethers polling eth_blockNumber', () => (requestCount(node, 'eth_blockNumber', since) > 0 ? true : undefined))
    const hashes = [await increment(alice), await increment(bob)]
    await seal()
    await until('both events and both hashes', () => (events.length >= 2 && pending.length >= 2 ? true : undefined))
    await contract.removeAllListeners()
    await provider.removeAllListeners()
    provider.destroy()
    expect(events).to.deep.equal([[getAddress(alice.address), start + 1n], [getAddress(bob.address), start + 2n]])
    expect(pending).to.deep.equal(hashes)
  })
})

describe('polled filters: the same sequence against Anvil 1.7.1 (raw JSON-RPC; devnet with auto mining)', function () {
  let anvil: AnvilNode | undefined
  let devnet: HttpNode | undefined
  let theirs: FilterSequenceRecord
  let ours: FilterSequenceRecord

  before(async function () {
    const started = await startAnvil([])
    if ('unavailable' in started) {
      console.log(`\n    ANVIL COULD NOT RUN (${started.unavailable}): the Anvil comparison of polled filters is skipped\n`)
      this.skip()
    }
    anvil = started as AnvilNode
    devnet = await startNode({ clock: 'manual', mining: 'auto' })
    theirs = await runFilterSequence(anvil.url)
    ours = await runFilterSequence(devnet.url)
  })
  after(async () => {
    anvil?.stop()
    await devnet?.close()
  })

  it('ids: 16 bytes of hex on both (Anvil: random letters, the devnet: counted)', () => {
    for (const record of [theirs, ours]) for (const id of Object.values(record.ids)) expect(id).to.match(/^0x[0-9a-f]{32}$/)
  })

  it('the same transactions (same signed bytes): the pending-transaction filter reports their hashes on both, then nothing', () => {
    expect(ours.sent).to.deep.equal(theirs.sent)
    expect(ours.changes.pending).to.deep.equal([theirs.sent, []])
    expect(theirs.changes.pending).to.deep.equal([theirs.sent, []])
  })

  it("the block filter reports blocks 1 to 3, each node's own hashes, then nothing", () => {
    expect(theirs.changes.blocks).to.deep.equal([theirs.blockHashes, []])
    expect(ours.changes.blocks).to.deep.equal([ours.blockHashes, []])
  })

  it('the log filter reports the same two logs (the same fields; block hashes and timestamps are each chain’s), then nothing', () => {
    const [first, second] = [ours.changes.logs[0] as Record<string, unknown>[], theirs.changes.logs[0] as Record<string, unknown>[]]
    expect(first.map(portable)).to.deep.equal(second.map(portable))
    expect(first.map((log) => Object.keys(log).sort())).to.deep.equal(second.map((log) => Object.keys(log).sort()))
    expect(first.map((log) => log.blockHash)).to.deep.equal(ours.blockHashes.slice(1))
    expect(first.map((log) => log.transactionHash)).to.deep.equal(ours.sent.slice(1))
    expect([ours.changes.logs[1], theirs.changes.logs[1]]).to.deep.equal([[], []])
  })

  it('eth_getFilterLogs gives the same logs', () => {
    const logs = (record: FilterSequenceRecord) => (record.filterLogs as Record<string, unknown>[]).map(portable)
    expect(logs(ours)).to.have.length(2)
    expect(logs(ours)).to.deep.equal(logs(theirs))
  })

  it('errors and uninstalling: the same results and codes; the same `filter not found` text', () => {
    for (const [what, reply] of Object.entries(theirs.replies)) {
      const mine = ours.replies[what]
      if (reply.error === undefined) expect(mine.result, what).to.deep.equal(reply.result)
      else if (reply.error.code === -32000) expect(mine.error, what).to.deep.equal(reply.error)
      else expect(mine.error?.code, what).to.equal(reply.error.code) // -32602: serde's texts there, geth-style argument names here
    }
  })
})
