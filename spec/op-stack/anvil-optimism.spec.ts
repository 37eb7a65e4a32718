/**
 * OP-stack deposits (type 0x7e) on a Base-preset devnet against Anvil 1.7.1 in its optimism mode
 * (`anvil --optimism`), live, request for request: the same envelope and the same
 * `eth_sendTransaction` fields get the same hash, the transaction and receipt JSON have the same
 * fields and, where the chains agree, the same values, and both credit the mint, bump the nonce
 * and fail deposits alike. Hashes are worked here from the envelope (keccak256 of
 * 0x7e ‖ rlp([sourceHash, from, to, mint, value, gas, isSystemTx, data])), gas from the schedule.
 *
 * Intended differences, each asserted as such below:
 * - the devnet opens every block with the L1-attributes deposit: its deposits sit at index 1,
 *   their cumulativeGasUsed counts it, and the blocks (hashes, timestamps) are its own;
 * - the devnet's deposit JSON adds op-geth's `gasPrice` 0x0 and `depositReceiptVersion` (and
 *   `to: null` on a creation, which Anvil leaves out), writes r and s as quantities (0x0, Anvil:
 *   32-byte zero words), its receipt's `type` as 0x7e (Anvil: 0x7E) and `blockTimestamp` as hex
 *   (Anvil's receipt: a JSON number);
 * - `depositNonce` is the sender's nonce before execution (OP specs, op-geth), and the
 *   transaction's `nonce` equals it; Anvil reports the nonce after execution and `nonce` 0x0;
 * - deposits Anvil refuses at admission (value above balance + mint, gas below intrinsic) are
 *   included failed on the devnet, as the OP specs include every deposit;
 * - user receipts carry the OP-stack fee fields on the devnet only (a fresh Anvil has no L1Block).
 */
import { expect } from 'chai'
import { concat, getContractAddress, hexToBigInt, keccak256, numberToHex, toHex, toRlp, type Hex } from 'viem'
import { createChain, type Chain } from '../../lib/index.ts'
import { startAnvil, type AnvilNode } from '../support/anvil-node.ts'
import { rejection } from '../support/chain-helpers.ts'

/** A deposit's fields; `to` undefined is a creation. */
interface Deposit {
  readonly sourceHash: Hex
  readonly from: Hex
  readonly to?: Hex
  readonly mint: bigint
  readonly value: bigint
  readonly gas: bigint
  readonly data: Hex
}

const quantity = (n: bigint): Hex => (n === 0n ? '0x' : numberToHex(n))
/** 0x7e ‖ rlp([...]) with isSystemTx false, as the OP specs' deposits.md lays it out. */
const envelope = (d: Deposit): Hex =>
  concat(['0x7e', toRlp([d.sourceHash, d.from, d.to ?? '0x', quantity(d.mint), quantity(d.value), quantity(d.gas), '0x', d.data])])
/** The deposit as Anvil's optimism mode takes it from eth_sendTransaction. */
const requestOf = (d: Deposit, withGas = true) => ({
  from: d.from,
  ...(d.to === undefined ? {} : { to: d.to }),
  value: numberToHex(d.value),
  ...(withGas ? { gas: numberToHex(d.gas) } : {}),
  data: d.data,
  sourceHash: d.sourceHash,
  mint: numberToHex(d.mint),
  isSystemTx: false,
})
const source = (label: string): Hex => keccak256(toHex(label))
const account = (digit: string): Hex => `0x${digit.repeat(40)}`
const created = (from: Hex, nonce: bigint) => getContractAddress({ from, nonce }).toLowerCase()

/** The OP Sepolia deposit Foundry's Anvil tests use (research opstack.md §1). */
const VECTOR_RAW: Hex =
  '0x7ef861a0dfd7ae78bf3c414cfaa77f13c0205c82eb9365e217b2daa3448c3156b69b27ac94778f2146f48179643473b82931c4cd7b8f153efd94778f2146f48179643473b82931c4cd7b8f153efd872386f26fc10000872386f26fc10000830186a08080'
