/**
 * eth_simulateV1 as geth's simulator answers it (internal/ethapi/simulate.go): blocks after the
 * base block (number + 1, time + 12 s), calls in order on one throwaway state carried across
 * blocks, failed calls reported in their results, geth's -380xx errors for calls that cannot be
 * included, state and block overrides, traceTransfers' ERC-7528 logs — and viem's simulateBlocks
 * and simulateCalls over it. Also the override runner the eth_call path uses.
 */
import { EventEmitter } from 'node:events'
import { expect } from 'chai'
import { decodeFunctionResult, encodeErrorResult, encodeFunctionData, getContractAddress, pad, parseEther, toHex, type Hex } from 'viem'
import { createEngine } from '../../lib/engine/engine.ts'
import type { ChainEmitter } from '../../lib/engine/events.ts'
import { runCall } from '../../lib/execution/run-call.ts'
import { createChain, type Chain } from '../../lib/index.ts'
import { resolveChainOptions } from '../../lib/options.ts'
import { withOverrides } from '../../lib/state/state-overrides.ts'
import type { Address } from '../../lib/types.ts'
import { Counter } from '../../fixtures/artifacts/Counter.ts'
import { Reverter } from '../../fixtures/artifacts/Reverter.ts'
import { Token } from '../../fixtures/artifacts/Token.ts'
import { rejection, receiptOf, sendDeploy, signCall, type RpcBlock, type RpcLog } from '../support/chain-helpers.ts'
import { viemSetup } from '../support/clients-viem.ts'
import { signer } from '../support/wallet.ts'

const GENESIS_TIME = 1_735_689_600n
const EEEE = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'
const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'
const carol = `0x${'00'.repeat(18)}ca41` as Address
const probe = `0x${'00'.repeat(18)}ba1a` as Address
const forwarder = `0x${'00'.repeat(18)}f0f0` as Address
/** PUSH1 0 CALLDATALOAD BALANCE PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN: the balance of the address in the calldata. */
const BALANCE_PROBE = '0x6000353160005260206000f3'
/** LOG0(42), CALL carol with all CALLVALUE, LOG0(42): a log, a nested transfer, a log. */
const FORWARDER = `0x602a60005260206000a0600060006000600034${'73' + carol.slice(2)}5af15060206000a000`

type SimCall = { returnData: Hex; logs: RpcLog[]; gasUsed: Hex; maxUsedGas: Hex; status: Hex; error?: { code: number; message: string; data?: Hex } }
type ListedTransaction = Record<string, unknown> & { nonce: Hex; hash: Hex }
type SimBlock = Omit<RpcBlock, 'transactions'> & { calls: SimCall[]; transactions: (Hex | ListedTransaction)[] }

const fn = (abi: readonly unknown[], functionName: string, args: readonly unknown[] = []) =>
  encodeFunctionData({ abi, functionName, args } as Parameters<typeof encodeFunctionData>[0])

