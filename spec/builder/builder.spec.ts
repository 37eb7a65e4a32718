/**
 * The block builder: which pooled transactions a tick takes and in what order (geth's
 * TransactionsByPriceAndNonce), the block gas limit, EIP-1559 fees (base fee burnt, tip to
 * the coinbase), receipts (the same pre-confirmed and sealed, as Base's flashblocks), contract
 * creation addresses and the sealed header's fields.
 */
import { expect } from 'chai'
import { createMPT } from '@ethereumjs/mpt'
import {
  decodeFunctionResult,
  encodeDeployData,
  encodeFunctionData,
  getContractAddress,
  hexToBytes,
  bytesToHex,
  keccak256,
  parseEther,
  parseGwei,
  toRlp,
  type Hex,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { createChain, type Chain } from '../../lib/index.ts'
import type { Address } from '../../lib/types.ts'
import { Counter } from '../../fixtures/artifacts/Counter.ts'
import { Reverter } from '../../fixtures/artifacts/Reverter.ts'
import { Token } from '../../fixtures/artifacts/Token.ts'
import { GWEI, signer } from '../support/wallet.ts'
import {
  blockOf,
  deploy,
  eip1559NextBaseFee,
  EMPTY_TRIE_ROOT,
  receiptOf,
  sendDeploy,
  signCall,
  ZERO_HASH,
  type RpcBlock,
  type RpcReceipt,
} from '../support/chain-helpers.ts'

const COINBASE = '0xc014ba5ec014ba5ec014ba5ec014ba5ec014ba5e'
const carol = `0x${'00'.repeat(18)}ca41` as Address

async function pendingHashes(chain: Chain): Promise<Hex[]> {
  return ((await blockOf(chain, 'pending')) as RpcBlock).transactions
}

async function status(chain: Chain, hash: Hex): Promise<string> {
  return ((await chain.request({ method: 'service_transactionStatus', params: [hash] })) as { status: string }).status
}

/** A quantity as RLP wants it: minimal big-endian bytes, empty for zero. */
function rlpQuantity(value: bigint | Hex): Hex {
  const n = BigInt(value)
  if (n === 0n) return '0x'
  const hex = n.toString(16)
  return `0x${hex.length % 2 === 1 ? '0' : ''}${hex}`
}

/** The root of a list as headers commit to it (key rlp(index)), via @ethereumjs/mpt, independently of lib/trie. */
async function orderedRoot(items: Hex[]): Promise<Hex> {
  const trie = await createMPT()
  for (let i = 0; i < items.length; i++) await trie.put(hexToBytes(toRlp(rlpQuantity(BigInt(i)))), hexToBytes(items[i]))
  return bytesToHex(trie.root())
}

/** A typed receipt's consensus encoding, from its JSON. */
function encodeReceiptJSON(receipt: RpcReceipt): Hex {
  const payload = toRlp([
    receipt.status === '0x1' ? '0x01' : '0x',
    rlpQuantity(receipt.cumulativeGasUsed),
    receipt.logsBloom,
    receipt.logs.map((log) => [log.address, log.topics, log.data]),
  ])
  return `0x${BigInt(receipt.type).toString(16).padStart(2, '0')}${payload.slice(2)}`
}

/** keccak256 of the header RLP in Prague field order, from the block's JSON. */
function headerHash(block: RpcBlock): Hex {
  return keccak256(
    toRlp([
      block.parentHash,
      block.sha3Uncles,
      block.miner,
      block.stateRoot,
      block.transactionsRoot,
      block.receiptsRoot,
      block.logsBloom,
      rlpQuantity(block.difficulty),
      rlpQuantity(block.number),
      rlpQuantity(block.gasLimit),
      rlpQuantity(block.gasUsed),
      rlpQuantity(block.timestamp),
      block.extraData,
      block.mixHash,
      block.nonce,
      rlpQuantity(block.baseFeePerGas),
      block.withdrawalsRoot!,
      rlpQuantity(block.blobGasUsed),
      rlpQuantity(block.excessBlobGas),
      block.parentBeaconBlockRoot!,
      block.requestsHash!,
    ]),
  )
}

describe('builder: transaction order (geth TransactionsByPriceAndNonce)', () => {
  it("takes each sender's transactions in nonce order whatever their arrival order (a gap is held until it fills)", async () => {
    const chain = await createChain({ clock: 'manual' })
    const alice = signer(chain, 0)
    const raws = await Promise.all([0, 1, 2].map((nonce) => alice.sign({ to: carol, value: BigInt(nonce + 1), nonce })))
    const hashes: Hex[] = []
    for (const nonce of [2, 1]) hashes[nonce] = await chain.sendRawTransaction(raws[nonce])
    // Nonces 1 and 2 wait behind the gap at 0: a tick includes nothing.
    expect((await chain.tick()).transactions).to.deep.equal([])
    expect(await pendingHashes(chain)).to.deep.equal([])
    hashes[0] = await chain.sendRawTransaction(raws[0])
    const tick = await chain.tick()
    expect(tick.transactions.map((t) => t.transaction.hash)).to.deep.equal(hashes)
    expect(tick.transactions.map((t) => t.index)).to.deep.equal([0, 1, 2])
    expect(await pendingHashes(chain)).to.deep.equal(hashes)
    expect(await chain.getBalance(carol, 'pending')).to.equal(6n)
  })

  it('across senders: highest effective tip first, arrival order on equal tips; a sender is re-ranked by its next nonce', async () => {
    const chain = await createChain({ clock: 'manual' })
    // Pending block 1's base fee: 1 gwei * 7/8 = 0.875 gwei.
    expect(chain.pending.context.baseFeePerGas).to.equal(parseGwei('0.875'))
    const s = [0, 1, 2, 3, 4, 5].map((i) => signer(chain, i))
    const send = async (i: number, fields: Parameters<(typeof s)[0]['sign']>[0]) => chain.sendRawTransaction(await s[i].sign({ to: carol, value: 1n, ...fields }))
    const h0 = await send(0, { maxPriorityFeePerGas: GWEI }) // tip 1
    // Tip cap 1.2 gwei but fee cap 1.375 gwei: effective tip = 1.375 - 0.875 = 0.5 gwei.
    const h4 = await send(4, { maxPriorityFeePerGas: parseGwei('1.2'), maxFeePerGas: parseGwei('1.375') })
    const h2 = await send(2, { maxPriorityFeePerGas: 2n * GWEI }) // tip 2, earlier
    const h3 = await send(3, { maxPriorityFeePerGas: 2n * GWEI }) // tip 2, later
    const h1 = await send(1, { maxPriorityFeePerGas: 3n * GWEI }) // tip 3
    const h1next = await send(1, { maxPriorityFeePerGas: parseGwei('0.1'), nonce: 1 }) // tip 0.1: last once s1's nonce 0 is in
    const h5 = await send(5, { maxPriorityFeePerGas: parseGwei('1.5') }) // tip 1.5
    const tick = await chain.tick()
    expect(tick.transactions.map((t) => t.transaction.hash)).to.deep.equal([h1, h2, h3, h5, h0, h4, h1next])
    await chain.mine()
    const receipts = await Promise.all([h1, h2, h3, h5, h0, h4, h1next].map((h) => receiptOf(chain, h)))
    expect(receipts.map((r) => r?.transactionIndex)).to.deep.equal(['0x0', '0x1', '0x2', '0x3', '0x4', '0x5', '0x6'])
    expect(receipts.map((r) => BigInt(r!.effectiveGasPrice) - parseGwei('0.875'))).to.deep.equal([
      3n * GWEI,
      2n * GWEI,
      2n * GWEI,
      parseGwei('1.5'),
      GWEI,
      parseGwei('0.5'),
      parseGwei('0.1'),
    ])
  })

  it('a fee cap below the pending base fee waits in the pool, and is included once the base fee falls below it (12.5% per empty block)', async () => {
    const chain = await createChain({ clock: 'manual', initialBaseFee: 10n * GWEI })
    expect(chain.pending.context.baseFeePerGas).to.equal(parseGwei('8.75'))
    const bob = chain.accounts[1].address
    const hash = await chain.sendRawTransaction(await signer(chain, 0).sign({ to: bob, value: 1n, maxFeePerGas: 8n * GWEI, maxPriorityFeePerGas: GWEI }))

    await chain.clock.advance(2000) // ten ticks and the seal of block 1 at 8.75 gwei
    const one = (await blockOf(chain, '0x1')) as RpcBlock
    expect(one.transactions).to.deep.equal([])
    expect(one.baseFeePerGas).to.equal(`0x${parseGwei('8.75').toString(16)}`)
    expect(await receiptOf(chain, hash)).to.equal(null)
    expect(await status(chain, hash)).to.equal('Known')
    expect(((await chain.request({ method: 'eth_getTransactionByHash', params: [hash] })) as { blockNumber: unknown }).blockNumber).to.equal(null)

    // Block 2: 8.75 * 7/8 = 7.65625 gwei ≤ 8 gwei: the next tick takes it.
    expect(chain.pending.context.baseFeePerGas).to.equal(parseGwei('7.65625'))
    await chain.clock.advance(200)
    expect(await pendingHashes(chain)).to.deep.equal([hash])
    await chain.clock.advance(1800)
    const receipt = (await receiptOf(chain, hash))!
    expect(receipt.blockNumber).to.equal('0x2')
    expect(receipt.status).to.equal('0x1')
    // Price = base fee + min(tip, cap - base fee) = 7.65625 + 0.34375 = 8 gwei.
    expect(receipt.effectiveGasPrice).to.equal(`0x${(8n * GWEI).toString(16)}`)
  })

  it('respects the block gas limit: with a 100000 limit, four 21000 transfers fit and the fifth goes into the next block', async () => {
    const chain = await createChain({ clock: 'manual', blockGasLimit: 100_000n })
    const hashes: Hex[] = []
    // Distinct tips so the order is known: the lowest tip is the one left out.
    for (let i = 0; i < 5; i++) {
      hashes.push(await chain.sendRawTransaction(await signer(chain, i).sign({ to: carol, value: 1n, maxPriorityFeePerGas: BigInt(5 - i) * GWEI })))
    }
    await chain.clock.advance(2000)
    const one = (await blockOf(chain, '0x1')) as RpcBlock
    expect(one.transactions).to.deep.equal(hashes.slice(0, 4))
    expect(one.gasUsed).to.equal(`0x${(84_000).toString(16)}`)
    expect(one.gasLimit).to.equal(`0x${(100_000).toString(16)}`)
    expect(await status(chain, hashes[4])).to.equal('Known')
    expect(await receiptOf(chain, hashes[4])).to.equal(null)
    await chain.clock.advance(2000)
    const two = (await blockOf(chain, '0x2')) as RpcBlock
    expect(two.transactions).to.deep.equal([hashes[4]])
    expect(two.gasUsed).to.equal(`0x${(21_000).toString(16)}`)
  })

  it("a sender whose nonce another transaction's EIP-7702 authorization used: the stale one is dropped and its next nonce goes in the same block (geth's miner shifts on nonce too low; Anvil mines the same)", async () => {
    const chain = await createChain({ clock: 'manual' })
    const [alice, bob] = [signer(chain, 0), signer(chain, 1)]
    const authorization = await privateKeyToAccount(chain.accounts[1].privateKey).signAuthorization({ contractAddress: '0x000000000000000000000000000000000000c0de', chainId: 31337, nonce: 0 })
    const fees = { maxFeePerGas: 10n * GWEI, maxPriorityFeePerGas: GWEI }
    // Alice's set-code transaction comes first (equal tips, earlier arrival) and moves Bob's nonce from 0 to 1.
    const setCode = await chain.sendRawTransaction(await alice.signAny({ type: 'eip7702', chainId: 31337, nonce: 0, gas: 100_000n, ...fees, to: bob.address, authorizationList: [authorization] }))
    const stale = await chain.sendRawTransaction(await bob.sign({ to: carol, value: 1n, nonce: 0, ...fees }))
    const next = await chain.sendRawTransaction(await bob.sign({ to: carol, value: 2n, nonce: 1, ...fees }))
    const tick = await chain.tick()
    expect(tick.transactions.map((t) => t.transaction.hash)).to.deep.equal([setCode, next])
    expect(tick.dropped.map(({ transaction, reason }) => [transaction.hash, reason])).to.deep.equal([[stale, 'nonce 0 does not follow state nonce 1']])
    await chain.mine()
    expect(((await blockOf(chain, '0x1')) as RpcBlock).transactions).to.deep.equal([setCode, next])
    expect(await chain.request({ method: 'txpool_status' })).to.deep.equal({ pending: '0x0', queued: '0x0' })
    expect(await chain.getBalance(carol, 'latest')).to.equal(2n)
  })

  it("one sender's transactions also stop at the gas limit and continue in the next block in nonce order", async () => {
    const chain = await createChain({ clock: 'manual', blockGasLimit: 100_000n })
    const alice = signer(chain, 0)
    const hashes: Hex[] = []
    for (let nonce = 0; nonce < 6; nonce++) hashes.push(await chain.sendRawTransaction(await alice.sign({ to: carol, value: 1n, nonce })))
    await chain.clock.advance(4000)
    expect(((await blockOf(chain, '0x1')) as RpcBlock).transactions).to.deep.equal(hashes.slice(0, 4))
    expect(((await blockOf(chain, '0x2')) as RpcBlock).transactions).to.deep.equal(hashes.slice(4))
  })
})

describe('builder: receipts, reverts and contract creation', () => {
  it('a receipt is the same pre-confirmed and sealed except blockHash (32 zero bytes before the seal), logs included', async () => {
    const chain = await createChain({ clock: 'manual' })
    const alice = signer(chain, 0)
    const bob = signer(chain, 1)
    const counter = await deploy(chain, alice, Counter)
    const transfer = await chain.sendRawTransaction(await alice.sign({ to: carol, value: 5n, nonce: 1 }))
    const increment = await chain.sendRawTransaction(await signCall(bob, counter, Counter.abi, 'increment', [], { maxPriorityFeePerGas: 2n * GWEI }))
    await chain.tick()
    const before = await Promise.all([increment, transfer].map((h) => receiptOf(chain, h)))
    expect(before.map((r) => r?.blockHash)).to.deep.equal([ZERO_HASH, ZERO_HASH])
    expect(before[0]!.logs).to.have.length(1)
    expect(before[0]!.logs[0].blockHash).to.equal(ZERO_HASH)
    expect(before[0]!.blockNumber).to.equal('0x2')

    await chain.clock.advance(2000)
    const block = (await blockOf(chain, '0x2')) as RpcBlock
    const after = await Promise.all([increment, transfer].map((h) => receiptOf(chain, h)))
    expect(after.map((r) => r?.blockHash)).to.deep.equal([block.hash, block.hash])
    const withHash = (r: RpcReceipt | null) => ({ ...r!, blockHash: block.hash, logs: r!.logs.map((l) => ({ ...l, blockHash: block.hash })) })
    expect(after).to.deep.equal(before.map(withHash))

    const [receipt] = after
    expect(receipt!.status).to.equal('0x1')
    expect(receipt!.to).to.equal(counter.toLowerCase())
    expect(receipt!.logs[0].address).to.equal(counter.toLowerCase())
    expect(receipt!.logs[0].logIndex).to.equal('0x0')
    expect(receipt!.logs[0].topics[1]).to.equal(`0x${'0'.repeat(24)}${bob.address.slice(2).toLowerCase()}`)
    expect(BigInt(receipt!.logs[0].data)).to.equal(1n)
    expect(after[1]!.cumulativeGasUsed).to.equal(`0x${(BigInt(receipt!.gasUsed) + 21000n).toString(16)}`)
  })

  it('transactions pre-confirmed in later ticks of the same block continue its transactionIndex, cumulativeGasUsed and logIndex', async () => {
    const chain = await createChain({ clock: 'manual' })
    const alice = signer(chain, 0)
    const bob = signer(chain, 1)
    const counter = await deploy(chain, alice, Counter)
    const first = await chain.sendRawTransaction(await signCall(alice, counter, Counter.abi, 'increment', [], { nonce: 1 }))
    await chain.clock.advance(200)
    const second = await chain.sendRawTransaction(await signCall(bob, counter, Counter.abi, 'increment', []))
    await chain.clock.advance(200)
    const third = await chain.sendRawTransaction(await bob.sign({ to: carol, value: 1n, nonce: 1 }))
    await chain.clock.advance(200)
    const pre = (await Promise.all([first, second, third].map((h) => receiptOf(chain, h)))) as RpcReceipt[]
    expect(pre.map((r) => r.transactionIndex)).to.deep.equal(['0x0', '0x1', '0x2'])
    expect(pre.map((r) => r.logs.map((l) => l.logIndex))).to.deep.equal([['0x0'], ['0x1'], []])
    expect(pre.map((r) => BigInt(r.logs[0]?.data ?? '0x0'))).to.deep.equal([1n, 2n, 0n])
    const gas = pre.map((r) => BigInt(r.gasUsed))
    expect(pre.map((r) => BigInt(r.cumulativeGasUsed))).to.deep.equal([gas[0], gas[0] + gas[1], gas[0] + gas[1] + gas[2]])
    expect(((await blockOf(chain, 'pending')) as RpcBlock).gasUsed).to.equal(`0x${(gas[0] + gas[1] + gas[2]).toString(16)}`)
    await chain.clock.advance(1400)
    const block = (await blockOf(chain, '0x2')) as RpcBlock
    expect(block.transactions).to.deep.equal([first, second, third])
    expect(BigInt(block.gasUsed)).to.equal(gas[0] + gas[1] + gas[2])
    const sealed = (await Promise.all([first, second, third].map((h) => receiptOf(chain, h)))) as RpcReceipt[]
    expect(sealed.map((r) => ({ ...r, blockHash: ZERO_HASH, logs: r.logs.map((l) => ({ ...l, blockHash: ZERO_HASH })) }))).to.deep.equal(pre)
  })

  it('a reverted transaction: status 0, no logs, gas charged, nonce bumped, its storage write undone', async () => {
    const chain = await createChain({ clock: 'manual' })
    const alice = signer(chain, 0)
    const reverter = await deploy(chain, alice, Reverter)
    const balance = await chain.getBalance(alice.address)
    const hash = await chain.sendRawTransaction(await signCall(alice, reverter, Reverter.abi, 'touchThenRevert', [], { nonce: 1, gas: 100_000n }))
    await chain.clock.advance(2000)
    const receipt = (await receiptOf(chain, hash))!
    expect(receipt.status).to.equal('0x0')
    expect(receipt.logs).to.deep.equal([])
    expect(receipt.logsBloom).to.equal(`0x${'0'.repeat(512)}`)
    const gasUsed = BigInt(receipt.gasUsed)
    expect(gasUsed > 21_000n && gasUsed < 100_000n, `gasUsed ${gasUsed}`).to.equal(true)
    expect(await chain.getBalance(alice.address)).to.equal(balance - gasUsed * BigInt(receipt.effectiveGasPrice))
    expect(await chain.getTransactionCount(alice.address)).to.equal(2)
    expect(await chain.getStorageAt(reverter, 0n)).to.equal(`0x${'0'.repeat(64)}`)
    const touched = await chain.call({ to: reverter, data: encodeFunctionData({ abi: Reverter.abi, functionName: 'touched' }) })
    expect(decodeFunctionResult({ abi: Reverter.abi, functionName: 'touched', data: touched })).to.equal(0n)
  })

  it('an exceptional halt (INVALID opcode) consumes the whole gas limit and fails with status 0', async () => {
    const chain = await createChain({ clock: 'manual' })
    const alice = signer(chain, 0)
    const reverter = await deploy(chain, alice, Reverter)
    const balance = await chain.getBalance(alice.address)
    const hash = await chain.sendRawTransaction(await signCall(alice, reverter, Reverter.abi, 'consumeAllGas', [], { nonce: 1, gas: 80_000n }))
    await chain.clock.advance(2000)
    const receipt = (await receiptOf(chain, hash))!
    expect(receipt.status).to.equal('0x0')
    expect(receipt.gasUsed).to.equal(`0x${(80_000).toString(16)}`)
    expect(await chain.getBalance(alice.address)).to.equal(balance - 80_000n * BigInt(receipt.effectiveGasPrice))
    expect(await chain.getTransactionCount(alice.address)).to.equal(2)
  })

  it('a created contract lives at keccak(rlp(sender, nonce))[12:] (viem getContractAddress), at nonce 0 and at nonce 3', async () => {
    const chain = await createChain({ clock: 'manual' })
    const alice = signer(chain, 0)
    const first = await sendDeploy(chain, alice, Counter, [], 0)
    for (let nonce = 1; nonce <= 2; nonce++) await chain.sendRawTransaction(await alice.sign({ to: carol, value: 1n, nonce }))
    const second = await sendDeploy(chain, alice, Token, ['Token', 'TKN', 1000n], 3)
    await chain.clock.advance(2000)
    for (const [{ hash }, nonce, artifact] of [
      [first, 0n, Counter],
      [second, 3n, Token],
    ] as const) {
      const expected = getContractAddress({ from: alice.address, nonce })
      const receipt = (await receiptOf(chain, hash))!
      expect(receipt.status).to.equal('0x1')
      expect(receipt.to).to.equal(null)
      expect(receipt.contractAddress).to.equal(expected.toLowerCase())
      expect(await chain.getCode(expected)).to.equal(artifact.deployedBytecode)
    }
    const balance = await chain.call({ to: second.address, data: encodeFunctionData({ abi: Token.abi, functionName: 'balanceOf', args: [alice.address] }) })
    expect(decodeFunctionResult({ abi: Token.abi, functionName: 'balanceOf', data: balance })).to.equal(1000n)
  })

  it("a creation that runs out of gas: status 0, contractAddress the would-be address (geth's state processor sets it for every creation), no code there, nonce still used", async () => {
    const chain = await createChain({ clock: 'manual' })
    const alice = signer(chain, 0)
    const data = encodeDeployData({ abi: Token.abi, bytecode: Token.bytecode, args: ['Token', 'TKN', 1000n] })
    const hash = await chain.sendRawTransaction(await alice.sign({ to: null, data, gas: 200_000n }))
    await chain.clock.advance(2000)
    const receipt = (await receiptOf(chain, hash))!
    expect(receipt.status).to.equal('0x0')
    expect(receipt.contractAddress).to.equal(getContractAddress({ from: alice.address, nonce: 0n }).toLowerCase())
    expect(receipt.gasUsed).to.equal(`0x${(200_000).toString(16)}`)
    expect(await chain.getCode(getContractAddress({ from: alice.address, nonce: 0n }))).to.equal('0x')
    expect(await chain.getTransactionCount(alice.address)).to.equal(1)
  })
})

describe('builder: fees (EIP-1559)', () => {
  it('the coinbase receives exactly gasUsed × effective tip; each sender pays gasUsed × (baseFee + tip) + value; the base fee is burnt', async () => {
    const chain = await createChain({ clock: 'manual' })
    const alice = signer(chain, 0)
    const bob = signer(chain, 1)
    const counter = await deploy(chain, alice, Counter)
    const baseFee = chain.pending.context.baseFeePerGas
    const header = (await blockOf(chain, 'pending')) as RpcBlock
    expect(header.baseFeePerGas).to.equal(`0x${baseFee.toString(16)}`)

    const accounts = [alice.address, bob.address, carol, counter, COINBASE as Address]
    const before = await Promise.all(accounts.map((a) => chain.getBalance(a)))
    // bob: 1 ETH to carol, tip 2 gwei. alice: increment(), fee cap base + 0.5 gwei, tip cap 1.2 gwei → effective tip 0.5 gwei.
    const transfer = await chain.sendRawTransaction(await bob.sign({ to: carol, value: parseEther('1'), maxPriorityFeePerGas: 2n * GWEI }))
    const call = await chain.sendRawTransaction(
      await signCall(alice, counter, Counter.abi, 'increment', [], {
        gas: 100_000n,
        nonce: 1,
        maxFeePerGas: baseFee + parseGwei('0.5'),
        maxPriorityFeePerGas: parseGwei('1.2'),
      }),
    )
    await chain.clock.advance(2000)
    const [t, c] = await Promise.all([receiptOf(chain, transfer), receiptOf(chain, call)])
    expect(t!.status).to.equal('0x1')
    expect(c!.status).to.equal('0x1')
    const tGas = BigInt(t!.gasUsed)
    const cGas = BigInt(c!.gasUsed)
    expect(tGas).to.equal(21_000n)
    expect(cGas > 21_000n).to.equal(true)
    expect(BigInt(t!.effectiveGasPrice)).to.equal(baseFee + 2n * GWEI)
    expect(BigInt(c!.effectiveGasPrice)).to.equal(baseFee + parseGwei('0.5'))

    const after = await Promise.all(accounts.map((a) => chain.getBalance(a)))
    const delta = after.map((balance, i) => balance - before[i])
    expect(delta[0], 'alice').to.equal(-(cGas * (baseFee + parseGwei('0.5'))))
    expect(delta[1], 'bob').to.equal(-(tGas * (baseFee + 2n * GWEI) + parseEther('1')))
    expect(delta[2], 'carol').to.equal(parseEther('1'))
    expect(delta[3], 'counter').to.equal(0n)
    expect(delta[4], 'coinbase').to.equal(tGas * 2n * GWEI + cGas * parseGwei('0.5'))
    // What left the accounts and did not reach anyone is the burnt base fee.
    expect(delta.reduce((a, b) => a + b)).to.equal(-(tGas + cGas) * baseFee)
  })

  it('a plain value call to a payable receive() moves the value and pays the same fee rule', async () => {
    const chain = await createChain({ clock: 'manual' })
    const alice = signer(chain, 0)
    const counter = await deploy(chain, alice, Counter)
    const baseFee = chain.pending.context.baseFeePerGas
    const [aliceBefore, coinbaseBefore] = await Promise.all([chain.getBalance(alice.address), chain.getBalance(COINBASE)])
    const hash = await chain.sendRawTransaction(await alice.sign({ to: counter, value: parseEther('2'), gas: 50_000n, nonce: 1 }))
    await chain.clock.advance(2000)
    const receipt = (await receiptOf(chain, hash))!
    expect(receipt.status).to.equal('0x1')
    const gasUsed = BigInt(receipt.gasUsed)
    expect(await chain.getBalance(counter)).to.equal(parseEther('2'))
    expect(await chain.getBalance(alice.address)).to.equal(aliceBefore - gasUsed * (baseFee + GWEI) - parseEther('2'))
    expect(await chain.getBalance(COINBASE)).to.equal(coinbaseBefore + gasUsed * GWEI)
  })
})

describe('builder: sealed block headers', () => {
  it('parentHash links, gasUsed, EIP-1559 baseFeePerGas from the parent, transactions/receipts roots, stateRoot and the hash', async () => {
    const chain = await createChain({ clock: 'manual', blockGasLimit: 100_000n })
    const raws: Hex[][] = [[], [], [], []]
    // Block 1: four transfers (84000 gas, over the 50000 target: base fee rises). Block 2: one
    // transfer (under target: it falls). Block 3: empty.
    for (let i = 0; i < 4; i++) raws[1].push(await signer(chain, i).sign({ to: carol, value: BigInt(i + 1), maxPriorityFeePerGas: BigInt(4 - i) * GWEI }))
    raws[2].push(await signer(chain, 0).sign({ to: carol, value: 10n, nonce: 1 }))
    for (const n of [1, 2, 3]) {
      for (const raw of raws[n]) await chain.sendRawTransaction(raw)
      await chain.clock.advance(2000)
    }
    const blocks = await Promise.all([0, 1, 2, 3].map(async (n) => (await blockOf(chain, `0x${n}`)) as RpcBlock))

    expect(blocks[0].parentHash).to.equal(ZERO_HASH)
    expect(blocks[0].baseFeePerGas).to.equal(`0x${GWEI.toString(16)}`)
    for (const n of [1, 2, 3]) {
      const [parent, block] = [blocks[n - 1], blocks[n]]
      expect(block.number).to.equal(`0x${n}`)
      expect(block.parentHash, `block ${n} parentHash`).to.equal(parent.hash)
      expect(block.miner).to.equal(COINBASE)
      expect(BigInt(block.baseFeePerGas), `block ${n} base fee`).to.equal(
        eip1559NextBaseFee(BigInt(parent.baseFeePerGas), BigInt(parent.gasUsed), BigInt(parent.gasLimit)),
      )
      const hashes = await Promise.all(raws[n].map((raw) => keccak256(raw)))
      expect(block.transactions).to.deep.equal(hashes)
      const receipts = (await Promise.all(hashes.map((h) => receiptOf(chain, h)))) as RpcReceipt[]
      expect(BigInt(block.gasUsed), `block ${n} gasUsed`).to.equal(receipts.reduce((sum, r) => sum + BigInt(r.gasUsed), 0n))
      expect(block.transactionsRoot, `block ${n} transactionsRoot`).to.equal(await orderedRoot(raws[n]))
      expect(block.receiptsRoot, `block ${n} receiptsRoot`).to.equal(await orderedRoot(receipts.map(encodeReceiptJSON)))
      expect(block.hash, `block ${n} hash`).to.equal(headerHash(block))
    }
    expect(blocks.map((b) => BigInt(b.gasUsed))).to.deep.equal([0n, 84_000n, 21_000n, 0n])
    // 1 → 0.875 (empty genesis) → up (84000 > 50000) → down (21000 < 50000).
    expect(BigInt(blocks[1].baseFeePerGas)).to.equal(parseGwei('0.875'))
    expect(BigInt(blocks[2].baseFeePerGas) > BigInt(blocks[1].baseFeePerGas)).to.equal(true)
    expect(BigInt(blocks[3].baseFeePerGas) < BigInt(blocks[2].baseFeePerGas)).to.equal(true)
    expect(blocks[1].transactionsRoot).to.not.equal(EMPTY_TRIE_ROOT)
    expect(blocks[1].receiptsRoot).to.not.equal(EMPTY_TRIE_ROOT)
    expect(blocks[3].transactionsRoot).to.equal(EMPTY_TRIE_ROOT)
    expect(blocks[3].receiptsRoot).to.equal(EMPTY_TRIE_ROOT)
    // The state changes with every block: no block reward after the merge, but from Prague each
    // block writes its parent's hash into EIP-2935's ring before its transactions run.
    expect(blocks[1].stateRoot).to.not.equal(blocks[0].stateRoot)
    expect(blocks[2].stateRoot).to.not.equal(blocks[1].stateRoot)
    expect(blocks[3].stateRoot).to.not.equal(blocks[2].stateRoot)
    expect(blocks[0].hash).to.equal(headerHash(blocks[0]))
  })

  it("a block with logs has a non-empty logsBloom that contains the log's address; eth_getBlockByHash returns the same block", async () => {
    const chain = await createChain({ clock: 'manual' })
    const alice = signer(chain, 0)
    const counter = await deploy(chain, alice, Counter)
    await chain.sendRawTransaction(await signCall(alice, counter, Counter.abi, 'increment', [], { nonce: 1 }))
    await chain.clock.advance(2000)
    const block = (await blockOf(chain, 'latest')) as RpcBlock
    expect(block.number).to.equal('0x2')
    expect(block.logsBloom).to.not.equal(`0x${'0'.repeat(512)}`)
    // Bloom bit check for the address (yellow paper M3:2048).
    const bloom = hexToBytes(block.logsBloom)
    const digest = hexToBytes(keccak256(counter))
    for (let i = 0; i < 6; i += 2) {
      const bit = ((digest[i] << 8) | digest[i + 1]) & 2047
      expect(bloom[256 - 1 - (bit >> 3)] & (1 << (bit & 7)), `bloom bit ${bit}`).to.not.equal(0)
    }
    expect(await chain.request({ method: 'eth_getBlockByHash', params: [block.hash, false] })).to.deep.equal(block)
  })
})
