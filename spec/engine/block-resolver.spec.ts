/**
 * Block tags on the state reads (geth's rpc.BlockNumberOrHash): named tags, numbers in every
 * form the library takes, EIP-1898 objects; `safe`/`finalized` trail the head as in Anvil
 * (32 / 64 blocks, clamped to genesis); a number beyond the head is geth's -32000
 * `header not found`.
 */
import { expect } from 'chai'
import { decodeFunctionResult, encodeFunctionData, parseEther, type Hex } from 'viem'
import { createChain, RPCError, type BlockTag, type Chain } from '../../lib/index.ts'
import type { Address } from '../../lib/types.ts'
import { Counter } from '../../fixtures/artifacts/Counter.ts'
import { signer } from '../support/wallet.ts'
import { blockOf, deploy, rejection, signCall, type RpcBlock } from '../support/chain-helpers.ts'

const COUNT_SLOT = 0n
const word = (value: bigint) => `0x${value.toString(16).padStart(64, '0')}` as Hex

describe('block tags: reads at latest, pending, safe, finalized, earliest, numbers and EIP-1898 objects', () => {
  let chain: Chain
  let counter: Address
  let bob: Address
  let bobAtGenesis: bigint
  const hashes: Hex[] = []

  // Block 1: deploy Counter + 1 ETH to bob. Block 2: set(7) + 2 ETH. Block 3: set(9) + 3 ETH.
  // Pre-confirmed (pending block 4): set(11) + 4 ETH.
  before(async () => {
    chain = await createChain({ clock: 'manual' })
    const alice = signer(chain, 0)
    bob = chain.accounts[1].address
    bobAtGenesis = await chain.getBalance(bob)
    const send = (raw: Hex) => chain.sendRawTransaction(raw)

    await send(await alice.sign({ to: bob, value: parseEther('1'), nonce: 1 }))
    counter = await deploy(chain, alice, Counter, [], 0)
    let nonce = 2
    for (const [value, eth] of [
      [7n, '2'],
      [9n, '3'],
      [11n, '4'],
    ] as const) {
      await send(await signCall(alice, counter, Counter.abi, 'set', [value], { nonce: nonce++ }))
      await send(await alice.sign({ to: bob, value: parseEther(eth), nonce: nonce++ }))
      await chain.tick()
      if (value !== 11n) await chain.mine()
    }
    for (let n = 0; n <= 3; n++) hashes.push(((await blockOf(chain, `0x${n}`)) as RpcBlock).hash)
    expect(chain.blockNumber()).to.equal(3n)
  })

  // What each block holds: Counter code present, count, bob's gain in ETH, alice's nonce.
  const atBlock = [
    { code: false, count: 0n, bobGain: '0', nonce: 0 },
    { code: true, count: 0n, bobGain: '1', nonce: 2 },
    { code: true, count: 7n, bobGain: '3', nonce: 4 },
    { code: true, count: 9n, bobGain: '6', nonce: 6 },
  ]
  const atPending = { code: true, count: 11n, bobGain: '10', nonce: 8 }

  async function expectState(tag: BlockTag, expected: (typeof atBlock)[number]): Promise<void> {
    const label = `at ${typeof tag === 'object' ? JSON.stringify(tag, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v)) : String(tag)}`
    expect(await chain.getBalance(bob, tag), `balance ${label}`).to.equal(bobAtGenesis + parseEther(expected.bobGain))
    expect(await chain.getCode(counter, tag), `code ${label}`).to.equal(expected.code ? Counter.deployedBytecode : '0x')
    expect(await chain.getStorageAt(counter, COUNT_SLOT, tag), `storage ${label}`).to.equal(word(expected.count))
    expect(await chain.getTransactionCount(chain.accounts[0].address, tag), `nonce ${label}`).to.equal(expected.nonce)
    const output = await chain.call({ to: counter, data: encodeFunctionData({ abi: Counter.abi, functionName: 'count' }) }, tag)
    if (expected.code) {
      expect(decodeFunctionResult({ abi: Counter.abi, functionName: 'count', data: output }), `call ${label}`).to.equal(expected.count)
    } else {
      // geth: calling an address without code succeeds with empty output.
      expect(output, `call ${label}`).to.equal('0x')
    }
  }

  it("'latest' is the head (block 3) and is the default of every plain read", async () => {
    await expectState('latest', atBlock[3])
    expect(await chain.getBalance(bob)).to.equal(bobAtGenesis + parseEther('6'))
    expect(await chain.getStorageAt(counter, COUNT_SLOT)).to.equal(word(9n))
    expect(await chain.getCode(counter)).to.equal(Counter.deployedBytecode)
  })

  it("'pending' reads the pre-confirmed overlay (the ticked but unsealed set(11) and 4 ETH)", async () => {
    await expectState('pending', atPending)
  })

  it("'earliest' is genesis: no code, empty storage, the genesis balance", async () => {
    await expectState('earliest', atBlock[0])
  })

  it("'safe' and 'finalized' clamp to genesis while the chain is shorter than their lags (32 / 64, Anvil)", async () => {
    await expectState('safe', atBlock[0])
    await expectState('finalized', atBlock[0])
  })

  it('a block number as hex, bigint, number, {blockNumber} (hex and bigint), {blockHash} and a bare block hash (audit R, R8) reads that block', async () => {
    for (let n = 0; n <= 3; n++) {
      const forms: BlockTag[] = [`0x${n.toString(16)}`, BigInt(n), n, { blockNumber: `0x${n.toString(16)}` }, { blockNumber: BigInt(n) }, { blockHash: hashes[n] }, hashes[n]]
      for (const tag of forms) await expectState(tag, atBlock[n])
    }
  })

  it('history is readable at any block: the balance after block 1, 2 and 3 differs as the transfers landed', async () => {
    const balances = await Promise.all([0, 1, 2, 3].map((n) => chain.getBalance(bob, n)))
    expect(balances.map((b) => b - bobAtGenesis)).to.deep.equal([0n, parseEther('1'), parseEther('3'), parseEther('6')])
  })

  it('every tag works through request for eth_getBalance, eth_getCode, eth_getStorageAt and eth_call', async () => {
    const countData = encodeFunctionData({ abi: Counter.abi, functionName: 'count' })
    const cases: Array<[unknown, (typeof atBlock)[number]]> = [
      ['latest', atBlock[3]],
      ['pending', atPending],
      ['earliest', atBlock[0]],
      ['safe', atBlock[0]],
      ['finalized', atBlock[0]],
      ['0x2', atBlock[2]],
      [{ blockNumber: '0x1' }, atBlock[1]],
      [{ blockHash: hashes[2] }, atBlock[2]],
      // A bare block hash: geth's BlockNumberOrHash takes a 66-character string as one (Anvil too); ethers sends a hash blockTag so (audit Q, Q1).
      [hashes[1], atBlock[1]],
    ]
    for (const [tag, expected] of cases) {
      const label = JSON.stringify(tag)
      expect(await chain.request({ method: 'eth_getBalance', params: [bob, tag] }), label).to.equal(
        `0x${(bobAtGenesis + parseEther(expected.bobGain)).toString(16)}`,
      )
      expect(await chain.request({ method: 'eth_getCode', params: [counter, tag] }), label).to.equal(expected.code ? Counter.deployedBytecode : '0x')
      expect(await chain.request({ method: 'eth_getStorageAt', params: [counter, '0x0', tag] }), label).to.equal(word(expected.count))
      expect(await chain.request({ method: 'eth_getTransactionCount', params: [chain.accounts[0].address, tag] }), label).to.equal(
        `0x${expected.nonce.toString(16)}`,
      )
      expect(await chain.request({ method: 'eth_call', params: [{ to: counter, data: countData }, tag] }), label).to.equal(
        expected.code ? word(expected.count) : '0x',
      )
    }
  })

  it("a number beyond the head rejects with geth's -32000 'header not found' (plain functions)", async () => {
    const countData = encodeFunctionData({ abi: Counter.abi, functionName: 'count' })
    for (const tag of [4n, 4, '0x4', '0x100', { blockNumber: '0x4' }] as BlockTag[]) {
      const reads: Array<Promise<unknown>> = [
        chain.getBalance(bob, tag),
        chain.getCode(counter, tag),
        chain.getStorageAt(counter, 0n, tag),
        chain.getTransactionCount(bob, tag),
        chain.call({ to: counter, data: countData }, tag),
      ]
      for (const read of reads) {
        const error = await rejection(read)
        expect(error, String(tag)).to.be.instanceOf(RPCError)
        expect(error.code).to.equal(-32000)
        expect(error.message).to.equal('header not found')
      }
    }
  })

  it("a number beyond the head rejects with -32000 'header not found' through request", async () => {
    const countData = encodeFunctionData({ abi: Counter.abi, functionName: 'count' })
    const requests = [
      { method: 'eth_getBalance', params: [bob, '0x4'] },
      { method: 'eth_getCode', params: [counter, '0x4'] },
      { method: 'eth_getStorageAt', params: [counter, '0x0', '0x4'] },
      { method: 'eth_getTransactionCount', params: [bob, '0x4'] },
      { method: 'eth_call', params: [{ to: counter, data: countData }, '0x4'] },
      { method: 'eth_getBalance', params: [bob, { blockNumber: '0xffff' }] },
    ]
    for (const args of requests) {
      const error = await rejection(chain.request(args))
      expect(error, args.method).to.be.instanceOf(RPCError)
      expect(error.code, args.method).to.equal(-32000)
      expect(error.message, args.method).to.equal('header not found')
    }
  })

  it('a malformed tag given to a plain function is -32602 naming argument 1 (block)', async () => {
    for (const tag of [-1, 1.5, -1n, 'newest', '0x', {}, { blockHash: '0x12' }, { blockHash: hashes[1], blockNumber: '0x1' }] as unknown as BlockTag[]) {
      const error = await rejection(chain.getBalance(bob, tag))
      expect(error, String(tag)).to.be.instanceOf(RPCError)
      expect(error.code).to.equal(-32602)
      expect(error.message).to.match(/^invalid argument 1 \(block\): /)
    }
  })

  it("a bare block hash is a block only where geth takes a BlockNumberOrHash: eth_getBlockByNumber refuses it, with geth's text", async () => {
    const refused = await rejection(chain.request({ method: 'eth_getBlockByNumber', params: [hashes[1], false] }))
    expect([refused.code, refused.message]).to.deep.equal([-32602, 'invalid argument 0 (block): hex number > 64 bits'])
    const unknown = await rejection(chain.request({ method: 'eth_getBalance', params: [bob, `0x${'ab'.repeat(32)}`] }))
    expect([unknown.code, unknown.message]).to.deep.equal([-32000, 'header for hash not found'])
  })

  it("an unknown {blockHash} rejects with geth's -32000 'header for hash not found'", async () => {
    const unknown = `0x${'ab'.repeat(32)}` as Hex
    for (const read of [chain.getBalance(bob, { blockHash: unknown }), chain.request({ method: 'eth_getCode', params: [counter, { blockHash: unknown }] })]) {
      const error = await rejection(read)
      expect(error.code).to.equal(-32000)
      expect(error.message).to.equal('header for hash not found')
    }
  })
})

