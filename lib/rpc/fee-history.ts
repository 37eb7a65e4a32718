/**
 * `eth_feeHistory` as geth answers it: for `blockCount` blocks ending at `newestBlock`, each
 * block's base fee (plus the next one's), gas used ratio and, per requested percentile, the
 * effective tip below which that share of the block's gas was paid. A newest block beyond the
 * head and percentiles out of range or order are geth's -32000s (eth/gasprice/feehistory.go).
 */
import type { IncludedTransaction } from '../blocks/block.ts'
import type { BlockRules } from '../blocks/block-rules.ts'
import { tipPaid } from '../blocks/tip-suggestion.ts'
import { daFootprint } from '../builder/pending-block.ts'
import type { BlockResolver, BlockSelector } from '../engine/block-resolver.ts'
import { RejectedParameterError } from '../errors.ts'
import { BLOB_BASE_FEE } from '../execution/block-context.ts'
import { toQuantity } from './hex.ts'

/** geth's maximum block count per request (more is silently capped). */
const MAX_BLOCK_COUNT = 1024

interface FeeBlock {
  readonly baseFeePerGas: bigint
  readonly gasUsed: bigint
  readonly gasLimit: bigint
  readonly blobGasUsed: bigint
  readonly transactions: readonly IncludedTransaction[]
}

/** A transaction's tip per gas in its block: 0 for one that paid none (an OP-stack deposit), as Base's node (reth) counts it. */
function tipOf({ receipt }: IncludedTransaction, baseFeePerGas: bigint): bigint {
  return tipPaid(receipt, baseFeePerGas) ?? 0n
}

function rewards(block: FeeBlock, percentiles: readonly number[]): bigint[] {
  if (block.transactions.length === 0) return percentiles.map(() => 0n)
  const tips = block.transactions
    .map((transaction) => ({ tip: tipOf(transaction, block.baseFeePerGas), gas: transaction.receipt.gasUsed }))
    .sort((a, b) => (a.tip < b.tip ? -1 : a.tip > b.tip ? 1 : 0))
  const result: bigint[] = []
  let index = 0
  let sum = tips[0].gas
  for (const percentile of percentiles) {
    const threshold = Math.floor((Number(block.gasUsed) * percentile) / 100)
    while (Number(sum) < threshold && index < tips.length - 1) {
      index++
      sum += tips[index].gas
    }
    result.push(tips[index].tip)
  }
  return result
}

/** geth's limit on the percentiles of one request. */
const MAX_PERCENTILES = 100

/** A float as Go's `%f` prints it: six decimals. */
function goFloat(value: number): string {
  return Math.abs(value) < 1e21 ? value.toFixed(6) : `${BigInt(value)}.000000`
}

/** geth's fee oracle's checks (eth/gasprice/feehistory.go): at most 100 percentiles, each in 0..100, strictly ascending; -32000 with its texts. */
function checkPercentiles(percentiles: readonly number[]): void {
  const refuse = (detail: string) => new RejectedParameterError(`invalid reward percentile: ${detail}`)
  if (percentiles.length > MAX_PERCENTILES) throw refuse(`over the query limit ${MAX_PERCENTILES}`)
  percentiles.forEach((percentile, i) => {
    if (percentile < 0 || percentile > 100) throw refuse(goFloat(percentile))
    if (i > 0 && percentile <= percentiles[i - 1]) throw refuse(`#${i - 1}:${goFloat(percentiles[i - 1])} >= #${i}:${goFloat(percentile)}`)
  })
}

/** The `eth_feeHistory` result. */
export function feeHistory(blocks: BlockResolver, rules: BlockRules, blockCount: number, newest: BlockSelector, percentiles: readonly number[]): Record<string, unknown> {
  if (blockCount === 0) return { oldestBlock: '0x0', baseFeePerGas: [], gasUsedRatio: [] }
  checkPercentiles(percentiles)
  if ('number' in newest && newest.number > blocks.headNumber) {
    throw new RejectedParameterError(`request beyond head block: requested ${newest.number}, head ${blocks.headNumber}`)
  }
  const resolved = blocks.resolve(newest)
  const includesPending = resolved.kind === 'pending'
  const last = includesPending ? resolved.block.context.number : resolved.block.header.number
  const count = BigInt(Math.min(blockCount, MAX_BLOCK_COUNT))
  // A fork holds the contents of the blocks after the fork block only (a history up to it is the upstream's).
  const oldest = last + 1n - count > blocks.firstLocalNumber ? last + 1n - count : blocks.firstLocalNumber

  const feeBlocks: FeeBlock[] = []
  for (let number = oldest; number <= last; number++) {
    if (includesPending && number === last) {
      const { context, gasUsed, transactions } = blocks.pending
      feeBlocks.push({ baseFeePerGas: context.baseFeePerGas, gasUsed, gasLimit: context.gasLimit, blobGasUsed: daFootprint(transactions), transactions })
    } else {
      const { header, transactions } = blocks.byNumber(number)!
      feeBlocks.push({ baseFeePerGas: header.baseFeePerGas, gasUsed: header.gasUsed, gasLimit: header.gasLimit, blobGasUsed: header.blobGasUsed, transactions })
    }
  }
  const newestBlock = feeBlocks[feeBlocks.length - 1]
  const baseFees = [...feeBlocks.map((block) => block.baseFeePerGas), rules.nextBaseFee(newestBlock)]
  // geth's field order; `reward` only when percentiles are asked for.
  return {
    oldestBlock: toQuantity(oldest),
    ...(percentiles.length > 0 ? { reward: feeBlocks.map((block) => rewards(block, percentiles).map(toQuantity)) } : {}),
    baseFeePerGas: baseFees.map(toQuantity),
    gasUsedRatio: feeBlocks.map((block) => Number(block.gasUsed) / Number(block.gasLimit)),
    baseFeePerBlobGas: baseFees.map(() => toQuantity(BLOB_BASE_FEE)),
    blobGasUsedRatio: feeBlocks.map(() => 0),
  }
}
