/** Fee suggestions for wallets and for `eth_sendTransaction`. */

/** The priority fee suggested to wallets: Anvil's minimum suggestion, 1 gwei. */
export const SUGGESTED_PRIORITY_FEE = 1_000_000_000n

/** A fee cap that survives the base fee doubling: 2 × base fee + tip (what wallets commonly send). */
export function suggestedFeeCap(baseFee: bigint, tip: bigint): bigint {
  return 2n * baseFee + tip
}
