/**
 * eth_call and eth_estimateGas as geth answers them: `from` defaults to the zero address, gas
 * to the RPC gas cap (50M), the block context is the requested block's (the pre-confirmed one at
 * `pending`), a revert is -32000 `execution reverted` with the revert bytes as `data`, and a call
 * never changes state.
 */
import { expect } from 'chai'
import { decodeFunctionResult, encodeErrorResult, encodeFunctionData, keccak256, parseEther, toHex, type Hex } from 'viem'
import { createChain, RPCError, type Chain } from '../../lib/index.ts'
import type { Address } from '../../lib/types.ts'
import { Counter } from '../../fixtures/artifacts/Counter.ts'
import { Reverter } from '../../fixtures/artifacts/Reverter.ts'
import { Token } from '../../fixtures/artifacts/Token.ts'
import { signer } from '../support/wallet.ts'
import { blockOf, deploy, receiptOf, rejection, sendDeploy, ZERO_ADDRESS, type RpcBlock } from '../support/chain-helpers.ts'

const ERROR_STRING = [{ type: 'error', name: 'Error', inputs: [{ name: 'message', type: 'string' }] }] as const
const PANIC = [{ type: 'error', name: 'Panic', inputs: [{ name: 'code', type: 'uint256' }] }] as const
const carol = `0x${'00'.repeat(18)}ca41` as Address

/** Runtime `GAS PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN`: returns gasleft() after GAS (cost 2). */
const GAS_PROBE_RUNTIME = '5a60005260206000f3'
/** Init code: PUSH9 runtime, PUSH1 0, MSTORE, PUSH1 9, PUSH1 23, RETURN. */
const GAS_PROBE_INIT = `0x68${GAS_PROBE_RUNTIME}60005260096017f3` as Hex

function reverterData(functionName: string, args: readonly unknown[] = []): Hex {
  return encodeFunctionData({ abi: Reverter.abi, functionName, args } as Parameters<typeof encodeFunctionData>[0])
}

async function expectRevert(promise: Promise<unknown>, data: Hex): Promise<void> {
  const error = await rejection(promise)
  expect(error).to.be.instanceOf(RPCError)
  expect(error.code).to.equal(-32000)
  expect(error.message).to.equal('execution reverted')
  expect(error.data).to.equal(data)
}