const VECTOR_HASH: Hex = '0xbf8b5f08c43e4b860715cd64fc0849bbce0d0ea20a76b269e7bc8886d112fca7'
const VECTOR: Deposit = {
  sourceHash: '0xdfd7ae78bf3c414cfaa77f13c0205c82eb9365e217b2daa3448c3156b69b27ac',
  from: '0x778f2146f48179643473b82931c4cd7b8f153efd',
  to: '0x778f2146f48179643473b82931c4cd7b8f153efd',
  mint: 10n ** 16n,
  value: 10n ** 16n,
  gas: 100_000n,
  data: '0x',
}
const RECIPIENT = account('2')
/** A plain ether deposit: 21,000 gas. */
const TRANSFER: Deposit = { sourceHash: source('transfer'), from: account('1'), to: RECIPIENT, mint: 10n ** 15n, value: 10n ** 14n, gas: 100_000n, data: '0x' }
/** A call with data to an account without code. */
const CALL: Deposit = { sourceHash: source('call'), from: account('b'), to: RECIPIENT, mint: 10n ** 15n, value: 10n ** 14n, gas: 60_000n, data: '0xc0ffee' }
const TOPIC = source('topic')
/** Init code: MSTORE 42 at 0; LOG1(0, 32, TOPIC); MSTORE8 1 at 0; RETURN(0, 1): a contract whose code is 0x01. */
const LOGGING_INIT = concat(['0x602a600052', '0x7f', TOPIC, '0x60206000a1', '0x6001600053', '0x60016000f3'])
const CREATION: Deposit = { sourceHash: source('creation'), from: account('3'), mint: 0n, value: 0n, gas: 100_000n, data: LOGGING_INIT }

/** Transaction fields the devnet has and Anvil does not (op-geth's RPCTransaction has them). */
const TX_ONLY_OURS = ['depositReceiptVersion', 'gasPrice']
const TX_SAME = ['hash', 'type', 'from', 'to', 'gas', 'input', 'mint', 'nonce', 'sourceHash', 'v', 'value', 'blockNumber']
/** blobGasPrice is on both but is each chain's blob base fee; the other fields differ as listed above. */
const RECEIPT_SAME = ['transactionHash', 'blockNumber', 'from', 'to', 'status', 'gasUsed', 'effectiveGasPrice', 'contractAddress', 'logsBloom', 'depositReceiptVersion']
/** op-geth's receipt fields of a user transaction on Jovian (research opstack.md §3, §4). */
const OP_FEE_FIELDS = ['l1GasPrice', 'l1GasUsed', 'l1Fee', 'l1BaseFeeScalar', 'l1BlobBaseFee', 'l1BlobBaseFeeScalar', 'daFootprintGasScalar', 'blobGasUsed']

const pick = (object: Record<string, unknown>, keys: readonly string[]) => Object.fromEntries(keys.map((key) => [key, object[key]]))
const keysOf = (object: object, extra: readonly string[] = []) => [...Object.keys(object), ...extra].sort()

