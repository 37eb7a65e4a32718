/**
 * The devnet's synchronous memory gas (lib/execution/memory-gas.ts) against @ethereumjs/evm's own
 * gas handlers, restored on a twin EVM from a stock one: each probe, called in a transaction of
 * its own, gives equal receipts (gas to the unit, status) and equal state. The probes grow memory
 * through every opcode that can (aligned, unaligned, by zero bytes, over what an earlier opcode
 * grew, and past what the gas can pay), read return data past its end, log in a static frame,
 * and raise to exponents of every byte length.
 */
import { expect } from 'chai'
import { createEVM } from '@ethereumjs/evm'
import { hexToBytes } from '@ethereumjs/util'
import { createExecutionCommon, createTransactionCommon } from '../../lib/execution/common.ts'
import type { ExecutionEnvironment } from '../../lib/execution/execution-environment.ts'
import { withAccountCode, withAccountFields } from '../../lib/state/account.ts'
import { StateHistory } from '../../lib/state/state-history.ts'
import { StateLayer } from '../../lib/state/state-layer.ts'
import { EMPTY_STATE_SOURCE } from '../../lib/state/state-source.ts'
import { decodeTransaction, hashTransaction } from '../../lib/transactions/decode.ts'
import type { Address } from '../../lib/types.ts'
import { executionEnvironment, runInOrder } from '../support/execution-world.ts'
import { signer } from '../support/wallet.ts'

/** The opcodes whose gas memory-gas.ts works out: EXP, KECCAK256, the copies, MLOAD, MSTORE, MSTORE8, MCOPY, LOG0–LOG4, RETURN, REVERT. */
const MEMORY_GAS_OPCODES = [0x0a, 0x20, 0x37, 0x39, 0x3e, 0x51, 0x52, 0x53, 0x5e, 0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xf3, 0xfd]

/** PUSHn of `value`, in as few bytes as it needs. */
function push(value: bigint): string {
  const hex = value.toString(16)
  const bytes = Math.max(1, Math.ceil(hex.length / 2))
  return (0x5f + bytes).toString(16) + hex.padStart(bytes * 2, '0')
}

/** `opcode` with its operands pushed (the first operand on top), its result stored at slot `slot` if it leaves one. */
function op(opcode: string, operands: readonly bigint[], storeAt?: bigint): string {
  return [...operands].reverse().map(push).join('') + opcode + (storeAt === undefined ? '' : push(storeAt) + '55')
}

const HELPER = '0x00000000000000000000000000000000000e1e00' as Address
const PROBE_BASE = 0xe1e10n

/** Code that returns 40 bytes of memory (for RETURNDATACOPY to read), or logs when called with data. */
const helperCode = `0x${'36' + push(9n) + '57'}${op('f3', [0n, 40n])}5b${op('a0', [0n, 1n])}00`

/** Each probe's code, as hex without `0x`. */
const PROBES: readonly string[] = [
  // MLOAD and MSTORE: fresh memory, aligned and not, then within what is grown, then far.
  op('51', [0n], 1n) + op('52', [33n, 7n]) + op('51', [16n], 2n) + op('52', [5000n, 1n]) + op('51', [4000n], 3n),
  // MSTORE8 growing by one byte at a time, then past a word.
  op('53', [0n, 0xffn]) + op('53', [31n, 1n]) + op('53', [32n, 2n]) + op('53', [999n, 3n]) + op('51', [0n], 1n),
  // KECCAK256 of nothing (far offset: no growth), of a word, unaligned and growing.
  op('20', [1n << 40n, 0n], 1n) + op('20', [0n, 32n], 2n) + op('20', [3n, 97n], 3n) + op('20', [1000n, 300n], 4n),
  // CALLDATACOPY and CODECOPY: zero length far away, short, unaligned, past the data and the code.
  op('37', [1n << 50n, 0n, 0n]) + op('37', [5n, 0n, 40n]) + op('39', [100n, 3n, 70n]) + op('39', [2000n, 1n << 32n, 65n]) + op('51', [100n], 1n),
  // RETURNDATACOPY within the helper's 40 bytes, then of none.
  op('fa', [50_000n, BigInt(HELPER), 0n, 0n, 0n, 0n]) + '50' + op('3e', [64n, 8n, 32n]) + op('3e', [1n << 60n, 40n, 0n]) + op('51', [64n], 1n),
  // RETURNDATACOPY past the end of the return data: out of gas.
  op('fa', [50_000n, BigInt(HELPER), 0n, 0n, 0n, 0n]) + '50' + op('3e', [0n, 30n, 11n]),
  // MCOPY: overlapping, growing from the source's and the destination's side, and empty.
  op('52', [0n, (1n << 255n) | 77n]) + op('5e', [16n, 0n, 32n]) + op('5e', [200n, 0n, 64n]) + op('5e', [0n, 900n, 33n]) + op('5e', [1n << 70n, 1n << 70n, 0n]) + op('51', [200n], 1n),
  // LOG0 to LOG4 with data empty, unaligned and growing.
  op('a0', [0n, 0n]) + op('a1', [3n, 40n, 1n]) + op('a2', [0n, 64n, 1n, 2n]) + op('a3', [500n, 33n, 1n, 2n, 3n]) + op('a4', [7n, 1n, 1n, 2n, 3n, 4n]),
  // LOG in a static frame: the helper, STATICCALLed with data, fails (the call's result stored).
  op('fa', [50_000n, BigInt(HELPER), 0n, 1n, 0n, 0n], 1n),
  // EXP by 0, 1, 255, 256, 2^64, 2^255.
  [0n, 1n, 255n, 256n, 1n << 64n, 1n << 255n].map((exponent, i) => op('0a', [3n, exponent], BigInt(i + 1))).join(''),
  // RETURN growing memory.
  op('f3', [100n, 45n]),
  // REVERT growing memory.
  op('fd', [33n, 70n]),
  // Memory past what the gas pays: out of gas on MSTORE's growth.
  op('52', [1n << 24n, 1n]),
  // And on RETURN's.
  op('f3', [0n, 1n << 26n]),
]