describe('eth_call', () => {
  let chain: Chain
  let alice: ReturnType<typeof signer>
  let reverter: Address
  let counter: Address
  let probe: Address

  before(async () => {
    chain = await createChain({ clock: 'manual' })
    alice = signer(chain, 0)
    reverter = (await sendDeploy(chain, alice, Reverter, [], 0)).address
    counter = (await sendDeploy(chain, alice, Counter, [], 1)).address
    const probeHash = await chain.sendRawTransaction(await alice.sign({ to: null, data: GAS_PROBE_INIT, gas: 200_000n, nonce: 2 }))
    await chain.clock.advance(4000) // block 1 holds the deployments, block 2 is empty
    const receipt = await receiptOf(chain, probeHash)
    expect(receipt?.status).to.equal('0x1')
    probe = receipt!.contractAddress as Address
    expect(await chain.getCode(probe)).to.equal(`0x${GAS_PROBE_RUNTIME}`)
    expect(chain.blockNumber()).to.equal(2n)
  })

  it('`from` defaults to the zero address (msg.sender reported by Unauthorized(caller, code))', async () => {
    await expectRevert(
      chain.call({ to: reverter, data: reverterData('revertWithCustomError', [5n]) }),
      encodeErrorResult({ abi: Reverter.abi, errorName: 'Unauthorized', args: [ZERO_ADDRESS, 5n] }),
    )
    await expectRevert(
      chain.call({ from: alice.address, to: reverter, data: reverterData('revertWithCustomError', [6n]) }),
      encodeErrorResult({ abi: Reverter.abi, errorName: 'Unauthorized', args: [alice.address, 6n] }),
    )
  })

  it("gas defaults to geth's RPC gas cap, 50M (gasleft() = 50M - 21000 intrinsic - 2 for GAS)", async () => {
    expect(BigInt(await chain.call({ to: probe }))).to.equal(50_000_000n - 21_000n - 2n)
    expect(BigInt((await chain.request({ method: 'eth_call', params: [{ to: probe }, 'latest'] })) as Hex)).to.equal(49_978_998n)
    expect(BigInt(await chain.call({ to: probe, gas: 100_000n }))).to.equal(78_998n)
    expect(BigInt((await chain.request({ method: 'eth_call', params: [{ to: probe, gas: '0x186a0' }] })) as Hex)).to.equal(78_998n)
  })

  it("the block context at 'pending' is the pre-confirmed block's; at 'latest' the head's; at a number that block's", async () => {
    const data = encodeFunctionData({ abi: Counter.abi, functionName: 'blockContext' })
    const decode = (output: Hex) => decodeFunctionResult({ abi: Counter.abi, functionName: 'blockContext', data: output })
    for (const tag of ['pending', 'latest', '0x1'] as const) {
      const block = (await blockOf(chain, tag)) as RpcBlock
      const [number, timestamp, baseFee, coinbase, chainId, gasLimit] = decode(await chain.call({ to: counter, data }, tag))
      expect(number, tag).to.equal(BigInt(block.number))
      expect(timestamp, tag).to.equal(BigInt(block.timestamp))
      expect(baseFee, tag).to.equal(BigInt(block.baseFeePerGas))
      expect(coinbase.toLowerCase(), tag).to.equal(block.miner)
      expect(chainId, tag).to.equal(31337n)
      expect(gasLimit, tag).to.equal(30_000_000n)
    }
    const pending = decode(await chain.call({ to: counter, data }, 'pending'))
    const latest = decode(await chain.call({ to: counter, data }, 'latest'))
    expect(pending[0]).to.equal(3n)
    expect(latest[0]).to.equal(2n)
    // Defaults: block N's timestamp is genesis + 2N seconds.
    expect(pending[1]).to.equal(1_735_689_600n + 6n)
    expect(latest[1]).to.equal(1_735_689_600n + 4n)
    expect(pending[2]).to.equal(chain.pending.context.baseFeePerGas)
    expect(latest[2]).to.not.equal(pending[2])
  })

  it("revert(reason) → -32000 'execution reverted' with data = ABI-encoded Error(string) (plain function and request)", async () => {
    const expected = encodeErrorResult({ abi: ERROR_STRING, errorName: 'Error', args: ['boom'] })
    await expectRevert(chain.call({ to: reverter, data: reverterData('revertWithReason', ['boom']) }), expected)
    await expectRevert(chain.request({ method: 'eth_call', params: [{ to: reverter, data: reverterData('revertWithReason', ['boom']) }, 'latest'] }), expected)
    await expectRevert(
      chain.call({ to: reverter, data: reverterData('requireTrue', [false]) }),
      encodeErrorResult({ abi: ERROR_STRING, errorName: 'Error', args: ['requirement failed'] }),
    )
  })

  it('a custom error → data = selector + arguments of Unauthorized(address,uint256)', async () => {
    const data = reverterData('revertWithCustomError', [42n])
    const expected = encodeErrorResult({ abi: Reverter.abi, errorName: 'Unauthorized', args: [chain.accounts[3].address, 42n] })
    expect(expected.slice(0, 10)).to.equal(keccak256(toHex('Unauthorized(address,uint256)')).slice(0, 10))
    await expectRevert(chain.request({ method: 'eth_call', params: [{ from: chain.accounts[3].address, to: reverter, data }] }), expected)
  })

  it("a bare revert() → data '0x'; a panic → Panic(0x12)", async () => {
    await expectRevert(chain.call({ to: reverter, data: reverterData('revertWithoutData') }), '0x')
    await expectRevert(chain.request({ method: 'eth_call', params: [{ to: reverter, data: reverterData('revertWithoutData') }] }), '0x')
    await expectRevert(chain.call({ to: reverter, data: reverterData('panicDivideByZero', [0n]) }), encodeErrorResult({ abi: PANIC, errorName: 'Panic', args: [0x12n] }))
  })

  it("an exceptional halt is -32000 with geth's VM error text, not 'execution reverted', and no data", async () => {
    const error = await rejection(chain.call({ to: reverter, data: reverterData('consumeAllGas') }))
    expect(error).to.be.instanceOf(RPCError)
    expect(error.code).to.equal(-32000)
    expect(error.message).to.match(/^invalid opcode/)
    expect(error.data).to.equal(undefined)
    // PUSH1 4 JUMP to a byte that is no JUMPDEST: geth's text (core/vm/errors.go), without the library's location after it.
    const jumper = `0x${'00'.repeat(19)}c6` as Address
    await chain.request({ method: 'anvil_setCode', params: [jumper, '0x600456'] })
    const jump = await rejection(chain.call({ to: jumper }))
    expect([jump.code, jump.message]).to.deep.equal([-32000, 'invalid jump destination'])
    // JUMPDEST PUSH1 0 PUSH1 0 JUMP: a word more each loop, until the stack holds 1024 (geth's ErrStackOverflow).
    const pusher = `0x${'00'.repeat(19)}c7` as Address
    await chain.request({ method: 'anvil_setCode', params: [pusher, '0x5b6000600056'] })
    const overflow = await rejection(chain.call({ to: pusher }))
    expect([overflow.code, overflow.message]).to.deep.equal([-32000, 'stack limit reached 1024 (1023)'])
  })

  it('a call never changes state: touchThenRevert and increment leave storage, balances and nonces as they were', async () => {
    const touched = async (tag: 'latest' | 'pending') =>
      decodeFunctionResult({ abi: Reverter.abi, functionName: 'touched', data: await chain.call({ to: reverter, data: reverterData('touched') }, tag) })
    await expectRevert(
      chain.call({ from: alice.address, to: reverter, data: reverterData('touchThenRevert') }, 'pending'),
      encodeErrorResult({ abi: ERROR_STRING, errorName: 'Error', args: ['touched then reverted'] }),
    )
    expect(await touched('latest')).to.equal(0n)
    expect(await touched('pending')).to.equal(0n)

    const increment = encodeFunctionData({ abi: Counter.abi, functionName: 'increment' })
    for (const tag of ['latest', 'pending', 'latest'] as const) {
      const output = await chain.call({ from: alice.address, to: counter, data: increment }, tag)
      expect(decodeFunctionResult({ abi: Counter.abi, functionName: 'increment', data: output })).to.equal(1n)
    }
    for (const tag of ['latest', 'pending'] as const) expect(await chain.getStorageAt(counter, 0n, tag)).to.equal(`0x${'0'.repeat(64)}`)

    const [balance, nonce] = [await chain.getBalance(alice.address, 'pending'), await chain.getTransactionCount(alice.address, 'pending')]
    expect(await chain.call({ from: alice.address, to: counter, value: parseEther('5'), gasPrice: 1_000_000_000n }, 'pending')).to.equal('0x')
    expect(await chain.getBalance(alice.address, 'pending')).to.equal(balance)
    expect(await chain.getBalance(counter, 'pending')).to.equal(0n)
    expect(await chain.getTransactionCount(alice.address, 'pending')).to.equal(nonce)
    expect(((await blockOf(chain, 'pending')) as RpcBlock).transactions).to.deep.equal([])
  })
})