describe('op-stack: deposits against Anvil 1.7.1 in its optimism mode (anvil --optimism)', () => {
  let anvil: AnvilNode
  let chain: Chain
  const ours = (method: string, params: unknown[] = []): Promise<any> => chain.request({ method, params })
  const theirs = (method: string, params: unknown[] = []): Promise<any> => anvil.request(method, params)
  const both = (method: string, params: unknown[]) => Promise.all([ours(method, params), theirs(method, params)])
  /** Sends to both, seals the devnet's next block and waits for Anvil's automine; [ours, theirs]. */
  const sendBoth = async (method: string, params: unknown[]) => {
    const results = await both(method, params)
    await Promise.all([chain.mine(), anvil.mined(results[1])])
    return results
  }
  const numbers = async (method: string, address: string) => (await both(method, [address, 'latest'])).map((value: Hex) => hexToBigInt(value))

  before(async function () {
    const started = await startAnvil(['--optimism', '--chain-id', '8453'])
    if ('unavailable' in started) {
      console.log(`\n    ANVIL COULD NOT RUN (${started.unavailable}): the comparison with anvil --optimism is skipped\n`)
      this.skip()
    }
    anvil = started as AnvilNode
  })
  beforeEach(async () => {
    await anvil.request('anvil_reset')
    chain = await createChain({ preset: 'base' })
  })
  after(() => anvil?.stop())

  it('the OP specs test vector by eth_sendRawTransaction: the same hash on both, keccak256 of the envelope (0xbf8b…fca7), from 0x778f…3efd', async () => {
    expect(envelope(VECTOR)).to.equal(VECTOR_RAW)
    expect(keccak256(VECTOR_RAW)).to.equal(VECTOR_HASH)
    expect(await sendBoth('eth_sendRawTransaction', [VECTOR_RAW])).to.deep.equal([VECTOR_HASH, VECTOR_HASH])
    for (const transaction of await both('eth_getTransactionByHash', [VECTOR_HASH])) {
      expect(transaction).to.include({ hash: VECTOR_HASH, type: '0x7e', from: VECTOR.from, to: VECTOR.to, sourceHash: VECTOR.sourceHash, mint: '0x2386f26fc10000', value: '0x2386f26fc10000', gas: '0x186a0' })
    }
  })

  it('the same deposit from eth_sendTransaction fields (sourceHash, mint, isSystemTx; no key for from): the same hash on both, its envelope\'s', async () => {
    for (const deposit of [VECTOR, TRANSFER, CALL, CREATION]) {
      const hash = keccak256(envelope(deposit))
      expect(await sendBoth('eth_sendTransaction', [requestOf(deposit)]), deposit.sourceHash).to.deep.equal([hash, hash])
    }
  })

  it('the deposit and its receipt: the same fields as Anvil, the same values where the chains agree, the listed differences and no others', async () => {
    for (const deposit of [TRANSFER, CREATION]) {
      const [hash] = await sendBoth('eth_sendTransaction', [requestOf(deposit)])
      const [transaction, anvilTransaction] = await both('eth_getTransactionByHash', [hash])
      // Anvil leaves `to` out of a creation; op-geth (and the devnet) write "to": null.
      expect('to' in anvilTransaction).to.equal(deposit.to !== undefined)
      const theirTransaction = { to: null, ...anvilTransaction }
      const [receipt, theirReceipt] = await both('eth_getTransactionReceipt', [hash])
      expect(keysOf(transaction)).to.deep.equal(keysOf(theirTransaction, TX_ONLY_OURS))
      expect(keysOf(receipt)).to.deep.equal(keysOf(theirReceipt))
      expect(pick(transaction, TX_SAME)).to.deep.equal(pick(theirTransaction, TX_SAME))
      expect(pick(receipt, RECEIPT_SAME)).to.deep.equal(pick(theirReceipt, RECEIPT_SAME))
      expect(transaction).to.include({ type: '0x7e', from: deposit.from, to: deposit.to ?? null, sourceHash: deposit.sourceHash, input: deposit.data, nonce: '0x0', v: '0x0' })
      expect(transaction).to.include({ mint: numberToHex(deposit.mint), value: numberToHex(deposit.value), gas: numberToHex(deposit.gas) })
      const contractAddress = deposit.to === undefined ? created(deposit.from, 0n) : null
      expect(receipt).to.include({ status: '0x1', effectiveGasPrice: '0x0', depositReceiptVersion: '0x1', contractAddress })
      // The listed differences, as they are.
      expect([transaction.gasPrice, transaction.depositReceiptVersion]).to.deep.equal(['0x0', '0x1'])
      expect([transaction.r, transaction.s, theirTransaction.r, theirTransaction.s]).to.deep.equal(['0x0', '0x0', `0x${'0'.repeat(64)}`, `0x${'0'.repeat(64)}`])
      expect([transaction.transactionIndex, theirTransaction.transactionIndex, receipt.transactionIndex, theirReceipt.transactionIndex]).to.deep.equal(['0x1', '0x0', '0x1', '0x0'])
      expect([receipt.type, theirReceipt.type]).to.deep.equal(['0x7e', '0x7E'])
      expect([receipt.depositNonce, theirReceipt.depositNonce]).to.deep.equal(['0x0', '0x1'])
      expect(typeof theirReceipt.blockTimestamp).to.equal('number')
      expect(receipt.blockTimestamp).to.equal(transaction.blockTimestamp)
      const [l1Attributes] = (await ours('eth_getBlockByNumber', [receipt.blockNumber, false])).transactions
      const l1GasUsed = hexToBigInt((await ours('eth_getTransactionReceipt', [l1Attributes])).gasUsed)
      expect(hexToBigInt(receipt.cumulativeGasUsed)).to.equal(l1GasUsed + hexToBigInt(receipt.gasUsed))
      expect(theirReceipt.cumulativeGasUsed).to.equal(theirReceipt.gasUsed)
      if (deposit.to !== undefined) expect(receipt.gasUsed).to.equal(numberToHex(21_000n))
      // Logs: the same but for the block's hash, timestamp and the transaction's index in it.
      const local = ['blockHash', 'blockTimestamp', 'transactionIndex']
      const strip = (logs: Record<string, unknown>[]) => logs.map((log) => ({ ...log, ...Object.fromEntries(local.map((key) => [key, undefined])) }))
      expect(strip(receipt.logs)).to.deep.equal(strip(theirReceipt.logs))
      if (deposit.to === undefined) {
        expect(receipt.logs).to.have.length(1)
        expect(receipt.logs[0]).to.include({ address: contractAddress, data: numberToHex(42n, { size: 32 }), logIndex: '0x0' })
        expect(receipt.logs[0].topics).to.deep.equal([TOPIC])
      }
    }
  })

  it('credits the mint and keeps it, bumps the sender\'s nonce by one per deposit, and derives a creation\'s address from the nonce before it, as Anvil does', async () => {
    const sender = account('4')
    const first: Deposit = { sourceHash: source('first'), from: sender, to: account('5'), mint: 10n ** 15n, value: 3n * 10n ** 14n, gas: 100_000n, data: '0x' }
    const second: Deposit = { sourceHash: source('second'), from: sender, mint: 0n, value: 2n * 10n ** 14n, gas: 100_000n, data: '0x600160005360016000f3' }
    const hashes: Hex[] = []
    for (const deposit of [first, second]) hashes.push((await sendBoth('eth_sendTransaction', [requestOf(deposit)]))[0])
    const contract = created(sender, 1n)
    expect(await numbers('eth_getBalance', sender)).to.deep.equal([5n * 10n ** 14n, 5n * 10n ** 14n])
    expect(await numbers('eth_getBalance', first.to!)).to.deep.equal([3n * 10n ** 14n, 3n * 10n ** 14n])
    expect(await numbers('eth_getBalance', contract)).to.deep.equal([2n * 10n ** 14n, 2n * 10n ** 14n])
    expect(await both('eth_getCode', [contract, 'latest'])).to.deep.equal(['0x01', '0x01'])
    expect(await numbers('eth_getTransactionCount', sender)).to.deep.equal([2n, 2n])
    const receipts = await Promise.all(hashes.map((hash) => both('eth_getTransactionReceipt', [hash])))
    expect(receipts.map(([receipt, other]) => [receipt.contractAddress, other.contractAddress])).to.deep.equal([[null, null], [contract, contract]])
    // Anvil 1.7.1 departs from the OP specs here: its depositNonce is the nonce after execution,
    // and the transaction's nonce stays 0x0. The devnet follows op-geth: the nonce before, in both.
    expect(receipts.map(([receipt, other]) => [receipt.depositNonce, other.depositNonce])).to.deep.equal([['0x0', '0x1'], ['0x1', '0x2']])
    const transactions = await Promise.all(hashes.map((hash) => both('eth_getTransactionByHash', [hash])))
    expect(transactions.map(([transaction, other]) => [transaction.nonce, other.nonce])).to.deep.equal([['0x0', '0x0'], ['0x1', '0x0']])
  })

  it('a deposit that halts (INVALID in its init code) fails on both with gasUsed = its gas limit, its mint kept, its value back, its nonce bumped', async () => {
    const deposit: Deposit = { sourceHash: source('halt'), from: account('6'), mint: 16n, value: 5n, gas: 100_000n, data: '0xfe' }
    const [hash, theirHash] = await sendBoth('eth_sendRawTransaction', [envelope(deposit)])
    expect(hash).to.equal(theirHash)
    for (const receipt of await both('eth_getTransactionReceipt', [hash])) {
      expect(receipt).to.include({ status: '0x0', gasUsed: '0x186a0', contractAddress: created(deposit.from, 0n) })
    }
    expect(await numbers('eth_getBalance', deposit.from)).to.deep.equal([16n, 16n])
    expect(await numbers('eth_getBalance', created(deposit.from, 0n))).to.deep.equal([0n, 0n])
    expect(await numbers('eth_getTransactionCount', deposit.from)).to.deep.equal([1n, 1n])
  })

  it('a deposit that reverts fails on both with the gas it used: 53,064 = 21,000 + 32,000 (creation) + 56 (data) + 2 (init-code word) + 6 (two PUSH1), mint kept, nonce bumped', async () => {
    const deposit: Deposit = { sourceHash: source('revert'), from: account('7'), mint: 7n, value: 0n, gas: 100_000n, data: '0x60006000fd' }
    const [hash] = await sendBoth('eth_sendTransaction', [requestOf(deposit)])
    for (const receipt of await both('eth_getTransactionReceipt', [hash])) expect(receipt).to.include({ status: '0x0', gasUsed: numberToHex(53_064n) })
    expect(await numbers('eth_getBalance', deposit.from)).to.deep.equal([7n, 7n])
    expect(await numbers('eth_getTransactionCount', deposit.from)).to.deep.equal([1n, 1n])
    expect(await both('eth_getCode', [created(deposit.from, 0n), 'latest'])).to.deep.equal(['0x', '0x'])
  })

  it('deposits Anvil refuses at admission (value above balance + mint: -32003; gas below intrinsic: -32000) are included failed on the devnet, as the OP specs include every deposit', async () => {
    const overdrawn: Deposit = { sourceHash: source('overdrawn'), from: account('8'), to: RECIPIENT, mint: 16n, value: 24n, gas: 100_000n, data: '0x' }
    const starved: Deposit = { sourceHash: source('starved'), from: account('9'), to: RECIPIENT, mint: 9n, value: 0n, gas: 20_000n, data: '0x' }
    for (const [deposit, code, message] of [[overdrawn, -32003, 'Insufficient funds for gas * price + value'], [starved, -32000, 'intrinsic gas too low']] as const) {
      const refused = (await rejection(theirs('eth_sendRawTransaction', [envelope(deposit)]))).message
      expect(JSON.parse(refused.slice(refused.indexOf('{')))).to.deep.equal({ code, message })
      const hash = await ours('eth_sendRawTransaction', [envelope(deposit)])
      expect(hash).to.equal(keccak256(envelope(deposit)))
      await chain.mine()
      expect(await ours('eth_getTransactionReceipt', [hash])).to.include({ status: '0x0', gasUsed: numberToHex(deposit.gas), depositNonce: '0x0' })
      expect(hexToBigInt(await ours('eth_getBalance', [deposit.from, 'latest']))).to.equal(deposit.mint)
      expect(hexToBigInt(await ours('eth_getTransactionCount', [deposit.from, 'latest']))).to.equal(1n)
    }
    expect(hexToBigInt(await ours('eth_getBalance', [RECIPIENT, 'latest']))).to.equal(0n)
  })

  // Isthmus adopts EIP-7623 with no exemption for deposits (OP specs isthmus/overview.md);
  // op-revm, which Anvil and Base's node run, charges deposits the floor.
  it('a deposit with calldata pays the EIP-7623 floor (Isthmus), as on Anvil: max(21,000 + 3 × 16, 21,000 + 10 × 3 × 4) = 21,120 gas', async () => {
    const [hash] = await sendBoth('eth_sendTransaction', [requestOf(CALL)])
    const [receipt, theirReceipt] = await both('eth_getTransactionReceipt', [hash])
    expect([receipt.gasUsed, theirReceipt.gasUsed]).to.deep.equal([numberToHex(21_120n), numberToHex(21_120n)])
  })

  // A deposit request without gas is estimated with its mint credited to the sender first.
  it('a deposit request without gas whose value only its mint covers: both estimate 21,000 and include it (the same hash)', async () => {
    const deposit: Deposit = { sourceHash: source('gasless'), from: account('a'), to: RECIPIENT, mint: 16n, value: 1n, gas: 21_000n, data: '0x' }
    const hash = keccak256(envelope(deposit))
    expect(await sendBoth('eth_sendTransaction', [requestOf(deposit, false)])).to.deep.equal([hash, hash])
    expect(await numbers('eth_getBalance', deposit.from)).to.deep.equal([15n, 15n])
    expect(await numbers('eth_getBalance', RECIPIENT)).to.deep.equal([1n, 1n])
  })

  it('a user transaction: the same transaction fields as Anvil; the receipt has Anvil\'s fields plus exactly the OP-stack fee fields (op-geth\'s; Anvil fills none)', async () => {
    const from = chain.accounts[0].address
    const [hash, theirHash] = await sendBoth('eth_sendTransaction', [{ from, to: RECIPIENT, value: '0x1' }])
    const transaction = await ours('eth_getTransactionByHash', [hash])
    const theirTransaction = await theirs('eth_getTransactionByHash', [theirHash])
    expect(keysOf(transaction)).to.deep.equal(keysOf(theirTransaction))
    const receipt = await ours('eth_getTransactionReceipt', [hash])
    const theirReceipt = await theirs('eth_getTransactionReceipt', [theirHash])
    expect(keysOf(receipt)).to.deep.equal(keysOf(theirReceipt, OP_FEE_FIELDS))
    expect(pick(receipt, ['from', 'to', 'status', 'gasUsed', 'type'])).to.deep.equal(pick(theirReceipt, ['from', 'to', 'status', 'gasUsed', 'type']))
  })
})
