/**
 * Otterscan's methods (`ots_*`, `erigon_getHeaderByNumber`): judged against Anvil 1.7.1 on the
 * same signed transactions (every method and its edges), then what Anvil's workload does not
 * reach: a self-destruct, paging across empty blocks, a pre-confirmed transaction, a contract
 * whose code was set rather than created.
 */
import { expect } from 'chai'
import type { Hex } from 'viem'
import { createChain, type Chain } from '../../lib/index.ts'
import type { Address } from '../../lib/types.ts'
import { anvilOrSkip, answerOrError, type AnvilNode } from '../support/anvil-node.ts'
import { sendTraceWorkload, type SentTransaction } from '../support/trace-workload.ts'

const ALICE = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266' as Address
const UNKNOWN_HASH = `0x${'11'.repeat(32)}` as Hex
const ZERO_HASH = `0x${'00'.repeat(32)}` as Hex
const BENEFICIARY = `0x${'00'.repeat(19)}be` as Address
const NOBODY = `0x${'00'.repeat(19)}99` as Address

type Page = { txs: { hash: Hex; blockNumber: Hex }[]; receipts: { transactionHash: Hex; timestamp: Hex }[]; firstPage: boolean; lastPage: boolean }

/** Fields that differ between two nodes running the same transactions (hashes, times, fees, roots, the coinbase), dropped before comparing. */
const NODE_SPECIFIC = new Set([
  'hash', 'blockHash', 'parentHash', 'timestamp', 'blockTimestamp', 'stateRoot', 'receiptsRoot', 'transactionsRoot', 'mixHash', 'logsBloom',
  'baseFeePerGas', 'gasPrice', 'effectiveGasPrice', 'totalFees', 'size', 'miner', 'r', 's', 'yParity', 'v',
])

function comparable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(comparable)
  if (typeof value !== 'object' || value === null) return value
  return Object.fromEntries(Object.entries(value).filter(([key]) => !NODE_SPECIFIC.has(key)).map(([key, field]) => [key, comparable(field)]))
}

const answerOf = (call: () => Promise<unknown>) => answerOrError(call, comparable)