describe('eth_call: what geth refuses before running, and blob hashes', () => {
  it("a tip above the fee cap is geth's -32000 'max priority fee per gas higher than max fee per gas: …', for eth_call and eth_estimateGas alike", async () => {
    const chain = await createChain({ clock: 'manual' })
    const from = chain.accounts[0].address
    for (const method of ['eth_call', 'eth_estimateGas']) {
      const error = await rejection(chain.request({ method, params: [{ from, to: carol, maxFeePerGas: '0x1', maxPriorityFeePerGas: '0x2' }] }), RPCError)
      expect([error.code, error.message], method).to.deep.equal([-32000, `max priority fee per gas higher than max fee per gas: address ${from}, maxPriorityFeePerGas: 2, maxFeePerGas: 1`])
    }
  })

  it("block overrides under alloy's names (what cast and forge send, and Anvil takes) apply as geth's do: coinbase, timestamp, random, baseFee", async () => {
    const chain = await createChain({ clock: 'manual' })
    const probe = `0x${'00'.repeat(19)}b2` as Address
    // COINBASE, TIMESTAMP, PREVRANDAO and BASEFEE into four words, returned.
    const state = { [probe]: { code: '0x4160005242602052446040524860605260806000f3' } }
    const word = (value: string) => value.slice(2).padStart(64, '0')
    const expected = `0x${word(carol)}${word('0x1234')}${word(`0x${'ab'.repeat(32)}`)}${word('0x999')}`
    const alloy = { coinbase: carol, timestamp: '0x1234', random: `0x${'ab'.repeat(32)}`, baseFee: '0x999' }
    const geth = { feeRecipient: carol, time: '0x1234', prevRandao: `0x${'ab'.repeat(32)}`, baseFeePerGas: '0x999' }
    for (const overrides of [alloy, geth]) {
      expect(await chain.request({ method: 'eth_call', params: [{ to: probe }, 'latest', state, overrides] }), JSON.stringify(overrides)).to.equal(expected)
    }
  })

  it("BLOBHASH sees a call's blobVersionedHashes (geth); a creation with them, or a hash not of version 0x01, is refused with geth's texts", async () => {
    const chain = await createChain({ clock: 'manual' })
    const reader = `0x${'00'.repeat(19)}b1` as Address
    // PUSH1 1 BLOBHASH PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN: the second blob hash.
    const overrides = { [reader]: { code: '0x60014960005260206000f3' } }
    const hashes = [`0x01${'aa'.repeat(31)}`, `0x01${'bb'.repeat(31)}`]
    expect(await chain.request({ method: 'eth_call', params: [{ to: reader, blobVersionedHashes: hashes }, 'latest', overrides] })).to.equal(hashes[1])
    expect(await chain.request({ method: 'eth_call', params: [{ to: reader }, 'latest', overrides] })).to.equal(`0x${'00'.repeat(32)}`)
    const refusal = async (request: Record<string, unknown>) => (await rejection(chain.request({ method: 'eth_call', params: [request, 'latest'] }), RPCError)).message
    expect(await refusal({ data: '0x00', blobVersionedHashes: hashes })).to.equal('blob transaction of type create')
    expect(await refusal({ to: reader, blobVersionedHashes: [hashes[0], `0x02${'cc'.repeat(31)}`] })).to.equal('blob 1 has invalid hash version')
  })
})

