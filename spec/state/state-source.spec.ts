/**
 * The state-source seam: a chain whose state lives in a source that answers only after a delay
 * (a test double of a forked upstream) behaves exactly as a chain holding the same state
 * locally — receipts, balances, nonces, code, storage, calls, estimates and logs at `latest`,
 * `pending` and past blocks — and loads each key once.
 */
import { expect } from 'chai'
import { encodeDeployData, encodeFunctionData, hexToBytes, parseEther, type Hex } from 'viem'
import { Counter } from '../../fixtures/artifacts/Counter.ts'
import { Token } from '../../fixtures/artifacts/Token.ts'
import { Chain } from '../../lib/chain.ts'
import { createChain } from '../../lib/index.ts'
import { resolveChainOptions } from '../../lib/options.ts'
import { fixedStateCommitment } from '../../lib/state/state-commitment.ts'
import type { Address } from '../../lib/types.ts'
import { DelayedStateSource } from '../support/delayed-state-source.ts'
import { signer } from '../support/wallet.ts'

const HOLDER = '0x00000000000000000000000000000000000000aa' as Address
const COUNTER = '0x00000000000000000000000000000000000000cc' as Address
const NEWCOMER = '0x00000000000000000000000000000000000000ee' as Address
const ZERO_ROOT = new Uint8Array(32)

/** The world both chains start from, besides the dev accounts: a funded holder and a counter at 7. */
function world(): DelayedStateSource {
  return new DelayedStateSource(
    new Map([
      [HOLDER, { balance: parseEther('5') }],
      [COUNTER, { code: hexToBytes(Counter.deployedBytecode), storage: new Map([[0n, 7n]]) }],
    ]),
  )
}

async function localChain(): Promise<Chain> {
  const chain = await createChain()
  await chain.setBalance(HOLDER, parseEther('5'))
  await chain.setCode(COUNTER, Counter.deployedBytecode)
  await chain.setStorageAt(COUNTER, 0n, 7n)
  return chain
}

const request = (chain: Chain, method: string, ...params: unknown[]) => chain.request({ method, params })

/** A receipt without the fields that depend on the block hash (and so on the state root). */
function withoutBlockHash(receipt: Record<string, unknown> | null): unknown {
  if (receipt === null) return null
  const { blockHash, logs, ...rest } = receipt
  return { ...rest, logs: (logs as Array<Record<string, unknown>>).map(({ blockHash: _, ...log }) => log) }
}

/** Everything a client can read of the state, at `tags`. */
async function observe(chain: Chain, tags: readonly string[], hashes: readonly Hex[]): Promise<unknown> {
  const alice = chain.accounts[0].address
  const people = [alice, chain.accounts[1].address, HOLDER, NEWCOMER, COUNTER, chain.options.coinbase]
  const state: Record<string, unknown> = {}
  for (const tag of tags) {
    for (const address of people) {
      state[`${tag} ${address}`] = await Promise.all([
        request(chain, 'eth_getBalance', address, tag),
        request(chain, 'eth_getTransactionCount', address, tag),
        request(chain, 'eth_getCode', address, tag),
        request(chain, 'eth_getStorageAt', address, '0x0', tag),
      ])
    }
    state[`${tag} count()`] = await request(chain, 'eth_call', { to: COUNTER, data: encodeFunctionData({ abi: Counter.abi, functionName: 'count' }) }, tag)
    state[`${tag} estimate increment()`] = await request(chain, 'eth_estimateGas', { from: alice, to: COUNTER, data: encodeFunctionData({ abi: Counter.abi, functionName: 'increment' }) }, tag)
  }
  state.receipts = (await Promise.all(hashes.map((hash) => request(chain, 'eth_getTransactionReceipt', hash)))).map((receipt) => withoutBlockHash(receipt as Record<string, unknown>))
  state.logs = ((await request(chain, 'eth_getLogs', { fromBlock: '0x0', toBlock: 'pending' })) as Array<Record<string, unknown>>).map(({ blockHash: _, ...log }) => log)
  return state
}