describe('rpc: Otterscan (ots_*)', () => {
  describe('against Anvil 1.7.1 on the same signed transactions', () => {
    let chain: Chain
    let anvil: AnvilNode | undefined
    let tracee: Address
    let sent: SentTransaction[]
    const child = '0xa16e02e87b7454126e5e10d957a927a7f5b5d2be' as Address
    before(async function () {
      anvil = await anvilOrSkip(this, ['--hardfork', 'prague'])
      chain = await createChain({ clock: 'manual', mining: 'auto' })
      ;({ tracee, sent } = await sendTraceWorkload(chain, anvil))
    })
    after(() => anvil?.stop())

    /** Each method with arguments; `$n` is the n-th workload transaction, `$tracee` its contract. */
    const CALLS: ReadonlyArray<readonly [string, readonly unknown[]]> = [
      ['ots_getApiLevel', []],
      ['ots_hasCode', ['$tracee', 'latest']],
      ['ots_hasCode', ['$tracee', 0]],
      ['ots_hasCode', [ALICE]],
      ...[0, 1, 2, 3].map((n) => ['ots_getInternalOperations', [`$${n}`]] as const),
      ...[0, 1, 2, 3].map((n) => ['ots_traceTransaction', [`$${n}`]] as const),
      ['ots_traceTransaction', [UNKNOWN_HASH]],
      ['ots_getTransactionError', ['$1']],
      ['ots_getTransactionError', ['$2']],
      ['ots_getTransactionError', [UNKNOWN_HASH]],
      ['ots_getBlockDetails', [2]],
      ['ots_getBlockDetails', ['latest']],
      ['ots_getBlockDetails', [99]],
      ['ots_getBlockDetailsByHash', [ZERO_HASH]],
      ['ots_getBlockTransactions', [2, 0, 10]],
      ['ots_getBlockTransactions', [2, 1, 10]],
      ['ots_getBlockTransactions', [99, 0, 10]],
      ...[[0, 2], [0, 10], [3, 10], [4, 10], [1, 10], [9, 10]].map(([block, size]) => ['ots_searchTransactionsBefore', ['$tracee', block, size]] as const),
      ['ots_searchTransactionsBefore', [child, 0, 10]],
      ['ots_searchTransactionsBefore', [ALICE, 0, 1]],
      ['ots_searchTransactionsBefore', [NOBODY, 0, 10]],
      ...[[0, 2], [2, 10], [4, 10], [3, 1]].map(([block, size]) => ['ots_searchTransactionsAfter', ['$tracee', block, size]] as const),
      ['ots_searchTransactionsAfter', [child, 0, 10]],
      ['ots_getTransactionBySenderAndNonce', [ALICE, 2]],
      ['ots_getTransactionBySenderAndNonce', [ALICE, '0x3']],
      ['ots_getTransactionBySenderAndNonce', [ALICE, 9]],
      ['ots_getContractCreator', ['$tracee']],
      ['ots_getContractCreator', [child]],
      ['ots_getContractCreator', [ALICE]],
      ['erigon_getHeaderByNumber', [2]],
      ['erigon_getHeaderByNumber', [99]],
    ]

    it(`answers the ${CALLS.length} calls as Anvil does (hashes, times, fees and the coinbase aside)`, async () => {
      const resolve = (value: unknown): unknown =>
        value === '$tracee' ? tracee : typeof value === 'string' && /^\$\d$/.test(value) ? sent[Number(value.slice(1))].hash : value
      const differences: string[] = []
      for (const [method, args] of CALLS) {
        const params = args.map(resolve)
        const ours = await answerOf(() => chain.request({ method, params }))
        const theirs = await answerOf(() => anvil!.request(method, params))
        if (JSON.stringify(sorted(ours)) !== JSON.stringify(sorted(theirs))) differences.push(`${method} ${JSON.stringify(args)}:\n  ours  ${JSON.stringify(ours)}\n  anvil ${JSON.stringify(theirs)}`)
      }
      expect(differences, differences.join('\n')).to.deep.equal([])
    })

    it('internal operations: the creations of a deploy (the top one included), value moved by calls, CREATE and CREATE2', async () => {
      const operations = async (n: number) => chain.request({ method: 'ots_getInternalOperations', params: [sent[n].hash] })
      expect(await operations(0)).to.deep.equal([
        { type: 2, from: ALICE, to: tracee, value: '0x0' },
        { type: 2, from: tracee, to: child, value: '0x0' },
      ])
      expect(await operations(1)).to.deep.equal([
        { type: 0, from: ALICE, to: tracee, value: '0x7' },
        { type: 0, from: tracee, to: child, value: '0x7' },
      ])
      expect(((await operations(3)) as { type: number }[]).map(({ type }) => type)).to.deep.equal([2, 3])
    })
  })

  describe('what the workload does not reach', () => {
    it('a frame that self-destructs is listed as the self-destruct: destroyed account, beneficiary, balance moved (Anvil 1.7.1 answers these same two lists)', async () => {
      const chain = await createChain({ clock: 'manual', mining: 'auto' })
      const doomed = `0x${'00'.repeat(19)}d0` as Address
      await chain.request({ method: 'anvil_setCode', params: [doomed, `0x73${BENEFICIARY.slice(2)}ff`] })
      await chain.request({ method: 'anvil_setBalance', params: [doomed, '0x64'] })
      const hash = await chain.request({ method: 'eth_sendTransaction', params: [{ from: ALICE, to: doomed, value: '0x5' }] })
      expect(await chain.request({ method: 'ots_getInternalOperations', params: [hash] })).to.deep.equal([{ type: 1, from: doomed, to: BENEFICIARY, value: '0x69' }])
      expect(await chain.request({ method: 'ots_traceTransaction', params: [hash] })).to.deep.equal([
        { type: 'CALL', depth: 0, from: ALICE, to: doomed, value: '0x5', input: '0x', output: '0x' },
      ])
    })

    it('searches page back through empty blocks, whole blocks at a time, and say which page is the first and the last', async () => {
      const chain = await createChain({ clock: 'manual', mining: 'auto' })
      const target = `0x${'00'.repeat(19)}77` as Address
      const hashes: Hex[] = []
      for (let i = 0; i < 3; i++) {
        hashes.push((await chain.request({ method: 'eth_sendTransaction', params: [{ from: ALICE, to: target, value: '0x1' }] })) as Hex)
        await chain.request({ method: 'anvil_mine', params: ['0x2'] })
      }
      const before = (block: number, size: number) => chain.request({ method: 'ots_searchTransactionsBefore', params: [target, block, size] }) as Promise<Page>
      const newest = await before(0, 1)
      expect(newest.txs.map((tx) => tx.hash)).to.deep.equal([hashes[2]])
      expect(newest).to.include({ firstPage: true, lastPage: false })
      const rest = await before(Number(newest.txs[0].blockNumber), 5)
      expect(rest.txs.map((tx) => tx.hash)).to.deep.equal([hashes[1], hashes[0]])
      expect(rest).to.include({ firstPage: false, lastPage: true })
      expect(rest.receipts.map((receipt) => receipt.transactionHash)).to.deep.equal([hashes[1], hashes[0]])
      const block = (await chain.request({ method: 'eth_getBlockByNumber', params: [rest.txs[0].blockNumber, false] })) as { timestamp: Hex }
      expect(rest.receipts[0].timestamp).to.equal(block.timestamp)
      const after = (await chain.request({ method: 'ots_searchTransactionsAfter', params: [target, 0, 5] })) as Page
      expect(after.txs.map((tx) => tx.hash)).to.deep.equal([hashes[2], hashes[1], hashes[0]])
      expect(after).to.include({ firstPage: true, lastPage: true })
    })

    it('a pre-confirmed transaction is traced in the pending block; one only pooled has no trace, and its internal operations are -32000', async () => {
      const chain = await createChain({ clock: 'manual' })
      const doomed = `0x${'00'.repeat(19)}d1` as Address
      const hash = await chain.request({ method: 'eth_sendTransaction', params: [{ from: ALICE, to: doomed, value: '0x5' }] })
      expect(await chain.request({ method: 'ots_traceTransaction', params: [hash] })).to.deep.equal([])
      const error = await chain.request({ method: 'ots_getInternalOperations', params: [hash] }).then(
        () => ({}),
        (caught: { code: number; message: string }) => ({ code: caught.code, message: caught.message }),
      )
      expect(error).to.deep.equal({ code: -32000, message: 'transaction not found' })
      await chain.tick()
      expect(await chain.request({ method: 'ots_getInternalOperations', params: [hash] })).to.deep.equal([{ type: 0, from: ALICE, to: doomed, value: '0x5' }])
      const details = (await chain.request({ method: 'ots_getBlockDetails', params: ['pending'] })) as { block: { transactionCount: number; hash: Hex } }
      expect(details.block).to.include({ transactionCount: 1, hash: ZERO_HASH })
      // Searches read sealed blocks only: nothing until the block seals.
      const page = (await chain.request({ method: 'ots_searchTransactionsBefore', params: [doomed, 0, 5] })) as Page
      expect(page.txs).to.deep.equal([])
      await chain.mine()
      const sealed = (await chain.request({ method: 'ots_searchTransactionsBefore', params: [doomed, 0, 5] })) as Page
      expect(sealed.txs.map((tx) => tx.hash)).to.deep.equal([hash])
    })

    it("a block's total fees are its receipts' gas used times their price; a revert's data is the transaction's error", async () => {
      const chain = await createChain({ clock: 'manual', mining: 'auto' })
      // PUSH1 0x2a PUSH1 0 MSTORE PUSH1 32 PUSH1 0 REVERT: reverts with one word.
      const reverter = `0x${'00'.repeat(19)}e0` as Address
      await chain.request({ method: 'anvil_setCode', params: [reverter, '0x602a60005260206000fd'] })
      const failed = await chain.request({ method: 'eth_sendTransaction', params: [{ from: ALICE, to: reverter, gas: '0x10000' }] })
      const receipt = (await chain.request({ method: 'eth_getTransactionReceipt', params: [failed] })) as { gasUsed: Hex; effectiveGasPrice: Hex; blockNumber: Hex }
      expect(receipt).to.include({ status: '0x0' })
      expect(await chain.request({ method: 'ots_getTransactionError', params: [failed] })).to.equal(`0x${'00'.repeat(31)}2a`)
      const details = (await chain.request({ method: 'ots_getBlockDetails', params: [receipt.blockNumber] })) as { totalFees: Hex }
      expect(BigInt(details.totalFees)).to.equal(BigInt(receipt.gasUsed) * BigInt(receipt.effectiveGasPrice))
    })

    it('a contract whose code was set, not created, has no creator; a created one keeps its creator after its code is replaced', async () => {
      const chain = await createChain({ clock: 'manual', mining: 'auto' })
      const set = `0x${'00'.repeat(19)}c5` as Address
      await chain.request({ method: 'anvil_setCode', params: [set, '0x00'] })
      await chain.request({ method: 'evm_mine', params: [] })
      expect(await chain.request({ method: 'ots_getContractCreator', params: [set] })).to.equal(null)
      const deploy = await chain.request({ method: 'eth_sendTransaction', params: [{ from: ALICE, data: '0x600a600c600039600a6000f3602a60005260206000f3' }] })
      const { contractAddress } = (await chain.request({ method: 'eth_getTransactionReceipt', params: [deploy] })) as { contractAddress: Address }
      await chain.request({ method: 'anvil_setCode', params: [contractAddress, '0x00'] })
      await chain.request({ method: 'evm_mine', params: [] })
      expect(await chain.request({ method: 'ots_getContractCreator', params: [contractAddress] })).to.deep.equal({ hash: deploy, creator: ALICE })
      expect(await chain.request({ method: 'ots_hasCode', params: [contractAddress, 'latest'] })).to.equal(true)
    })

    it('bad arguments are -32602 naming the argument; a missing block is -32001 Resource not found (Anvil)', async () => {
      const chain = await createChain({ clock: 'manual' })
      const errorOf = (method: string, params: unknown[]) =>
        chain.request({ method, params }).then(
          () => undefined,
          (caught: { code: number; message: string }) => caught,
        )
      expect(await errorOf('ots_getBlockTransactions', [1, 0, 10])).to.include({ code: -32001, message: 'Resource not found' })
      expect(await errorOf('ots_getBlockDetailsByHash', [UNKNOWN_HASH])).to.include({ code: -32001, message: 'Resource not found' })
      expect((await errorOf('ots_searchTransactionsBefore', ['0x12', 0, 10]))?.message).to.match(/^invalid argument 0 \(address\)/)
      expect((await errorOf('ots_getBlockTransactions', [0, 'first', 10]))?.message).to.match(/^invalid argument 1 \(page\)/)
      expect(await chain.request({ method: 'ots_getTransactionBySenderAndNonce', params: [ALICE, 0] })).to.equal(null)
    })
  })
})

/** `value` with every object's keys in order, so two answers compare whatever order each node gives its fields. */
function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted)
  if (typeof value !== 'object' || value === null) return value
  return Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1)).map(([key, field]) => [key, sorted(field)]))
}
