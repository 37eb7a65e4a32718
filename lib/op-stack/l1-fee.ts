/**
 * The L1-fee arithmetic of an OP-stack chain (Base): the fee parameters read from L1Block
 * storage, the Ecotone and Fjord L1 data cost, the Isthmus / Jovian operator fee and Jovian's DA
 * footprint — integer for integer what op-geth (core/types/rollup_cost.go) and base/base compute,
 * dividing exactly where they divide.
 */
import { flzCompressLength } from './fastlz.ts'

/** What an L1-info deposit wrote into L1Block (0x4200…0015), read back from its storage. */
export interface L1FeeParameters {
  /** The L1 base fee (slot 1). */
  readonly l1BaseFee: bigint
  /** The L1 blob base fee (slot 7). */
  readonly l1BlobBaseFee: bigint
  /** Slot 3 bits 96–127. */
  readonly baseFeeScalar: bigint
  /** Slot 3 bits 64–95. */
  readonly blobBaseFeeScalar: bigint
  /** Slot 8 bits 64–95 (Isthmus and later). */
  readonly operatorFeeScalar: bigint
  /** Slot 8 bits 0–63 (Isthmus and later). */
  readonly operatorFeeConstant: bigint
  /** Slot 8 bits 96–111 as stored (Jovian; 0 stays 0 here, `daFootprint` reads it as 400). */
  readonly daFootprintGasScalar: bigint
}

/** An L1 data cost: what the receipt's l1GasUsed and l1Fee say. */
export interface L1Cost {
  readonly l1GasUsed: bigint
  readonly l1Fee: bigint
}

/** The L1Block storage slots the fee parameters live in. */
export const L1_BLOCK_FEE_SLOTS: readonly bigint[] = [1n, 3n, 7n, 8n]

const U16 = 0xffffn
const U32 = 0xffffffffn
const U64 = 0xffffffffffffffffn

/** Parameters from the words of those slots. */
export function l1FeeParametersFrom(words: { readonly slot1: bigint; readonly slot3: bigint; readonly slot7: bigint; readonly slot8: bigint }): L1FeeParameters {
  return {
    l1BaseFee: words.slot1,
    l1BlobBaseFee: words.slot7,
    baseFeeScalar: (words.slot3 >> 96n) & U32,
    blobBaseFeeScalar: (words.slot3 >> 64n) & U32,
    operatorFeeScalar: (words.slot8 >> 64n) & U32,
    operatorFeeConstant: words.slot8 & U64,
    daFootprintGasScalar: (words.slot8 >> 96n) & U16,
  }
}

// Fjord's linear regression from the FastLZ length to the Brotli size, in bytes × 1e6.
const COST_INTERCEPT = -42_585_600n
const COST_FASTLZ_COEF = 836_500n
const MIN_TRANSACTION_SIZE_SCALED = 100_000_000n // 100 bytes
const SCALE = 1_000_000n
const FJORD_DIVISOR = 1_000_000_000_000n
const ECOTONE_DIVISOR = 16_000_000n
/** Jovian's DA footprint gas scalar when the stored one is 0. */
const DEFAULT_DA_FOOTPRINT_GAS_SCALAR = 400n

/** Fjord's estimated size in bytes × 1e6: max(100e6, −42_585_600 + 836_500 · flzLength). */
function estimatedSizeScaled(flzLength: bigint): bigint {
  const estimate = COST_INTERCEPT + COST_FASTLZ_COEF * flzLength
  return estimate < MIN_TRANSACTION_SIZE_SCALED ? MIN_TRANSACTION_SIZE_SCALED : estimate
}

/** baseFeeScalar · l1BaseFee · 16 + blobBaseFeeScalar · l1BlobBaseFee: the L1 fee per estimated byte, × 1e6 (the scalars carry 6 decimals). */
function l1FeeScaled(parameters: L1FeeParameters): bigint {
  return parameters.baseFeeScalar * parameters.l1BaseFee * 16n + parameters.blobBaseFeeScalar * parameters.l1BlobBaseFee
}

/** The Fjord cost of a transaction whose FastLZ length is `flzLength` (op-geth's NewL1CostFuncFjord). */
export function fjordL1CostOfFlzLength(flzLength: bigint, parameters: L1FeeParameters): L1Cost {
  const size = estimatedSizeScaled(flzLength)
  return { l1GasUsed: (size * 16n) / SCALE, l1Fee: (size * l1FeeScaled(parameters)) / FJORD_DIVISOR }
}

/** Fjord and later: over the full signed EIP-2718 envelope `raw`. */
export function fjordL1Cost(raw: Uint8Array, parameters: L1FeeParameters): L1Cost {
  return fjordL1CostOfFlzLength(BigInt(flzCompressLength(raw)), parameters)
}

/** Ecotone (before Fjord): calldata gas of `raw`. */
export function ecotoneL1Cost(raw: Uint8Array, parameters: L1FeeParameters): L1Cost {
  let zeroes = 0
  for (let i = 0; i < raw.length; i++) if (raw[i] === 0) zeroes++
  const calldataGas = BigInt(4 * zeroes + 16 * (raw.length - zeroes))
  return { l1GasUsed: calldataGas, l1Fee: (calldataGas * l1FeeScaled(parameters)) / ECOTONE_DIVISOR }
}

/** The operator fee for `gas` (Isthmus: gas·scalar/1e6 + constant; Jovian: gas·scalar·100 + constant); 0 when scalar and constant are 0. */
export function operatorFee(gas: bigint, parameters: L1FeeParameters, fork: 'isthmus' | 'jovian'): bigint {
  const scaled = gas * parameters.operatorFeeScalar
  return (fork === 'jovian' ? scaled * 100n : scaled / SCALE) + parameters.operatorFeeConstant
}

/** Jovian's DA footprint of a transaction (its blobGasUsed): max(100, estimatedSize/1e6) × daFootprintGasScalar, the scalar 0 meaning 400. */
export function daFootprint(raw: Uint8Array, parameters: L1FeeParameters): bigint {
  return daFootprintOfFlzLength(BigInt(flzCompressLength(raw)), parameters)
}

/** {@link daFootprint} of a transaction whose FastLZ length is `flzLength` (one compression serves both it and the fee). */
export function daFootprintOfFlzLength(flzLength: bigint, parameters: L1FeeParameters): bigint {
  // estimatedSizeScaled is at least 100e6, so its whole bytes are at least 100.
  const scalar = parameters.daFootprintGasScalar === 0n ? DEFAULT_DA_FOOTPRINT_GAS_SCALAR : parameters.daFootprintGasScalar
  return (estimatedSizeScaled(flzLength) / SCALE) * scalar
}

/** What GasPriceOracle.getL1FeeUpperBound(size) answers (Fjord): s = size + 68, flzLen = s + s/255 + 16, then the Fjord fee. */
export function l1FeeUpperBound(unsignedTxSize: bigint, parameters: L1FeeParameters): bigint {
  // The + 68 stands for the signature the unsigned size lacks, as in the contract (and in its
  // getL1Fee, which adds 68 to the FastLZ length of its unsigned argument; fjordL1Cost, over
  // signed bytes, adds nothing). s/255 + 16 is the contract's FastLZ upper bound.
  const size = unsignedTxSize + 68n
  return fjordL1CostOfFlzLength(size + size / 255n + 16n, parameters).l1Fee
}
