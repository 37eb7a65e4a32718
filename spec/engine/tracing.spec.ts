/**
 * debug_trace* and debug_getRaw* as geth answers them, judged against Anvil 1.7.1 where Anvil
 * answers the same: the same signed transactions go to Anvil (`--steps-tracing`, prague) and to
 * the devnet, and their call frames and struct logs must agree field for field, except where geth
 * and Anvil themselves differ (named in each test). Then what only the devnet has: tracing a
 * pre-confirmed transaction, a transaction in the middle of a block (replayed state), the chain
 * left untouched, and geth's errors.
 */
import { EventEmitter } from 'node:events'
import type { EVM } from '@ethereumjs/evm'
import { expect } from 'chai'
import { fromRlp, getContractAddress, keccak256, pad, toHex, type Hex } from 'viem'
import { createEngine } from '../../lib/engine/engine.ts'
import type { ChainEmitter } from '../../lib/engine/events.ts'
import { createChain, RPCError, type Chain } from '../../lib/index.ts'
import { resolveChainOptions } from '../../lib/options.ts'
import type { Address } from '../../lib/types.ts'
import { anvilOrSkip, type AnvilNode } from '../support/anvil-node.ts'
import { rejection, receiptOf, type RpcBlock, type RpcReceipt } from '../support/chain-helpers.ts'
import { Tracee } from '../support/trace-contracts.ts'
import { sendTraceWorkload, traceeCall, type SentTransaction } from '../support/trace-workload.ts'
import { signer } from '../support/wallet.ts'

type Frame = { from: Hex; gas: Hex; gasUsed: Hex; to?: Hex; input: Hex; output?: Hex; error?: string; revertReason?: string; calls?: Frame[]; logs?: FrameLog[]; value?: Hex; type: string }
type FrameLog = { address: Hex; topics: Hex[]; data: Hex; index: Hex; position: Hex }
type Step = { pc: number; op: string; gas: number; gasCost: number; depth: number; error?: string; stack?: Hex[]; returnData?: Hex; memory?: Hex[]; storage?: Record<Hex, Hex>; refund?: number }
type StructLogs = { gas: number; failed: boolean; returnValue: Hex; structLogs: Step[] }

const carol = `0x${'00'.repeat(18)}ca41` as Address

/** Intrinsic gas worked out by hand (Prague): 21000, 16 per non-zero and 4 per zero calldata byte; a creation adds 32000 and 2 per init-code word. */
function intrinsicGas(data: Hex, create: boolean): bigint {
  const bytes = Buffer.from(data.slice(2), 'hex')
  const zeros = BigInt(bytes.filter((byte) => byte === 0).length)
  const base = 21_000n + zeros * 4n + (BigInt(bytes.length) - zeros) * 16n
  return create ? base + 32_000n + 2n * ((BigInt(bytes.length) + 31n) / 32n) : base
}

async function rpc<T>(chain: Chain, method: string, params: unknown[]): Promise<T> {
  return (await chain.request({ method, params })) as T
}

