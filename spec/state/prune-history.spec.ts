/**
 * `--prune-history N` (`pruneHistory`), judged by Anvil 1.7.1's `--prune-history N`: the state of
 * the head and the N blocks before it stays readable, reads at older blocks fail with -32602
 * `BlockOutOfRangeError: block height is <head> but requested was <block>`, blocks,
 * transactions and receipts stay. The chain below: block 1 deploys Counter, blocks 2..6 each
 * increment it (its count at block n is n - 1) and send 1 wei from the same account; with N = 2
 * the head is 6 and blocks 4, 5 and 6 are kept.
 *
 * Intended differences from Anvil, asserted as such: a revert to a snapshot taken before blocks
 * were pruned restores their state exactly (Anvil keeps only the head's then); `debug_trace*` of
 * a block whose parent is pruned fails with the same error naming the parent (Anvil answers the
 * default tracer from its records of the run, and other tracers with -32001).
 */
import { expect } from 'chai'
import { encodeFunctionData, type Hex } from 'viem'
import { Counter } from '../../fixtures/artifacts/Counter.ts'
import { createChain, type Chain, type ChainOptions } from '../../lib/index.ts'
import { InvalidParamsError } from '../../lib/errors.ts'
import { StateHistory } from '../../lib/state/state-history.ts'
import { StateLayer } from '../../lib/state/state-layer.ts'
import { EMPTY_STATE_SOURCE } from '../../lib/state/state-source.ts'
import { withAccountFields } from '../../lib/state/account.ts'
import { startAnvil, type AnvilNode } from '../support/anvil-node.ts'
import { receiptOf, rejection, sendDeploy, signCall } from '../support/chain-helpers.ts'
import { signer } from '../support/wallet.ts'

const RECIPIENT = '0x00000000000000000000000000000000000000aa'
const hex = (n: number | bigint): Hex => `0x${n.toString(16)}`
const COUNT_CALL = { data: encodeFunctionData({ abi: Counter.abi, functionName: 'count' }) }
const INCREMENT = encodeFunctionData({ abi: Counter.abi, functionName: 'increment' })
/** Anvil's error for a read at a pruned block. */
const outOfRange = (head: number, block: number) => ({ code: -32602, message: `BlockOutOfRangeError: block height is ${head} but requested was ${block}` })

/** What a chain built by {@link build} holds. */
interface Built {
  readonly counter: Hex
  /** Transaction hashes by block: [deploy, increment 2, …]. */
  readonly transactions: Hex[]
  /** The sender's balance at each block, read at `latest` while that block was the head. */
  readonly balances: bigint[]
}

/** Blocks 1..6: Counter deployed, then one increment and one transfer per block. */
async function build(chain: Chain): Promise<Built> {
  const from = signer(chain, 0)
  const balances = [await chain.getBalance(from.address)]
  const { hash, address: counter } = await sendDeploy(chain, from, Counter)
  await chain.mine()
  const transactions = [hash]
  balances.push(await chain.getBalance(from.address))
  for (let nonce = 1; nonce <= 9; nonce += 2) {
    const hash = await chain.sendRawTransaction(await signCall(from, counter, Counter.abi, 'increment', [], { nonce }))
    await chain.sendRawTransaction(await from.sign({ to: RECIPIENT, value: 1n, nonce: nonce + 1 }))
    await chain.mine()
    transactions.push(hash)
    balances.push(await chain.getBalance(from.address))
  }
  return { counter, transactions, balances }
}

/** The error `promise` rejects with, as JSON-RPC sends it. */
async function errorOf(promise: Promise<unknown>): Promise<unknown> {
  const error = await rejection(promise)
  return { code: error.code, message: error.message }
}

/** A chain with `pruneHistory` (the option is spread into chainOptions by the lead). */
const prunedChain = (keep: number) => createChain({ mining: 'off', pruneHistory: keep } as ChainOptions)

