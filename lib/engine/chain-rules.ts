/**
 * What sets one kind of chain apart from another, in one place: how its blocks are made (base
 * fee, extraData), what a transaction pays and to whom, which transactions each
 * pre-confirmation takes, what its genesis holds besides the dev accounts, where its system
 * transactions come from, and which precompiles it adds. A plain chain is Ethereum's; a chain with a preset is an OP
 * stack's (lib/op-stack/op-stack-rules.ts).
 */
import { ETHEREUM_BLOCK_RULES, type BlockRules } from '../blocks/block-rules.ts'
import { IDEAL_POLICY, type BuilderPolicy } from '../builder/policy.ts'
import type { ChainPrecompile } from '../execution/devnet-evm.ts'
import { ETHEREUM_FEE_RULES, type FeeRules } from '../execution/fee-rules.ts'
import type { DepositQueue } from '../op-stack/deposit-queue.ts'
import type { GenesisAccount } from '../state/account.ts'

/** A chain's rules. */
export interface ChainRules {
  readonly blocks: BlockRules
  readonly fees: FeeRules
  readonly policy: BuilderPolicy
  /** The accounts the genesis of chain `chainId` holds besides the dev accounts and the system contracts (an OP-stack chain's predeploys and preinstalls). */
  genesisAccounts(genesisTimestamp: bigint, chainId: bigint): readonly GenesisAccount[]
  /** An OP-stack chain's deposits (its system source); undefined on a plain chain. */
  readonly deposits: DepositQueue | undefined
  /** Precompiles beside the hardfork's (an OP-stack chain's P256VERIFY). */
  readonly precompiles: readonly ChainPrecompile[]
}

/** Ethereum's rules: a plain chain. */
export const ETHEREUM_RULES: ChainRules = {
  blocks: ETHEREUM_BLOCK_RULES,
  fees: ETHEREUM_FEE_RULES,
  policy: IDEAL_POLICY,
  genesisAccounts: () => [],
  deposits: undefined,
  precompiles: [],
}

