/**
 * How a chain makes its blocks, where it differs between chains: the next block's base fee from
 * its parent's header, the extraData every block carries, and what its withdrawalsRoot commits to.
 */
import { ETHEREUM_BASE_FEE, nextBaseFee } from './base-fee.ts'
import type { Address } from '../types.ts'
import type { BlockHeader } from './header.ts'

/** A chain's block rules. */
export interface BlockRules {
  /** The base fee of the block after `parent`. */
  nextBaseFee(parent: Pick<BlockHeader, 'baseFeePerGas' | 'gasUsed' | 'gasLimit' | 'blobGasUsed'>): bigint
  /** What every block's extraData holds. */
  readonly extraData: Uint8Array
  /** The account whose storage root is every block's withdrawalsRoot (Isthmus: the L2ToL1MessagePasser); none, the empty trie's root. */
  readonly withdrawalsAccount?: Address
}

/** Ethereum's: EIP-1559 with elasticity 2 and denominator 8, empty extraData. */
export const ETHEREUM_BLOCK_RULES: BlockRules = {
  nextBaseFee: (parent) => nextBaseFee(parent.baseFeePerGas, parent.gasUsed, parent.gasLimit, ETHEREUM_BASE_FEE),
  extraData: new Uint8Array(0),
}