describe('eth_estimateGas', () => {
  it('a plain transfer estimates 21000 (0x5208)', async () => {
    const chain = await createChain({ clock: 'manual' })
    const params = [{ from: chain.accounts[0].address, to: carol, value: '0x1' }]
    expect(await chain.request({ method: 'eth_estimateGas', params })).to.equal('0x5208')
  })

  it("a plain transfer with an access list is estimated past 21000 (geth tries 21000, then searches): 25,300 gas for one address and one slot, within geth's 1.5%", async () => {
    const chain = await createChain({ clock: 'manual' })
    const accessList = [{ address: carol, storageKeys: [`0x${'00'.repeat(31)}01`] }]
    const estimate = BigInt((await chain.request({ method: 'eth_estimateGas', params: [{ from: chain.accounts[0].address, to: carol, value: '0x1', accessList }] })) as string)
    expect(Number(estimate)).to.be.within(25_300, 25_300 * 1.015)
  })

  it('a token transfer estimate is enough: a transaction with exactly that gas succeeds', async () => {
    const chain = await createChain({ clock: 'manual' })
    const alice = signer(chain, 0)
    const token = await deploy(chain, alice, Token, ['Token', 'TKN', 1000n])
    const bob = chain.accounts[1].address
    const data = encodeFunctionData({ abi: Token.abi, functionName: 'transfer', args: [bob, 10n] })
    const estimate = BigInt((await chain.request({ method: 'eth_estimateGas', params: [{ from: alice.address, to: token, data }] })) as Hex)
    expect(estimate > 21_000n && estimate < 100_000n, `estimate ${estimate}`).to.equal(true)

    const hash = await chain.sendRawTransaction(await alice.sign({ to: token, data, gas: estimate, nonce: 1 }))
    await chain.clock.advance(2000)
    const receipt = (await receiptOf(chain, hash))!
    expect(receipt.status).to.equal('0x1')
    expect(BigInt(receipt.gasUsed) <= estimate).to.equal(true)
    const output = await chain.call({ to: token, data: encodeFunctionData({ abi: Token.abi, functionName: 'balanceOf', args: [bob] }) })
    expect(decodeFunctionResult({ abi: Token.abi, functionName: 'balanceOf', data: output })).to.equal(10n)
  })

  it('a reverting estimate throws the revert (-32000 execution reverted, data = the custom error)', async () => {
    const chain = await createChain({ clock: 'manual' })
    const alice = signer(chain, 0)
    const token = await deploy(chain, alice, Token, ['Token', 'TKN', 1000n])
    const data = encodeFunctionData({ abi: Token.abi, functionName: 'transfer', args: [carol, 2000n] })
    await expectRevert(
      chain.request({ method: 'eth_estimateGas', params: [{ from: alice.address, to: token, data }] }),
      encodeErrorResult({ abi: Token.abi, errorName: 'InsufficientBalance', args: [alice.address, 1000n, 2000n] }),
    )
  })

  it("estimates at 'pending' by default: a token only pre-confirmed is seen (its revert), not at 'latest'", async () => {
    const chain = await createChain({ clock: 'manual' })
    const alice = signer(chain, 0)
    const { address: token } = await sendDeploy(chain, alice, Token, ['Token', 'TKN', 1000n])
    await chain.tick()
    const data = encodeFunctionData({ abi: Token.abi, functionName: 'transfer', args: [carol, 2000n] })
    const call = { from: alice.address, to: token, data }
    const revert = encodeErrorResult({ abi: Token.abi, errorName: 'InsufficientBalance', args: [alice.address, 1000n, 2000n] })
    await expectRevert(chain.request({ method: 'eth_estimateGas', params: [call] }), revert)
    await expectRevert(chain.request({ method: 'eth_estimateGas', params: [call, 'pending'] }), revert)
    // At latest the token has no code yet: the call succeeds and costs only intrinsic gas.
    const atLatest = BigInt((await chain.request({ method: 'eth_estimateGas', params: [call, 'latest'] })) as Hex)
    expect(atLatest > 21_000n && atLatest < 30_000n, `estimate ${atLatest}`).to.equal(true)
  })

  it("caps the gas it tries as geth's gasestimator does: the block's gas limit, EIP-7825's 2^24 under Osaka, the 50M RPC gas cap", async () => {
    // JUMPDEST PUSH1 0 JUMP: a loop that runs out of any gas.
    const loop = `0x${'00'.repeat(19)}c1`
    const capOf = async (options: Parameters<typeof createChain>[0]) => {
      const chain = await createChain(options)
      await chain.request({ method: 'anvil_setCode', params: [loop, '0x5b600056'] })
      return (await rejection(chain.request({ method: 'eth_estimateGas', params: [{ from: signer(chain, 0).address, to: loop }] }))).message
    }
    expect(await capOf({ hardfork: 'prague' })).to.equal('gas required exceeds allowance (30000000)')
    expect(await capOf({ hardfork: 'osaka' })).to.equal('gas required exceeds allowance (16777216)')
    // Base caps a transaction's gas under Prague too (its preset's transactionGasCap); OP's 40M block is its own cap.
    expect(await capOf({ preset: 'base' })).to.equal('gas required exceeds allowance (16777216)')
    expect(await capOf({ preset: 'base', opStack: { transactionGasCap: false } })).to.equal('gas required exceeds allowance (50000000)')
    expect(await capOf({ preset: 'op' })).to.equal('gas required exceeds allowance (40000000)')
  })

  it("runs calls and estimates under Cancun, where EIP-7702's costs are not defined; a call carrying authorizations is geth's `transaction type not supported` there (audit S, S4)", async () => {
    const chain = await createChain({ clock: 'manual', hardfork: 'cancun' })
    const from = signer(chain, 0).address
    const to = `0x${'00'.repeat(19)}bb` as Address
    expect(await chain.request({ method: 'eth_call', params: [{ from, to }] })).to.equal('0x')
    expect(await chain.request({ method: 'eth_estimateGas', params: [{ from, to }] })).to.equal('0x5208')
    expect(await chain.request({ method: 'eth_createAccessList', params: [{ from, to }] })).to.deep.include({ gasUsed: '0x5208' })
    const hash = (await chain.request({ method: 'eth_sendTransaction', params: [{ from, to, value: '0x1' }] })) as Hex
    await chain.mine()
    expect(await chain.request({ method: 'eth_getTransactionReceipt', params: [hash] })).to.deep.include({ status: '0x1', gasUsed: '0x5208' })
    const authorization = { chainId: '0x7a69', address: to, nonce: '0x0', yParity: '0x0', r: '0x1', s: '0x1' }
    const refused = await rejection(chain.request({ method: 'eth_call', params: [{ from, to, authorizationList: [authorization] }] }))
    expect([refused.code, refused.message]).to.deep.equal([-32000, 'transaction type not supported'])
  })

  it("takes a failed gas charge (`out of gas: …`) at the cap as out of gas, as geth's errors.Is(err, ErrOutOfGas); `gas uint64 overflow`, which geth does not wrap, is the call's own error", async () => {
    const chain = await createChain({ clock: 'manual' })
    const contract = `0x${'00'.repeat(19)}c0` as Address
    const estimate = async (code: Hex) => {
      await chain.request({ method: 'anvil_setCode', params: [contract, code] })
      return (await rejection(chain.request({ method: 'eth_estimateGas', params: [{ from: signer(chain, 0).address, to: contract }] }))).message
    }
    expect(await estimate('0x65010000000000515000')).to.equal('gas required exceeds allowance (30000000)') // MLOAD(2^40): past geth's priced memory
    expect(await estimate('0x6200c00160006000f000')).to.equal('gas required exceeds allowance (30000000)') // CREATE of 49153 bytes of init code
    expect(await estimate('0x6801000000000000000051')).to.equal('gas uint64 overflow') // MLOAD(2^64)
  })

  it("checks the sender's balance at the fee cap, as geth's buyGas (it charges the price paid): a call and an estimate the sender can pay only at the base fee are refused (review M)", async () => {
    const chain = await createChain({ clock: 'manual' })
    const sender = `0x${'00'.repeat(19)}aa` as Address
    await chain.setBalance(sender, 21_000n * 2n * 10n ** 9n)
    const transfer = { from: sender, to: `0x${'00'.repeat(19)}bb`, maxFeePerGas: toHex(100n * 10n ** 9n), maxPriorityFeePerGas: '0x1' }
    const call = await rejection(chain.request({ method: 'eth_call', params: [{ ...transfer, gas: toHex(21_000) }, 'latest'] }))
    expect(call.message).to.equal('insufficient funds for gas * price + value: address 0x00000000000000000000000000000000000000AA have 42000000000000 want 2100000000000000')
    const estimate = await rejection(chain.request({ method: 'eth_estimateGas', params: [transfer, 'pending'] }))
    expect(estimate.message).to.equal('gas required exceeds allowance (420)')
    // At a fee cap the balance covers, the same transfer is 21000.
    expect(await chain.request({ method: 'eth_estimateGas', params: [{ ...transfer, maxFeePerGas: toHex(2n * 10n ** 9n) }, 'pending'] })).to.equal('0x5208')
  })

  it("a call with gas between its intrinsic gas and EIP-7623's floor gets geth's floor error, below the intrinsic gas geth's intrinsic one (review M)", async () => {
    const chain = await createChain({ clock: 'manual' })
    // 100 non-zero bytes: intrinsic 21000 + 1600 = 22600, floor 21000 + 10 × 400 tokens = 25000.
    const call = { from: signer(chain, 0).address, to: `0x${'00'.repeat(19)}bb`, data: `0x${'ff'.repeat(100)}` }
    const between = await rejection(chain.request({ method: 'eth_call', params: [{ ...call, gas: toHex(24_000) }, 'latest'] }))
    expect([between.code, between.message]).to.deep.equal([-32000, 'insufficient gas for floor data gas cost: have 24000, want 25000'])
    const below = await rejection(chain.request({ method: 'eth_call', params: [{ ...call, gas: toHex(22_000) }, 'latest'] }))
    expect(below.message).to.equal('intrinsic gas too low: have 22000, want 22600')
    expect(await chain.request({ method: 'eth_call', params: [{ ...call, gas: toHex(25_000) }, 'latest'] })).to.equal('0x')
  })

  it("a sender whose balance pays for less than the intrinsic gas at the fee cap gets geth's `gas required exceeds allowance (0)`, not an intrinsic-gas refusal (audit O, O1; without a fee cap, 21000)", async () => {
    const chain = await createChain({ clock: 'manual' })
    const poor = `0x${'00'.repeat(19)}aa` as Address
    await chain.setBalance(poor, 512n)
    const transfer = { from: poor, to: `0x${'00'.repeat(19)}bb` }
    const refused = await rejection(chain.request({ method: 'eth_estimateGas', params: [{ ...transfer, maxFeePerGas: '0x3b9aca00' }] }))
    expect([refused.code, refused.message]).to.deep.equal([-32000, 'gas required exceeds allowance (0)'])
    expect(await chain.request({ method: 'eth_estimateGas', params: [transfer] })).to.equal('0x5208')
  })
})
