/**
 * The devnet's word opcodes (lib/execution/word-opcodes.ts) against @ethereumjs/evm's own
 * handlers, restored on a twin EVM from a stock one: the same transactions give equal receipts
 * (gas to the unit) and equal state. The probe contract stores what CALLDATALOAD reads at every
 * kind of offset (inside, straddling the end, at the end, past it, past 2^64), after SSTOREs
 * through every case of EIP-2200 net metering (refunds included), what MLOAD reads
 * of words stored aligned and unaligned (and of fresh memory, which grows it), and what SLOAD
 * reads of big, small and unset words, cold and then warm, with and without an access list, and
 * the KECCAK256 of empty, aligned, unaligned and fresh memory, ADDRESS, ORIGIN and CALLER, logs
 * with zero to four topics, a slot read again after a reverted frame warmed it, and SSTOREs
 * refused below the sentry's 2,300 gas and in a static frame; and
 * its storage is read once as held and once through a source that loads lazily (a fork's).
 */
import { expect } from 'chai'
import { createEVM } from '@ethereumjs/evm'
import { hexToBytes } from '@ethereumjs/util'
import type { Hex } from 'viem'
import { createExecutionCommon, createTransactionCommon } from '../../lib/execution/common.ts'
import type { ExecutionEnvironment } from '../../lib/execution/execution-environment.ts'
import { withAccountCode, withAccountFields, type AccountState } from '../../lib/state/account.ts'
import { StateHistory } from '../../lib/state/state-history.ts'
import { StateLayer } from '../../lib/state/state-layer.ts'
import { EMPTY_STATE_SOURCE } from '../../lib/state/state-source.ts'
import { UNLOADED, type StateSource } from '../../lib/state/state-view.ts'
import { decodeTransaction, hashTransaction } from '../../lib/transactions/decode.ts'
import type { Address } from '../../lib/types.ts'
import { executionEnvironment, runInOrder } from '../support/execution-world.ts'
import { signer } from '../support/wallet.ts'

const PROBE = '0x00000000000000000000000000000000000b0b0e' as Address
const WORD_OPCODES = [0x20, 0x30, 0x32, 0x33, 0x35, 0x51, 0x52, 0x54, 0x55, 0xa0, 0xa1, 0xa2, 0xa3, 0xa4]
const BIG = 2n ** 255n + 0x1234n
const HIGH_WORD = (2n ** 256n - 1n) ^ 0xffn
const PRESET = new Map([
  [1n, BIG],
  [2n, 7n],
])

/** PUSHn of `value`, in as few bytes as it needs. */
function push(value: bigint): string {
  const hex = value.toString(16)
  const bytes = Math.max(1, Math.ceil(hex.length / 2))
  return (0x5f + bytes).toString(16) + hex.padStart(bytes * 2, '0')
}

/** SSTOREs through every case of EIP-2200 with EIP-2929's costs: [slot, value], in order (slot 1 holds BIG, 2 holds 7, the others 0). */
const WRITES: Array<[bigint, bigint]> = [
  [1n, BIG], // no-op, cold
  [2n, 8n], // clean write, cold
  [2n, 7n], // back to the original, warm: a refund
  [2n, 0n], // cleared: the clearing refund
  [2n, 9n], // recreated: the clearing refund taken back
  [6n, 5n], // created, cold
  [6n, 0n], // back to the original zero: the creation refund
  [6n, 0n], // no-op, warm
  [3n, 0n], // no-op on an empty slot, cold
]

/**
 * Code that stores, from slot `0x100` on, what each load leaves on the stack, after the writes
 * above. Called with one byte of call data (as it calls itself), it reads slot 5 and reverts:
 * the slot it warmed must be cold again for the read after; with two bytes, it writes slot 3 —
 * which it cannot, called with 2,300 gas (EIP-2200's sentry) or from a STATICCALL.
 */
function probeCode(): Uint8Array {
  const loads: string[] = []
  for (const offset of [0n, 1n, 31n, 40n, 64n, 65n, 2n ** 64n, 2n ** 255n]) loads.push(push(offset) + '35') // CALLDATALOAD
  let stores = push(HIGH_WORD) + push(0n) + '52' + push(BIG) + push(50n) + '52' // MSTORE aligned, then unaligned
  // LOG0 to LOG4, topics small and big, data empty, unaligned and growing memory.
  for (let count = 0; count <= 4; count++) {
    const topics = [BIG, 1n, HIGH_WORD, 0n].slice(0, count).reverse().map(push).join('')
    const [offset, length] = [[0n, 0n], [3n, 40n], [0n, 64n], [500n, 33n], [7n, 1n]][count]
    stores += topics + push(length) + push(offset) + (0xa0 + count).toString(16)
  }
  for (const offset of [0n, 16n, 50n, 300n]) loads.push(push(offset) + '51') // MLOAD
  for (const slot of [1n, 1n, 2n, 3n, 4n, 4n]) loads.push(push(slot) + '54') // SLOAD: cold, warm, small, unset, listed
  for (const [offset, length] of [[0n, 0n], [0n, 32n], [3n, 64n], [400n, 40n]]) loads.push(push(length) + push(offset) + '20') // KECCAK256, the last growing memory
  loads.push('30', '32', '33') // ADDRESS, ORIGIN, CALLER
  const self = push(BigInt(PROBE))
  // CALL(gas, itself, 0, 0, 1, 0, 0), then SLOAD 5.
  loads.push(push(0n) + push(0n) + push(1n) + push(0n) + push(0n) + self + '5a' + 'f1' + '50' + push(5n) + '54')
  // CALL(2300, itself, 0, 0, 2, 0, 0) and STATICCALL(10000, itself, 0, 2, 0, 0): both fail.
  loads.push(push(0n) + push(0n) + push(2n) + push(0n) + push(0n) + self + push(2300n) + 'f1')
  loads.push(push(0n) + push(0n) + push(2n) + push(0n) + self + push(10_000n) + 'fa')
  const writes = WRITES.map(([slot, value]) => push(value) + push(slot) + '55').join('')
  const body = writes + stores + loads.map((load, index) => load + push(0x100n + BigInt(index)) + '55').join('') + '00'
  // CALLDATASIZE == size ? jump : go on (8 bytes each).
  const branch = (size: number, target: number) => '36' + push(BigInt(size)) + '14' + '61' + target.toString(16).padStart(4, '0') + '57'
  const reverting = '5b' + push(5n) + '54' + '50' + push(0n) + push(0n) + 'fd'
  // A no-op write to an empty slot: cold, 2,200 gas, which 2,300 would cover but for the sentry.
  const writing = '5b' + push(0n) + push(3n) + '55' + '00'
  const start = 16 + body.length / 2
  return hexToBytes(`0x${branch(1, start)}${branch(2, start + reverting.length / 2)}${body}${reverting}${writing}`)
}

