/**
 * Time-boxed runs at the RPC edge, as geth's `--rpc.evmtimeout` (5 s by default) bounds them:
 * `eth_call`, `eth_estimateGas`, `debug_traceCall` and `eth_simulateV1` of an endless loop stop
 * at the configured time with geth's errors; while a long call runs, other requests and the
 * clock go on (the call pauses every slice and lets go of the serializer, reading the state it
 * started on); results of runs that end in time are unchanged; the builder's transactions are
 * never time-boxed.
 */
import { expect } from 'chai'
import type { Hex } from 'viem'
import { createChain, RPCError, startServer, type Chain } from '../../lib/index.ts'
import { goDuration } from '../../lib/execution/call-pacer.ts'
import type { Address } from '../../lib/types.ts'
import { ENDLESS_LOOP } from '../support/endless-loop.ts'
import { receiptOf, rejection } from '../support/chain-helpers.ts'
import { signer } from '../support/wallet.ts'

const LOOP_AT = `0x${'00'.repeat(19)}aa` as Address
const READER_AT = `0x${'00'.repeat(19)}bb` as Address
const BOB = `0x${'00'.repeat(18)}0b0b` as Address

/**
 * Counts 200,000 down (26 gas a turn: JUMPDEST 1, PUSH1 3, SWAP1 3, SUB 3, DUP1 3, PUSH1 3,
 * JUMPI 10), then returns BALANCE(bob): PUSH3 200000, loop, POP, PUSH20 bob, BALANCE, PUSH1 0,
 * MSTORE, PUSH1 32, PUSH1 0, RETURN. Long enough (~1.4M steps) to outlast a slice.
 */
const SLOW_BALANCE_READER = `0x62030d405b600190038060045750` + `73${BOB.slice(2)}` + '31600052' + '60206000f3'

async function installed(options: Parameters<typeof createChain>[0]): Promise<Chain> {
  const chain = await createChain(options)
  await chain.request({ method: 'anvil_setCode', params: [LOOP_AT, ENDLESS_LOOP] })
  await chain.request({ method: 'anvil_setCode', params: [READER_AT, SLOW_BALANCE_READER] })
  await chain.request({ method: 'anvil_setBalance', params: [BOB, '0x3e8'] })
  return chain
}

/** How long `promise` takes to settle (ms), and its error if it rejects. */
async function timed(promise: Promise<unknown>): Promise<{ ms: number; error: RPCError | undefined }> {
  const start = performance.now()
  const error = await promise.then(
    () => undefined,
    (error: RPCError) => error,
  )
  return { ms: performance.now() - start, error }
}

const loopCall = { to: LOOP_AT, gas: '0xffffffffffffffff' }