/** An environment whose EVM works out the memory opcodes' gas with the library's own handlers (taken from a stock EVM). */
async function libraryEnvironment(): Promise<ExecutionEnvironment> {
  const env = executionEnvironment()
  type OpcodeTable = { _opcodeMap: Array<{ gasHandler?: unknown }> }
  const stock = (await createEVM({ common: createExecutionCommon(31337, 'prague') })) as unknown as OpcodeTable
  const ours = env.evm as unknown as OpcodeTable
  for (const opcode of MEMORY_GAS_OPCODES) ours._opcodeMap[opcode].gasHandler = stock._opcodeMap[opcode].gasHandler
  return env
}

describe('execution/memory-gas: the memory opcodes\' gas matches the library\'s handlers', () => {
  it('gives the library\'s receipts (gas to the unit) and state for every way of growing memory, the faults included', async () => {
    const payer = signer({ accounts: [{ privateKey: `0x${'33'.repeat(32)}` }], options: { chainId: 31337 } } as never, 0)
    const probes = PROBES.map((_, i) => `0x${(PROBE_BASE + BigInt(i)).toString(16).padStart(40, '0')}` as Address)
    const transactions = await Promise.all(
      probes.map(async (to, nonce) => {
        const raw = hexToBytes(await payer.sign({ to, gas: 1_000_000n, nonce }))
        return decodeTransaction(raw, hashTransaction(raw), createTransactionCommon(31337, 'prague'), 31337n)
      }),
    )
    const results = []
    for (const env of [executionEnvironment(), await libraryEnvironment()]) {
      const history = new StateHistory(EMPTY_STATE_SOURCE)
      history.putAccount(0, payer.address.toLowerCase() as Address, withAccountFields(undefined, { balance: 10n ** 20n }))
      history.putAccount(0, HELPER, withAccountCode(undefined, hexToBytes(helperCode as `0x${string}`)))
      probes.forEach((address, i) => history.putAccount(0, address, withAccountCode(undefined, hexToBytes(`0x${PROBES[i]}`))))
      const state = new StateLayer(history.latest)
      const receipts = await runInOrder(transactions, state, env)
      results.push({ receipts, words: probes.map((address) => [...(state.storage.get(address)?.entries() ?? [])]) })
    }
    const [devnet, library] = results
    // The faults: RETURNDATACOPY past the end, and both growths past the gas; REVERT reverts.
    expect(devnet.receipts.map((receipt) => receipt.status)).to.deep.equal([1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 0, 0, 0])
    expect(devnet.receipts[7].logs.map((entry) => entry.topics.length)).to.deep.equal([0, 1, 2, 3, 4])
    expect(devnet.words[8]).to.deep.equal([[1n, 0n]]) // the static LOG failed
    expect(devnet.receipts).to.deep.equal(library.receipts)
    expect(devnet.words).to.deep.equal(library.words)
  })
})
