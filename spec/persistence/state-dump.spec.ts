/**
 * Saving and loading a chain's whole state (lib/persistence): `chain.dumpState()`, the state
 * option of createChain, `anvil_dumpState` / `anvil_loadState` as viem 2.57.1 sends them. A
 * four-block world (spec/support/persistence-world.ts) is dumped and loaded into fresh chains,
 * which must answer every read the same, at every block, and go on sealing the same blocks;
 * corrupt dumps are refused without touching the chain; a fork dumps what it fetched; and a
 * state of 100k accounts is timed (the figures are printed, the bounds generous).
 */
import { constants } from 'node:buffer'
import { gzipSync } from 'node:zlib'
import { expect } from 'chai'
import { createTestClient, custom, encodeFunctionData, pad } from 'viem'
import { Counter } from '../../fixtures/artifacts/Counter.ts'
import { createChain, startServer, type Chain } from '../../lib/index.ts'
import type { Address, Hex } from '../../lib/types.ts'
import { dumpWithAccounts, syntheticAddress, syntheticBalance, timed } from '../support/big-state.ts'
import { rejection } from '../support/chain-helpers.ts'
import { accountsAt, readEverything, rpc, type ChainReads } from '../support/chain-reads.ts'
import { CORRUPTIONS, hexOfJson, jsonOfHex } from '../support/dump-corruptions.ts'
import { startUpstream, type Upstream } from '../support/persistence-fork.ts'
import { buildWorld, CODE_HOLDER, countAt, ETHER, HELD_CODE, IMPERSONATED, NEXT_TIMESTAMP, RECIPIENT, type World } from '../support/persistence-world.ts'
import { rpc as httpRpc } from '../support/server-http.ts'
import { devnetChain } from '../support/clients-viem.ts'
import { signer } from '../support/wallet.ts'

const word = (value: bigint): Hex => pad(`0x${value.toString(16)}`, { size: 32 })
const reads = (world: World, chain: Chain): Promise<ChainReads> => readEverything(chain, world.addresses, world.slots)
const latestBlock = (chain: Chain) => rpc(chain, 'eth_getBlockByNumber', 'latest', false)

