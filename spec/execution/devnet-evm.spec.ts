/**
 * The devnet's trimmed message call (lib/execution/devnet-evm.ts `_executeCall`): a call that
 * moves no value between accounts the state holds only touches them (EIP-161), as the library's
 * write-back of the unchanged accounts did — an existing empty account it reaches is removed at
 * the end of the transaction, a non-empty one is left exactly as it was, and the receipts and
 * state equal those of the library's own `_executeCall`.
 */
import { expect } from 'chai'
import { EVM } from '@ethereumjs/evm'
import { hexToBytes } from '@ethereumjs/util'
import type { Hex } from 'viem'
import { createTransactionCommon } from '../../lib/execution/common.ts'
import { DevnetEVM } from '../../lib/execution/devnet-evm.ts'
import type { ExecutionEnvironment } from '../../lib/execution/execution-environment.ts'
import { withAccountCode, withAccountFields } from '../../lib/state/account.ts'
import { StateHistory } from '../../lib/state/state-history.ts'
import { StateLayer } from '../../lib/state/state-layer.ts'
import { EMPTY_STATE_SOURCE, heldAccount } from '../../lib/state/state-source.ts'
import { decodeTransaction, hashTransaction } from '../../lib/transactions/decode.ts'
import type { Address } from '../../lib/types.ts'
import { executionEnvironment, runInOrder } from '../support/execution-world.ts'
import { signer } from '../support/wallet.ts'

const EMPTY = '0x00000000000000000000000000000000000e3971' as Address
const HOLDER = '0x00000000000000000000000000000000000401de' as Address
const CALLER = '0x00000000000000000000000000000000000ca11e' as Address

/** CALL(gas, address, 0, 0, 0, 0, 0) and POP, for each of `addresses`. */
function callsTo(addresses: readonly Address[]): Uint8Array {
  return hexToBytes(`0x${addresses.map((address) => `6000600060006000600073${address.slice(2)}5af150`).join('')}00`)
}

/** An environment whose EVM runs the library's own `_executeCall`, or the devnet's. */
function environment(libraryFrames: boolean): ExecutionEnvironment {
  const env = executionEnvironment()
  if (libraryFrames) (env.evm as unknown as { _executeCall: unknown })._executeCall = (EVM.prototype as unknown as { _executeCall: unknown })._executeCall
  return env
}

describe('execution/devnet-evm: a call moving no value only touches', () => {
  it('removes an empty account it reaches (EIP-161), leaves a non-empty one as it was, and matches the library\'s frames', async () => {
    expect(DevnetEVM.prototype).to.have.property('_executeCall').that.not.equals((EVM.prototype as unknown as { _executeCall: unknown })._executeCall)
    const payer = signer({ accounts: [{ privateKey: `0x${'22'.repeat(32)}` }], options: { chainId: 31337 } } as never, 0)
    const raws = [
      // With data, so it runs in the EVM (a plain transfer takes the direct path).
      await payer.sign({ to: EMPTY, data: '0x01', gas: 100_000n, nonce: 0 }),
      await payer.sign({ to: CALLER, gas: 200_000n, nonce: 1 }),
    ]
    const transactions = raws.map((raw: Hex) => decodeTransaction(hexToBytes(raw), hashTransaction(hexToBytes(raw)), createTransactionCommon(31337, 'prague'), 31337n))
    const results = []
    for (const libraryFrames of [false, true]) {
      const history = new StateHistory(EMPTY_STATE_SOURCE)
      history.putAccount(0, payer.address.toLowerCase() as Address, withAccountFields(undefined, { balance: 10n ** 20n }))
      history.putAccount(0, EMPTY, withAccountFields(undefined, {}))
      history.putAccount(0, HOLDER, withAccountFields(undefined, { balance: 5n, nonce: 3n }))
      // A second empty account, reached from inside a contract.
      history.putAccount(0, '0x00000000000000000000000000000000000e3972' as Address, withAccountFields(undefined, {}))
      history.putAccount(0, CALLER, withAccountCode(undefined, callsTo([HOLDER, '0x00000000000000000000000000000000000e3972' as Address])))
      const state = new StateLayer(history.latest)
      const env = environment(libraryFrames)
      const receipts = await runInOrder(transactions, state, env)
      const accounts = [EMPTY, '0x00000000000000000000000000000000000e3972', HOLDER, CALLER].map((address) => heldAccount(state, address as Address))
      results.push({ receipts, accounts: accounts.map((account) => account && { nonce: account.nonce, balance: account.balance, code: account.code.length }) })
    }
    const [devnet, library] = results
    expect(devnet.receipts.map((receipt) => receipt.status)).to.deep.equal([1, 1])
    expect(devnet.accounts.slice(0, 3)).to.deep.equal([undefined, undefined, { nonce: 3n, balance: 5n, code: 0 }])
    expect(devnet).to.deep.equal(library)
  })
})
