import { expect } from 'chai'
import { parseEther } from 'viem'
import { hexToBytes } from '@ethereumjs/util'
import { ETHEREUM_FEE_RULES } from '../../lib/execution/fee-rules.ts'
import { isPlainTransfer, runInEVM, runPlainTransfer, runTransaction, UnexecutableTransactionError } from '../../lib/execution/run-transaction.ts'
import { createChain } from '../../lib/index.ts'
import type { StateLayer } from '../../lib/state/state-layer.ts'
import { withAccountFields } from '../../lib/state/account.ts'
import { heldAccount } from '../../lib/state/state-source.ts'
import { decodeTransaction, hashTransaction } from '../../lib/transactions/decode.ts'
import type { Address } from '../../lib/types.ts'
import { executionEnvironment, fundedState, TEST_BLOCK } from '../support/execution-world.ts'
import { signer } from '../support/wallet.ts'

/** What a reader sees of every account either layer wrote. */
function observed(layers: StateLayer[]): Array<Record<string, unknown>> {
  const addresses = [...new Set(layers.flatMap((layer) => [...layer.accounts.keys()]))].sort()
  return layers.map((layer) =>
    Object.fromEntries(addresses.map((address) => {
      const account = heldAccount(layer, address)
      return [address, account && { nonce: account.nonce, balance: account.balance, code: account.code.length }]
    })),
  )
}

