/**
 * Where a step's record depends on when geth's interpreter calls its tracing hook
 * (core/vm/interpreter.go): an opcode that runs out of gas on its gas charge reaches OnOpcode
 * with the error, and the prestateTracer records nothing of it (native/prestate.go returns on
 * `err != nil`); the refund counter is logged before the opcode runs (StateDB.GetRefund in
 * logger.go's OnOpcode); a creation that runs out of gas storing its code fails after its last
 * step, which carries no error; and diffMode's `code` is omitempty. Each case was found by a
 * differential run against Anvil 1.7.1, which answers as geth here (its values are quoted).
 */
import { expect } from 'chai'
import { keccak256, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { createChain, type Chain } from '../../../lib/index.ts'
import type { Address } from '../../../lib/types.ts'
import { signer } from '../../support/wallet.ts'

type Step = { pc: number; op: string; gas: number; gasCost: number; error?: string; storage?: Record<Hex, Hex>; refund?: number }
type StructLogs = { gas: number; failed: boolean; structLogs: Step[] }
type Account = { balance?: Hex; nonce?: number; code?: Hex; codeHash?: Hex; storage?: Record<Hex, Hex> }

const CONTRACT = '0x000000000000000000000000000000000000c0de' as Address
const FEES = { maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 1n }
const rpc = <T>(chain: Chain, method: string, ...params: unknown[]) => chain.request({ method, params }) as Promise<T>

/** A sealed transaction from dev account 0 to `to` (a creation without it), with `gas`. */
async function sealed(chain: Chain, fields: { to?: Address; data?: Hex; gas: bigint }): Promise<Hex> {
  const nonce = Number(await rpc<Hex>(chain, 'eth_getTransactionCount', chain.accounts[0].address, 'pending'))
  const hash = await chain.sendRawTransaction(await signer(chain, 0).sign({ ...fields, ...FEES, nonce }))
  await chain.mine()
  return hash
}

describe('tracing hooks: what a step records, by when geth calls its hook', () => {
  let chain: Chain
  beforeEach(async () => {
    chain = await createChain({ clock: 'manual' })
  })
  afterEach(() => chain.close())

  it('an SSTORE out of gas on the EIP-2200 sentry: the prestateTracer lists the contract without the slot; the struct log still records the write (geth; Anvil lists no slot either)', async () => {
    await rpc(chain, 'anvil_setCode', CONTRACT, '0x600160005500') // PUSH1 1 PUSH1 0 SSTORE STOP
    const hash = await sealed(chain, { to: CONTRACT, gas: 23_000n }) // 2000 gas for the code: 1994 at the SSTORE, at most the 2300 sentry
    const prestate = await rpc<Record<Address, Account>>(chain, 'debug_traceTransaction', hash, { tracer: 'prestateTracer' })
    expect(prestate[CONTRACT]).to.deep.equal({ balance: '0x0', code: '0x600160005500', codeHash: keccak256('0x600160005500') })
    const call = { from: chain.accounts[0].address, to: CONTRACT, gas: '0x59d8' }
    const traced = await rpc<Record<Address, Account>>(chain, 'debug_traceCall', call, 'latest', { tracer: 'prestateTracer' })
    expect(traced[CONTRACT].storage).to.equal(undefined)
    const { structLogs } = await rpc<StructLogs>(chain, 'debug_traceTransaction', hash, {})
    // geth 1.17's text: its gas function's error, wrapped in ErrOutOfGas (Anvil: `out of gas`).
    expect(structLogs.at(-1)).to.deep.include({ op: 'SSTORE', gas: 1994, error: 'out of gas: not enough gas for reentrancy sentry', storage: { [`0x${'00'.repeat(32)}`]: `0x${'00'.repeat(31)}01` } })
  })

  it('a slot read before the failing SSTORE stays listed: only what the failed step touched first is taken back', async () => {
    // SLOAD slot 0, then SSTORE to it with too little gas left.
    await rpc(chain, 'anvil_setCode', CONTRACT, '0x5f5450600160005500') // PUSH0 SLOAD POP PUSH1 1 PUSH1 0 SSTORE STOP
    const hash = await sealed(chain, { to: CONTRACT, gas: 21_000n + 2_114n })
    const prestate = await rpc<Record<Address, Account>>(chain, 'debug_traceTransaction', hash, { tracer: 'prestateTracer' })
    expect(prestate[CONTRACT].storage).to.deep.equal({ [`0x${'00'.repeat(32)}`]: `0x${'00'.repeat(32)}` })
    expect((await rpc<StructLogs>(chain, 'debug_traceTransaction', hash, {})).structLogs.at(-1)).to.deep.include({ op: 'SSTORE', error: 'out of gas: not enough gas for reentrancy sentry' })
  })

  it("a BALANCE out of gas on its cold access: the prestateTracer leaves out the account it named (geth)", async () => {
    const named = '0x00000000000000000000000000000000000b0b0b'
    await rpc(chain, 'anvil_setBalance', named, '0x1')
    await rpc(chain, 'anvil_setCode', CONTRACT, `0x73${named.slice(2)}3100`) // PUSH20 named BALANCE STOP
    const hash = await sealed(chain, { to: CONTRACT, gas: 21_000n + 1_000n }) // 2600 for a cold account
    const prestate = await rpc<Record<Address, Account>>(chain, 'debug_traceTransaction', hash, { tracer: 'prestateTracer' })
    expect(Object.keys(prestate)).to.not.include(named)
    const enough = await sealed(chain, { to: CONTRACT, gas: 21_000n + 3_000n })
    expect(Object.keys(await rpc<Record<Address, Account>>(chain, 'debug_traceTransaction', enough, { tracer: 'prestateTracer' }))).to.include(named)
  })

  it("struct logs: an SSTORE's refund is the counter before it runs (Anvil: 0 then 4800 on the two SSTOREs, where the EVM reports 4800 and 2800)", async () => {
    await rpc(chain, 'anvil_setCode', CONTRACT, '0x5f5f5560015f5500') // slot 0: 1 -> 0 (refund 4800), then 0 -> 1 (refund back to 2800)
    await rpc(chain, 'anvil_setStorageAt', CONTRACT, '0x0', `0x${'00'.repeat(31)}01`)
    await chain.mine()
    const hash = await sealed(chain, { to: CONTRACT, gas: 100_000n })
    const { structLogs } = await rpc<StructLogs>(chain, 'debug_traceTransaction', hash, { disableStack: true, disableStorage: true })
    expect(structLogs.map(({ op, refund }) => [op, refund ?? 0])).to.deep.equal([
      ['PUSH0', 0],
      ['PUSH0', 0],
      ['SSTORE', 0],
      ['PUSH1', 4800],
      ['PUSH0', 4800],
      ['SSTORE', 4800],
      ['STOP', 2800],
    ])
  })

  it('struct logs: a refund taken back with a failed call is not the counter before the next SSTORE', async () => {
    // The callee clears slot 0 (refund 4800) and reverts; the caller then clears its own slot 0.
    const callee = '0x000000000000000000000000000000000000ca11'
    await rpc(chain, 'anvil_setCode', callee, '0x5f5f555f5ffd') // PUSH0 PUSH0 SSTORE PUSH0 PUSH0 REVERT
    await rpc(chain, 'anvil_setStorageAt', callee, '0x0', `0x${'00'.repeat(31)}01`)
    await rpc(chain, 'anvil_setStorageAt', CONTRACT, '0x0', `0x${'00'.repeat(31)}01`)
    // PUSH0 x4, PUSH0 (value), PUSH20 callee, GAS, CALL, PUSH0, PUSH0, SSTORE, STOP
    await rpc(chain, 'anvil_setCode', CONTRACT, `0x5f5f5f5f5f73${callee.slice(2)}5af15f5f5500`)
    await chain.mine()
    const hash = await sealed(chain, { to: CONTRACT, gas: 200_000n })
    const { structLogs } = await rpc<StructLogs>(chain, 'debug_traceTransaction', hash, { disableStack: true, disableStorage: true })
    const stores = structLogs.filter(({ op }) => op === 'SSTORE').map(({ refund }) => refund ?? 0)
    expect(stores).to.deep.equal([0, 0])
    expect(structLogs.at(-1)).to.deep.include({ op: 'STOP', refund: 4800 })
  })

  it('struct logs: a creation out of gas storing its code carries no error on its RETURN step (Anvil: none); the trace still fails', async () => {
    // Init code returns 100 bytes: the deposit needs 20000 gas, about 6900 are left.
    const hash = await sealed(chain, { data: '0x60646000f3', gas: 60_000n })
    const trace = await rpc<StructLogs>(chain, 'debug_traceTransaction', hash, {})
    expect(trace.failed).to.equal(true)
    expect(trace.structLogs.at(-1)).to.deep.equal({ pc: 4, op: 'RETURN', gas: 6924, gasCost: 12, depth: 1, stack: ['0x64', '0x0'] })
    const frame = await rpc<{ error?: string }>(chain, 'debug_traceTransaction', hash, { tracer: 'callTracer' })
    expect(frame.error).to.equal('out of gas')
  })

  it('struct logs: a RETURN out of gas on its own memory cost keeps its error', async () => {
    const hash = await sealed(chain, { data: '0x61ffff6000f3', gas: 60_000n }) // RETURN of 65535 bytes: far more memory than the gas left buys
    expect((await rpc<StructLogs>(chain, 'debug_traceTransaction', hash, {})).structLogs.at(-1)).to.deep.include({ op: 'RETURN', error: 'out of gas' })
  })

  it('a REVERT of memory past 2^32 bytes (out of gas) is traced by every tracer, not an internal error (audit M: the library read its revert data before the gas check)', async () => {
    await rpc(chain, 'anvil_setCode', CONTRACT, '0x6001640100000000fd') // PUSH1 1 PUSH5 2^32 REVERT
    const hash = await sealed(chain, { to: CONTRACT, gas: 100_000n })
    const { structLogs, failed } = await rpc<StructLogs>(chain, 'debug_traceTransaction', hash, {})
    expect(failed).to.equal(true)
    expect(structLogs.at(-1)).to.deep.include({ op: 'REVERT', error: 'out of gas' })
    for (const tracer of ['callTracer', 'prestateTracer']) expect(await rpc(chain, 'debug_traceTransaction', hash, { tracer }), tracer).to.be.an('object')
    expect(await rpc(chain, 'trace_transaction', hash)).to.have.length(1)
    expect(await rpc(chain, 'debug_traceCall', { to: CONTRACT, gas: '0x186a0' }, 'latest', { tracer: 'callTracer' })).to.deep.include({ error: 'out of gas' })
  })

  it("struct logs: an opcode whose memory geth cannot price fails at its fixed cost with geth's text: a size that does not round to words in a uint64 before the gas (`gas uint64 overflow`), past 0x1FFFFFFFE0 bytes on the gas charge (`out of gas: gas uint64 overflow`); below that, the whole cost (geth's cost += dynamicCost)", async () => {
    const OVERFLOW = 'gas uint64 overflow'
    const PAST_BOUND = 'out of gas: gas uint64 overflow'
    const cases: [Hex, string, number | undefined, string][] = [
      ['0x6801000000000000000051', 'MLOAD', 3, OVERFLOW], // MLOAD(2^64)
      ['0x67ffffffffffffffff60002000', 'KECCAK256', 30, OVERFLOW], // KECCAK256(0, 2^64 - 1)
      ['0x67ffffffffffffffe060002000', 'KECCAK256', 30, PAST_BOUND], // KECCAK256(0, 2^64 - 32): rounds, not priced
      ['0x65010000000000515000', 'MLOAD', 3, PAST_BOUND], // MLOAD(2^40)
      ['0x640100000000515000', 'MLOAD', 3 + 35_184_775_266_307, 'out of gas'], // MLOAD(2^32): 2^27 + 1 words, 3 each plus the square / 512
      ['0x6801000000000000000060006000f000', 'CREATE', 32_000, OVERFLOW], // CREATE(0, 0, 2^64): the library prices a creation's memory itself
      // CALL with input past the bound (2^40 bytes at 0) and a byte of output at 2^64: the overflow first, as geth's memorySize;
      // its fixed cost is the warm access (EIP-2929), 100, not the callee's gas.
      ['0x600168010000000000000000650100000000006000600060006000f100', 'CALL', 100, OVERFLOW],
      // EXTCODECOPY of a byte to 2^64: its fixed cost is the warm access too (review O).
      ['0x600160006801000000000000000060003c00', 'EXTCODECOPY', 100, OVERFLOW], // EXTCODECOPY(0, 2^64, 0, 1)
    ]
    for (const [code, op, gasCost, error] of cases) {
      await rpc(chain, 'anvil_setCode', CONTRACT, code)
      const call = { to: CONTRACT, gas: '0x186a0' }
      const { structLogs } = await rpc<StructLogs>(chain, 'debug_traceCall', call, 'latest', {})
      expect(structLogs.at(-1), code).to.deep.include(gasCost === undefined ? { op, error } : { op, gasCost, error })
      const refused = await chain.request({ method: 'eth_call', params: [call, 'latest'] }).catch((failure: { code: number; message: string }) => failure)
      expect(refused, code).to.deep.include({ code: -32000, message: error })
    }
  })

  it("struct logs: code that runs off its end shows geth's STOP step there (geth reads STOP past the code; Anvil logs it too), and an explicit STOP only once (audit M, D3)", async () => {
    const cases: [Hex, string[]][] = [
      ['0x6001600101', ['0:PUSH1', '2:PUSH1', '4:ADD', '5:STOP']],
      ['0x7f010203', ['0:PUSH32', '33:STOP']], // a PUSH32 cut short
      ['0x6003565b', ['0:PUSH1', '2:JUMP', '3:JUMPDEST', '4:STOP']],
      ['0x600160010100', ['0:PUSH1', '2:PUSH1', '4:ADD', '5:STOP']],
      ['0x60006000f3', ['0:PUSH1', '2:PUSH1', '4:RETURN']],
    ]
    for (const [code, steps] of cases) {
      await rpc(chain, 'anvil_setCode', CONTRACT, code)
      const { structLogs } = await rpc<StructLogs>(chain, 'debug_traceCall', { to: CONTRACT, gas: '0x186a0' }, 'latest', {})
      expect(structLogs.map(({ pc, op }) => `${pc}:${op}`), code).to.deep.equal(steps)
      expect(structLogs.at(-1), code).to.deep.include({ depth: 1 })
    }
    await rpc(chain, 'anvil_setCode', CONTRACT, '0x6001600101')
    const { structLogs } = await rpc<StructLogs>(chain, 'debug_traceCall', { to: CONTRACT, gas: '0x186a0' }, 'latest', {})
    expect(structLogs.at(-1)).to.deep.equal({ pc: 5, op: 'STOP', gas: 78991, gasCost: 0, depth: 1, stack: ['0x2'] })
  })

  it("RETURNDATACOPY past the return data fails once its gas is paid, as geth's opReturnDataCopy: the step's whole cost and no step error, `return data out of bounds` for the frame and eth_call", async () => {
    await rpc(chain, 'anvil_setCode', CONTRACT, '0x6020600160003e00') // RETURNDATACOPY(0, 1, 32) with no return data
    const call = { to: CONTRACT, gas: '0x186a0' }
    const { structLogs, failed, gas } = await rpc<StructLogs>(chain, 'debug_traceCall', call, 'latest', {})
    expect([failed, gas]).to.deep.equal([true, 100_000])
    expect(structLogs.at(-1)).to.deep.equal({ pc: 6, op: 'RETURNDATACOPY', gas: 78991, gasCost: 9, depth: 1, stack: ['0x20', '0x1', '0x0'] })
    expect(await rpc(chain, 'debug_traceCall', call, 'latest', { tracer: 'callTracer' })).to.deep.include({ gasUsed: '0x186a0', error: 'return data out of bounds' })
    const refused = await chain.request({ method: 'eth_call', params: [call, 'latest'] }).catch((error: { code: number; message: string }) => error)
    expect(refused).to.deep.include({ code: -32000, message: 'return data out of bounds' })
  })

  it("CREATE and CREATE2 of init code past EIP-3860's limit are out of gas on their gas charge, as geth's gasCreateEip3860: the fixed cost, geth's text on the step, the frame and eth_call (Anvil: 0 and `Some(CreateInitCodeSizeLimit)`)", async () => {
    const TEXT = 'out of gas: max initcode size exceeded: code size 49153 limit 49152'
    const cases: [Hex, string][] = [
      ['0x6200c00160006000f000', 'CREATE'], // CREATE(0, 0, 49153)
      ['0x60006200c00160006000f500', 'CREATE2'], // CREATE2(0, 0, 49153, 0)
    ]
    for (const [code, op] of cases) {
      await rpc(chain, 'anvil_setCode', CONTRACT, code)
      const call = { to: CONTRACT, gas: '0x100000' }
      const { structLogs, failed } = await rpc<StructLogs>(chain, 'debug_traceCall', call, 'latest', {})
      expect(failed, op).to.equal(true)
      expect(structLogs.at(-1), op).to.deep.include({ op, gasCost: 32_000, error: TEXT })
      expect(await rpc(chain, 'debug_traceCall', call, 'latest', { tracer: 'callTracer' }), op).to.deep.include({ gasUsed: '0x100000', error: TEXT })
      const refused = await chain.request({ method: 'eth_call', params: [call, 'latest'] }).catch((error: { code: number; message: string }) => error)
      expect(refused, op).to.deep.include({ code: -32000, message: TEXT })
    }
    // At the limit the creation runs (49152 zero bytes: STOP at once), charged its memory and words.
    await rpc(chain, 'anvil_setCode', CONTRACT, '0x6200c00060006000f000')
    const { structLogs, failed } = await rpc<StructLogs>(chain, 'debug_traceCall', { to: CONTRACT, gas: '0x100000' }, 'latest', {})
    expect(failed).to.equal(false)
    expect(structLogs.find((step) => step.op === 'CREATE')).to.deep.include({ gasCost: 32_000 + 9_216 + 3_072 })
  })

  it("prestateTracer diffMode: clearing an EIP-7702 delegation shows the code hash and nonce in post, no empty code (geth's code is omitempty; Anvil: the nonce alone)", async () => {
    const [alice, bob] = [signer(chain, 0), privateKeyToAccount(chain.accounts[1].privateKey)]
    const send = async (nonce: number, address: Address) => {
      const authorization = await bob.signAuthorization({ contractAddress: address, chainId: 31337, nonce })
      const hash = await chain.sendRawTransaction(await alice.signAny({ type: 'eip7702', chainId: 31337, nonce, gas: 100_000n, ...FEES, to: alice.address, authorizationList: [authorization] }))
      await chain.mine()
      return hash
    }
    await send(0, CONTRACT)
    expect(await chain.getCode(bob.address, 'latest')).to.equal(`0xef0100${CONTRACT.slice(2)}`)
    const cleared = await send(1, `0x${'00'.repeat(20)}`)
    const diff = await rpc<{ post: Record<Address, Account>; pre: Record<Address, Account> }>(chain, 'debug_traceTransaction', cleared, { tracer: 'prestateTracer', tracerConfig: { diffMode: true } })
    const who = bob.address.toLowerCase() as Address
    expect(diff.post[who]).to.deep.equal({ codeHash: keccak256('0x'), nonce: 2 })
    expect(diff.pre[who]).to.deep.include({ code: `0xef0100${CONTRACT.slice(2)}`, nonce: 1 })
  })
})
