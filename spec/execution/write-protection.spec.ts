/**
 * The writes geth's gas functions refuse (core/vm gas_table.go, operations_acl.go, 1.17), as a
 * struct log and a callTracer show them: in a static frame, on the gas charge at the fixed cost
 * with `out of gas: write protection`, after the stack's and the memory size's checks; LOG and
 * TSTORE in their instructions; SSTORE at EIP-2200's sentry. Anvil 1.7.1 names these
 * `StateChangeDuringStaticCall`.
 */
import { expect } from 'chai'
import type { Hex } from 'viem'
import { createChain, type Chain } from '../../lib/index.ts'
import type { Address } from '../../lib/types.ts'

type Step = { op: string; gasCost: number; error?: string }
type StructLogs = { structLogs: Step[] }

const CONTRACT = '0x000000000000000000000000000000000000c0de' as Address
const rpc = <T>(chain: Chain, method: string, ...params: unknown[]) => chain.request({ method, params }) as Promise<T>

describe('write protection: the writes geth refuses on their gas charge', () => {
  let chain: Chain
  beforeEach(async () => {
    chain = await createChain({ clock: 'manual' })
  })
  afterEach(() => chain.close())

  it("a write in a static frame that geth's gas functions refuse (SSTORE, CREATE, CREATE2, SELFDESTRUCT, CALL with value) fails on its gas charge: `out of gas: write protection` at the fixed cost on the step and the frame; LOG and TSTORE refuse in their instructions: `write protection`, no step error (geth 1.17 gas_table.go, operations_acl.go; Anvil: `StateChangeDuringStaticCall`)", async () => {
    const WRITER = '0x00000000000000000000000000000000000000b0'
    // PUSH1 0 ×4, PUSH20 WRITER, GAS, STATICCALL, STOP
    await rpc(chain, 'anvil_setCode', CONTRACT, `0x6000600060006000${'73' + WRITER.slice(2)}5afa00`)
    const cases: [Hex, string, number, string, boolean][] = [
      ['0x6001600055', 'SSTORE', 0, 'out of gas: write protection', true],
      ['0x600060006000f0', 'CREATE', 32_000, 'out of gas: write protection', true],
      ['0x6000600060006000f5', 'CREATE2', 32_000, 'out of gas: write protection', true],
      ['0x6000ff', 'SELFDESTRUCT', 5_000, 'out of gas: write protection', true],
      [`0x6000600060006000600173${'00'.repeat(18)}dead5af1`, 'CALL', 100, 'out of gas: write protection', true], // CALL moving 1 wei
      ['0x60006000a0', 'LOG0', 375, 'write protection', false],
      ['0x600160005d', 'TSTORE', 100, 'write protection', false],
    ]
    for (const [code, op, gasCost, error, onStep] of cases) {
      await rpc(chain, 'anvil_setCode', WRITER, code)
      const call = { to: CONTRACT, gas: '0x100000' }
      const { structLogs } = await rpc<StructLogs>(chain, 'debug_traceCall', call, 'latest', {})
      const last = structLogs.filter((step) => step.op === op).at(-1)
      expect(last, op).to.deep.include({ gasCost, ...(onStep ? { error } : {}) })
      if (!onStep) expect(last, op).to.not.have.property('error')
      const frames = await rpc<{ calls: { error?: string }[] }>(chain, 'debug_traceCall', call, 'latest', { tracer: 'callTracer' })
      expect(frames.calls[0].error, op).to.equal(error)
    }
    // A CALL without value is no write.
    await rpc(chain, 'anvil_setCode', WRITER, `0x6000600060006000600073${'00'.repeat(18)}dead5af1`)
    expect((await rpc<{ calls: { error?: string }[] }>(chain, 'debug_traceCall', { to: CONTRACT, gas: '0x100000' }, 'latest', { tracer: 'callTracer' })).calls[0].error).to.equal(undefined)
    // geth checks the stack, then the memory's size, before the gas function (review O): a short
    // stack is a stack underflow, memory that does not round to words `gas uint64 overflow`.
    const earlier: [Hex, string, string][] = [
      ['0x600160016001f100', 'CALL', 'stack underflow'], // three operands of seven, moving value
      ['0x600155', 'SSTORE', 'stack underflow'],
      ['0x67ffffffffffffffff60006000f000', 'CREATE', 'gas uint64 overflow'], // CREATE(0, 0, 2^64 - 1)
    ]
    for (const [code, op, error] of earlier) {
      await rpc(chain, 'anvil_setCode', WRITER, code)
      const { structLogs } = await rpc<StructLogs>(chain, 'debug_traceCall', { to: CONTRACT, gas: '0x100000' }, 'latest', {})
      expect(structLogs.filter((step) => step.op === op).at(-1), op).to.deep.include({ error })
    }
  })
})