describe('--prune-history: the state of the head and the N blocks before it (Anvil 1.7.1 --prune-history N)', () => {
  let chain: Chain
  let built: Built
  beforeEach(async () => {
    chain = await prunedChain(2)
    built = await build(chain)
  })
  const request = (method: string, params: unknown[]) => chain.request({ method, params })

  it('answers reads at blocks 0..3 with -32602 BlockOutOfRangeError naming head 6, as Anvil does', async () => {
    expect(chain.blockNumber()).to.equal(6n)
    const { counter } = built
    const from = signer(chain, 0).address
    for (const block of [0, 1, 3]) {
      const tag = hex(block)
      expect(await errorOf(request('eth_getBalance', [from, tag]))).to.deep.equal(outOfRange(6, block))
      expect(await errorOf(request('eth_getStorageAt', [counter, '0x0', tag]))).to.deep.equal(outOfRange(6, block))
      expect(await errorOf(request('eth_getCode', [counter, tag]))).to.deep.equal(outOfRange(6, block))
      expect(await errorOf(request('eth_getTransactionCount', [from, tag]))).to.deep.equal(outOfRange(6, block))
      expect(await errorOf(request('eth_call', [{ to: counter, ...COUNT_CALL }, tag]))).to.deep.equal(outOfRange(6, block))
      expect(await errorOf(request('eth_estimateGas', [{ to: counter, data: INCREMENT }, tag]))).to.deep.equal(outOfRange(6, block))
      expect(await errorOf(request('eth_getAccount', [counter, tag]))).to.deep.equal(outOfRange(6, block))
      expect(await errorOf(request('debug_traceCall', [{ to: counter, ...COUNT_CALL }, tag, {}]))).to.deep.equal(outOfRange(6, block))
    }
    const blockHash = chain.blockByNumber(2)!.hash
    expect(await errorOf(request('eth_getBalance', [from, { blockHash }]))).to.deep.equal(outOfRange(6, 2))
    expect(await errorOf(request('eth_getBalance', [from, 'earliest']))).to.deep.equal(outOfRange(6, 0))
    // `safe` trails the head by 32 blocks, clamped to genesis: block 0 here.
    expect(await errorOf(request('eth_getBalance', [from, 'safe']))).to.deep.equal(outOfRange(6, 0))
    const error = await rejection(chain.getBalance(from, 3n), InvalidParamsError)
    expect(error.code).to.equal(-32602)
  })

  it('reads blocks 4, 5 and 6 exactly as they read when each was the head', async () => {
    const from = signer(chain, 0).address
    for (const block of [4, 5, 6]) {
      expect(await chain.getBalance(from, BigInt(block))).to.equal(built.balances[block])
      // Counter's count (slot 0) is block - 1 at the end of block `block`.
      expect(BigInt((await request('eth_getStorageAt', [built.counter, '0x0', hex(block)])) as Hex)).to.equal(BigInt(block - 1))
      expect(BigInt((await request('eth_call', [{ to: built.counter, ...COUNT_CALL }, hex(block)])) as Hex)).to.equal(BigInt(block - 1))
      // The sender's nonce after block n: 1 for the deployment, then 2 per block.
      expect(await chain.getTransactionCount(from, BigInt(block))).to.equal(1 + 2 * (block - 1))
    }
  })

  it('a dump records where the history starts; loaded, with or without --prune-history, reads before it are still refused and reads from it answer as before', async () => {
    const from = signer(chain, 0).address
    const json = JSON.parse(await chain.dumpState('json'))
    expect(json.historyFrom).to.equal(4)
    for (const options of [{}, { pruneHistory: 10 }]) {
      const loaded = await createChain({ mining: 'off', state: json, ...options } as ChainOptions)
      const read = (method: string, params: unknown[]) => loaded.request({ method, params })
      for (const block of [0, 3]) expect(await errorOf(read('eth_getBalance', [from, hex(block)]))).to.deep.equal(outOfRange(6, block))
      for (const block of [4, 5, 6]) expect(await loaded.getBalance(from, BigInt(block))).to.equal(built.balances[block])
      expect(await read('eth_call', [{ to: built.counter, ...COUNT_CALL }, hex(4)])).to.equal(hex(3).replace('0x', '0x' + '0'.repeat(63)))
      expect(JSON.parse(await loaded.dumpState('json')).historyFrom, 'a dump of the loaded chain keeps it').to.equal(4)
    }
    // A chain that never pruned records nothing; a history start outside the dump's blocks is refused.
    const whole = await createChain({ mining: 'off' })
    await whole.mine()
    expect(JSON.parse(await whole.dumpState('json'))).to.not.have.property('historyFrom')
    const error = await rejection(createChain({ state: { ...json, historyFrom: 7 } }))
    expect(error.message).to.match(/historyFrom should be a block the dump holds \(0 to 6\), got 7/)
  })

  it('keeps the blocks, transactions, receipts and logs of pruned blocks, as Anvil does', async () => {
    const block = (await request('eth_getBlockByNumber', ['0x2', false])) as { number: Hex; transactions: Hex[] }
    expect(block.number).to.equal('0x2')
    expect(block.transactions).to.have.length(2)
    expect(block.transactions[0]).to.equal(built.transactions[1])
    const receipt = await receiptOf(chain, built.transactions[1])
    expect(receipt?.blockNumber).to.equal('0x2')
    expect(receipt?.logs).to.have.length(1)
    const transaction = (await request('eth_getTransactionByHash', [built.transactions[0]])) as { blockNumber: Hex }
    expect(transaction.blockNumber).to.equal('0x1')
    const logs = (await request('eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest', address: built.counter }])) as unknown[]
    expect(logs).to.have.length(5)
  })

  it('refuses to trace a block whose parent is pruned, naming the parent (deviation: Anvil answers from its records)', async () => {
    // Block 4 ran on the state at the end of block 3, which is pruned.
    expect(await errorOf(request('debug_traceTransaction', [built.transactions[3], {}]))).to.deep.equal(outOfRange(6, 3))
    expect(await errorOf(request('debug_traceBlockByNumber', ['0x4', {}]))).to.deep.equal(outOfRange(6, 3))
    const trace = (await request('debug_traceTransaction', [built.transactions[4], {}])) as { failed: boolean }
    expect(trace.failed).to.equal(false)
  })

  it('after more seals, moves the oldest kept block with the head (head 9: blocks 7..9)', async () => {
    for (let i = 0; i < 3; i++) await chain.mine()
    const from = signer(chain, 0).address
    expect(await errorOf(request('eth_getBalance', [from, '0x6']))).to.deep.equal(outOfRange(9, 6))
    // Blocks 7..9 hold no transaction: the sender's balance is block 6's.
    for (const block of [7, 8, 9]) expect(await chain.getBalance(from, BigInt(block))).to.equal(built.balances[6])
  })

  it('restores the pruned state exactly on a revert to a snapshot taken before (deviation: Anvil keeps only the head)', async () => {
    const from = signer(chain, 0).address
    const id = (await request('evm_snapshot', [])) as Hex
    for (let i = 0; i < 6; i++) await chain.mine()
    expect(await errorOf(request('eth_getBalance', [from, '0x6']))).to.deep.equal(outOfRange(12, 6))
    expect(await request('evm_revert', [id])).to.equal(true)
    expect(chain.blockNumber()).to.equal(6n)
    for (const block of [4, 5, 6]) {
      expect(await chain.getBalance(from, BigInt(block))).to.equal(built.balances[block])
      expect(BigInt((await request('eth_getStorageAt', [built.counter, '0x0', hex(block)])) as Hex)).to.equal(BigInt(block - 1))
    }
    expect(await errorOf(request('eth_getBalance', [from, '0x3']))).to.deep.equal(outOfRange(6, 3))
    // Pruning goes on from the restored head: block 7 sealed, block 4 falls away.
    await chain.mine()
    expect(await errorOf(request('eth_getBalance', [from, '0x4']))).to.deep.equal(outOfRange(7, 4))
    expect(await chain.getBalance(from, 5n)).to.equal(built.balances[5])
  })

  it('keeps the head, and at most N older versions plus the one in force at the oldest kept block, per key', async () => {
    for (let i = 0; i < 20; i++) {
      const from = signer(chain, 1)
      await chain.sendRawTransaction(await from.sign({ to: RECIPIENT, value: 1n, nonce: i }))
      await chain.mine()
    }
    // Head 26, kept 24..26: the sender wrote in every block, so 3 versions (24, 25, 26).
    const dump = JSON.parse(await chain.dumpState('json')) as { accounts: Record<string, unknown[]>; storage: Record<string, { slots: Record<string, unknown[]> }> }
    const sender = signer(chain, 1).address.toLowerCase()
    expect(dump.accounts[sender]).to.have.length(3)
    const lengths = [...Object.values(dump.accounts), ...Object.values(dump.storage).flatMap((s) => Object.values(s.slots))].map((versions) => versions.length)
    expect(Math.max(...lengths)).to.equal(3)
    // Counter's count, last written in block 6 (before the oldest kept block): its one version in force.
    expect(dump.storage[built.counter.toLowerCase()].slots['0x0']).to.deep.equal([[6, '0x5']])
  })

  it('takes 0 as the head alone (Anvil\'s bare --prune-history), and refuses a negative N', async () => {
    const headOnly = await prunedChain(0)
    const head = await build(headOnly)
    const from = signer(headOnly, 0).address
    expect(await errorOf(headOnly.request({ method: 'eth_getBalance', params: [from, '0x5'] }))).to.deep.equal(outOfRange(6, 5))
    expect(await headOnly.getBalance(from, 6n)).to.equal(head.balances[6])
    await rejection(createChain({ pruneHistory: -1 } as ChainOptions), TypeError)
  })
})

