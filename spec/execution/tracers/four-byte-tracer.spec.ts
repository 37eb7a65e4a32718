/**
 * geth's 4byteTracer and noopTracer through debug_traceCall and debug_traceTransaction
 * (eth/tracers/native/4byte.go, noop.go): selector-and-size counts over the run's calls, the
 * transaction's own included, without creations, precompiles or inputs under 4 bytes. Anvil
 * 1.7.1 also counts a call to a precompile (`0x12345678-4` below), and refuses 4byteTracer in
 * debug_traceCall.
 */
import { expect } from 'chai'
import type { Hex } from 'viem'
import { createChain, type Chain } from '../../../lib/index.ts'
import { signer } from '../../support/wallet.ts'

const CALLER = '0x00000000000000000000000000000000000000c0'
const CALLEE = '0x00000000000000000000000000000000000000b0'
/** CALL(gas, to, 0, 28, 36, 0, 0) after MSTORE(0, 0x12345678): selector 0x12345678 with 32 bytes of arguments. */
const callCallee = `600060006024601c600073${CALLEE.slice(2)}5af150`
/** STATICCALL of the SHA-256 precompile with the selector and 4 more bytes. */
const callPrecompile = '600060006008601c60025afa50'
const CODE = `0x6312345678600052${callCallee}${callCallee}${callPrecompile}00` as Hex
const TRANSFER_INPUT = `0xa9059cbb${'00'.repeat(64)}` as Hex

const rpc = (chain: Chain, method: string, ...params: unknown[]) => chain.request({ method, params })

describe('tracers: 4byteTracer and noopTracer (geth)', () => {
  it('4byteTracer counts each selector and argument size the calls carried, in key order; a precompile, a creation or a short input is not counted', async () => {
    const chain = await createChain({ clock: 'manual' })
    await rpc(chain, 'anvil_setCode', CALLER, CODE)
    const call = { to: CALLER, data: TRANSFER_INPUT, gas: '0x100000' }
    const counted = await rpc(chain, 'debug_traceCall', call, 'latest', { tracer: '4byteTracer' })
    expect(counted).to.deep.equal({ '0x12345678-32': 2, '0xa9059cbb-64': 1 })
    expect(Object.keys(counted as object)).to.deep.equal(['0x12345678-32', '0xa9059cbb-64'])
    expect(await rpc(chain, 'debug_traceCall', { ...call, data: '0xaa' }, 'latest', { tracer: '4byteTracer' })).to.deep.equal({ '0x12345678-32': 2 })
    expect(await rpc(chain, 'debug_traceCall', { data: `0x${'60'.repeat(8)}00`, gas: '0x100000' }, 'latest', { tracer: '4byteTracer' })).to.deep.equal({})

    const raw = await signer(chain, 0).sign({ to: CALLER, data: TRANSFER_INPUT, gas: 1_000_000n })
    const hash = await chain.sendRawTransaction(raw)
    await chain.mine()
    expect(await rpc(chain, 'debug_traceTransaction', hash, { tracer: '4byteTracer' })).to.deep.equal({ '0x12345678-32': 2, '0xa9059cbb-64': 1 })
    const [block] = (await rpc(chain, 'debug_traceBlockByNumber', '0x1', { tracer: '4byteTracer' })) as { result: unknown }[]
    expect(block.result).to.deep.equal({ '0x12345678-32': 2, '0xa9059cbb-64': 1 })
  })

  it('noopTracer answers {}', async () => {
    const chain = await createChain({ clock: 'manual' })
    await rpc(chain, 'anvil_setCode', CALLER, CODE)
    expect(await rpc(chain, 'debug_traceCall', { to: CALLER, data: TRANSFER_INPUT }, 'latest', { tracer: 'noopTracer' })).to.deep.equal({})
  })
})
