/**
 * How a chain makes its blocks, where it differs between chains: the next block's base fee from
 * its parent's header, the extraData every block carries, what its withdrawalsRoot commits to,
 * and the tip suggested to wallets after a block.
 */
import { ETHEREUM_BASE_FEE, nextBaseFee } from './base-fee.ts'
import type { Address } from '../types.ts'
import type { SealedBlock } from './block.ts'
import type { BlockHeader } from './header.ts'
import { ANVIL_MINIMUM_TIP, anvilSuggestedTip } from './tip-suggestion.ts'

/** A chain's block rules. */
export interface BlockRules {
  /** The base fee of the block after `parent`. */
  nextBaseFee(parent: Pick<BlockHeader, 'baseFeePerGas' | 'gasUsed' | 'gasLimit' | 'blobGasUsed'>): bigint
  /** What every block's extraData holds. */
  readonly extraData: Uint8Array
  /** The account whose storage root is every block's withdrawalsRoot (Isthmus: the L2ToL1MessagePasser); none, the empty trie's root. */
  readonly withdrawalsAccount?: Address
  /** The priority fee suggested to wallets after `latest` (`eth_maxPriorityFeePerGas`). */
  suggestedTip(latest: SealedBlock): bigint
  /** The gas price suggested to wallets (`eth_gasPrice`): the tip over the base fee of the pending block (Anvil) or of `latest` (geth, reth). */
  suggestedGasPrice(latest: SealedBlock, pendingBaseFee: bigint): bigint
  /** The tip the node's signer fills into a request that names none, after `latest`. */
  filledTip(latest: SealedBlock): bigint
}

/** Ethereum's: EIP-1559 with elasticity 2 and denominator 8, empty extraData; Anvil's tip suggestion, and Anvil's 1 gwei filled in. */
export const ETHEREUM_BLOCK_RULES: BlockRules = {
  nextBaseFee: (parent) => nextBaseFee(parent.baseFeePerGas, parent.gasUsed, parent.gasLimit, ETHEREUM_BASE_FEE),
  extraData: new Uint8Array(0),
  suggestedTip: anvilSuggestedTip,
  suggestedGasPrice: (latest, pendingBaseFee) => pendingBaseFee + anvilSuggestedTip(latest),
  filledTip: () => ANVIL_MINIMUM_TIP,
}