describe('execution/run-transaction', () => {
  it('a plain transfer takes the direct path with exactly the outcome of the EVM path', async () => {
    const chain = await createChain()
    const alice = signer(chain, 0)
    const env = executionEnvironment()
    for (const [value, recipient] of [[parseEther('1'), chain.accounts[1].address], [0n, '0x00000000000000000000000000000000000000aa'], [5n, alice.address]] as const) {
      const raw = hexToBytes(await alice.sign({ to: recipient, value }))
      const transaction = decodeTransaction(raw, hashTransaction(raw), env.transactionCommon, 31337n)
      const direct = fundedState([alice.address, chain.accounts[1].address])
      const viaEVM = fundedState([alice.address, chain.accounts[1].address])
      expect(isPlainTransfer(transaction, direct, env)).to.equal(true)
      const directReceipt = runPlainTransfer(transaction, direct, TEST_BLOCK, { gasUsed: 0n, logCount: 0 }, ETHEREUM_FEE_RULES, undefined)
      const evmReceipt = await runInEVM(transaction, viaEVM, TEST_BLOCK, { gasUsed: 0n, logCount: 0 }, env, undefined)
      expect(directReceipt).to.deep.equal(evmReceipt)
      const [directState, evmState] = observed([direct, viaEVM])
      expect(directState).to.deep.equal(evmState)
    }
  })

  it('a zero-value transfer to an absent account leaves it absent (EIP-161), on both paths', async () => {
    const chain = await createChain()
    const alice = signer(chain, 0)
    const env = executionEnvironment()
    const empty = '0x00000000000000000000000000000000000000aa' as Address
    const raw = hexToBytes(await alice.sign({ to: empty, value: 0n }))
    const transaction = decodeTransaction(raw, hashTransaction(raw), env.transactionCommon, 31337n)
    const state = fundedState([alice.address])
    await runTransaction(transaction, state, TEST_BLOCK, { gasUsed: 0n, logCount: 0 }, env)
    expect(state.getAccount(empty)).to.equal(undefined)
  })

  it('a zero-value transfer to an existing empty account, and a zero tip to an empty coinbase, delete them (EIP-161: geth\'s AddBalance of 0 touches), on both paths', async () => {
    const chain = await createChain()
    const alice = signer(chain, 0)
    const env = executionEnvironment()
    const empty = '0x00000000000000000000000000000000000000aa' as Address
    const raw = hexToBytes(await alice.sign({ to: empty, value: 0n, maxFeePerGas: TEST_BLOCK.baseFeePerGas, maxPriorityFeePerGas: 0n }))
    const transaction = decodeTransaction(raw, hashTransaction(raw), env.transactionCommon, 31337n)
    const withEmpties = (): StateLayer => {
      const state = fundedState([alice.address])
      for (const address of [empty, TEST_BLOCK.coinbase]) state.putAccount(address, withAccountFields(undefined, { balance: 0n }))
      return state
    }
    const direct = withEmpties()
    const viaEVM = withEmpties()
    expect(heldAccount(direct, empty)).to.not.equal(undefined)
    expect(isPlainTransfer(transaction, direct, env)).to.equal(true)
    runPlainTransfer(transaction, direct, TEST_BLOCK, { gasUsed: 0n, logCount: 0 }, ETHEREUM_FEE_RULES, undefined)
    await runInEVM(transaction, viaEVM, TEST_BLOCK, { gasUsed: 0n, logCount: 0 }, env, undefined)
    for (const state of [direct, viaEVM]) {
      expect(heldAccount(state, empty)).to.equal(undefined)
      expect(heldAccount(state, TEST_BLOCK.coinbase)).to.equal(undefined)
    }
    expect(observed([direct, viaEVM])[0]).to.deep.equal(observed([direct, viaEVM])[1])
  })

  it('precompiles and accounts with code are not plain transfers', async () => {
    const chain = await createChain()
    const alice = signer(chain, 0)
    const env = executionEnvironment()
    const raw = hexToBytes(await alice.sign({ to: '0x0000000000000000000000000000000000000004', value: 1n, gas: 30000n }))
    const transaction = decodeTransaction(raw, hashTransaction(raw), env.transactionCommon, 31337n)
    expect(isPlainTransfer(transaction, fundedState([alice.address]), env)).to.equal(false)
  })

  it('refuses a transaction whose nonce no longer follows the state, without touching it', async () => {
    const chain = await createChain()
    const alice = signer(chain, 0)
    const env = executionEnvironment()
    const raw = hexToBytes(await alice.sign({ to: chain.accounts[1].address, nonce: 3 }))
    const transaction = decodeTransaction(raw, hashTransaction(raw), env.transactionCommon, 31337n)
    const state = fundedState([alice.address])
    let error: unknown
    try {
      await runTransaction(transaction, state, TEST_BLOCK, { gasUsed: 0n, logCount: 0 }, env)
    } catch (caught) {
      error = caught
    }
    expect(error).to.be.instanceOf(UnexecutableTransactionError)
    expect(state.accounts.size).to.equal(0)
  })

  it('the KZG point-evaluation precompile (no trusted setup shipped) fails cleanly: call -32000, transaction status 0, the chain goes on', async () => {
    const chain = await createChain()
    const pointEvaluation = '0x000000000000000000000000000000000000000a'
    let code: number | undefined
    try {
      await chain.call({ to: pointEvaluation, data: '0x01' })
    } catch (error) {
      code = (error as { code: number }).code
    }
    expect(code).to.equal(-32000)
    const hash = await chain.sendRawTransaction(await signer(chain, 0).sign({ to: pointEvaluation, data: '0x01', gas: 100_000n }))
    const tick = await chain.tick()
    expect(tick.transactions.map(({ transaction }) => transaction.hash)).to.deep.equal([hash])
    expect(tick.transactions[0].receipt.status).to.equal(0)
  })

  it('a zero-fee, zero-value transaction from an address that has no account runs at base fee 0 (impersonated)', async () => {
    const chain = await createChain({ initialBaseFee: 0 })
    const ghost = '0x00000000000000000000000000000000000000bb'
    chain.impersonateAccount(ghost)
    await chain.request({ method: 'eth_sendTransaction', params: [{ from: ghost, to: chain.accounts[1].address, gasPrice: '0x0', gas: '0x5208' }] })
    const tick = await chain.tick()
    expect(tick.transactions).to.have.length(1)
    expect(tick.dropped).to.deep.equal([])
    expect(await chain.getTransactionCount(ghost, 'pending')).to.equal(1)
  })
})
