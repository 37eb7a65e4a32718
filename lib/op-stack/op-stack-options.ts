/**
 * The options of an OP-stack chain, defined once like every option (`createChain({ preset:
 * 'base', opStack: { l1BaseFee, … } })`, the CLI's `--l1-base-fee` and friends): the synthetic
 * L1 the L1-attributes deposits report (its fees and the chain's fee scalars), the operator
 * fee, the EIP-1559 parameters and minimum base fee of the chain, the per-transaction gas
 * cap (EIP-7825) and the chain's batch sender. A preset sets the last five; the L1 defaults are Base-like: an L1 base fee of 1 gwei (Anvil's standalone-Base
 * default), a blob base fee of 1 wei (the EIP-4844 minimum, where Ethereum's has mostly sat),
 * and the fee scalars of the L1-fee test vector in base/base's receipt tests (5,227 and
 * 1,014,213, from an OP Mainnet block of 2024; Base's current ones were not found).
 */
import type { Address } from '../types.ts'
import { address, boolean, define, integer, unsigned } from '../option-definition.ts'
import { BASE_BATCHER } from './presets.ts'

const MAX_U32 = 2 ** 32 - 1

/** The OP-stack options. */
export const opStackOptions = {
  l1BaseFee: define<bigint | number | string, bigint>({
    flag: 'l1-base-fee',
    description: 'base fee of the synthetic L1 the L1-attributes deposits report (wei)',
    defaultText: '1000000000',
    parse: unsigned(256),
    default: () => 1_000_000_000n,
  }),
  l1BlobBaseFee: define<bigint | number | string, bigint>({
    flag: 'l1-blob-base-fee',
    description: 'blob base fee of the synthetic L1 (wei)',
    defaultText: '1',
    parse: unsigned(256),
    default: () => 1n,
  }),
  baseFeeScalar: define<number | bigint, number>({
    flag: 'base-fee-scalar',
    description: 'the L1 fee scalar on the L1 base fee (Ecotone and later)',
    defaultText: '5227',
    parse: integer(0, MAX_U32),
    default: () => 5227,
  }),
  blobBaseFeeScalar: define<number | bigint, number>({
    flag: 'blob-base-fee-scalar',
    description: 'the L1 fee scalar on the L1 blob base fee',
    defaultText: '1014213',
    parse: integer(0, MAX_U32),
    default: () => 1_014_213,
  }),
  operatorFeeScalar: define<number | bigint, number>({
    flag: 'operator-fee-scalar',
    description: 'operator fee per gas, in hundredths of a wei (Jovian: gas x scalar x 100 + constant)',
    defaultText: '0',
    parse: integer(0, MAX_U32),
    default: () => 0,
  }),
  operatorFeeConstant: define<bigint | number | string, bigint>({
    flag: 'operator-fee-constant',
    description: 'operator fee per transaction (wei)',
    defaultText: '0',
    parse: unsigned(64),
    default: () => 0n,
  }),
  eip1559Elasticity: define<number | bigint, number>({
    flag: 'eip1559-elasticity',
    description: 'EIP-1559 elasticity: the gas target is the gas limit divided by it',
    defaultText: "the preset's (Base 6)",
    parse: integer(1, MAX_U32),
    default: () => 6,
  }),
  eip1559Denominator: define<number | bigint, number>({
    flag: 'eip1559-denominator',
    description: 'EIP-1559 base fee change denominator',
    defaultText: "the preset's (Base 125)",
    parse: integer(1, MAX_U32),
    default: () => 125,
  }),
  minBaseFee: define<bigint | number | string, bigint>({
    flag: 'min-base-fee',
    description: 'minimum base fee (Jovian), in wei',
    defaultText: "the preset's (Base 5000000)",
    parse: unsigned(64),
    default: () => 0n,
  }),
  transactionGasCap: define<boolean | string, boolean>({
    flag: 'transaction-gas-cap',
    description: "EIP-7825's cap of 2^24 gas per transaction whatever `--hardfork` (Base has it; deposits are exempt)",
    defaultText: "the preset's (Base true, OP false)",
    parse: boolean,
    default: () => false,
  }),
  batcher: define<string, Address>({
    flag: 'batcher',
    description: "the chain's batch sender, which the L1-attributes deposits report (L1Block's batcherHash)",
    defaultText: `the preset's (Base ${BASE_BATCHER})`,
    parse: address,
    default: () => BASE_BATCHER,
  }),
}
