/**
 * The engine is a pure function of its options and the calls made on it (DESIGN.md: no wall
 * time, no randomness in lib/): two chains fed the same signed transactions and the same clock
 * moves produce the same blocks, state roots and receipts; a different order or time does not.
 */
import { expect } from 'chai'
import { encodeDeployData, encodeFunctionData, getContractAddress, type Hex } from 'viem'
import { createChain, type Chain, type ChainOptions } from '../../lib/index.ts'
import type { Address } from '../../lib/types.ts'
import { Counter } from '../../fixtures/artifacts/Counter.ts'
import { Token } from '../../fixtures/artifacts/Token.ts'
import { GWEI, signer } from '../support/wallet.ts'
import { blockOf, receiptOf, type RpcBlock, type RpcReceipt } from '../support/chain-helpers.ts'

type Step = { send: Hex } | { advance: number } | { tick: true } | { mine: true }

interface Outcome {
  blocks: RpcBlock[]
  pending: RpcBlock
  receipts: Array<RpcReceipt | null>
  events: string[]
  count: Hex
}

const carol = `0x${'00'.repeat(18)}ca41` as Address

/** Runs `steps` on a new chain and collects everything observable. */
async function run(steps: Step[], options: ChainOptions = {}): Promise<Outcome> {
  const chain = await createChain({ clock: 'manual', ...options })
  const events: string[] = []
  chain.on('preconfirmation', (p) => events.push(`tick ${p.blockNumber}.${p.index} [${p.transactions.map((t) => t.transaction.hash).join(',')}] @${chain.clock.now()}`))
  chain.on('block', (b) => events.push(`block ${b.header.number} ${b.hash} @${chain.clock.now()}`))
  const hashes: Hex[] = []
  for (const step of steps) {
    if ('send' in step) hashes.push(await chain.sendRawTransaction(step.send))
    else if ('advance' in step) await chain.clock.advance(step.advance)
    else if ('tick' in step) await chain.tick()
    else await chain.mine()
  }
  return collect(chain, hashes, events)
}

async function collect(chain: Chain, hashes: Hex[], events: string[]): Promise<Outcome> {
  const blocks: RpcBlock[] = []
  for (let n = 0n; n <= chain.blockNumber(); n++) blocks.push((await blockOf(chain, `0x${n.toString(16)}`)) as RpcBlock)
  const counter = getContractAddress({ from: chain.accounts[1].address, nonce: 0n }) as Address
  return {
    blocks,
    pending: (await blockOf(chain, 'pending')) as RpcBlock,
    receipts: await Promise.all(hashes.map((hash) => receiptOf(chain, hash))),
    events,
    count: await chain.call({ to: counter, data: encodeFunctionData({ abi: Counter.abi, functionName: 'count' }) }, 'pending'),
  }
}

/** A mixed workload: transfers, deployments, contract calls with logs, spread over ticks and blocks. */
async function workload(): Promise<{ steps: Step[]; raws: Hex[] }> {
  const chain = await createChain({ clock: 'manual' })
  const [alice, bob, dave] = [0, 1, 3].map((i) => signer(chain, i))
  const counter = getContractAddress({ from: bob.address, nonce: 0n }) as Address
  const increment = encodeFunctionData({ abi: Counter.abi, functionName: 'increment' })
  const raws = [
    await alice.sign({ to: carol, value: 1000n }),
    await bob.sign({ to: null, data: Counter.bytecode, gas: 3_000_000n }),
    await dave.sign({ to: null, data: encodeDeployData({ abi: Token.abi, bytecode: Token.bytecode, args: ['T', 'T', 10n ** 21n] }), gas: 3_000_000n }),
    await alice.sign({ to: counter, data: increment, gas: 100_000n, nonce: 1, maxPriorityFeePerGas: 3n * GWEI }),
    await bob.sign({ to: counter, data: increment, gas: 100_000n, nonce: 1 }),
    await alice.sign({ to: carol, value: 1n, nonce: 2 }),
    await dave.sign({ to: counter, value: 5n, gas: 50_000n, nonce: 1 }),
  ]
  const steps: Step[] = [
    { send: raws[0] },
    { send: raws[1] },
    { advance: 200 },
    { send: raws[2] },
    { advance: 1000 },
    { send: raws[3] },
    { send: raws[4] },
    { advance: 1500 },
    { send: raws[5] },
    { tick: true },
    { send: raws[6] },
    { advance: 3000 },
    { mine: true },
    { advance: 2500 },
  ]
  return { steps, raws }
}

