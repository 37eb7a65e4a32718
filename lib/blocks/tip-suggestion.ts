/**
 * The priority fee suggested to wallets after the latest block (`eth_maxPriorityFeePerGas`, and
 * in `eth_gasPrice` over the base fee): Anvil's on an Ethereum chain, op-reth's (Base's node) on
 * an OP-stack one. Each is worked out once per block.
 */
import type { SealedBlock } from './block.ts'
import type { TransactionReceipt } from './receipt.ts'

/** Anvil's floor on its suggestion, and the tip it fills in: 1 gwei (anvil `MIN_SUGGESTED_PRIORITY_FEE`). */
export const ANVIL_MINIMUM_TIP = 1_000_000_000n
/** op-reth's `--rollup.min-suggested-priority-fee` default: 0.001 gwei (op-geth's `DefaultMinSuggestedPriorityFee` too). */
const OP_STACK_MINIMUM_TIP = 1_000_000n
/** reth's gas price oracle's cap on a suggestion: 500 gwei (`DEFAULT_MAX_GAS_PRICE`). */
const RETH_MAXIMUM_TIP = 500_000_000_000n

/** The tip per gas a receipt's transaction paid over `baseFeePerGas`; undefined for one priced under it (an OP-stack deposit pays no gas price), as reth's `effective_tip_per_gas`. */
export function tipPaid(receipt: TransactionReceipt, baseFeePerGas: bigint): bigint | undefined {
  return receipt.effectiveGasPrice >= baseFeePerGas ? receipt.effectiveGasPrice - baseFeePerGas : undefined
}

/** The effective tips the block's transactions paid, ascending, those that paid none left out. */
function tipsPaid(block: SealedBlock): bigint[] {
  const tips: bigint[] = []
  for (const { receipt } of block.transactions) {
    const tip = tipPaid(receipt, block.header.baseFeePerGas)
    if (tip !== undefined) tips.push(tip)
  }
  return tips.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
}

/** `suggest` memoized per block (a sealed block never changes). */
function oncePerBlock(suggest: (block: SealedBlock) => bigint): (block: SealedBlock) => bigint {
  const suggestions = new WeakMap<SealedBlock, bigint>()
  return (block) => {
    let suggestion = suggestions.get(block)
    if (suggestion === undefined) suggestions.set(block, (suggestion = suggest(block)))
    return suggestion
  }
}

/**
 * Anvil's suggestion (anvil `lowest_suggestion_tip`, over its fee history's percentile 0): the
 * lowest effective tip paid in the latest block, at least 1 gwei; 1 gwei after an empty block.
 */
export const anvilSuggestedTip = oncePerBlock((latest) => {
  const [lowest] = tipsPaid(latest)
  return lowest !== undefined && lowest > ANVIL_MINIMUM_TIP ? lowest : ANVIL_MINIMUM_TIP
})

/**
 * op-reth's `op_suggest_tip_cap` (Base's node; op-geth's `SuggestOptimismPriorityFee` alike): the
 * minimum, 0.001 gwei, unless the latest block was at capacity (its gas used plus its largest
 * transaction's gas past the limit); then the median tip paid plus 10 %, if that is more; never
 * above 500 gwei.
 */
export const opStackSuggestedTip = oncePerBlock((latest) => {
  let largest = 0n
  for (const { receipt } of latest.transactions) if (receipt.gasUsed > largest) largest = receipt.gasUsed
  let suggestion = OP_STACK_MINIMUM_TIP
  const tips = tipsPaid(latest)
  if (latest.header.gasUsed + largest > latest.header.gasLimit && tips.length > 0) {
    const middle = tips.length >> 1
    const median = tips.length % 2 === 1 ? tips[middle] : (tips[middle - 1] + tips[middle]) / 2n
    const raised = median + median / 10n
    if (raised > suggestion) suggestion = raised
  }
  return suggestion > RETH_MAXIMUM_TIP ? RETH_MAXIMUM_TIP : suggestion
})