/** The same signed transactions, ticks and seals on `chain`; what it observed after each step. */
async function run(chain: Chain): Promise<unknown[]> {
  const alice = signer(chain, 0)
  const bob = signer(chain, 1)
  const steps: unknown[] = []
  const hashes: Hex[] = []
  const send = async (raw: Hex) => hashes.push(await chain.sendRawTransaction(raw))
  const increment = encodeFunctionData({ abi: Counter.abi, functionName: 'increment' })

  await send(await alice.sign({ to: HOLDER, value: parseEther('1') }))
  await send(await alice.sign({ nonce: 1, to: COUNTER, data: increment, gas: 100_000n }))
  await send(await bob.sign({ to: NEWCOMER, value: 5n }))
  steps.push(await observe(chain, ['latest', 'pending'], hashes))
  await chain.clock.advance(200)
  steps.push(await observe(chain, ['latest', 'pending'], hashes))
  await send(await alice.sign({ nonce: 2, data: encodeDeployData({ abi: Token.abi, bytecode: Token.bytecode, args: ['Token', 'TKN', 1000n] }), gas: 2_000_000n, to: null }))
  await send(await bob.sign({ nonce: 1, to: COUNTER, data: encodeFunctionData({ abi: Counter.abi, functionName: 'reset' }), gas: 100_000n }))
  await chain.clock.advance(1800)
  steps.push(await observe(chain, ['latest', 'pending', '0x0', '0x1'], hashes))
  return steps
}

describe('state/state-source: a chain on a delayed source (a fork stand-in)', () => {
  it('reads, executes and seals exactly as a chain holding the same state locally', async () => {
    const source = world()
    const delayed = new Chain(resolveChainOptions({}), { source, commitment: () => fixedStateCommitment(ZERO_ROOT) })
    const expected = await run(await localChain())
    const actual = await run(delayed)
    expect(actual).to.deep.equal(expected)
    expect(source.loads.accounts, 'accounts fetched from the source').to.be.greaterThan(3)
    expect(source.loads.slots, 'storage words fetched from the source').to.be.greaterThan(0)
  })

  it('loads each key once, however many reads wait for it at the same time', async () => {
    const source = world()
    const chain = new Chain(resolveChainOptions({}), { source, commitment: () => fixedStateCommitment(ZERO_ROOT) })
    const balances = await Promise.all(Array.from({ length: 5 }, () => chain.getBalance(HOLDER, 'pending')))
    const words = await Promise.all(Array.from({ length: 5 }, () => chain.getStorageAt(COUNTER, 0n, 'latest')))
    expect(balances).to.deep.equal(Array(5).fill(parseEther('5')))
    expect(words).to.deep.equal(Array(5).fill(`0x${'7'.padStart(64, '0')}`))
    expect(source.loads).to.deep.equal({ accounts: 1, slots: 1 })
    expect(await chain.getBalance(HOLDER, 'latest')).to.equal(parseEther('5'))
    expect(source.loads.accounts, 'a later read answers from what was loaded').to.equal(1)
  })

  it('reverts a snapshot taken before loads and writes: the loaded world stays, the writes go', async () => {
    const source = world()
    const chain = new Chain(resolveChainOptions({}), { source, commitment: () => fixedStateCommitment(ZERO_ROOT) })
    const id = await chain.snapshot()
    await chain.sendRawTransaction(await signer(chain, 0).sign({ to: HOLDER, value: 1n }))
    await chain.mine()
    expect(await chain.getBalance(HOLDER)).to.equal(parseEther('5') + 1n)
    expect(await chain.revert(id)).to.equal(true)
    expect(await chain.getBalance(HOLDER)).to.equal(parseEther('5'))
    expect(chain.blockNumber()).to.equal(0n)
  })
})
