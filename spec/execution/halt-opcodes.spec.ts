/**
 * STOP and RETURN without an exception (lib/execution/halt-opcodes.ts) against @ethereumjs/evm's
 * own handlers, restored on a twin EVM from a stock one: the same transactions give equal
 * receipts (gas to the unit) and equal storage. A probe calls contracts that STOP between two
 * writes, RETURN nothing, RETURN an unaligned stretch of memory and RETURN past the memory in
 * use (which grows it), and stores what each call left: its success, RETURNDATASIZE and the
 * returned words; then it RETURNs itself, at the top of the transaction.
 */
import { expect } from 'chai'
import { createEVM } from '@ethereumjs/evm'
import { hexToBytes } from '@ethereumjs/util'
import { createExecutionCommon, createTransactionCommon } from '../../lib/execution/common.ts'
import type { ExecutionEnvironment } from '../../lib/execution/execution-environment.ts'
import { runTransaction } from '../../lib/execution/run-transaction.ts'
import { withAccountCode, withAccountFields } from '../../lib/state/account.ts'
import { StateHistory } from '../../lib/state/state-history.ts'
import { StateLayer } from '../../lib/state/state-layer.ts'
import { EMPTY_STATE_SOURCE } from '../../lib/state/state-source.ts'
import { decodeTransaction, hashTransaction } from '../../lib/transactions/decode.ts'
import type { Address } from '../../lib/types.ts'
import { executionEnvironment, TEST_BLOCK } from '../support/execution-world.ts'
import { signer } from '../support/wallet.ts'

const STOP = 0x00
const RETURN = 0xf3
const BIG = 2n ** 255n + 0xabcdefn

/** PUSHn of `value`, in as few bytes as it needs. */
function push(value: bigint): string {
  const hex = value.toString(16)
  const bytes = Math.max(1, Math.ceil(hex.length / 2))
  return (0x5f + bytes).toString(16) + hex.padStart(bytes * 2, '0')
}

const sstore = (slot: bigint, value: bigint): string => push(value) + push(slot) + '55'
const mstore = (offset: bigint, value: bigint): string => push(value) + push(offset) + '52'
const returnOf = (offset: bigint, length: bigint): string => push(length) + push(offset) + 'f3'

/** The callees: each address, and its code. */
const CALLEES = new Map<Address, string>([
  ['0x0000000000000000000000000000000000000a01', sstore(1n, 1n) + '00' + sstore(2n, 2n)], // STOP between two writes
  ['0x0000000000000000000000000000000000000a02', returnOf(0n, 0n) + sstore(2n, 2n)], // RETURN of nothing
  ['0x0000000000000000000000000000000000000a03', mstore(0n, BIG) + mstore(32n, 7n) + returnOf(3n, 40n) + sstore(2n, 2n)], // unaligned
  ['0x0000000000000000000000000000000000000a04', mstore(0n, BIG) + returnOf(100n, 64n)], // past the memory in use
])

const PROBE = '0x0000000000000000000000000000000000000b0b' as Address

/** For each callee: CALL it, then store success, RETURNDATASIZE and the first two returned words (RETURNDATACOPY of what there is). */
function probeCode(): string {
  let code = ''
  let slot = 0x100n
  for (const callee of CALLEES.keys()) {
    code += push(0n) + push(0n) + push(0n) + push(0n) + push(0n) + push(BigInt(callee)) + '5a' + 'f1' // CALL(gas, callee, 0, 0, 0, 0, 0)
    code += push(slot++) + '55' // success
    code += '3d' + push(slot++) + '55' // RETURNDATASIZE
    code += mstore(0n, 0n) + mstore(32n, 0n) + '3d' + push(0n) + push(0n) + '3e' // RETURNDATACOPY(0, 0, size) over zeroed words
    code += push(0n) + '51' + push(slot++) + '55' + push(32n) + '51' + push(slot++) + '55'
  }
  return code + mstore(0n, BIG) + returnOf(1n, 33n) + sstore(2n, 2n)
}

/** The probe, the callees and the payer in a fresh state. */
function probeState(payer: Address): StateLayer {
  const history = new StateHistory(EMPTY_STATE_SOURCE)
  history.putAccount(0, PROBE, withAccountCode(undefined, hexToBytes(`0x${probeCode()}`)))
  for (const [address, code] of CALLEES) history.putAccount(0, address, withAccountCode(undefined, hexToBytes(`0x${code}`)))
  history.putAccount(0, payer, withAccountFields(undefined, { balance: 10n ** 20n }))
  return new StateLayer(history.latest)
}

/** An environment whose EVM runs the library's own STOP and RETURN (taken from a stock EVM). */
async function libraryEnvironment(): Promise<ExecutionEnvironment> {
  type OpcodeTable = { _opcodeMap: Array<{ opHandler: unknown }> }
  const env = executionEnvironment()
  const stock = (await createEVM({ common: createExecutionCommon(31337, 'prague') })) as unknown as OpcodeTable
  for (const opcode of [STOP, RETURN]) (env.evm as unknown as OpcodeTable)._opcodeMap[opcode].opHandler = stock._opcodeMap[opcode].opHandler
  return env
}

describe('execution/halt-opcodes: STOP and RETURN match the library\'s handlers', () => {
  it('gives the library\'s receipt and storage for a STOP mid-code and RETURNs of nothing, of unaligned memory and past the memory in use', async () => {
    const payer = signer({ accounts: [{ privateKey: `0x${'22'.repeat(32)}` }], options: { chainId: 31337 } } as never, 0)
    const raw = hexToBytes(await payer.sign({ to: PROBE, gas: 1_000_000n, nonce: 0 }))
    const transaction = decodeTransaction(raw, hashTransaction(raw), createTransactionCommon(31337, 'prague'), 31337n)
    const results = []
    for (const env of [executionEnvironment(), await libraryEnvironment()]) {
      const state = probeState(payer.address.toLowerCase() as Address)
      const receipt = await runTransaction(transaction, state, TEST_BLOCK, { gasUsed: 0n, logCount: 0 }, env)
      const storage = [PROBE, ...CALLEES.keys()].map((address) => [...(state.storage.get(address)?.entries() ?? [])])
      results.push({ receipt, storage })
    }
    const [devnet, library] = results
    expect(devnet.receipt.status).to.equal(1)
    const probe = new Map(devnet.storage[0])
    const word = (offset: number) => probe.get(0x100n + BigInt(offset)) ?? 0n
    // STOP: the write before it stays, the one after it never runs, and the probe's own code goes on.
    expect(devnet.storage[1]).to.deep.equal([[1n, 1n]])
    expect([word(0), word(1)]).to.deep.equal([1n, 0n])
    // RETURN of nothing; of 40 bytes from offset 3: BIG's last 29 bytes, then 7's word's first 11 (zeros).
    expect([word(4), word(5)]).to.deep.equal([1n, 0n])
    expect([word(8), word(9)]).to.deep.equal([1n, 40n])
    expect(word(10)).to.equal((BIG << 24n) & (2n ** 256n - 1n))
    // Past the memory in use: 64 zero bytes.
    expect([word(12), word(13), word(14), word(15)]).to.deep.equal([1n, 64n, 0n, 0n])
    // No callee, and not the probe, wrote slot 2 after its halt.
    for (const storage of devnet.storage) expect(new Map(storage).has(2n)).to.equal(false)
    expect(devnet.receipt).to.deep.equal(library.receipt)
    expect(devnet.storage).to.deep.equal(library.storage)
  })
})