describe('eth_simulateV1', () => {
  let chain: Chain
  let alice: ReturnType<typeof signer>
  let counter: Address
  let reverter: Address
  let token: Address
  let head: RpcBlock

  const simulate = (payload: Record<string, unknown>, block: unknown = 'latest') =>
    chain.request({ method: 'eth_simulateV1', params: [payload, block] }) as Promise<SimBlock[]>
  const balanceOf = (address: Address) => ({ to: probe, data: pad(address) })
  const withProbe = { [probe]: { code: BALANCE_PROBE } }

  before(async () => {
    chain = await createChain({ clock: 'manual' })
    alice = signer(chain, 0)
    counter = (await sendDeploy(chain, alice, Counter, [], 0)).address
    reverter = (await sendDeploy(chain, alice, Reverter, [], 1)).address
    token = (await sendDeploy(chain, alice, Token, ['T', 'T', 1000n], 2)).address
    await chain.clock.advance(4000) // block 1 holds the deployments, block 2 is empty
    head = (await chain.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as RpcBlock
    expect(head.number).to.equal('0x2')
  })

  it('blocks follow the base block (geth: number + 1, time + 12 s, parent hashes chained; Anvil reuses the head number)', async () => {
    const [first, second] = await simulate({ blockStateCalls: [{ calls: [] }, { calls: [] }] })
    expect([first.number, second.number]).to.deep.equal(['0x3', '0x4'])
    expect(BigInt(first.timestamp)).to.equal(GENESIS_TIME + 4n + 12n)
    expect(BigInt(second.timestamp)).to.equal(GENESIS_TIME + 4n + 24n)
    expect(first.parentHash).to.equal(head.hash)
    expect(second.parentHash).to.equal(first.hash)
    expect([first.baseFeePerGas, first.gasLimit, first.miner]).to.deep.equal(['0x0', head.gasLimit, head.miner])
    expect(first.transactions).to.deep.equal([])
  })

  it('calls run in order on one state carried across blocks, and the chain does not change', async () => {
    const nonce = await chain.request({ method: 'eth_getTransactionCount', params: [alice.address, 'latest'] })
    const [one, two] = await simulate({
      blockStateCalls: [
        { calls: [{ from: alice.address, to: counter, data: fn(Counter.abi, 'increment') }, { from: alice.address, to: counter, data: fn(Counter.abi, 'increment') }] },
        { calls: [{ to: counter, data: fn(Counter.abi, 'count') }] },
      ],
      returnFullTransactions: true,
    })
    expect(one.calls.map((call) => BigInt(call.returnData))).to.deep.equal([1n, 2n])
    expect(BigInt(two.calls[0].returnData)).to.equal(2n)
    // Nonces are the sender's, consecutive; the listed transactions are unsigned type-2 ones from the caller.
    expect(one.transactions.map((tx) => (tx as ListedTransaction).nonce)).to.deep.equal([nonce, `0x${(BigInt(nonce as Hex) + 1n).toString(16)}`])
    expect(one.transactions[0]).to.include({ from: alice.address.toLowerCase(), type: '0x2', r: '0x0', s: '0x0', blockHash: one.hash })
    expect(one.calls[0].logs[0].transactionHash).to.equal((one.transactions[0] as ListedTransaction).hash)
    expect(await chain.call({ to: counter, data: fn(Counter.abi, 'count') }, 'pending')).to.equal(pad('0x0'))
    expect(await chain.request({ method: 'eth_getTransactionCount', params: [alice.address, 'pending'] })).to.equal(nonce)
  })

  it("a call's gasUsed and logs equal those of the same call sent as a transaction", async () => {
    const [simulated] = await simulate({ blockStateCalls: [{ calls: [{ from: alice.address, to: token, data: fn(Token.abi, 'transfer', [carol, 5n]) }] }] })
    const hash = await chain.sendRawTransaction(await signCall(alice, token, Token.abi as never, 'transfer', [carol, 5n], { nonce: 3 }))
    await chain.tick()
    const receipt = (await receiptOf(chain, hash))!
    expect(simulated.calls[0].gasUsed).to.equal(receipt.gasUsed)
    expect(simulated.calls[0].logs.map(({ address, topics, data }) => ({ address, topics, data }))).to.deep.equal(
      receipt.logs.map(({ address, topics, data }) => ({ address, topics, data })),
    )
    expect(simulated.calls[0].logs[0]).to.include({ blockHash: simulated.hash, blockNumber: '0x3', logIndex: '0x0', removed: false })
  })

  it('failed calls are reported in their results (geth: a revert is code 3 with its reason and data; another failure -32015)', async () => {
    const [block] = await simulate({
      blockStateCalls: [
        {
          calls: [
            { to: reverter, data: fn(Reverter.abi, 'revertWithReason', ['nope']) },
            { to: reverter, data: fn(Reverter.abi, 'consumeAllGas'), gas: '0x186a0' },
            { to: reverter, data: fn(Reverter.abi, 'panicDivideByZero', [0n]) },
          ],
        },
      ],
    })
    const [reason, halt, panic] = block.calls
    const nope = encodeErrorResult({ abi: [{ type: 'error', name: 'Error', inputs: [{ name: 'm', type: 'string' }] }], errorName: 'Error', args: ['nope'] })
    expect(reason).to.deep.include({ status: '0x0', returnData: nope, error: { message: 'execution reverted: nope', code: 3, data: nope } })
    expect(halt).to.deep.include({ status: '0x0', gasUsed: '0x186a0', maxUsedGas: '0x186a0' })
    expect(halt.error?.code).to.equal(-32015)
    expect(panic.error?.message).to.equal('execution reverted: division or modulo by zero')
    expect(BigInt(block.gasUsed)).to.equal(block.calls.reduce((sum, call) => sum + BigInt(call.gasUsed), 0n))
  })

  it('traceTransfers logs ETH moves as ERC-7528 Transfer events from 0xeeee…eeee, in execution order (geth)', async () => {
    const [block] = await simulate({
      blockStateCalls: [{ stateOverrides: { [forwarder]: { code: FORWARDER } }, calls: [{ from: alice.address, to: forwarder, value: '0x9' }] }],
      traceTransfers: true,
    })
    const logs = block.calls[0].logs
    const word42 = pad('0x2a')
    expect(logs.map((log) => [log.address, log.topics, log.data, log.logIndex])).to.deep.equal([
      [EEEE, [TRANSFER_TOPIC, pad(alice.address.toLowerCase() as Hex), pad(forwarder)], pad('0x9'), '0x0'],
      [forwarder, [], word42, '0x1'],
      [EEEE, [TRANSFER_TOPIC, pad(forwarder), pad(carol)], pad('0x9'), '0x2'],
      [forwarder, [], word42, '0x3'],
    ])
    // The block's bloom covers the EVM's logs only (geth builds receipts from the state's logs).
    const [untraced] = await simulate({ blockStateCalls: [{ stateOverrides: { [forwarder]: { code: FORWARDER } }, calls: [{ from: alice.address, to: forwarder, value: '0x9' }] }] })
    expect(block.logsBloom).to.equal(untraced.logsBloom)
    expect(untraced.calls[0].logs.map((log) => log.logIndex)).to.deep.equal(['0x0', '0x1'])
  })

  it('validation checks nonces and fees and follows the base fee; fees pay the coinbase (geth: -38012, -38011, -38010)', async () => {
    const address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
    const nextBaseFee = BigInt(head.baseFeePerGas) - BigInt(head.baseFeePerGas) / 8n // block 2 was empty
    const free = await rejection(simulate({ blockStateCalls: [{ calls: [{ from: alice.address, to: carol, value: '0x1' }] }], validation: true }))
    expect([free.code, free.message]).to.deep.equal([-38012, `max fee per gas less than block base fee: address ${address}, maxFeePerGas: 0, baseFee: ${nextBaseFee}`])
    const fees = { maxFeePerGas: '0x2540be400', maxPriorityFeePerGas: '0x3b9aca00' } // 10 gwei cap, 1 gwei tip
    const high = await rejection(simulate({ blockStateCalls: [{ calls: [{ from: alice.address, to: carol, nonce: '0x9', ...fees }] }], validation: true }))
    expect([high.code, high.message]).to.deep.equal([-38011, `nonce too high: address ${address}, tx: 9 state: 3`])
    const low = await rejection(simulate({ blockStateCalls: [{ calls: [{ from: alice.address, to: carol, nonce: '0x1', ...fees }] }], validation: true }))
    expect([low.code, low.message]).to.deep.equal([-38010, `nonce too low: address ${address}, tx: 1 state: 3`])

    const before = await chain.getBalance(alice.address, 'latest')
    const [block, after] = await simulate({
      blockStateCalls: [
        { stateOverrides: withProbe, calls: [{ from: alice.address, to: carol, value: '0x1', ...fees }] },
        // Free calls pass validation at base fee 0.
        { blockOverrides: { baseFeePerGas: '0x0' }, calls: [balanceOf(alice.address), balanceOf(head.miner as Address)] },
      ],
      validation: true,
    })
    expect(BigInt(block.baseFeePerGas)).to.equal(nextBaseFee)
    expect(BigInt(after.calls[0].returnData)).to.equal(before - 1n - 21_000n * (nextBaseFee + 1_000_000_000n))
    expect(BigInt(after.calls[1].returnData) - (await chain.getBalance(head.miner as Address, 'latest'))).to.equal(21_000n * 1_000_000_000n)
  })

  it("a call that cannot be paid fails the request, even without validation (geth -38014; Anvil -32003 'Insufficient funds…')", async () => {
    const error = await rejection(simulate({ blockStateCalls: [{ stateOverrides: { [carol]: { balance: '0x0' } }, calls: [{ from: carol, to: alice.address, value: '0x1' }] }] }))
    expect([error.code, error.message]).to.deep.equal([-38014, 'insufficient funds for gas * price + value: address 0x000000000000000000000000000000000000cA41 have 0 want 1'])
  })

  it('block overrides set the context; a number gap is filled with empty blocks and BLOCKHASH sees simulated blocks (geth)', async () => {
    const randao = pad('0x1234')
    const blocks = await simulate({
      blockStateCalls: [
        { blockOverrides: { number: '0x5', time: '0x7fffffff', feeRecipient: carol, baseFeePerGas: '0x7', gasLimit: '0x1000000', prevRandao: randao } },
        { calls: [{ to: counter, data: fn(Counter.abi, 'blockContext') }, { to: counter, data: fn(Counter.abi, 'blockHashOf', [5n]) }] },
      ],
    })
    expect(blocks.map((block) => [block.number, block.timestamp])).to.deep.equal([
      ['0x3', `0x${(GENESIS_TIME + 16n).toString(16)}`],
      ['0x4', `0x${(GENESIS_TIME + 28n).toString(16)}`],
      ['0x5', '0x7fffffff'],
      ['0x6', `0x${(0x7fffffffn + 12n).toString(16)}`],
    ])
    expect(blocks[2]).to.include({ miner: carol, baseFeePerGas: '0x7', gasLimit: '0x1000000', mixHash: randao })
    // Fee recipient and gas limit carry to the next block; the base fee does not.
    const context = decodeFunctionResult({ abi: Counter.abi, functionName: 'blockContext', data: blocks[3].calls[0].returnData })
    expect(context).to.deep.equal([6n, 0x7fffffffn + 12n, 0n, '0x000000000000000000000000000000000000cA41', 31337n, 0x1000000n])
    expect(blocks[3].calls[1].returnData).to.equal(blocks[2].hash)
  })

  it('state overrides: stateDiff writes slots, state replaces the storage, balance/nonce/code replace fields; movePrecompileToAddress', async () => {
    const slot0 = pad('0x0')
    const created = getContractAddress({ from: carol, nonce: 5n })
    const blocks = await simulate({
      blockStateCalls: [
        { stateOverrides: { [counter]: { stateDiff: { [slot0]: pad('0x7') } } }, calls: [{ to: counter, data: fn(Counter.abi, 'increment') }] },
        {
          stateOverrides: { [counter]: { state: {} }, [carol]: { balance: '0x64', nonce: '0x5' }, ...withProbe },
          calls: [{ to: counter, data: fn(Counter.abi, 'count') }, balanceOf(carol), { from: carol, data: Counter.bytecode }, { to: created, data: fn(Counter.abi, 'count') }],
        },
        { stateOverrides: { '0x0000000000000000000000000000000000000004': { movePrecompileToAddress: '0x0000000000000000000000000000000000001234' } }, calls: [{ to: '0x0000000000000000000000000000000000001234', data: '0xabcd' }, { to: '0x0000000000000000000000000000000000000004', data: '0xabcd' }] },
        { calls: [{ to: '0x0000000000000000000000000000000000000004', data: '0xabcd' }] },
      ],
      returnFullTransactions: true,
    })
    expect(BigInt(blocks[0].calls[0].returnData)).to.equal(8n)
    expect(BigInt(blocks[1].calls[0].returnData)).to.equal(0n)
    expect(BigInt(blocks[1].calls[1].returnData)).to.equal(100n)
    // A creation from carol (nonce 5 by override) deploys to the address of (carol, 5): a later call finds its code.
    expect(blocks[1].calls[2].status).to.equal('0x1')
    expect((blocks[1].transactions[2] as ListedTransaction).nonce).to.equal('0x5')
    expect(blocks[1].calls[3].returnData).to.equal(pad('0x0'))
    // The identity precompile answers at its new address only, for that block (geth's precompiles are per block).
    expect(blocks[2].calls.map((call) => call.returnData)).to.deep.equal(['0xabcd', '0x'])
    expect(blocks[3].calls[0].returnData).to.equal('0xabcd')
  })

  it("geth's limits and order rules: -32602 empty input, -38026 too many blocks, -38020, -38021, -38015; and bad parameters name the argument", async () => {
    const expectError = async (payload: Record<string, unknown>, code: number, message: string) => {
      const error = await rejection(simulate(payload))
      expect([error.code, error.message]).to.deep.equal([code, message])
    }
    await expectError({ blockStateCalls: [] }, -32602, 'empty input')
    await expectError({ blockStateCalls: Array.from({ length: 257 }, () => ({ calls: [] })) }, -38026, 'too many blocks')
    await expectError({ blockStateCalls: [{ blockOverrides: { number: '0x103' } }] }, -38026, 'too many blocks')
    await expectError({ blockStateCalls: [{ blockOverrides: { number: '0x2' } }] }, -38020, 'block numbers must be in order: 2 <= 2')
    await expectError({ blockStateCalls: [{ blockOverrides: { time: head.timestamp } }] }, -38021, `block timestamps must be in order: ${BigInt(head.timestamp)} <= ${BigInt(head.timestamp)}`)
    await expectError({ blockStateCalls: [{ calls: [{ to: carol, gas: '0x2000000' }] }] }, -38015, 'block gas limit reached: remaining: 30000000, required: 33554432')
    await expectError({ blockStateCalls: [{ stateOverrides: { [carol]: { state: {}, stateDiff: {} } } }] }, -32000, "account 0x000000000000000000000000000000000000cA41 has both 'state' and 'stateDiff'")
    await expectError({ blockStateCalls: [{ stateOverrides: { [carol]: { balance: 'lots' } } }] }, -32602, `invalid argument 0 (payload).blockStateCalls[0].stateOverrides[${carol}].balance: expected a hex quantity of at most 256 bits, got "lots"`)
    await expectError({ blockStateCalls: [{ blockOverrides: { beaconRoot: pad('0x1') } }] }, -32000, 'block override "beaconRoot" is not supported for this RPC method')
    await expectError({ blockStateCalls: [{ stateOverrides: { [carol]: { nonce: '0x10000000000000000' } } }] }, -32602, `invalid argument 0 (payload).blockStateCalls[0].stateOverrides[${carol}].nonce: hex number > 64 bits`)
    await expectError({ blockStateCalls: [{ calls: [{ to: 'nowhere' }] }] }, -32602, 'invalid argument 0 (payload).blockStateCalls[0].calls[0].to: expected a 20-byte hex address, got "nowhere"')
  })

  it("a simulated block opens with EIP-2935's system call: the history contract answers its parent's hash (geth's simulator runs core.PreExecution)", async () => {
    const history = '0x0000f90827f1c53a10cb7a02335b175320002935'
    const [first, second] = await simulate({ blockStateCalls: [{ calls: [{ to: history, data: pad(head.number) }] }, { calls: [{ to: history, data: pad(toHex(BigInt(head.number) + 1n)) }] }] })
    expect(first.calls[0]).to.include({ status: '0x1', returnData: head.hash })
    expect(second.calls[0]).to.include({ status: '0x1', returnData: first.hash })
  })

  it("'pending' simulates after the pre-confirmed block, on its state", async () => {
    const hash = await chain.sendRawTransaction(await signCall(alice, counter, Counter.abi as never, 'increment', [], { nonce: 4 }))
    await chain.tick()
    expect(await receiptOf(chain, hash)).to.not.equal(null)
    const [pending] = await simulate({ blockStateCalls: [{ calls: [{ to: counter, data: fn(Counter.abi, 'count') }] }] }, 'pending')
    const [latest] = await simulate({ blockStateCalls: [{ calls: [{ to: counter, data: fn(Counter.abi, 'count') }] }] }, 'latest')
    expect([pending.number, BigInt(pending.calls[0].returnData)]).to.deep.equal(['0x4', 1n])
    expect([latest.number, BigInt(latest.calls[0].returnData)]).to.deep.equal(['0x3', 0n])
  })
})

describe('eth_simulateV1 on an Osaka chain', () => {
  it("lists a call over EIP-7825's 2^24 gas cap, and leaves the chain's own transaction rules as they were", async () => {
    const osaka = await createChain({ hardfork: 'osaka' })
    const [from] = (await osaka.request({ method: 'eth_accounts' })) as Address[]
    const [block] = (await osaka.request({ method: 'eth_simulateV1', params: [{ blockStateCalls: [{ calls: [{ from, to: carol, gas: '0x1c9c380' }] }] }, 'latest'] })) as SimBlock[]
    expect([block.calls[0].status, block.gasUsed]).to.deep.equal(['0x1', '0x5208'])
    // The chain still signs and admits transactions under Osaka: at the cap, and not above it (geth's pool error).
    const sent = await osaka.request({ method: 'eth_sendTransaction', params: [{ from, to: carol, gas: '0x1000000' }] })
    expect(sent).to.match(/^0x[0-9a-f]{64}$/)
    const over = await rejection(osaka.request({ method: 'eth_sendTransaction', params: [{ from, to: carol, gas: '0x1000001' }] }))
    expect([over.code, over.message]).to.deep.equal([-32000, 'transaction gas limit too high (cap: 16777216, tx: 16777217)'])
  })
})

describe('eth_simulateV1 through viem 2.57.1 (custom transport, in-process)', () => {
  it('simulateBlocks decodes results and reverts; simulateCalls applies stateOverrides and traces transfers', async () => {
    const { chain, publicClient, alice } = await viemSetup()
    const counter = (await sendDeploy(chain, signer(chain, 0), Counter, [], 0)).address.toLowerCase() as Address
    const reverter = (await sendDeploy(chain, signer(chain, 0), Reverter, [], 1)).address
    await chain.clock.advance(2000)
    const [block] = await publicClient.simulateBlocks({
      blocks: [
        {
          stateOverrides: [{ address: counter, stateDiff: [{ slot: pad('0x0'), value: pad('0x29') }] }],
          calls: [
            { from: alice.account.address, to: counter, abi: Counter.abi, functionName: 'increment' },
            { to: reverter, abi: Reverter.abi, functionName: 'revertWithReason', args: ['nope'] },
          ],
        },
      ],
    })
    expect(block.number).to.equal(2n)
    expect(block.calls[0]).to.deep.include({ status: 'success', result: 42n })
    expect(block.calls[0].logs?.[0].address.toLowerCase()).to.equal(counter)
    expect(block.calls[1].status).to.equal('failure')
    expect((block.calls[1] as { error: Error }).error.message).to.contain('reverted with the following reason:\nnope')

    const poor = '0x000000000000000000000000000000000000beef'
    const { results } = await publicClient.simulateCalls({
      account: poor,
      calls: [{ to: carol, value: parseEther('1') }],
      stateOverrides: [{ address: poor, balance: parseEther('2') }],
      traceTransfers: true,
    })
    expect(results[0].status).to.equal('success')
    expect(results[0].logs?.[0]).to.deep.include({ address: EEEE, data: pad(`0x${parseEther('1').toString(16)}`) })
  })
})

describe('withOverrides (the override runner of eth_call and eth_estimateGas)', () => {
  it('runs a call with state and block overrides on a throwaway layer, then puts the precompiles back', async () => {
    const engine = createEngine(resolveChainOptions({ clock: 'manual' }), new EventEmitter() as ChainEmitter)
    const { state, context } = engine.blocks.resolve({ tag: 'latest' })
    const environment = engine.simulation.parts.environment
    const overrides = {
      state: new Map([
        [probe, { code: Uint8Array.from(Buffer.from(BALANCE_PROBE.slice(2), 'hex')) }],
        [carol, { balance: 77n }],
        ['0x0000000000000000000000000000000000000004' as Address, { movePrecompileTo: '0x0000000000000000000000000000000000001234' as Address }],
      ]),
      block: { number: 99n },
    }
    const outcome = await withOverrides(environment, state, context, overrides, async (view, block) => {
      expect(block.number).to.equal(99n)
      const moved = await runCall({ to: '0x0000000000000000000000000000000000001234', data: Uint8Array.of(5) }, view, block, environment)
      expect(moved.returnValue).to.deep.equal(Uint8Array.of(5))
      return runCall({ to: probe, data: Buffer.from(pad(carol).slice(2), 'hex') }, view, block, environment)
    })
    expect(BigInt(`0x${Buffer.from(outcome.returnValue).toString('hex')}`)).to.equal(77n)
    expect(state.getAccount(carol)).to.equal(undefined)
    expect(environment.evm.precompiles.has('0000000000000000000000000000000000001234')).to.equal(false)
    expect(environment.evm.precompiles.has('0000000000000000000000000000000000000004')).to.equal(true)
  })
})