describe('determinism: same inputs, same chain', () => {
  it('two chains fed the same signed transactions and clock moves have identical blocks, state roots, receipts and events', async () => {
    const { steps } = await workload()
    const [a, b] = [await run(steps), await run(steps)]
    expect(a.blocks.length).to.equal(5)
    expect(a.receipts.every((r) => r !== null && r.status === '0x1')).to.equal(true)
    expect(a.blocks.map((x) => x.hash)).to.deep.equal(b.blocks.map((x) => x.hash))
    expect(a.blocks.map((x) => x.stateRoot)).to.deep.equal(b.blocks.map((x) => x.stateRoot))
    expect(a.blocks).to.deep.equal(b.blocks)
    expect(a.receipts).to.deep.equal(b.receipts)
    expect(a.pending).to.deep.equal(b.pending)
    expect(a.events).to.deep.equal(b.events)
    expect(a.count).to.equal(b.count)
    expect(BigInt(a.count)).to.equal(2n)
  })

  it('the genesis block is the same for the same options (and the default options)', async () => {
    const [a, b] = [await createChain({ clock: 'manual' }), await createChain()]
    expect(await blockOf(a, 'earliest')).to.deep.equal(await blockOf(b, 'earliest'))
  })

  it('a different arrival order of equal-tip transactions gives a different transaction order and block hash', async () => {
    const chain = await createChain({ clock: 'manual' })
    const [x, y] = [await signer(chain, 0).sign({ to: carol, value: 1n }), await signer(chain, 1).sign({ to: carol, value: 2n })]
    const a = await run([{ send: x }, { send: y }, { advance: 2000 }])
    const b = await run([{ send: y }, { send: x }, { advance: 2000 }])
    expect(a.blocks[1].transactions).to.deep.equal([...b.blocks[1].transactions].reverse())
    expect(a.blocks[1].transactionsRoot).to.not.equal(b.blocks[1].transactionsRoot)
    expect(a.blocks[1].hash).to.not.equal(b.blocks[1].hash)
    // Two independent transfers commute: the same state either way.
    expect(a.blocks[1].stateRoot).to.equal(b.blocks[1].stateRoot)
  })

  it('the same transactions at different times give different blocks', async () => {
    const { steps, raws } = await workload()
    const reference = await run(steps)

    // Everything sent at once, sealed by the clock: other block boundaries, other hashes.
    const bunched = await run([...raws.map((send) => ({ send })), { advance: 8000 }])
    expect(bunched.blocks[1].hash).to.not.equal(reference.blocks[1].hash)
    expect(bunched.blocks[1].transactions).to.not.deep.equal(reference.blocks[1].transactions)

    // The same steps, but the evm_mine 2.5 s earlier (at 3.2 s instead of 5.7 s): it mines block 2,
    // which the reference's clock seals at 4 s; it holds pre-confirmations, so it keeps the
    // timestamp they ran with: the same block. After it the chains part: the reference mines an
    // empty block 3 at 5.7 s (stamped with the clock's time, genesis + 5) and seals block 4 on
    // the clock; the earlier one's block 3 seals on the clock at 5.2 s (genesis + 5), its block 4
    // not yet.
    const earlier = await run(steps.map((step) => ('advance' in step && step.advance === 3000 ? { advance: 500 } : step)))
    expect(earlier.blocks.slice(0, 3).map((x) => x.hash)).to.deep.equal(reference.blocks.slice(0, 3).map((x) => x.hash))
    expect([earlier.blocks[3].timestamp, reference.blocks[3].timestamp].map(BigInt)).to.deep.equal([BigInt(earlier.blocks[0].timestamp) + 5n, BigInt(reference.blocks[0].timestamp) + 5n])
    expect(earlier.blocks).to.have.length(reference.blocks.length - 1)

    // Another genesis time: every hash differs; the genesis state root does not (the later ones
    // do, as each block keeps its parent's hash in EIP-2935's ring).
    const later = await run(steps, { genesisTimestamp: 1_735_689_600 + 3600 })
    for (let n = 0; n < reference.blocks.length; n++) expect(later.blocks[n].hash, `block ${n}`).to.not.equal(reference.blocks[n].hash)
    expect(later.blocks[0].stateRoot).to.equal(reference.blocks[0].stateRoot)
  })

  it('eth_sendTransaction signs deterministically (RFC 6979 without extra entropy): the same request gives the same hash', async () => {
    const hashes: unknown[] = []
    for (let run = 0; run < 2; run++) {
      const chain = await createChain()
      const request = { from: chain.accounts[0].address, to: chain.accounts[1].address, value: '0x1' }
      hashes.push(await chain.request({ method: 'eth_sendTransaction', params: [request] }))
    }
    expect(hashes[0]).to.equal(hashes[1])
  })
})