describe('--prune-history against Anvil 1.7.1 live: the same error object for the same reads', () => {
  let anvil: AnvilNode | undefined
  let skipped: string | undefined
  before(async function () {
    this.timeout(30_000)
    const started = await startAnvil(['--prune-history', '2'])
    if ('unavailable' in started) skipped = started.unavailable
    else anvil = started
  })
  after(() => anvil?.stop())

  it('eth_getBalance, eth_getStorageAt, eth_call and debug_traceCall at block 3 of head 6', async function () {
    if (anvil === undefined) return this.skip()
    expect(skipped).to.equal(undefined)
    const [from] = await anvil.request<Hex[]>('eth_accounts')
    const deployment = await anvil.request<Hex>('eth_sendTransaction', [{ from, data: Counter.bytecode }])
    await anvil.mined(deployment)
    const counter = (await anvil.request<{ contractAddress: Hex }>('eth_getTransactionReceipt', [deployment])).contractAddress
    for (let i = 0; i < 5; i++) await anvil.mined(await anvil.request<Hex>('eth_sendTransaction', [{ from, to: counter, data: INCREMENT }]))
    const chain = await prunedChain(2)
    const ours = await build(chain)
    const reads: Array<[string, (counter: Hex, from: Hex) => unknown[]]> = [
      ['eth_getBalance', (_, from) => [from, '0x3']],
      ['eth_getStorageAt', (counter) => [counter, '0x0', '0x3']],
      ['eth_call', (counter) => [{ to: counter, ...COUNT_CALL }, '0x3']],
      ['debug_traceCall', (counter) => [{ to: counter, ...COUNT_CALL }, '0x3', {}]],
    ]
    for (const [method, params] of reads) {
      const response = await fetch(anvil.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: params(counter, from) }) })
      const { error } = (await response.json()) as { error: unknown }
      expect(await errorOf(chain.request({ method, params: params(ours.counter, signer(chain, 0).address) })), method).to.deep.equal(error)
    }
  })
})