describe("block tags: 'safe' = head - 32 and 'finalized' = head - 64, clamped at genesis (Anvil's lags)", () => {
  const carol = `0x${'00'.repeat(18)}ca41` as Address

  /** Mines blocks up to `head`, each sending carol 1 wei, so carol's balance at block N is N wei. */
  async function mineTo(chain: Chain, head: number): Promise<void> {
    const alice = signer(chain, 0)
    for (let n = Number(chain.blockNumber()) + 1; n <= head; n++) {
      await chain.sendRawTransaction(await alice.sign({ to: carol, value: 1n, nonce: n - 1 }))
      await chain.tick()
      await chain.mine()
    }
    expect(chain.blockNumber()).to.equal(BigInt(head))
  }

  async function expectTagAt(chain: Chain, tag: 'safe' | 'finalized', number: number): Promise<void> {
    expect(await chain.getBalance(carol, tag), `${tag} balance`).to.equal(BigInt(number))
    expect(await chain.request({ method: 'eth_getBalance', params: [carol, tag] }), `${tag} eth_getBalance`).to.equal(`0x${number.toString(16)}`)
    const block = (await blockOf(chain, tag)) as RpcBlock
    expect(block.number, `${tag} block number`).to.equal(`0x${number.toString(16)}`)
    expect(block.hash).to.equal(((await blockOf(chain, `0x${number.toString(16)}`)) as RpcBlock).hash)
  }

  it('with the default lags: genesis at head 10, safe lags at head 40, both lag at head 70', async () => {
    const chain = await createChain({ clock: 'manual' })
    await mineTo(chain, 10)
    expect(await chain.getBalance(carol, 'latest')).to.equal(10n)
    await expectTagAt(chain, 'safe', 0)
    await expectTagAt(chain, 'finalized', 0)

    await mineTo(chain, 40)
    await expectTagAt(chain, 'safe', 8)
    await expectTagAt(chain, 'finalized', 0)

    await mineTo(chain, 70)
    await expectTagAt(chain, 'safe', 38)
    await expectTagAt(chain, 'finalized', 6)
    expect(await chain.getBalance(carol, 'pending')).to.equal(70n)
  })

  it('custom safeLag / finalizedLag options move the tags', async () => {
    const chain = await createChain({ clock: 'manual', safeLag: 3, finalizedLag: 7 })
    await mineTo(chain, 5)
    await expectTagAt(chain, 'safe', 2)
    await expectTagAt(chain, 'finalized', 0)
    await mineTo(chain, 10)
    await expectTagAt(chain, 'safe', 7)
    await expectTagAt(chain, 'finalized', 3)
  })

  it('a lag of 0 makes the tag equal latest', async () => {
    const chain = await createChain({ clock: 'manual', safeLag: 0, finalizedLag: 0 })
    await mineTo(chain, 3)
    await expectTagAt(chain, 'safe', 3)
    await expectTagAt(chain, 'finalized', 3)
  })
})
