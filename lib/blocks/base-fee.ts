/** EIP-1559 base fee: the next block's from its parent's gas usage. */

const ELASTICITY_MULTIPLIER = 2n
const BASE_FEE_MAX_CHANGE_DENOMINATOR = 8n

/** The base fee of the block after one with `gasUsed` of `gasLimit` at `baseFee` (geth's CalcBaseFee). */
export function nextBaseFee(baseFee: bigint, gasUsed: bigint, gasLimit: bigint): bigint {
  const target = gasLimit / ELASTICITY_MULTIPLIER
  if (gasUsed === target) return baseFee
  if (gasUsed > target) {
    const delta = (baseFee * (gasUsed - target)) / target / BASE_FEE_MAX_CHANGE_DENOMINATOR
    return baseFee + (delta > 1n ? delta : 1n)
  }
  const delta = (baseFee * (target - gasUsed)) / target / BASE_FEE_MAX_CHANGE_DENOMINATOR
  return baseFee - delta
}
