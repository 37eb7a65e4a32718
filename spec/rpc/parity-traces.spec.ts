/**
 * trace_transaction, trace_block and trace_filter (Parity's flat traces, as Anvil serves them):
 * judged against Anvil 1.7.1 on the same signed transactions and on hand-written code, then what
 * only the devnet has (a pre-confirmed transaction, the sealed endpoint) and the edges (unknown
 * transactions, genesis, blocks beyond the head, bad filters).
 */
import { expect } from 'chai'
import { getContractAddress, type Hex } from 'viem'
import { parityError } from '../../lib/execution/tracers/parity-tracer.ts'
import { createChain, type Chain } from '../../lib/index.ts'
import type { Address } from '../../lib/types.ts'
import { anvilOrSkip, type AnvilNode } from '../support/anvil-node.ts'
import { sendTraceWorkload, type SentTransaction } from '../support/trace-workload.ts'
import { signer } from '../support/wallet.ts'

type Trace = { action: Record<string, unknown>; blockHash: Hex; blockNumber: number; error?: string; result: Record<string, unknown> | null; subtraces: number; traceAddress: number[]; transactionHash: Hex; transactionPosition: number; type: string }
type Request = (method: string, params: unknown[]) => Promise<unknown>

const ZERO_HASH = `0x${'00'.repeat(32)}` as Hex
const BENEFICIARY = `0x${'00'.repeat(19)}be` as Address
const ZERO_ADDRESS = `0x${'00'.repeat(20)}` as Address

/** Init code that sets slot 0 to 1 and deploys no code; pushed by PUSH6 and created by CREATE(0, 26, 6). */
const SETS_SLOT = '600160005500'

/**
 * Hand-written code, each run in a transaction of its own: [code, balance the contract starts
 * with, a slot-0 value set first, whether the address its CREATE makes is funded first].
 */
const PROGRAMS: Record<string, [Hex, Hex, Hex | undefined, boolean?]> = {
  // PUSH20 beneficiary SELFDESTRUCT: a suicide trace carrying the balance.
  selfdestruct: [`0x73${BENEFICIARY.slice(2)}ff`, '0x64', undefined],
  // CALL 0x…ca with 1 wei from an account holding none: the refused sub-call has no result.
  refused: [`0x60006000600060006001${'73' + '00'.repeat(19) + 'ca'}61fffff1`, '0x0', undefined],
  invalid: ['0xfe', '0x0', undefined],
  // JUMPDEST PUSH1 0 JUMP until the gas runs out.
  loop: ['0x5b600056', '0x0', undefined],
  // ADD on an empty stack.
  underflow: ['0x01', '0x0', undefined],
  // REVERT(0, 0): a revert keeps its result.
  revert: ['0x60006000fd', '0x0', undefined],
  // PUSH1 4 JUMP to a byte that is no JUMPDEST.
  badJump: ['0x600456', '0x0', undefined],
  // SSTORE(0, 0) over a 1: the top frame's gas used is the code's, before the refund.
  refund: ['0x600060005500', '0x0', `0x${'00'.repeat(31)}01`],
  // CALL the identity precompile: listed, as Anvil lists it.
  precompile: ['0x600060006000600060006004610fa0f100', '0x0', undefined],
  // CREATE of init code that reverts with 0xdead: the creation's result keeps the revert data as its code.
  revertedCreate: ['0x6a61dead6000526002601efd600052600b60156000f000', '0x0', undefined],
  // CREATE of init code that sets a slot: born with its storage.
  bornWithStorage: [`0x65${SETS_SLOT}6000526006601a6000f000`, '0x0', undefined],
  // The same CREATE over an address holding 7 wei: changed, not born.
  createOverFunded: [`0x65${SETS_SLOT}6000526006601a6000f000`, '0x0', undefined, true],
  // CREATE with 5 wei of init code that self-destructs to the beneficiary: created and destroyed, so left out.
  bornAndDestroyed: [`0x7573${BENEFICIARY.slice(2)}ff6000526016600a6005f000`, '0x64', undefined],
}