describe('time-boxed calls (geth --rpc.evmtimeout)', () => {
  it('geth formats the limit in its errors as Go prints a time.Duration', () => {
    expect([0, 200, 999, 1000, 1500, 5000, 90_000, 3_600_000].map(goDuration)).to.deep.equal(['0s', '200ms', '999ms', '1s', '1.5s', '5s', '1m30s', '1h0m0s'])
  })

  it('the option takes milliseconds from 0 (no limit) up; 5000 (geth) by default', async () => {
    expect((await createChain()).options.callTimeoutMs).to.equal(5000)
    const error = await rejection(createChain({ callTimeoutMs: -1 }), TypeError)
    expect(error.message).to.equal('invalid option callTimeoutMs: expected an integer from 0, got -1')
  })

  it("eth_call of an endless loop stops at the limit with geth's -32000 `execution aborted (timeout = 200ms)`", async () => {
    const chain = await installed({ callTimeoutMs: 200 })
    const { ms, error } = await timed(chain.request({ method: 'eth_call', params: [loopCall, 'latest'] }))
    expect(error).to.be.instanceOf(RPCError)
    expect(error!.code).to.equal(-32000)
    expect(error!.message).to.equal('execution aborted (timeout = 200ms)')
    // Run to its 50M-gas cap, the loop takes well over a second.
    expect(ms).to.be.within(195, 600)
  })

  it('eth_estimateGas, debug_traceCall and eth_simulateV1 of an endless loop stop at the limit too (geth: the tracers say `execution timeout`)', async () => {
    const chain = await installed({ callTimeoutMs: 200 })
    const estimate = await timed(chain.request({ method: 'eth_estimateGas', params: [{ to: LOOP_AT }] }))
    expect([estimate.error?.code, estimate.error?.message]).to.deep.equal([-32000, 'execution aborted (timeout = 200ms)'])
    expect(estimate.ms).to.be.within(195, 600)
    const trace = await timed(chain.request({ method: 'debug_traceCall', params: [{ to: LOOP_AT }, 'latest', { tracer: 'callTracer' }] }))
    expect([trace.error?.code, trace.error?.message]).to.deep.equal([-32000, 'execution timeout'])
    expect(trace.ms).to.be.within(195, 600)
    const simulation = await timed(chain.request({ method: 'eth_simulateV1', params: [{ blockStateCalls: [{ calls: [{ to: LOOP_AT }] }] }, 'latest'] }))
    expect([simulation.error?.code, simulation.error?.message]).to.deep.equal([-32000, 'execution aborted (timeout = 200ms)'])
  })

  it("a trace config's `timeout` (a Go duration, geth's TraceConfig.Timeout) replaces the limit for that trace, longer or shorter", async () => {
    const chain = await installed({ callTimeoutMs: 150 })
    const traceLoop = (timeout: unknown) => timed(chain.request({ method: 'debug_traceCall', params: [{ to: LOOP_AT }, 'latest', { tracer: 'callTracer', timeout }] }))
    const longer = await traceLoop('450ms')
    expect([longer.error?.code, longer.error?.message]).to.deep.equal([-32000, 'execution timeout'])
    expect(longer.ms).to.be.within(445, 900)
    const shorter = await timed(chain.request({ method: 'debug_traceCall', params: [{ to: LOOP_AT }, 'latest', { timeout: '50ms' }] }))
    expect([shorter.error?.code, shorter.error?.message]).to.deep.equal([-32000, 'execution timeout'])
    expect(shorter.ms).to.be.within(45, 140)
    // geth's deadline of 0 or less has passed before the trace starts.
    const over = await traceLoop('0s')
    expect([over.error?.code, over.error?.message]).to.deep.equal([-32000, 'execution timeout'])
    expect(over.ms).to.be.below(50)
    // A trace that ends in time is unchanged by its timeout.
    const reader = await chain.request({ method: 'debug_traceCall', params: [{ to: READER_AT }, 'latest', { tracer: 'callTracer', timeout: '1m' }] })
    expect((reader as { output: string }).output).to.equal(`0x${'3e8'.padStart(64, '0')}`)
  })

  it("a trace config's `timeout` that is not a Go duration is refused as geth refuses it", async () => {
    const chain = await installed({ callTimeoutMs: 150 })
    const invalid = await rejection(chain.request({ method: 'debug_traceCall', params: [{ to: READER_AT }, 'latest', { timeout: '10' }] }), RPCError)
    expect([invalid.code, invalid.message]).to.deep.equal([-32000, 'time: missing unit in duration "10"'])
    const notText = await rejection(chain.request({ method: 'debug_traceCall', params: [{ to: READER_AT }, 'latest', { timeout: 10 }] }), RPCError)
    expect(notText.code).to.equal(-32602)
  })

  it('0 lifts the limit: the loop runs to the end of its gas, as before (geth: -32000 `out of gas`)', async () => {
    const chain = await installed({ callTimeoutMs: 0 })
    const error = await rejection(chain.request({ method: 'eth_call', params: [{ to: LOOP_AT, gas: '0x2dc6c0' }, 'latest'] }), RPCError)
    expect([error.code, error.message]).to.deep.equal([-32000, 'out of gas'])
  })

  it('while a loop call runs for its 1 s, another client reads over HTTP in a fraction of it (the call lets go every 10 ms slice; 250 ms leaves room for a busy machine)', async () => {
    const chain = await installed({ callTimeoutMs: 1000 })
    const server = await startServer(chain, { port: 0 })
    const post = (body: unknown) =>
      fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((response) => response.json() as Promise<Record<string, unknown>>)
    try {
      let looping = true
      const loop = post({ jsonrpc: '2.0', id: 1, method: 'eth_call', params: [loopCall, 'latest'] }).finally(() => (looping = false))
      await new Promise((resolve) => setTimeout(resolve, 50))
      const latencies: number[] = []
      for (const method of ['eth_chainId', 'eth_getBalance', 'eth_blockNumber']) {
        const start = performance.now()
        const answer = await post({ jsonrpc: '2.0', id: 2, method, params: method === 'eth_getBalance' ? [BOB, 'pending'] : [] })
        latencies.push(performance.now() - start)
        expect(answer.result).to.be.a('string')
      }
      expect(looping, 'the loop call was still running').to.equal(true)
      expect(Math.max(...latencies)).to.be.below(250)
      expect((await loop).error).to.deep.equal({ code: -32000, message: 'execution aborted (timeout = 1s)' })
    } finally {
      await server.close()
    }
  })

  it('the manual clock ticks and seals while a long call runs, and the call answers from the state it started on', async () => {
    const chain = await installed({})
    const alice = signer(chain, 0)
    await chain.sendRawTransaction(await alice.sign({ to: BOB, value: 5n }))
    let settled = false
    const call = chain.request({ method: 'eth_call', params: [{ to: READER_AT }, 'pending'] }).finally(() => (settled = true))
    // The tick pre-confirms the transfer and the seal makes block 1, both while the call still runs.
    await chain.clock.advance(2000)
    expect(settled, 'the call was still running').to.equal(false)
    expect(chain.blockNumber()).to.equal(1n)
    expect(await chain.getBalance(BOB, 'latest')).to.equal(1005n)
    expect(BigInt((await call) as Hex)).to.equal(1000n)
    expect(BigInt((await chain.request({ method: 'eth_call', params: [{ to: READER_AT }, 'pending'] })) as Hex)).to.equal(1005n)
  })

  it('a run that outlasts slices has the result of an untimed one: eth_call and eth_estimateGas (geth: 5,266,248 gas, worked by hand)', async () => {
    const chain = await installed({ callTimeoutMs: 5000 })
    expect(BigInt((await chain.request({ method: 'eth_call', params: [{ to: READER_AT }, 'latest'] })) as Hex)).to.equal(1000n)
    // Used: 21000 + PUSH3 3 + 200000 turns x 26 + 2620 after the loop (POP 2, PUSH20 3, cold BALANCE
    // 2600, PUSH1 3, MSTORE 6, PUSH1 3, PUSH1 3) = 5,223,623. geth's search: the optimistic
    // (5,223,623 + 2300) x 64/63 = 5,308,874 succeeds, 1.6% above; the midpoint with 5,223,622
    // is 5,266,248, within 1.5%.
    expect(await chain.request({ method: 'eth_estimateGas', params: [{ to: READER_AT }] })).to.equal(`0x${(5_266_248).toString(16)}`)
  })

  it("a block trace gives each transaction the whole time box, as geth's traceTx does: loop transactions that together outlast it trace, one that alone outlasts it fails the block with `execution timeout`", async () => {
    const chain = await installed({ clock: 'manual' })
    const gas = 1_500_000n
    const loops = await Promise.all([0, 1, 2, 3, 4, 5].map((from) => signer(chain, from).sign({ to: LOOP_AT, gas })))
    for (const raw of loops) await chain.sendRawTransaction(raw)
    const block = (await chain.mine()).header.number
    const hashes = (await chain.request({ method: 'eth_getBlockByNumber', params: [`0x${block.toString(16)}`, false] })) as { transactions: Hex[] }
    expect(hashes.transactions).to.have.length(6)
    const trace = (params: unknown[], method = 'debug_traceTransaction') => chain.request({ method, params })
    const traceBlock = (timeout: string) => timed(trace([`0x${block.toString(16)}`, { tracer: 'callTracer', timeout }], 'debug_traceBlockByNumber'))
    // The six traced untimed, the best of two; a time box of half that leaves each transaction
    // (~1/6 of it: a third of the box) and the whole (two boxes) room both ways on a busy machine.
    const untimed = Math.min((await traceBlock('60s')).ms, (await traceBlock('60s')).ms)
    const timeout = `${Math.ceil(untimed / 2)}ms`
    const blockTrace = await traceBlock(timeout)
    expect(blockTrace.error, `6 transactions, ${untimed.toFixed(0)} ms in all, under a ${timeout} timeout each`).to.equal(undefined)
    expect(blockTrace.ms).to.be.above(untimed / 2)
    // The last one's predecessors are replayed before its own time box starts.
    expect((await timed(trace([hashes.transactions[5], { tracer: 'callTracer', timeout }]))).error).to.equal(undefined)

    await chain.sendRawTransaction(await signer(chain, 6).sign({ to: LOOP_AT, gas: 8n * gas }))
    const long = (await chain.mine()).header.number
    const { error } = await timed(trace([`0x${long.toString(16)}`, { tracer: 'callTracer', timeout }], 'debug_traceBlockByNumber')) // ~8/6 of the six
    expect(error?.message).to.equal('execution timeout')
  })

  it('a transaction the builder runs is never time-boxed: the loop runs to out of gas in the block, while a call of it with the same gas stops at the limit', async () => {
    const chain = await installed({ callTimeoutMs: 50 })
    const hash = await chain.sendRawTransaction(await signer(chain, 0).sign({ to: LOOP_AT, gas: 5_000_000n }))
    await chain.clock.advance(2000)
    const receipt = await receiptOf(chain, hash)
    expect([receipt?.status, receipt?.gasUsed]).to.deep.equal(['0x0', `0x${(5_000_000).toString(16)}`])
    const error = await rejection(chain.request({ method: 'eth_call', params: [{ to: LOOP_AT, gas: `0x${(5_000_000).toString(16)}` }, 'latest'] }), RPCError)
    expect(error.message).to.equal('execution aborted (timeout = 50ms)')
  })
})