describe('debug tracing', () => {
  describe('against Anvil 1.7.1 (--steps-tracing, --hardfork prague), the same signed transactions on both', function () {
    this.timeout(60_000)
    let anvil: AnvilNode | undefined
    let chain: Chain
    let tracee: Address
    /** Deploy (CREATE in the constructor), nested (CALL with value, STATICCALL, DELEGATECALL, caught revert), boom (revert), spawn (CREATE, CREATE2). */
    let sent: SentTransaction[] = []

    before(async function () {
      anvil = await anvilOrSkip(this, ['--steps-tracing', '--hardfork', 'prague'])
      // Automine on both: each transaction in a block of its own, as Anvil mines them.
      chain = await createChain({ clock: 'manual', mining: 'auto' })
      ;({ tracee, sent } = await sendTraceWorkload(chain, anvil))
      expect((await anvil.request<RpcReceipt>('eth_getTransactionReceipt', [sent[2].hash])).status).to.equal('0x0')
      expect((await receiptOf(chain, sent[2].hash))?.status).to.equal('0x0')
    })

    after(() => anvil?.stop())

    it('callTracer (withLog): every frame as Anvil has it; the top gas is the whole gas limit (geth), Anvil reports it less the intrinsic gas', async () => {
      for (const { hash, data, create } of sent) {
        const options = { tracer: 'callTracer', tracerConfig: { withLog: true } }
        const ours = await rpc<Frame>(chain, 'debug_traceTransaction', [hash, options])
        const theirs = await anvil!.request<Frame>('debug_traceTransaction', [hash, options])
        expect(BigInt(ours.gas) - BigInt(theirs.gas), `top gas of ${hash}`).to.equal(intrinsicGas(data, create))
        expect({ ...ours, gas: theirs.gas }).to.deep.equal(theirs)
      }
    })

    it('the frames hold what the contracts did: CREATE in the constructor, CALL with value and stipend, STATICCALL, DELEGATECALL, caught and uncaught reverts, CREATE2', async () => {
      const [deploy, nested, boom, spawn] = await Promise.all(sent.map(({ hash }) => rpc<Frame>(chain, 'debug_traceTransaction', [hash, { tracer: 'callTracer' }])))
      expect(deploy.type).to.equal('CREATE')
      expect(deploy.calls!.map((frame) => frame.type)).to.deep.equal(['CREATE'])
      const child = deploy.calls![0].to
      expect(child).to.equal(getContractAddress({ from: tracee, nonce: 1n }).toLowerCase())
      expect(nested.calls!.map((frame) => [frame.type, frame.to, frame.value])).to.deep.equal([
        ['CALL', child, '0x7'],
        ['STATICCALL', child, undefined],
        // The delegate runs with the caller's value: Child.peek is not payable, so it reverts.
        ['DELEGATECALL', child, '0x7'],
        ['STATICCALL', child, undefined],
      ])
      expect(nested.calls![2].error).to.equal('execution reverted')
      expect(nested.calls![3]).to.include({ error: 'execution reverted', revertReason: 'child failed' })
      // store(5) returns 10; total = 2·5 + 5 + 0 (the delegatecall failed) = 15.
      expect(nested.calls![0].output).to.equal(toHex(10n, { size: 32 }))
      expect(nested.output).to.equal(toHex(15n, { size: 32 }))
      expect(boom).to.include({ error: 'execution reverted', revertReason: 'boom' })
      expect(boom.calls).to.have.length(1)
      expect(spawn.calls!.map((frame) => [frame.type, frame.from])).to.deep.equal([
        ['CREATE', tracee],
        ['CREATE2', tracee],
      ])
    })

    it('struct logs: the same opcodes with the same pc, depth, gas, stack, storage and return data; geth counts no forwarded gas in CREATE/CREATE2, Anvil does', async () => {
      for (const { hash } of sent) {
        const ours = await rpc<StructLogs>(chain, 'debug_traceTransaction', [hash, { enableReturnData: true }])
        const theirs = await anvil!.request<StructLogs>('debug_traceTransaction', [hash, { enableReturnData: true }])
        expect({ gas: ours.gas, failed: ours.failed, returnValue: ours.returnValue }).to.deep.equal({ gas: theirs.gas, failed: theirs.failed, returnValue: theirs.returnValue })
        expect(ours.structLogs.length).to.equal(theirs.structLogs.length).and.to.be.greaterThan(100)
        ours.structLogs.forEach((step, i) => {
          const anvilStep = theirs.structLogs[i]
          let gasCost = step.gasCost
          if (step.op === 'CREATE' || step.op === 'CREATE2') {
            // Anvil adds what the init code is handed: all but a 64th of the gas left after the opcode's own cost.
            const left = step.gas - step.gasCost
            gasCost += left - Math.floor(left / 64)
          }
          // geth leaves out empty return data and a zero refund; Anvil writes "0x" and 0.
          const normal = { ...step, gasCost, returnData: step.returnData ?? '0x', refund: step.refund ?? 0 }
          expect(normal, `step ${i} of ${hash}`).to.deep.equal(anvilStep)
        })
      }
    })

    it('struct logs with enableMemory: the same 32-byte words (geth leaves out empty memory, Anvil writes [])', async () => {
      const { hash } = sent[1]
      const ours = await rpc<StructLogs>(chain, 'debug_traceTransaction', [hash, { enableMemory: true, disableStack: true, disableStorage: true }])
      const theirs = await anvil!.request<StructLogs>('debug_traceTransaction', [hash, { enableMemory: true, disableStack: true, disableStorage: true }])
      expect(ours.structLogs.map((step) => step.memory ?? [])).to.deep.equal(theirs.structLogs.map((step) => step.memory))
      expect(ours.structLogs.every((step) => step.stack === undefined && step.storage === undefined)).to.equal(true)
    })

    it('debug_traceCall at latest: the same frames and steps as Anvil for a call with explicit gas', async () => {
      const request = { from: signer(chain, 1).address, to: tracee, data: traceeCall('nested', [9n]), gas: toHex(300_000n) }
      const ours = await rpc<Frame>(chain, 'debug_traceCall', [request, 'latest', { tracer: 'callTracer' }])
      const theirs = await anvil!.request<Frame>('debug_traceCall', [request, 'latest', { tracer: 'callTracer' }])
      expect(BigInt(ours.gas) - BigInt(theirs.gas)).to.equal(intrinsicGas(request.data, false))
      expect({ ...ours, gas: theirs.gas }).to.deep.equal(theirs)
      // The state after the four transactions: total was 15, so 15 + 2·9 + 9 + 1 (the delegatecall succeeds without value) = 43.
      expect(ours.output).to.equal(toHex(43n, { size: 32 }))
      const steps = await rpc<StructLogs>(chain, 'debug_traceCall', [request, 'latest'])
      const anvilSteps = await anvil!.request<StructLogs>('debug_traceCall', [request, 'latest'])
      expect(steps.structLogs.map(({ op, pc, depth, gas, gasCost, stack }) => ({ op, pc, depth, gas, gasCost, stack }))).to.deep.equal(
        anvilSteps.structLogs.map(({ op, pc, depth, gas, gasCost, stack }) => ({ op, pc, depth, gas, gasCost, stack })),
      )
    })

    it("hand-written code (SELFDESTRUCT, a call refused for balance, INVALID, an endless loop, a stack underflow): Anvil's frames and steps, with geth's error words", async () => {
      const beneficiary = `0x${'00'.repeat(19)}be`
      // [code, the failing step's error and the frame's as geth words them, the frame's as Anvil words it]
      // (on the failing step Anvil leaks Rust Debug text such as "Some(OutOfGas)"; that field is compared apart).
      const programs: Record<string, [Hex, string | undefined, string | undefined, string | undefined]> = {
        // PUSH20 beneficiary SELFDESTRUCT: a SELFDESTRUCT frame carrying the balance (100 wei).
        selfdestruct: [`0x73${beneficiary.slice(2)}ff`, undefined, undefined, undefined],
        // CALL beneficiary with 1 wei from an account holding none: geth opens and fails the frame at once.
        refused: [`0x6000600060006000600173${beneficiary.slice(2)}5af100`, undefined, undefined, undefined],
        // PUSH1 1, INVALID: geth reports it as a fault, so the step carries no error.
        invalid: ['0x6001fe', undefined, 'invalid opcode: INVALID', 'invalid opcode: INVALID'],
        // JUMPDEST PUSH1 0 JUMP until the gas runs out: the JUMP it cannot pay for carries "out of gas" and costs its 8 (Anvil: 0).
        loop: ['0x5b600056', 'out of gas', 'out of gas', 'out of gas'],
        // ADD on an empty stack (geth adds the counts: "stack underflow (0 <=> 2)").
        underflow: ['0x01', 'stack underflow', 'stack underflow', 'StackUnderflow'],
      }
      const from = signer(chain, 2).address
      for (const [index, [name, [code, stepError, frameError, anvilFrameError]]] of Object.entries(programs).entries()) {
        const address = `0x${'00'.repeat(18)}c0${index.toString(16).padStart(2, '0')}` as Address
        for (const node of [(method: string, params: unknown[]) => rpc(chain, method, params), (method: string, params: unknown[]) => anvil!.request(method, params)]) {
          await node('anvil_setCode', [address, code])
          await node('anvil_setBalance', [address, name === 'selfdestruct' ? '0x64' : '0x0'])
        }
        const request = { from, to: address, gas: toHex(65_536n) }
        const ours = await rpc<Frame>(chain, 'debug_traceCall', [request, 'latest', { tracer: 'callTracer' }])
        const theirs = await anvil!.request<Frame>('debug_traceCall', [request, 'latest', { tracer: 'callTracer' }])
        expect(BigInt(ours.gas) - BigInt(theirs.gas), name).to.equal(21_000n)
        expect(ours.error, name).to.equal(frameError)
        const { error: _error, ...rest } = ours
        expect(anvilFrameError === undefined ? { ...rest, gas: theirs.gas } : { ...rest, gas: theirs.gas, error: anvilFrameError }, name).to.deep.equal(theirs)
        const steps = await rpc<StructLogs>(chain, 'debug_traceCall', [request, 'latest'])
        const anvilSteps = await anvil!.request<StructLogs>('debug_traceCall', [request, 'latest'])
        const last = steps.structLogs.at(-1)!
        expect(last.error, name).to.equal(stepError)
        if (name === 'loop') expect(last).to.include({ gas: 0, gasCost: 8 })
        const normal = ({ error, ...step }: Step) => ({ ...step, refund: step.refund ?? 0, gasCost: error === undefined ? step.gasCost : 0 })
        expect(steps.structLogs.map(normal), name).to.deep.equal(anvilSteps.structLogs.map(normal))
      }
      const selfdestruct = await rpc<Frame>(chain, 'debug_traceCall', [{ from, to: `0x${'00'.repeat(18)}c000`, gas: toHex(65_536n) }, 'latest', { tracer: 'callTracer' }])
      expect(selfdestruct.calls).to.deep.equal([{ from: `0x${'00'.repeat(18)}c000`, gas: '0x0', gasUsed: '0x0', to: beneficiary, input: '0x', value: '0x64', type: 'SELFDESTRUCT' }])
      const refused = await rpc<Frame>(chain, 'debug_traceCall', [{ from, to: `0x${'00'.repeat(18)}c001`, gas: toHex(65_536n) }, 'latest', { tracer: 'callTracer' }])
      expect(refused.calls![0]).to.include({ error: 'insufficient balance for transfer', gasUsed: '0x0', value: '0x1' })
    })

    it('debug_traceBlockByNumber and ByHash: [{ txHash, result }] in block order, results as Anvil has them', async () => {
      const number = (await receiptOf(chain, sent[1].hash))!.blockNumber
      const anvilNumber = (await anvil!.request<RpcReceipt>('eth_getTransactionReceipt', [sent[1].hash])).blockNumber
      const ours = await rpc<{ txHash: Hex; result: Frame }[]>(chain, 'debug_traceBlockByNumber', [number, { tracer: 'callTracer' }])
      const theirs = await anvil!.request<{ txHash: Hex; result: Frame }[]>('debug_traceBlockByNumber', [anvilNumber, { tracer: 'callTracer' }])
      expect(ours.map(({ txHash }) => txHash)).to.deep.equal([sent[1].hash])
      expect(ours.map(({ txHash, result }) => ({ txHash, result: { ...result, gas: '' } }))).to.deep.equal(theirs.map(({ txHash, result }) => ({ txHash, result: { ...result, gas: '' } })))
      const block = await rpc<RpcBlock>(chain, 'eth_getBlockByNumber', [number, false])
      expect(await rpc(chain, 'debug_traceBlockByHash', [block.hash, { tracer: 'callTracer' }])).to.deep.equal(ours)
    })
  })

  describe('the devnet: pre-confirmed transactions, replayed blocks, untouched state, raw encodings, errors', () => {
    let chain: Chain
    let alice: ReturnType<typeof signer>
    let tracee: Address
    let child: Address
    /** nested(1), nested(2), nested(3) pre-confirmed together in block 2, and a plain transfer to carol after them. */
    let hashes: Hex[]
    let transfer: Hex

    before(async () => {
      chain = await createChain({ clock: 'manual' })
      alice = signer(chain, 0)
      tracee = getContractAddress({ from: alice.address, nonce: 0n }).toLowerCase() as Address
      child = getContractAddress({ from: tracee, nonce: 1n }).toLowerCase() as Address
      await chain.sendRawTransaction(await alice.sign({ to: null, data: Tracee.bytecode as Hex, gas: 1_000_000n, nonce: 0 }))
      await chain.clock.advance(2000) // block 1: the deployment
      hashes = []
      for (const [i, input] of [1n, 2n, 3n].entries()) hashes.push(await chain.sendRawTransaction(await alice.sign({ to: tracee, data: traceeCall('nested', [input]), gas: 300_000n, nonce: i + 1 })))
      transfer = await chain.sendRawTransaction(await alice.sign({ to: carol, value: 5n, nonce: 4, gas: 21_000n }))
      await chain.clock.advance(200) // one pre-confirmation holds all four; block 2 is not sealed yet
      expect(chain.blockNumber()).to.equal(1n)
      expect((await receiptOf(chain, hashes[2]))?.blockHash).to.equal(`0x${'0'.repeat(64)}`)
    })

    it('a pre-confirmed transaction is traced on the pending block (replaying the ones before it), and traces the same once sealed', async () => {
      const preconfirmed = await rpc<Frame>(chain, 'debug_traceTransaction', [hashes[1], { tracer: 'callTracer', tracerConfig: { withLog: true } }])
      const steps = await rpc<StructLogs>(chain, 'debug_traceTransaction', [hashes[1]])
      // nested(v) with no value adds 2v + v + 1: after nested(1) total is 4, after nested(2) 4 + 7 = 11.
      expect(preconfirmed.output).to.equal(toHex(11n, { size: 32 }))
      // Its logs come after nested(1)'s two in the block: Stored is log 2, Called log 3, after the 4 sub-calls.
      expect(preconfirmed.calls![0].logs!.map(({ index, position }) => [index, position])).to.deep.equal([['0x2', '0x0']])
      expect(preconfirmed.logs!.map(({ index, position }) => [index, position])).to.deep.equal([['0x3', '0x4']])
      const totalReads = steps.structLogs.filter((step) => step.depth === 1 && step.op === 'SLOAD' && step.stack!.at(-1) === '0x0')
      expect(totalReads[0].storage!['0x0000000000000000000000000000000000000000000000000000000000000000']).to.equal(toHex(4n, { size: 32 }))
      const totalWrite = steps.structLogs.find((step) => step.depth === 1 && step.op === 'SSTORE')!
      expect(totalWrite.stack!.slice(-2)).to.deep.equal(['0xb', '0x0'])

      await chain.clock.advance(1800) // block 2 seals
      expect(chain.blockNumber()).to.equal(2n)
      const sealed = await rpc<Frame>(chain, 'debug_traceTransaction', [hashes[1], { tracer: 'callTracer', tracerConfig: { withLog: true } }])
      expect(sealed).to.deep.equal(preconfirmed)
      expect(await rpc(chain, 'debug_traceTransaction', [hashes[1]])).to.deep.equal(steps)
    })

    it('a block trace replays each transaction on the ones before it: nested(1), nested(2), nested(3) return 4, 11, 21; the plain transfer is one 21000-gas CALL frame', async () => {
      const traces = await rpc<{ txHash: Hex; result: Frame }[]>(chain, 'debug_traceBlockByNumber', ['0x2', { tracer: 'callTracer' }])
      expect(traces.map(({ txHash }) => txHash)).to.deep.equal([...hashes, transfer])
      expect(traces.slice(0, 3).map(({ result }) => BigInt(result.output!))).to.deep.equal([4n, 11n, 21n])
      expect(traces[3].result).to.deep.equal({ from: alice.address.toLowerCase(), gas: '0x5208', gasUsed: '0x5208', to: carol, input: '0x', value: '0x5', type: 'CALL' })
      expect(await rpc(chain, 'debug_traceTransaction', [transfer])).to.deep.equal({ gas: 21000, failed: false, returnValue: '0x', structLogs: [] })
      expect(await rpc(chain, 'debug_traceTransaction', [hashes[2], { tracer: 'callTracer' }])).to.deep.equal(traces[2].result)
    })

    it("debug_traceCall runs at the block asked for: 'pending' sees the pre-confirmed nested(4), 'latest' does not; debug_traceBlockByNumber('pending') traces the pre-confirmed block", async () => {
      const fourth = await chain.sendRawTransaction(await alice.sign({ to: tracee, data: traceeCall('nested', [4n]), gas: 300_000n, nonce: 5 }))
      await chain.clock.advance(200)
      const request = { from: signer(chain, 1).address, to: tracee, data: traceeCall('nested', [10n]) }
      // total is 21 at the head; nested(4) makes it 21 + 13 = 34; nested(10) adds 31.
      expect(BigInt((await rpc<Frame>(chain, 'debug_traceCall', [request, 'latest', { tracer: 'callTracer' }])).output!)).to.equal(52n)
      expect(BigInt((await rpc<Frame>(chain, 'debug_traceCall', [request, 'pending', { tracer: 'callTracer' }])).output!)).to.equal(65n)
      // Without a block, geth's default: latest.
      expect(BigInt((await rpc<Frame>(chain, 'debug_traceCall', [request, null, { tracer: 'callTracer' }])).output!)).to.equal(52n)
      const pending = await rpc<{ txHash: Hex; result: Frame }[]>(chain, 'debug_traceBlockByNumber', ['pending', { tracer: 'callTracer' }])
      expect(pending.map(({ txHash, result }) => [txHash, BigInt(result.output!)])).to.deep.equal([[fourth, 34n]])
    })

    it('tracing changes nothing: state at latest and pending, nonces, balances, the head and the EVM listeners are as before', async () => {
      const snapshot = async () => ({
        head: chain.blockNumber(),
        latestTotal: await chain.getStorageAt(tracee, 0n, 'latest'),
        pendingTotal: await chain.getStorageAt(tracee, 0n, 'pending'),
        nonce: await chain.getTransactionCount(alice.address, 'pending'),
        balance: await chain.getBalance(alice.address, 'pending'),
        childValue: await chain.getStorageAt(child, 0n, 'pending'),
      })
      const before = await snapshot()
      await rpc(chain, 'debug_traceBlockByNumber', ['0x2'])
      await rpc(chain, 'debug_traceBlockByNumber', ['pending', { tracer: 'prestateTracer' }])
      await rpc(chain, 'debug_traceCall', [{ from: alice.address, to: tracee, data: traceeCall('boom', [99n]) }, 'pending'])
      await rejection(rpc(chain, 'debug_traceCall', [{ from: `0x${'00'.repeat(19)}01`, to: tracee, data: traceeCall('nested', [1n]), gasPrice: '0x3b9aca00' }, 'latest']), RPCError)
      expect(await snapshot()).to.deep.equal(before)
    })

    it('prestateTracer: what nested(2) touched, as it was before it ran (after nested(1))', async () => {
      const prestate = await rpc<Record<Hex, { balance: Hex; nonce?: number; code?: Hex; codeHash?: Hex; storage?: Record<Hex, Hex> }>>(chain, 'debug_traceTransaction', [hashes[1], { tracer: 'prestateTracer' }])
      const word = (value: bigint | Hex) => (typeof value === 'bigint' ? toHex(value, { size: 32 }) : (`0x${value.slice(2).padStart(64, '0')}` as Hex))
      expect(Object.keys(prestate)).to.have.members([alice.address.toLowerCase(), tracee, child, chain.options.coinbase])
      expect(prestate[alice.address.toLowerCase() as Hex].nonce).to.equal(2)
      expect(prestate[tracee].storage).to.deep.equal({ [word(0n)]: word(4n), [word(1n)]: word(child) })
      expect(prestate[child].storage).to.deep.equal({ [word(0n)]: word(1n) })
      expect(prestate[child].codeHash).to.equal(keccak256(prestate[child].code!))
      const bare = await rpc<typeof prestate>(chain, 'debug_traceTransaction', [hashes[1], { tracer: 'prestateTracer', tracerConfig: { disableCode: true, disableStorage: true } }])
      expect(bare[tracee].code).to.equal(undefined)
      expect(bare[tracee].storage).to.equal(undefined)
    })

    it('callTracer onlyTopCall leaves out the sub-calls; a call out of gas fails with "out of gas" on its last step (geth)', async () => {
      const top = await rpc<Frame>(chain, 'debug_traceTransaction', [hashes[0], { tracer: 'callTracer', tracerConfig: { onlyTopCall: true, withLog: true } }])
      expect(top.calls).to.equal(undefined)
      expect(top.logs!.map(({ index }) => index)).to.deep.equal(['0x1'])
      const request = { from: alice.address, to: tracee, data: traceeCall('nested', [1n]), gas: toHex(40_000n) }
      const steps = await rpc<StructLogs>(chain, 'debug_traceCall', [request, 'latest'])
      expect(steps).to.include({ failed: true, returnValue: '0x', gas: 40_000 })
      expect(steps.structLogs.at(-1)).to.include({ error: 'out of gas', depth: 1 })
      expect((await rpc<Frame>(chain, 'debug_traceCall', [request, 'latest', { tracer: 'callTracer' }])).error).to.equal('out of gas')
    })

    it('debug_getRaw*: the transaction envelope, the header whose keccak is the block hash, the block as [header, transactions, [], []], typed receipts', async () => {
      const block = await rpc<RpcBlock>(chain, 'eth_getBlockByNumber', ['0x2', false])
      expect(await rpc(chain, 'debug_getRawTransaction', [hashes[0]])).to.equal(await rpc(chain, 'eth_getRawTransactionByHash', [hashes[0]]))
      const header = await rpc<Hex>(chain, 'debug_getRawHeader', ['0x2'])
      expect(keccak256(header)).to.equal(block.hash)
      expect(await rpc(chain, 'debug_getRawHeader', [block.hash])).to.equal(header)
      const raw = await rpc<Hex>(chain, 'debug_getRawBlock', ['0x2'])
      const [headerFields, transactions, ommers, withdrawals] = fromRlp(raw) as [Hex[], Hex[], Hex[], Hex[]]
      expect(headerFields).to.deep.equal(fromRlp(header))
      expect(ommers).to.deep.equal([])
      expect(withdrawals).to.deep.equal([])
      const envelopes = await Promise.all(block.transactions.map((hash) => rpc<Hex>(chain, 'eth_getRawTransactionByHash', [hash])))
      expect(transactions).to.deep.equal(envelopes)
      expect(Number(BigInt(block.size))).to.equal((raw.length - 2) / 2)
      const receipts = await rpc<Hex[]>(chain, 'debug_getRawReceipts', ['0x2'])
      expect(receipts).to.have.length(4)
      for (const [i, encoded] of receipts.entries()) {
        expect(encoded.slice(0, 4)).to.equal('0x02')
        const [status, cumulativeGasUsed, , logs] = fromRlp(`0x${encoded.slice(4)}`) as [Hex, Hex, Hex, unknown[]]
        const receipt = (await receiptOf(chain, block.transactions[i]))!
        expect([status, BigInt(cumulativeGasUsed), logs.length]).to.deep.equal(['0x01', BigInt(receipt.cumulativeGasUsed), receipt.logs.length])
      }
      expect(await rpc(chain, 'debug_getRawBlock', ['0x63'])).to.equal(null)
      expect(await rpc(chain, 'debug_getRawReceipts', [`0x${'ab'.repeat(32)}`])).to.deep.equal([])
      const missing = await rejection(rpc(chain, 'debug_getRawHeader', [`0x${'ab'.repeat(32)}`]), RPCError)
      expect([missing.code, missing.message]).to.deep.equal([-32000, `header 0x${'ab'.repeat(32)} not found`])
    })

    it("geth's errors: -32000 for an unknown or mempool-only transaction, a missing block and genesis", async () => {
      const bob = signer(chain, 1)
      const queued = await chain.sendRawTransaction(await bob.sign({ to: carol, value: 1n, nonce: 7 }))
      const cases: [string, unknown[], string][] = [
        ['debug_traceTransaction', [`0x${'22'.repeat(32)}`], 'transaction not found'],
        ['debug_traceTransaction', [queued], 'transaction not found'],
        ['debug_traceBlockByNumber', ['0x63'], 'block #99 not found'],
        ['debug_traceBlockByHash', [`0x${'ab'.repeat(32)}`], `block 0x${'ab'.repeat(32)} not found`],
        ['debug_traceBlockByNumber', ['0x0'], 'genesis is not traceable'],
      ]
      for (const [method, params, message] of cases) {
        const error = await rejection(rpc(chain, method, params), RPCError)
        expect([error.code, error.message], method).to.deep.equal([-32000, message])
      }
    })

    it("a transaction that reads EIP-2935's history is traced as it ran: the replay opens its block with the system call (geth's stateAtTransaction runs core.PreExecution)", async () => {
      const history = '0x0000f90827f1c53a10cb7a02335b175320002935'
      const head = (await rpc<RpcBlock>(chain, 'eth_getBlockByNumber', ['latest', false]))
      // A transaction of the next block asks the history contract for the head's hash.
      const nonce = Number(await chain.request({ method: 'eth_getTransactionCount', params: [alice.address, 'pending'] }))
      const read = await chain.sendRawTransaction(await alice.sign({ to: history, data: pad(head.number as Hex), gas: 100_000n, nonce }))
      await chain.clock.advance(2000)
      const receipt = await receiptOf(chain, read)
      expect([receipt?.status, receipt?.blockNumber]).to.deep.equal(['0x1', toHex(BigInt(head.number) + 1n)])
      const frame = await rpc<Frame>(chain, 'debug_traceTransaction', [read, { tracer: 'callTracer' }])
      expect(frame.output).to.equal(head.hash)
      const inBlock = await rpc<{ txHash: Hex; result: Frame }[]>(chain, 'debug_traceBlockByNumber', [receipt?.blockNumber, { tracer: 'callTracer' }])
      expect(inBlock.find((trace) => trace.txHash === read)?.result.output).to.equal(head.hash)
    })

    it("debug_traceCall takes geth's stateOverrides and blockOverrides in its config: the call runs, and the prestate reads, on the overridden state and block", async () => {
      const probe = `0x${'00'.repeat(19)}b3` as Address
      const code = '0x4860005260206000f3' // BASEFEE, returned
      const config = { stateOverrides: { [probe]: { code, balance: '0x7' } }, blockOverrides: { baseFeePerGas: '0x999' } }
      const frame = await rpc<Frame>(chain, 'debug_traceCall', [{ from: alice.address, to: probe }, 'latest', { ...config, tracer: 'callTracer' }])
      expect(frame.output).to.equal(`0x${'00'.repeat(30)}0999`)
      const prestate = await rpc<Record<string, { balance?: Hex; code?: Hex }>>(chain, 'debug_traceCall', [{ from: alice.address, to: probe }, 'latest', { ...config, tracer: 'prestateTracer' }])
      expect(prestate[probe]).to.include({ balance: '0x7', code })
      expect(await chain.getCode(probe, 'latest'), 'the chain is untouched').to.equal('0x')
    })

    it('bad options are -32602 naming the argument: an unknown tracer, a non-boolean switch, a non-object config, overrides debug_traceCall does not take', async () => {
      const request = { from: alice.address, to: tracee, data: traceeCall('total') }
      const cases: [string, unknown[], string][] = [
        ['debug_traceTransaction', [hashes[0], { tracer: 'fooTracer' }], 'invalid argument 1 (config).tracer: unsupported tracer "fooTracer"'],
        ['debug_traceTransaction', [hashes[0], { disableStack: 'yes' }], 'invalid argument 1 (config).disableStack: expected a boolean'],
        ['debug_traceTransaction', [hashes[0], [1]], 'invalid argument 1 (config): expected a trace config object'],
        ['debug_traceBlockByNumber', ['0x2', { tracer: 'callTracer', tracerConfig: { onlyTopCall: 1 } }], 'invalid argument 1 (config).tracerConfig.onlyTopCall: expected a boolean'],
        ['debug_traceTransaction', [hashes[0], { tracer: 'prestateTracer', tracerConfig: { diffMode: 'yes' } }], 'invalid argument 1 (config).tracerConfig.diffMode: expected a boolean'],
        ['debug_traceCall', [request, 'latest', { txIndex: '0x0' }], 'invalid argument 2 (config).txIndex: not supported'],
        ['debug_traceCall', [request, 'latest', { stateOverrides: [] }], 'invalid argument 2 (config).stateOverrides'],
        ['debug_traceTransaction', ['0x1234'], 'invalid argument 0 (hash)'],
      ]
      for (const [method, params, message] of cases) {
        const error = await rejection(rpc(chain, method, params), RPCError)
        expect(error.code, message).to.equal(-32602)
        expect(error.message).to.contain(message)
      }
    })
  })

  it('the EVM carries no tracing listeners once a trace ends, whether it succeeded or failed (untraced runs stay on the fast path)', async () => {
    const engine = createEngine(resolveChainOptions({ clock: 'manual' }), new EventEmitter() as ChainEmitter)
    // Traces run on the call lane's EVMs, kept for the next run: the one EVM a lone run uses.
    const idle = (engine.tracing.parts.lane as unknown as { idle: { evm: EVM }[] }).idle
    await engine.calls.call({ to: `0x${'00'.repeat(19)}04` }, { tag: 'latest' })
    const { events } = idle[0].evm
    const structLogger = { tracer: 'structLogger', config: { enableMemory: true, disableStack: false, disableStorage: false, enableReturnData: true } } as const
    const latest = { tag: 'latest' } as const
    const result = await engine.tracing.traceCall({ to: `0x${'00'.repeat(19)}04`, data: Uint8Array.of(1, 2, 3) }, latest, structLogger)
    expect(result.tracer).to.equal('structLogger')
    await rejection(engine.tracing.traceCall({ from: `0x${'00'.repeat(19)}99`, to: `0x${'00'.repeat(19)}04`, gasPrice: 1n }, latest, structLogger), RPCError)
    expect(['step', 'beforeMessage', 'afterMessage'].map((name) => events.listenerCount(name as 'step'))).to.deep.equal([0, 0, 0])
  })
})