/** Runs each program from the third dev account on a node; returns the transaction hashes by program. */
async function runPrograms(request: Request, mined: (hash: Hex) => Promise<void>): Promise<Record<string, Hex>> {
  const from = '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc'
  const hashes: Record<string, Hex> = {}
  for (const [index, [name, [code, balance, slot, fundsCreation]]] of Object.entries(PROGRAMS).entries()) {
    const address = `0x${'00'.repeat(18)}c0${index.toString(16).padStart(2, '0')}` as Address
    await request('anvil_setCode', [address, code])
    await request('anvil_setBalance', [address, balance])
    if (slot !== undefined) await request('anvil_setStorageAt', [address, '0x0', slot])
    if (fundsCreation === true) await request('anvil_setBalance', [getContractAddress({ from: address, nonce: 0n }), '0x7'])
    hashes[name] = (await request('eth_sendTransaction', [{ from, to: address, gas: '0x30000' }])) as Hex
    await mined(hashes[name])
  }
  return hashes
}

/** Traces as both nodes can agree on them: block hashes differ (their timestamps do). */
const placed = (traces: Trace[]) => traces.map(({ blockHash: _, ...trace }) => trace)

describe('trace_transaction, trace_block, trace_filter (Parity flat traces)', () => {
  describe('against Anvil 1.7.1 (--hardfork prague), the same signed transactions on both', function () {
    this.timeout(60_000)
    let anvil: AnvilNode | undefined
    let chain: Chain
    let sent: SentTransaction[]
    const programs: Record<'ours' | 'theirs', Record<string, Hex>> = { ours: {}, theirs: {} }
    const ours = (method: string, params: unknown[]) => chain.request({ method, params }) as Promise<Trace[]>

    before(async function () {
      // Block 1's base fee as ours (and geth's and Hardhat's: EIP-1559 from genesis; Anvil's block 1 keeps the genesis's), so the state diffs agree on fees.
      anvil = await anvilOrSkip(this, ['--hardfork', 'prague', '--base-fee', '875000000'])
      // Anvil's fee recipient, so the state diffs name the same accounts.
      chain = await createChain({ clock: 'manual', mining: 'auto', coinbase: ZERO_ADDRESS })
      ;({ sent } = await sendTraceWorkload(chain, anvil))
      programs.ours = await runPrograms((method, params) => chain.request({ method, params }), async () => {})
      programs.theirs = await runPrograms((method, params) => anvil!.request(method, params), (hash) => anvil!.mined(hash))
    })
    after(() => anvil?.stop())

    it('a deployment (with a CREATE in its constructor), nested calls with value, a revert, CREATE and CREATE2: the same traces', async () => {
      for (const { hash } of sent) {
        const theirs = await anvil!.request<Trace[]>('trace_transaction', [hash])
        expect(placed(await ours('trace_transaction', [hash])), hash).to.deep.equal(placed(theirs))
      }
    })

    it("hand-written code: a self-destruct, a refused transfer, INVALID, out of gas, a bad jump, a revert, a refund, a precompile call; errors in Parity's words (Anvil leaks 'StackUnderflow')", async () => {
      for (const name of Object.keys(PROGRAMS)) {
        const strip = (traces: Trace[]) => placed(traces).map(({ transactionHash: _, blockNumber: __, ...trace }) => trace)
        const theirs = strip(await anvil!.request<Trace[]>('trace_transaction', [programs.theirs[name]]))
        if (name === 'underflow') theirs[0].error = 'Stack underflow'
        expect(strip(await ours('trace_transaction', [programs.ours[name]])), name).to.deep.equal(theirs)
      }
    })

    it('trace_block: every transaction of the block in order, as Anvil has them; trace_filter keeps the callers, callees and window asked for', async () => {
      const { blockNumber } = (await chain.request({ method: 'eth_getTransactionReceipt', params: [sent[1].hash] })) as { blockNumber: Hex }
      const theirs = await anvil!.request<Trace[]>('trace_block', [blockNumber])
      expect(placed(await ours('trace_block', [blockNumber]))).to.deep.equal(placed(theirs))
      const tracee = (await ours('trace_transaction', [sent[1].hash]))[0].action.to as Address
      const alice = sent.length > 0 ? ((await ours('trace_transaction', [sent[0].hash]))[0].action.from as Address) : undefined
      const filters = [
        { fromBlock: '0x1', toBlock: '0x4' },
        { fromBlock: '0x1', toBlock: '0x4', fromAddress: [tracee] },
        { fromBlock: '0x1', toBlock: '0x4', toAddress: [tracee], after: 1, count: 1 },
        { fromBlock: '0x2', toBlock: '0x3', count: 3 },
        // Both lists: either matches (union, the default), or both (intersection); an empty list is no list.
        { fromBlock: '0x1', toBlock: '0x4', fromAddress: [tracee], toAddress: [alice] },
        { fromBlock: '0x1', toBlock: '0x4', fromAddress: [alice], toAddress: [tracee], mode: 'intersection' },
        { fromBlock: '0x1', toBlock: '0x4', fromAddress: [], toAddress: [] },
      ]
      for (const filter of filters) {
        const theirsFiltered = await anvil!.request<Trace[]>('trace_filter', [filter])
        expect(placed(await ours('trace_filter', [filter])), JSON.stringify(filter)).to.deep.equal(placed(theirsFiltered))
      }
    })

    it("trace_replayBlockTransactions: each transaction's output, flat traces and state diff (revm-inspectors' rules: born, changed, unchanged), as Anvil replays them", async () => {
      const blockOf = async (request: Request, hash: Hex) => ((await request('eth_getTransactionReceipt', [hash])) as { blockNumber: Hex }).blockNumber
      const ourRequest: Request = (method, params) => chain.request({ method, params })
      const theirRequest: Request = (method, params) => anvil!.request(method, params)
      const cases: [string, Hex, Hex][] = sent.map(({ hash }) => [hash, hash, hash])
      for (const name of Object.keys(PROGRAMS)) cases.push([name, programs.ours[name], programs.theirs[name]])
      for (const [name, ourHash, theirHash] of cases) {
        for (const types of [['trace', 'stateDiff'], ['stateDiff'], []]) {
          // Each node's own transaction (the programs were signed by each node, so their hashes differ).
          const [mine] = (await ourRequest('trace_replayBlockTransactions', [await blockOf(ourRequest, ourHash), types])) as Record<string, unknown>[]
          const [theirs] = (await theirRequest('trace_replayBlockTransactions', [await blockOf(theirRequest, theirHash), types])) as Record<string, unknown>[]
          expect(mine.transactionHash).to.equal(ourHash)
          // Anvil leaks revm's name for a stack underflow, as in trace_transaction.
          for (const trace of theirs.trace as Trace[]) if (trace.error === 'StackUnderflow') trace.error = 'Stack underflow'
          expect({ ...mine, transactionHash: theirHash }, `${name} ${types}`).to.deep.equal(theirs)
        }
      }
    })
  })

  describe('what only the devnet has, and the edges', () => {
    let chain: Chain
    const request = (method: string, params: unknown[]) => chain.request({ method, params })
    beforeEach(async () => {
      chain = await createChain({ clock: 'manual' })
    })

    it('a pre-confirmed transaction is traced in the pending block (hash zero, the next number); the sealed endpoint has no trace of it until it seals', async () => {
      const alice = signer(chain, 0)
      const hash = await chain.sendRawTransaction(await alice.sign({ to: null, data: '0x600a600c600039600a6000f3602a60005260206000f3' as Hex, gas: 200_000n, nonce: 0 }))
      await chain.tick()
      const [trace] = (await request('trace_transaction', [hash])) as Trace[]
      expect(trace).to.include({ blockHash: ZERO_HASH, blockNumber: 1, transactionHash: hash, transactionPosition: 0, type: 'create' })
      expect(await request('trace_block', ['pending'])).to.deep.equal([trace])
      expect(await chain.sealed.request({ method: 'trace_transaction', params: [hash] })).to.deep.equal([])
      await chain.mine()
      const block = (await request('eth_getBlockByNumber', ['0x1', false])) as { hash: Hex }
      expect(await chain.sealed.request({ method: 'trace_transaction', params: [hash] })).to.deep.equal([{ ...trace, blockHash: block.hash }])
    })

    it("a block number beyond the head has none, even with pre-confirmed transactions: only the tag 'pending' names the pre-confirmed block", async () => {
      await chain.sendRawTransaction(await signer(chain, 0).sign({ to: BENEFICIARY, nonce: 0 }))
      await chain.tick()
      expect(await request('trace_block', ['0x1'])).to.deep.equal([])
      expect(await request('trace_block', ['pending'])).to.have.length(1)
    })

    it('no traces ([] as Anvil answers): an unknown or only pooled transaction, genesis, a block beyond the head', async () => {
      const queued = await chain.sendRawTransaction(await signer(chain, 0).sign({ to: BENEFICIARY, nonce: 5 }))
      expect(await request('trace_transaction', [ZERO_HASH])).to.deep.equal([])
      expect(await request('trace_transaction', [queued])).to.deep.equal([])
      expect(await request('trace_block', ['earliest'])).to.deep.equal([])
      expect(await request('trace_block', ['0x99'])).to.deep.equal([])
      expect(await request('trace_filter', [{}])).to.deep.equal([])
      expect(await request('trace_replayBlockTransactions', ['earliest', ['trace']])).to.deep.equal([])
      expect(await request('trace_replayBlockTransactions', ['0x99', ['trace']])).to.deep.equal([])
    })

    it('trace_replayBlockTransactions replays the pre-confirmed block at pending', async () => {
      const hash = await chain.sendRawTransaction(await signer(chain, 0).sign({ to: BENEFICIARY, value: 3n, nonce: 0 }))
      await chain.tick()
      const [replay] = (await request('trace_replayBlockTransactions', ['pending', ['stateDiff']])) as { transactionHash: Hex; stateDiff: Record<string, { balance: unknown }> }[]
      expect(replay.transactionHash).to.equal(hash)
      expect(replay.stateDiff[BENEFICIARY].balance).to.deep.equal({ '*': { from: '0x0', to: '0x3' } })
    })

    it('bad parameters are -32602 naming the argument; a reversed range gets the error Anvil gives', async () => {
      const cases: [string, unknown[], string][] = [
        ['trace_transaction', ['0x12'], 'invalid argument 0 (hash)'],
        ['trace_block', ['newest'], 'invalid argument 0 (block)'],
        ['trace_filter', [[]], 'invalid argument 0 (filter): expected a trace filter object'],
        ['trace_filter', [{ fromAddress: '0x12' }], 'invalid argument 0 (filter).fromAddress: expected an array of addresses'],
        ['trace_filter', [{ toAddress: ['0x12'] }], 'invalid argument 0 (filter).toAddress[0]'],
        ['trace_filter', [{ count: -1 }], 'invalid argument 0 (filter).count'],
        ['trace_filter', [{ fromBlock: '0x5', toBlock: '0x1' }], 'invalid argument 0 (filter): invalid block range, ensure that to block is greater than from block'],
        ['trace_filter', [{ fromBlock: '0x0', toBlock: '0x12d' }], 'invalid argument 0 (filter): block range too large, currently limited to 300'],
        ['trace_filter', [{ mode: 'both' }], 'invalid argument 0 (filter).mode: expected "union" or "intersection"'],
        ['trace_replayBlockTransactions', ['latest', 'trace'], 'invalid argument 1 (trace types): expected an array of trace types'],
        ['trace_replayBlockTransactions', ['latest', ['calls']], 'invalid argument 1 (trace types): unknown trace type "calls"'],
        // Parity's VM trace is not served (Anvil's is revm-inspectors' own shape): said, not answered with null.
        ['trace_replayBlockTransactions', ['latest', ['trace', 'vmTrace']], 'invalid argument 1 (trace types): vmTrace is not supported'],
      ]
      for (const [method, params, message] of cases) {
        const error = await request(method, params).catch((caught: { code: number; message: string }) => caught)
        expect(error, message).to.include({ code: -32602 })
        expect((error as { message: string }).message).to.contain(message)
      }
    })

    it("geth's errors in Parity's words (eth/tracers/native/call_flat.go), anything else as it is", () => {
      const cases: [string, string][] = [
        ['execution reverted', 'Reverted'],
        ['out of gas', 'Out of gas'],
        ['contract creation code storage out of gas', 'Out of gas'],
        ['invalid opcode: INVALID', 'Bad instruction'],
        ['invalid jump destination', 'Bad jump destination'],
        ['stack underflow (0 <=> 2)', 'Stack underflow'],
        ['stack limit reached 1024 (1023)', 'Out of stack'],
        ['write protection', 'write protection'],
      ]
      expect(cases.map(([geth]) => parityError(geth))).to.deep.equal(cases.map(([, parity]) => parity))
    })
  })
})