/** A source holding the probe and the payer, each word and account loaded only when first asked for. */
function lazySource(accounts: Map<Address, AccountState>): StateSource {
  const loaded = new Set<string>()
  return {
    account: (address) => (loaded.has(address) ? accounts.get(address) : UNLOADED),
    storage: (address, slot) => (loaded.has(`${address}:${slot}`) ? (address === PROBE ? (PRESET.get(slot) ?? 0n) : 0n) : UNLOADED),
    loadAccount: async (address) => {
      await Promise.resolve()
      loaded.add(address)
    },
    loadStorage: async (address, slot) => {
      await Promise.resolve()
      loaded.add(`${address}:${slot}`)
    },
  }
}

/** The probe and the payer in a state read as held, or through {@link lazySource}. */
function probeState(payer: Address, lazy: boolean): StateLayer {
  const accounts = new Map<Address, AccountState>([
    [PROBE, withAccountCode(undefined, probeCode())],
    [payer, withAccountFields(undefined, { balance: 10n ** 20n })],
  ])
  const history = new StateHistory(lazy ? lazySource(accounts) : EMPTY_STATE_SOURCE)
  if (!lazy) {
    for (const [address, account] of accounts) history.putAccount(0, address, account)
    for (const [slot, value] of PRESET) history.putStorage(0, PROBE, slot, value)
  }
  return new StateLayer(history.latest)
}

/** An EVM's opcode table (protected in the library's types). */
type OpcodeTable = { _opcodeMap: Array<{ opHandler: unknown; gasHandler?: unknown }> }

/** An environment whose EVM runs the library's own word handlers (taken from a stock EVM). */
async function libraryEnvironment(): Promise<ExecutionEnvironment> {
  const env = executionEnvironment()
  const stock = (await createEVM({ common: createExecutionCommon(31337, 'prague') })) as unknown as OpcodeTable
  const ours = env.evm as unknown as OpcodeTable
  for (const opcode of WORD_OPCODES) {
    ours._opcodeMap[opcode].opHandler = stock._opcodeMap[opcode].opHandler
    ours._opcodeMap[opcode].gasHandler = stock._opcodeMap[opcode].gasHandler
  }
  return env
}

describe('execution/word-opcodes: MLOAD, MSTORE, CALLDATALOAD and SLOAD match the library\'s handlers', () => {
  for (const lazy of [false, true]) {
    it(`gives the library's receipts and state for every kind of offset and slot, ${lazy ? 'storage loaded lazily (a fork)' : 'storage held'}`, async () => {
      const payer = signer({ accounts: [{ privateKey: `0x${'11'.repeat(32)}` }], options: { chainId: 31337 } } as never, 0)
      const calldata = `0x${'ab'.repeat(31)}cd${'ef'.repeat(32)}` as Hex
      const fields = [
        { to: PROBE, data: calldata, gas: 500_000n, accessList: [{ address: PROBE, storageKeys: [`0x${'0'.repeat(63)}4` as Hex] }] },
        { to: PROBE, data: calldata.slice(0, 42) as Hex, gas: 500_000n },
      ]
      const transactions = await Promise.all(
        fields.map(async (field, nonce) => {
          const raw = hexToBytes(await payer.sign({ ...field, nonce }))
          return decodeTransaction(raw, hashTransaction(raw), createTransactionCommon(31337, 'prague'), 31337n)
        }),
      )
      const results = []
      for (const env of [executionEnvironment(), await libraryEnvironment()]) {
        const state = probeState(payer.address.toLowerCase() as Address, lazy)
        const receipts = await runInOrder(transactions, state, env)
        results.push({ receipts, words: [...(state.storage.get(PROBE)?.entries() ?? [])] })
      }
      const [devnet, library] = results
      expect(devnet.receipts.map((receipt) => receipt.status)).to.deep.equal([1, 1])
      expect(devnet.receipts[0].logs.map((entry) => entry.topics.length)).to.deep.equal([0, 1, 2, 3, 4])
      const words = new Map(devnet.words)
      expect(words.get(0x100n + 8n)).to.equal(HIGH_WORD) // MLOAD 0
      expect(words.get(0x100n + 12n)).to.equal(BIG) // SLOAD of a big word
      expect([words.get(2n), words.get(6n)]).to.deep.equal([9n, 0n])
      expect([words.get(0x100n + 26n), words.get(0x100n + 27n)]).to.deep.equal([0n, 0n]) // the sentry and the static frame
      expect(devnet.receipts).to.deep.equal(library.receipts)
      expect(devnet.words).to.deep.equal(library.words)
    })
  }
})
