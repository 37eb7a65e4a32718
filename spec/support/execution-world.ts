/**
 * What the execution specs run transactions in: a block context and an execution environment
 * on Prague at chain 31337, as the builder hands them to `runTransaction`, and a state whose
 * given accounts hold 100 ETH.
 */
import { parseEther } from 'viem'
import type { TransactionReceipt } from '../../lib/blocks/receipt.ts'
import type { BlockContext } from '../../lib/execution/block-context.ts'
import { createExecutionCommon, createTransactionCommon } from '../../lib/execution/common.ts'
import { createDevnetEVM } from '../../lib/execution/devnet-evm.ts'
import type { ExecutionEnvironment } from '../../lib/execution/execution-environment.ts'
import { ETHEREUM_FEE_RULES } from '../../lib/execution/fee-rules.ts'
import { LiveChainId } from '../../lib/execution/live-chain-id.ts'
import { runTransaction } from '../../lib/execution/run-transaction.ts'
import { withAccountFields } from '../../lib/state/account.ts'
import { EVMStateAdapter } from '../../lib/state/evm-state-adapter.ts'
import { StateHistory } from '../../lib/state/state-history.ts'
import { StateLayer } from '../../lib/state/state-layer.ts'
import { EMPTY_STATE_SOURCE } from '../../lib/state/state-source.ts'
import type { Transaction } from '../../lib/transactions/transaction.ts'
import type { Address } from '../../lib/types.ts'

/** Block 1, a 0.875 gwei base fee, a 30M gas limit. */
export const TEST_BLOCK: BlockContext = {
  number: 1n,
  timestamp: 1_735_689_602n,
  baseFeePerGas: 875_000_000n,
  gasLimit: 30_000_000n,
  coinbase: '0xc014ba5ec014ba5ec014ba5ec014ba5ec014ba5e',
  prevRandao: new Uint8Array(32),
}

/** A fresh environment on Prague at chain 31337, its EVM answering no block hashes. */
export function executionEnvironment(): ExecutionEnvironment {
  const state = new EVMStateAdapter()
  return {
    evm: createDevnetEVM(createExecutionCommon(31337, 'prague'), state, () => undefined),
    state,
    transactionCommon: createTransactionCommon(31337, 'prague'),
    chainId: new LiveChainId(31337n),
    fees: ETHEREUM_FEE_RULES,
  }
}

/** A state layer over a history in which each of `accounts` holds 100 ETH. */
export function fundedState(accounts: readonly Address[]): StateLayer {
  const history = new StateHistory(EMPTY_STATE_SOURCE)
  for (const address of accounts) history.putAccount(0, address.toLowerCase() as Address, withAccountFields(undefined, { balance: parseEther('100') }))
  return new StateLayer(history.latest)
}

/** Runs `transactions` in order on `state` in block {@link TEST_BLOCK}, as the builder runs a block's, and gives their receipts. */
export async function runInOrder(transactions: readonly Transaction[], state: StateLayer, env: ExecutionEnvironment): Promise<TransactionReceipt[]> {
  const receipts: TransactionReceipt[] = []
  let position = { gasUsed: 0n, logCount: 0 }
  for (const transaction of transactions) {
    const receipt = await runTransaction(transaction, state, TEST_BLOCK, position, env)
    position = { gasUsed: receipt.cumulativeGasUsed, logCount: 0 }
    receipts.push(receipt)
  }
  return receipts
}
