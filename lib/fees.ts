/** The fee cap the node's signer fills in (`eth_sendTransaction`, `eth_fillTransaction`); the tips are the block rules' (`blocks/tip-suggestion.ts`). */

/** A fee cap that survives the base fee doubling: 2 × base fee + tip (what wallets commonly send). */
export function suggestedFeeCap(baseFee: bigint, tip: bigint): bigint {
  return 2n * baseFee + tip
}