describe('state dump and load (chain.dumpState, createChain({ state }), anvil_dumpState / anvil_loadState as Anvil)', function () {
  let world: World
  let dump: Hex
  let original: ChainReads

  before(async () => {
    world = await buildWorld()
    dump = (await world.chain.dumpState()) as Hex
    original = await reads(world, world.chain)
  })

  describe('encoding', () => {
    it("dumpState() is the hex of gzipped JSON; dumpState('json') is that JSON text, format preconf-devnet/state version 1", async () => {
      expect(dump.slice(0, 6), 'gzip magic 1f 8b').to.equal('0x1f8b')
      const text = await world.chain.dumpState('json')
      expect(jsonOfHex(dump)).to.deep.equal(JSON.parse(text))
      const json = JSON.parse(text)
      expect([json.format, json.version, json.chainId, json.blocks.length]).to.deep.equal(['preconf-devnet/state', 1, 31337, 5])
      expect(json.blocks.map((block: { number: Hex }) => block.number)).to.deep.equal(['0x0', '0x1', '0x2', '0x3', '0x4'])
    })

    it('createChain({ state }) takes hex of gzip, hex of JSON, JSON text, gzip bytes, JSON bytes and the parsed object, each giving the same chain', async () => {
      const text = await world.chain.dumpState('json')
      const gzip = Buffer.from(dump.slice(2), 'hex')
      const inputs = { 'hex of gzip': dump, 'hex of JSON': `0x${Buffer.from(text).toString('hex')}`, 'JSON text': text, 'gzip bytes': new Uint8Array(gzip), 'JSON bytes': Buffer.from(text), object: JSON.parse(text) }
      for (const [form, state] of Object.entries(inputs)) {
        const loaded = await createChain({ state })
        expect(await loaded.dumpState('json'), form).to.equal(text)
      }
    })
  })

  describe('a load into a fresh chain', () => {
    let loaded: Chain
    before(async () => {
      loaded = await createChain({ state: dump })
    })

    it('answers every read the same: blocks by number and hash, transactions, receipts, all logs, and each account at every sealed block', async () => {
      const again = await reads(world, loaded)
      expect(again).to.deep.equal(original)
      // Worked out from the world: 9 transactions; logs: Token's mint and transfer, three increments.
      expect([again.blockNumber, Object.keys(again.receipts).length, again.logs.length]).to.deep.equal(['0x4', 9, 5])
    })

    it('keeps history as written: Counter 0 → 11, a wiped word, a self-destructed account, test-control edits', async () => {
      expect([await countAt(loaded, world.counter, '0x1'), await countAt(loaded, world.counter, '0x3')]).to.deep.equal([0n, 11n])
      expect(await loaded.getStorageAt(world.wiped, 7n, '0x1')).to.equal(word(0x77n))
      expect(await rpc(loaded, 'eth_getStorageAt', world.wiped, '0x7', '0x2')).to.equal(word(0n))
      expect(await rpc(loaded, 'eth_getCode', world.wiped, '0x2')).to.equal(Counter.deployedBytecode)
      const destroyed = (block: Hex) => accountsAt(loaded, [world.destroyed], [3n], block)
      expect((await destroyed('0x1'))[world.destroyed]).to.deep.equal({ balance: '0xde0b6b3a7640000', nonce: '0x0', code: '0x', storage: [word(0x33n)] })
      expect((await destroyed('0x2'))[world.destroyed]).to.deep.equal({ balance: '0x0', nonce: '0x0', code: '0x', storage: [word(0n)] })
      expect([await rpc(loaded, 'eth_getBalance', RECIPIENT, '0x0'), await rpc(loaded, 'eth_getBalance', RECIPIENT, '0x1')]).to.deep.equal(['0x0', '0xde0b6b3a7640000'])
      expect(await loaded.getBalance(loaded.accounts[9].address)).to.equal(123n)
      expect([await loaded.getCode(CODE_HOLDER), await loaded.getStorageAt(CODE_HOLDER, 1n)]).to.deep.equal([HELD_CODE, word(0x42n)])
    })

    it('keeps the impersonated sender’s transaction (no signature to recover it from) and its log', async () => {
      const transaction = await rpc(loaded, 'eth_getTransactionByHash', world.impersonatedTransaction)
      const receipt = await rpc(loaded, 'eth_getTransactionReceipt', world.impersonatedTransaction)
      expect([transaction.from, transaction.blockNumber, receipt.status, receipt.logs[0].topics[1]]).to.deep.equal([IMPERSONATED, '0x2', '0x1', pad(IMPERSONATED)])
      expect(await loaded.getTransactionCount(IMPERSONATED)).to.equal(1)
    })

    it('BLOCKHASH answers the loaded blocks’ hashes', async () => {
      for (let number = 0n; number < 4n; number++) {
        const data = encodeFunctionData({ abi: Counter.abi, functionName: 'blockHashOf', args: [number] })
        expect(await loaded.call({ to: world.counter, data }), `block ${number}`).to.equal(loaded.blockByNumber(number)!.hash)
      }
    })

    it('dumps again to the same dump', async () => {
      expect(await loaded.dumpState('json')).to.equal(await world.chain.dumpState('json'))
    })

    it("answers the dump's eth_chainId (31337), or the chainId option's when given", async () => {
      expect(await rpc(loaded, 'eth_chainId')).to.equal('0x7a69')
      const renamed = await createChain({ state: dump, chainId: 999 })
      expect([await rpc(renamed, 'eth_chainId'), renamed.blockNumber()]).to.deep.equal(['0x3e7', 4n])
    })
  })

  it("a Base chain's dump names its preset: loaded without one, the chain goes on as a Base chain (its next block opens with the L1-attributes deposit), alike on both", async () => {
    const source = await createChain({ clock: 'manual', preset: 'base' })
    await source.clock.advance(2000)
    const dumped = (await source.dumpState()) as Hex
    expect(jsonOfHex(dumped).preset).to.equal('base')
    expect(jsonOfHex((await (await createChain({ clock: 'manual' })).dumpState()) as Hex).preset).to.equal(undefined)
    const loaded = await createChain({ clock: 'manual', state: dumped })
    expect(await rpc(loaded, 'eth_chainId')).to.equal('0x2105')
    for (const chain of [source, loaded]) await chain.clock.advance(2000)
    const block = await latestBlock(loaded)
    expect(block.transactions).to.have.length(1)
    expect((await rpc(loaded, 'eth_getTransactionByHash', block.transactions[0])).type).to.equal('0x7e')
    expect(block.hash).to.equal((await latestBlock(source)).hash)
  })

  it('continues the same blocks and clock: advancing both chains alike seals identical blocks (the next at the timestamp set before the dump)', async () => {
    const source = await buildWorld()
    const loaded = await createChain({ state: await source.chain.dumpState() })
    for (const chain of [source.chain, loaded]) await chain.clock.advance(2000)
    expect(await latestBlock(loaded)).to.deep.equal(await latestBlock(source.chain))
    expect((await latestBlock(loaded)).timestamp).to.equal(`0x${NEXT_TIMESTAMP.toString(16)}`)
    const raw = await signer(loaded, 4).sign({ to: RECIPIENT, value: 7n })
    for (const chain of [source.chain, loaded]) {
      await chain.sendRawTransaction(raw)
      await chain.clock.advance(2000)
    }
    const [next, sourceNext] = [await latestBlock(loaded), await latestBlock(source.chain)]
    expect([next.number, next.transactions.length, next.hash, next.stateRoot, next.timestamp]).to.deep.equal(['0x6', 1, sourceNext.hash, sourceNext.stateRoot, sourceNext.timestamp])
  })

  it("keeps the settings test controls made for the blocks to come (coinbase, gas limit, the next block's base fee and prevRandao), as Anvil's dump keeps its block environment; a dump from before them loads with the chain's own", async () => {
    const source = await createChain()
    const coinbase = '0x00000000000000000000000000000000000c0b1e'
    const prevRandao = `0x${'42'.repeat(32)}`
    await rpc(source, 'anvil_setCoinbase', coinbase)
    await rpc(source, 'evm_setBlockGasLimit', '0x2000000')
    await rpc(source, 'anvil_setNextBlockBaseFeePerGas', '0x3b9aca07')
    await rpc(source, 'hardhat_setPrevRandao', prevRandao)
    const dumped = (await source.dumpState()) as Hex
    const loaded = await createChain({ state: dumped })
    for (const chain of [source, loaded]) await chain.mine()
    const block = await latestBlock(loaded)
    expect([block.miner, block.gasLimit, block.baseFeePerGas, block.mixHash]).to.deep.equal([coinbase, '0x2000000', '0x3b9aca07', prevRandao])
    expect(block.hash).to.equal((await latestBlock(source)).hash)
    const json = jsonOfHex(dumped)
    delete json.blockSettings
    const older = await createChain({ state: hexOfJson(json) })
    await older.mine()
    const fresh = await createChain()
    await fresh.mine()
    expect([(await latestBlock(older)).miner, (await latestBlock(older)).gasLimit]).to.deep.equal([(await latestBlock(fresh)).miner, (await latestBlock(fresh)).gasLimit])
  })

  it('a schedule that does not fit its clock (a seal long due, or never) is counted afresh from the clock: one block per block time, no backlog', async () => {
    const source = await createChain()
    for (const sealAt of [0, source.clock.now() - 20_000]) {
      const json = jsonOfHex((await source.dumpState()) as Hex)
      json.clock.schedule.sealAt = sealAt
      json.clock.schedule.nextTickAt = sealAt
      const loaded = await createChain({ state: hexOfJson(json) })
      await loaded.clock.advance(2000)
      expect(loaded.blockNumber()).to.equal(1n)
    }
  })

  it('leaves out what is pre-confirmed but not sealed, and the mempool', async () => {
    const source = await createChain({ state: dump })
    const preconfirmed = await source.sendRawTransaction(await signer(source, 7).sign({ to: RECIPIENT, value: 1n }))
    await source.tick()
    const pooled = await source.sendRawTransaction(await signer(source, 8).sign({ to: RECIPIENT, value: 2n }))
    expect([source.pending.transactions.length, (await rpc(source, 'txpool_status')).pending]).to.deep.equal([1, '0x1'])
    const loaded = await createChain({ state: await source.dumpState() })
    expect([loaded.pending.transactions.length, await rpc(loaded, 'txpool_status')]).to.deep.equal([0, { pending: '0x0', queued: '0x0' }])
    expect([await rpc(loaded, 'eth_getTransactionByHash', preconfirmed), await rpc(loaded, 'eth_getTransactionByHash', pooled)]).to.deep.equal([null, null])
    expect(await loaded.getBalance(RECIPIENT, 'pending')).to.equal(ETHER)
    expect(await accountsAt(loaded, world.addresses, world.slots, 'pending')).to.deep.equal(await accountsAt(world.chain, world.addresses, world.slots, 'latest'))
    // The dump took nothing away from the source.
    expect([source.pending.transactions.length, source.findTransaction(pooled)?.status]).to.deep.equal([1, 'mempool'])
  })

  describe('anvil_loadState', () => {
    it('answers true and replaces the chain (its blocks, accounts and history) with the dump', async () => {
      const target = await createChain()
      await target.setBalance(RECIPIENT, 5n)
      for (let i = 0; i < 6; i++) await target.mine()
      expect(await target.request({ method: 'anvil_loadState', params: [dump] })).to.equal(true)
      expect(await reads(world, target)).to.deep.equal(original)
    })

    it("round-trips through viem's testClient.dumpState / loadState (mode anvil)", async () => {
      const client = (chain: Chain) => createTestClient({ mode: 'anvil', chain: devnetChain(), transport: custom(chain, { retryCount: 0 }) })
      const state = await client(world.chain).dumpState()
      expect(jsonOfHex(state)).to.deep.equal(jsonOfHex(dump))
      const target = await createChain()
      expect(await client(target).loadState({ state })).to.equal(undefined)
      expect(await reads(world, target)).to.deep.equal(original)
    })
  })

  describe('refusals (the chain stays as it was)', () => {
    let target: Chain
    const unchanged = async () => ({ head: target.blockNumber(), hash: target.blockByNumber(target.blockNumber())!.hash, balance: await target.getBalance(RECIPIENT) })
    let start: Awaited<ReturnType<typeof unchanged>>
    before(async () => {
      target = await createChain()
      await target.setBalance(RECIPIENT, 5n)
      for (let i = 0; i < 2; i++) await target.mine()
      start = await unchanged()
    })

    for (const { what, make, message } of CORRUPTIONS) {
      it(`${what}: createChain, chain.loadState and anvil_loadState (-32602, argument 0) refuse it`, async () => {
        const bad = make(dump)
        const created = await rejection(createChain({ state: bad }))
        expect(created.message).to.match(/^invalid state dump: /).and.to.match(message)
        const loaded = await rejection(target.loadState(bad))
        expect(loaded.message).to.equal(created.message)
        const answered = await rejection(target.request({ method: 'anvil_loadState', params: [bad] }))
        expect([answered.code, answered.message]).to.deep.equal([-32602, `invalid argument 0 (state): ${created.message}`])
        expect(await unchanged()).to.deep.equal(start)
      })
    }

    it("a dump whose JSON text is longer than V8's longest string (~512 MiB), plain or gzipped, is refused as a dump, not with V8's RangeError (audit Q, Q6)", async () => {
      const plain = Buffer.alloc(constants.MAX_STRING_LENGTH + 1, 0x20)
      plain[0] = 0x7b // '{'
      expect((await rejection(createChain({ state: plain }))).message).to.equal(
        `invalid state dump: a dump of ${plain.length} bytes is too large to read: JSON text of more than ${constants.MAX_STRING_LENGTH} bytes (V8's longest string)`,
      )
      const gzipped = gzipSync(plain, { level: 1 })
      expect((await rejection(target.loadState(gzipped))).message).to.equal(
        `invalid state dump: the gzipped dump is too large to read: JSON text of more than ${constants.MAX_STRING_LENGTH} bytes (V8's longest string)`,
      )
      expect(await unchanged()).to.deep.equal(start)
    })

    it('over HTTP: a bad dump, a parameter that is not hex, or none, is -32602 naming argument 0, never -32603', async () => {
      const server = await startServer(target, { port: 0 })
      try {
        for (const params of [[CORRUPTIONS[0].make(dump)], [hexOfJson({ format: 'preconf-devnet/state', version: 2 })], ['0x123'], [42], []]) {
          const error = await rejection(httpRpc(server.url, 'anvil_loadState', params))
          expect(error.code, JSON.stringify(params).slice(0, 40)).to.equal(-32602)
          expect(error.message).to.match(params.length === 0 ? /^missing value for required argument 0$/ : /^invalid argument 0 \(state\): /)
        }
      } finally {
        await server.close()
      }
      expect(await unchanged()).to.deep.equal(start)
    })
  })

  describe('a forked chain', () => {
    let upstream: Upstream
    let fork: Chain
    let forkDump: Hex
    let read: Awaited<ReturnType<typeof accountsAt>>
    let addresses: Address[]
    before(async () => {
      upstream = await startUpstream()
      fork = await upstream.fork()
      addresses = [fork.accounts[0].address, fork.accounts[1].address, RECIPIENT, upstream.counter].map((address) => address.toLowerCase() as Address)
      await fork.sendRawTransaction(await signer(fork, 2).sign({ to: RECIPIENT, value: 5n }))
      await fork.mine()
      read = await accountsAt(fork, addresses, [0n], 'latest')
      forkDump = (await fork.dumpState()) as Hex
    })
    after(async () => {
      fork.close()
      await upstream.close()
    })

    it('dumps what it fetched: a fresh chain (no fork) loaded from it answers the same reads at latest, from the fork block on', async () => {
      expect(jsonOfHex(forkDump).blocks.map((block: { number: Hex }) => block.number)).to.deep.equal(['0x3', '0x4'])
      const loaded = await createChain({ state: forkDump })
      expect(await accountsAt(loaded, addresses, [0n], 'latest')).to.deep.equal(read)
      expect(await countAt(loaded, upstream.counter, 'latest')).to.equal(1n)
      expect([await rpc(loaded, 'eth_chainId'), await latestBlock(loaded)]).to.deep.equal(['0x7a69', await latestBlock(fork)])
      // Blocks before the fork block are held nowhere now: absent, as on a chain that never had them (geth and Anvil: null; a state read, 'header not found').
      expect(await rpc(loaded, 'eth_getBlockByNumber', '0x2', false)).to.equal(null)
      const refused = await rejection(rpc(loaded, 'eth_getBalance', RECIPIENT, '0x2'))
      expect([refused.code, refused.message]).to.deep.equal([-32000, 'header not found'])
    })

    it('loads onto a fork of the same block (createChain and anvil_loadState), where unread keys still come from the upstream', async () => {
      const same = await upstream.fork(3n, forkDump)
      expect(await accountsAt(same, addresses, [0n], 'latest')).to.deep.equal(read)
      expect(await same.getBalance(same.accounts[7].address)).to.equal(10_000n * ETHER)
      const other = await upstream.fork(3n)
      expect(await other.request({ method: 'anvil_loadState', params: [forkDump] })).to.equal(true)
      expect([other.blockNumber(), await accountsAt(other, addresses, [0n], 'latest')]).to.deep.equal([4n, read])
      same.close()
      other.close()
    })

    it('is refused on a fork of another block, naming both blocks; with no fork block named, the fork is made at the dump\'s (Anvil restarts --fork-url with --state so)', async () => {
      await upstream.chain.mine()
      const refusal = await rejection(upstream.fork(4n, forkDump))
      expect(refusal.message).to.match(/^invalid state dump: it starts at block 3 \(0x[0-9a-f]{64}\), not at the fork block 4 /)
      const restarted = await upstream.fork(undefined, forkDump)
      expect([restarted.blockNumber(), await accountsAt(restarted, addresses, [0n], 'latest')]).to.deep.equal([4n, read])
      restarted.close()
      const other = await upstream.fork()
      const answered = await rejection(other.request({ method: 'anvil_loadState', params: [forkDump] }))
      expect([answered.code, other.blockNumber()]).to.deep.equal([-32602, 4n])
      other.close()
    })
  })

  it('dumps and loads 100k accounts, each step well under 5 s (figures printed)', async function () {
    this.timeout(40_000)
    const count = 100_000
    const json = await dumpWithAccounts(count)
    const fromObject = await timed(() => createChain({ state: json }))
    const hex = await timed(() => fromObject.value.dumpState())
    const text = await timed(() => fromObject.value.dumpState('json'))
    const fromHex = await timed(() => createChain({ state: hex.value }))
    const seal = await timed(() => fromHex.value.mine())
    const figures = { 'load (object)': fromObject.ms, 'dump (hex)': hex.ms, 'dump (json)': text.ms, 'load (hex)': fromHex.ms, 'first seal': seal.ms }
    console.log(`      100k accounts, ms: ${JSON.stringify(figures)}; gzip ${(hex.value.length - 2) / 2} bytes, JSON ${text.value.length} bytes`)
    expect(await fromHex.value.getBalance(syntheticAddress(count - 1), '0x0')).to.equal(syntheticBalance(count - 1))
    for (const ms of [fromObject.ms, hex.ms, text.ms, fromHex.ms]) expect(ms).to.be.below(5000)
  })
})
