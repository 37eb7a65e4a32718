/** EIP-1559 base fee: the next block's from its parent's gas usage. */

/** EIP-1559's parameters: the gas target is the gas limit over the elasticity; the base fee moves by at most 1/denominator per block. */
export interface BaseFeeParameters {
  readonly elasticity: bigint
  readonly denominator: bigint
}

/** Ethereum's: elasticity 2, denominator 8. */
export const ETHEREUM_BASE_FEE: BaseFeeParameters = { elasticity: 2n, denominator: 8n }

/** The base fee of the block after one with `gasUsed` of `gasLimit` at `baseFee` (geth's CalcBaseFee; op-geth's with its chain's parameters). */
export function nextBaseFee(baseFee: bigint, gasUsed: bigint, gasLimit: bigint, parameters: BaseFeeParameters = ETHEREUM_BASE_FEE): bigint {
  const target = gasLimit / parameters.elasticity
  if (gasUsed === target) return baseFee
  if (gasUsed > target) {
    const delta = (baseFee * (gasUsed - target)) / target / parameters.denominator
    return baseFee + (delta > 1n ? delta : 1n)
  }
  const delta = (baseFee * (target - gasUsed)) / target / parameters.denominator
  return baseFee - delta
}
