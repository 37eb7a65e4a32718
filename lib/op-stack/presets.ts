/**
 * Chain presets (`--preset base | base-sepolia | op`): an OP-stack chain with the chain id, the
 * block times, the EIP-1559 parameters, the minimum base fee and the batch sender of that chain, the
 * SequencerFeeVault as coinbase, and every fork through Jovian active. Values as of the research
 * note `shared/research/opstack.md` (2026), each with its source below; every one can be
 * overridden by its own option.
 */
import type { Address } from '../types.ts'
import { SEQUENCER_FEE_VAULT } from './predeploys.ts'

/** Base's batch sender (base/docs `base-contracts.mdx`). */
export const BASE_BATCHER: Address = '0x5050f69a9786f081509234f1a7f4684b5e5b76c9'

/** The presets' names. */
export type PresetName = 'base' | 'base-sepolia' | 'op'

/** What a preset sets: chain options and OP-stack parameters (each an option's input). */
export interface Preset {
  readonly chain: {
    readonly chainId: number
    readonly blockTimeMs: number
    readonly preconfIntervalMs: number
    readonly coinbase: Address
    readonly blockGasLimit: bigint
    readonly initialBaseFee: bigint
  }
  readonly opStack: {
    readonly eip1559Elasticity: number
    readonly eip1559Denominator: number
    readonly minBaseFee: bigint
    readonly transactionGasCap: boolean
    readonly batcher: Address
  }
}

/** The presets, by name. */
export const PRESETS: Readonly<Record<PresetName, Preset>> = {
  // Base mainnet (base/docs `throughput-and-limits.mdx`, `configuration-changelog.mdx`):
  // elasticity 6, denominator 125 since 2026-02-04, minimum base fee 5,000,000 wei, blocks of
  // about 400M gas every 2 s, flashblocks every 200 ms, and a cap of 2^24 gas per transaction.
  base: {
    chain: { chainId: 8453, blockTimeMs: 2000, preconfIntervalMs: 200, coinbase: SEQUENCER_FEE_VAULT, blockGasLimit: 400_000_000n, initialBaseFee: 5_000_000n },
    opStack: { eip1559Elasticity: 6, eip1559Denominator: 125, minBaseFee: 5_000_000n, transactionGasCap: true, batcher: BASE_BATCHER },
  },
  // Base Sepolia (base/base `configs/base-sepolia.toml`: elasticity 10, denominator 250 from
  // Canyon; base/docs `network-fees.mdx`: minimum base fee 200,000 wei). Its gas limit is taken
  // to be mainnet's. Batch sender: base/docs `base-contracts.mdx`.
  'base-sepolia': {
    chain: { chainId: 84532, blockTimeMs: 2000, preconfIntervalMs: 200, coinbase: SEQUENCER_FEE_VAULT, blockGasLimit: 400_000_000n, initialBaseFee: 200_000n },
    opStack: { eip1559Elasticity: 10, eip1559Denominator: 250, minBaseFee: 200_000n, transactionGasCap: true, batcher: '0x6cdebe940bc0f26850285caca097c11c33103e47' },
  },
  // OP Mainnet (Foundry's `optimism.rs` and the OP superchain registry: elasticity 6,
  // denominator 250 since Canyon; no minimum base fee configured). Gas limit 40M. Batch sender:
  // op-node's OP Mainnet rollup config (`BatcherAddr`).
  op: {
    chain: { chainId: 10, blockTimeMs: 2000, preconfIntervalMs: 200, coinbase: SEQUENCER_FEE_VAULT, blockGasLimit: 40_000_000n, initialBaseFee: 1_000_000n },
    opStack: { eip1559Elasticity: 6, eip1559Denominator: 250, minBaseFee: 0n, transactionGasCap: false, batcher: '0x6887246668a3b87f54deb3b94ba47a6f63f32985' },
  },
}
