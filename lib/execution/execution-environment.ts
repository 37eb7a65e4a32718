/** The EVM of one chain, with the state adapter it reads through. */
import type { Common } from '@ethereumjs/common'
import type { EVMStateAdapter } from '../state/evm-state-adapter.ts'
import type { DevnetEVM } from './devnet-evm.ts'
import type { FeeRules } from './fee-rules.ts'
import type { LiveChainId } from './live-chain-id.ts'

/** Everything needed to run transactions and calls on a chain. */
export interface ExecutionEnvironment {
  /** The EVM the builder runs transactions on (one run at a time; the call lane's environments carry paced EVMs of their own). */
  readonly evm: DevnetEVM
  /** The EVM's state manager; attach a layer before each run. */
  readonly state: EVMStateAdapter
  /** The Common transactions are decoded with (holds the transaction gas parameters). */
  readonly transactionCommon: Common
  /** The chain id, which `anvil_setChainId` may change: read its `value` when needed (admission, EIP-7702 authorizations). */
  readonly chainId: LiveChainId
  /** Where fees go and what a transaction owes besides its gas (an OP-stack chain's L1 fees). */
  readonly fees: FeeRules
}
