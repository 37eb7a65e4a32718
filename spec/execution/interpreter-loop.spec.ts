/**
 * The devnet's step loop (lib/execution/interpreter-loop.ts) against the library's own: the same
 * transactions, run once on an EVM as the builder runs them and once on an EVM with a `step`
 * listener (which sends every frame through @ethereumjs/evm's `Interpreter.run`), give equal
 * receipts and equal state — contract creation (with CREATE inside), CALL with value,
 * STATICCALL, DELEGATECALL, a caught and an uncaught revert, CREATE2, an ERC-20 transfer with
 * its log, an invalid opcode, running out of gas in a loop and a jump to a non-JUMPDEST.
 */
import { expect } from 'chai'
import { hexToBytes } from '@ethereumjs/util'
import { encodeDeployData, encodeFunctionData, getContractAddress, type Hex } from 'viem'
import { Token } from '../../fixtures/artifacts/Token.ts'
import { createTransactionCommon } from '../../lib/execution/common.ts'
import type { ExecutionEnvironment } from '../../lib/execution/execution-environment.ts'
import { runTransaction } from '../../lib/execution/run-transaction.ts'
import { createChain } from '../../lib/index.ts'
import type { StateLayer } from '../../lib/state/state-layer.ts'
import { heldAccount } from '../../lib/state/state-source.ts'
import { decodeTransaction, hashTransaction } from '../../lib/transactions/decode.ts'
import type { Address } from '../../lib/types.ts'
import { executionEnvironment, fundedState, TEST_BLOCK } from '../support/execution-world.ts'
import { Tracee } from '../support/trace-contracts.ts'
import { signer } from '../support/wallet.ts'

const SALT = `0x${'11'.repeat(32)}` as Hex

/** An environment whose EVM runs the devnet's loop, or (`libraryLoop`) the library's, forced by a step listener. */
function environment(libraryLoop: boolean): ExecutionEnvironment {
  const env = executionEnvironment()
  if (libraryLoop) env.evm.events.on('step', () => {})
  return env
}

/** Every account the layer wrote, with its storage words, as a reader sees them. */
function observed(layer: StateLayer): Record<string, unknown> {
  const addresses = [...new Set([...layer.accounts.keys(), ...layer.storage.keys()])].sort()
  return Object.fromEntries(
    addresses.map((address) => {
      const account = heldAccount(layer, address)
      const words = [...(layer.storage.get(address)?.entries() ?? [])].map(([slot, value]) => `${slot}=${value}`).sort()
      return [address, account && { nonce: account.nonce, balance: account.balance, code: Buffer.from(account.code).toString('hex'), words }]
    }),
  )
}

describe('execution/interpreter-loop: the step loop matches the library\'s', () => {
  it('gives the receipts and the state of @ethereumjs/evm\'s own loop for creations, every kind of frame, reverts, logs, invalid opcodes and out-of-gas', async () => {
    const chain = await createChain()
    const alice = signer(chain, 0)
    const tracee = getContractAddress({ from: alice.address, nonce: 0n }).toLowerCase() as Address
    const token = getContractAddress({ from: alice.address, nonce: 1n }).toLowerCase() as Address
    const call = (functionName: 'nested' | 'boom' | 'spawn', args: readonly unknown[]) => encodeFunctionData({ abi: Tracee.abi, functionName, args } as never)
    const fields = [
      { to: null, data: Tracee.bytecode as Hex, gas: 1_000_000n },
      { to: null, data: encodeDeployData({ abi: Token.abi, bytecode: Token.bytecode, args: ['Token', 'TKN', 10n ** 24n] }), gas: 2_000_000n },
      { to: tracee, data: call('nested', [5n]), value: 7n, gas: 300_000n },
      { to: tracee, data: call('boom', [5n]), gas: 300_000n },
      { to: tracee, data: call('spawn', [3n, SALT]), gas: 600_000n },
      { to: token, data: encodeFunctionData({ abi: Token.abi, functionName: 'transfer', args: [chain.accounts[1].address, 1000n] }), gas: 100_000n },
      // Too little gas for the nested calls: out of gas deep inside.
      { to: tracee, data: call('nested', [5n]), gas: 25_000n },
      // Creations whose init code is an invalid opcode (0xfe), an endless loop (JUMPDEST PUSH1 0 JUMP) and a jump to a non-JUMPDEST (PUSH1 3 JUMP STOP).
      { to: null, data: '0xfe' as Hex, gas: 100_000n },
      { to: null, data: '0x5b600056' as Hex, gas: 100_000n },
      { to: null, data: '0x60035600' as Hex, gas: 100_000n },
    ]
    const transactions = await Promise.all(
      fields.map(async (field, nonce) => {
        const raw = hexToBytes(await alice.sign({ ...field, nonce }))
        return decodeTransaction(raw, hashTransaction(raw), createTransactionCommon(31337, 'prague'), 31337n)
      }),
    )
    const runs = [false, true].map(async (libraryLoop) => {
      const env = environment(libraryLoop)
      const state = fundedState([alice.address])
      const position = { gasUsed: 0n, logCount: 0 }
      const receipts = []
      for (const transaction of transactions) {
        const receipt = await runTransaction(transaction, state, TEST_BLOCK, position, env)
        position.gasUsed = receipt.cumulativeGasUsed
        position.logCount += receipt.logs.length
        receipts.push(receipt)
      }
      return { receipts, state: observed(state) }
    })
    const [devnet, library] = await Promise.all(runs)
    expect(devnet.receipts.map((receipt) => receipt.status)).to.deep.equal([1, 1, 1, 0, 1, 1, 0, 0, 0, 0])
    expect(devnet.receipts.some((receipt) => receipt.logs.length > 0)).to.equal(true)
    expect(devnet.receipts).to.deep.equal(library.receipts)
    expect(devnet.state).to.deep.equal(library.state)
  })
})
