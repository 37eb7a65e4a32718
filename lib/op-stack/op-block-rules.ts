/**
 * An OP-stack chain's block rules since Jovian (OP specs `holocene/exec-engine.md`,
 * `jovian/exec-engine.md`; base/base `chainspec/src/basefee.rs`): EIP-1559 with the chain's
 * elasticity and denominator, a minimum base fee, the gas used counted as at least the block's
 * DA footprint, and all three in every block's extraData: `0x01 ‖ denominator u32 ‖
 * elasticity u32 ‖ minBaseFee u64` (17 bytes); Isthmus's withdrawalsRoot, the
 * L2ToL1MessagePasser's storage root; and op-reth's tip suggestion.
 */
import { bigIntToBytes, concatBytes, setLengthLeft } from '@ethereumjs/util'
import { nextBaseFee } from '../blocks/base-fee.ts'
import type { BlockRules } from '../blocks/block-rules.ts'
import { opStackSuggestedTip } from '../blocks/tip-suggestion.ts'
import type { ResolvedOpStackOptions } from '../options.ts'
import { L2_TO_L1_MESSAGE_PASSER } from './predeploys.ts'

/** The Jovian extraData of a chain with these parameters. */
function jovianExtraData(denominator: number, elasticity: number, minBaseFee: bigint): Uint8Array {
  const u32 = (value: number) => setLengthLeft(bigIntToBytes(BigInt(value)), 4)
  return concatBytes(Uint8Array.of(1), u32(denominator), u32(elasticity), setLengthLeft(bigIntToBytes(minBaseFee), 8))
}

/** The block rules of an OP-stack chain with `options`. */
export function opStackBlockRules(options: ResolvedOpStackOptions): BlockRules {
  const parameters = { elasticity: BigInt(options.eip1559Elasticity), denominator: BigInt(options.eip1559Denominator) }
  return {
    nextBaseFee(parent) {
      const gasUsed = parent.blobGasUsed > parent.gasUsed ? parent.blobGasUsed : parent.gasUsed
      const computed = nextBaseFee(parent.baseFeePerGas, gasUsed, parent.gasLimit, parameters)
      return computed > options.minBaseFee ? computed : options.minBaseFee
    },
    extraData: jovianExtraData(options.eip1559Denominator, options.eip1559Elasticity, options.minBaseFee),
    withdrawalsAccount: L2_TO_L1_MESSAGE_PASSER,
    suggestedTip: opStackSuggestedTip,
    // op-reth's (reth's LoadFee::gas_price): the latest block's base fee.
    suggestedGasPrice: (latest) => latest.header.baseFeePerGas + opStackSuggestedTip(latest),
    // op-geth fills a request's tip with its suggestion (SuggestGasTipCap).
    filledTip: opStackSuggestedTip,
  }
}