describe('StateHistory with pruning: what each seal drops', () => {
  const address = '0x00000000000000000000000000000000000000c0'
  /** A block writing `balance` and slot 1 = `word` for `address`. */
  const changes = (balance: bigint, word: bigint) => {
    const layer = new StateLayer(EMPTY_STATE_SOURCE as never)
    layer.putAccount(address, withAccountFields(undefined, { balance }))
    layer.putStorage(address, 1n, word)
    return layer
  }
  const versionCount = (history: StateHistory): number => {
    let count = 0
    for (const entry of history.entries()) {
      count += entry.account?.blocks.length ?? 0
      for (const versions of entry.storage?.slots.values() ?? []) count += versions.blocks.length
    }
    return count
  }

  it('holds keep + 1 versions of a key written in every block, whatever the number of blocks', () => {
    const history = new StateHistory(EMPTY_STATE_SOURCE, undefined, 3)
    for (let block = 1; block <= 1000; block++) history.apply(block, changes(BigInt(block), BigInt(block)))
    // Floor 997: the account and the slot keep their versions of 997..1000.
    expect(versionCount(history)).to.equal(8)
    expect(history.at(997).getAccount(address)).to.deep.include({ balance: 997n })
    expect(history.at(1000).getStorage(address, 1n)).to.equal(1000n)
    expect(() => history.at(996)).to.throw(InvalidParamsError, 'BlockOutOfRangeError: block height is 1000 but requested was 996')
  })

  it('drops the words a wipe hides once the wipe falls behind the oldest kept block', () => {
    const history = new StateHistory(EMPTY_STATE_SOURCE, undefined, 1)
    history.apply(1, changes(1n, 5n))
    const wipe = new StateLayer(history.latest)
    wipe.clearStorage(address)
    wipe.putStorage(address, 2n, 7n)
    history.apply(2, wipe)
    history.apply(3, new StateLayer(history.latest))
    // Floor 2: slot 1 (written before the wipe at 2) is gone; slot 2 stays.
    expect(history.at(2).getStorage(address, 1n)).to.equal(0n)
    expect(history.at(3).getStorage(address, 2n)).to.equal(7n)
    const storage = [...history.entries()][0].storage!
    expect([...storage.slots.keys()]).to.deep.equal([2n])
    expect(storage.wipes).to.deep.equal([2])
  })

  it('adds no version for a write of the value a key already holds (an edit, then the seal that carries it)', () => {
    const history = new StateHistory(EMPTY_STATE_SOURCE)
    history.putStorage(0, address, 1n, 9n)
    history.apply(1, changes(0n, 9n))
    expect(versionCount(history)).to.equal(2)
    expect([...history.entries()][0].storage!.slots.get(1n)!.blocks).to.deep.equal([0])
  })
})

describe('the first seal after a large state edit costs what the edit touched', () => {
  const target = '0x00000000000000000000000000000000000000c0'
  /** Sets `count` words of `target` (word i = i + 1) with anvil_setStorageAt. */
  const editWords = async (chain: Chain, count: number) => {
    for (let slot = 0; slot < count; slot++) await chain.request({ method: 'anvil_setStorageAt', params: [target, hex(slot), `0x${(slot + 1).toString(16).padStart(64, '0')}`] })
  }
  /** The state root a chain loaded from `chain`'s dump computes for the same state in one pass (its tries built whole). */
  // Cancun in the two specs below: the root a loaded chain seals with an empty block is the
  // root of the state it loaded (from Prague the block would add its parent's hash, EIP-2935).
  const onePassRoot = async (chain: Chain): Promise<Uint8Array> => {
    const loaded = await createChain({ mining: 'off', hardfork: 'cancun', state: await chain.dumpState() })
    return (await loaded.mine()).header.stateRoot
  }

  it('seals 50k anvil_setStorageAt edits within 2 s (they were folded as they came), holding one version per word', async function () {
    this.timeout(60_000)
    const chain = await createChain({ mining: 'off' })
    await editWords(chain, 50_000)
    const start = performance.now()
    await chain.mine()
    const sealMs = performance.now() - start
    expect(sealMs, `first seal took ${sealMs.toFixed(0)} ms`).to.be.below(2_000)
    expect(BigInt((await chain.request({ method: 'eth_getStorageAt', params: [target, hex(49_999), 'latest'] })) as Hex)).to.equal(50_000n)
    const dump = JSON.parse(await chain.dumpState('json')) as { storage: Record<string, { slots: Record<string, unknown[]> }> }
    const slots = Object.values(dump.storage[target].slots)
    expect(slots).to.have.length(50_000)
    expect(slots.every((versions) => versions.length === 1)).to.equal(true)
  })

  it('gives the root a one-pass build gives, where the sealed block changes an account edited and folded before it', async function () {
    this.timeout(60_000)
    const chain = await createChain({ mining: 'off', hardfork: 'cancun' })
    const from = signer(chain, 0)
    await chain.request({ method: 'anvil_setBalance', params: [from.address, hex(10n ** 21n)] })
    await editWords(chain, 20_000)
    await chain.sendRawTransaction(await from.sign({ to: RECIPIENT, value: 1n }))
    const sealed = await chain.mine()
    expect(sealed.transactions).to.have.length(1)
    expect(sealed.header.stateRoot).to.deep.equal(await onePassRoot(chain))
  })

  it('takes a revert past a fold back: a block writing an edited value again after it folds the value', async function () {
    this.timeout(60_000)
    const chain = await createChain({ mining: 'off', hardfork: 'cancun' })
    const from = signer(chain, 0)
    const { address: counter } = await sendDeploy(chain, from, Counter)
    await chain.mine()
    const id = await chain.snapshot()
    // Counter's count (slot 0) edited to 5, then folded with the 20k words past the threshold.
    await chain.request({ method: 'anvil_setStorageAt', params: [counter, '0x0', `0x${'5'.padStart(64, '0')}`] })
    await editWords(chain, 20_000)
    expect(await chain.revert(id)).to.equal(true)
    // The same value written by a transaction in the next block: the tries no longer hold it.
    await chain.sendRawTransaction(await signCall(from, counter, Counter.abi, 'set', [5n], { nonce: 1 }))
    const sealed = await chain.mine()
    expect(BigInt((await chain.request({ method: 'eth_getStorageAt', params: [counter, '0x0', 'latest'] })) as Hex)).to.equal(5n)
    expect(sealed.header.stateRoot).to.deep.equal(await onePassRoot(chain))
  })
})
