/**
 * Helpers for the OP-stack client specs: viem clients (with `publicActionsL2`) over an OP-stack
 * preset chain, a log of the requests they send, and the OP-stack arithmetic worked from the
 * formulas (the Fjord L1 fee, the Jovian operator fee, the L1-attributes source hash), not
 * taken from lib/.
 */
import { concatHex, createPublicClient, createWalletClient, custom, hexToBigInt, hexToBytes, keccak256, padHex, sliceHex, toHex, type Chain as ViemChain, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { publicActionsL2 } from 'viem/op-stack'
import { createChain, type Chain, type ChainOptions } from '../../lib/index.ts'
import { flzCompressLength } from './flz-reference.ts'

/** The OP-stack addresses (the OP specs' predeploys and the depositor account), lowercase. */
export const OP = {
  l1Block: '0x4200000000000000000000000000000000000015',
  gasPriceOracle: '0x420000000000000000000000000000000000000f',
  sequencerFeeVault: '0x4200000000000000000000000000000000000011',
  baseFeeVault: '0x4200000000000000000000000000000000000019',
  l1FeeVault: '0x420000000000000000000000000000000000001a',
  operatorFeeVault: '0x420000000000000000000000000000000000001b',
  depositor: '0xdeaddeaddeaddeaddeaddeaddeaddeaddead0001',
} as const

/** The L1 values the fee formulas read (the devnet's defaults: 1 gwei, 1 wei, 5,227, 1,014,213). */
export interface L1Values {
  readonly l1BaseFee: bigint
  readonly l1BlobBaseFee: bigint
  readonly baseFeeScalar: bigint
  readonly blobBaseFeeScalar: bigint
}

/** The devnet's default synthetic L1 (lib/op-stack/op-stack-options.ts documents the same numbers). */
export const DEFAULT_L1: L1Values = { l1BaseFee: 1_000_000_000n, l1BlobBaseFee: 1n, baseFeeScalar: 5227n, blobBaseFeeScalar: 1_014_213n }

/**
 * The Fjord L1 data fee of a transaction whose FastLZ length is `flzLength` (OP specs, "Fjord L1
 * cost"): estimatedSize = max(100e6, −42,585,600 + 836,500 × flzLength) (bytes × 1e6);
 * l1FeeScaled = 16 × baseFeeScalar × l1BaseFee + blobBaseFeeScalar × blobBaseFee;
 * fee = estimatedSize × l1FeeScaled / 1e12; l1GasUsed = estimatedSize × 16 / 1e6.
 */
export function fjordL1Fee(flzLength: number, l1: L1Values = DEFAULT_L1): { fee: bigint; gasUsed: bigint; estimatedSize: bigint } {
  const linear = -42_585_600n + 836_500n * BigInt(flzLength)
  const estimatedSize = linear < 100_000_000n ? 100_000_000n : linear
  const scaled = 16n * l1.baseFeeScalar * l1.l1BaseFee + l1.blobBaseFeeScalar * l1.l1BlobBaseFee
  return { fee: (estimatedSize * scaled) / 10n ** 12n, gasUsed: (estimatedSize * 16n) / 10n ** 6n, estimatedSize }
}

/** The FastLZ length of a serialized transaction (the independent reference implementation). */
export function flzLength(raw: Hex): number {
  return flzCompressLength(hexToBytes(raw))
}

/** The Jovian operator fee of `gas`: gas × scalar × 100 + constant (OP specs, Jovian "operator fee"). */
export function jovianOperatorFee(gas: bigint, scalar: bigint, constant: bigint): bigint {
  return gas * scalar * 100n + constant
}

/**
 * The source hash of an L1-attributes deposit, from its Jovian `setL1BlockValuesJovian` calldata
 * (selector, then packed: baseFeeScalar u32, blobBaseFeeScalar u32, sequenceNumber u64,
 * timestamp u64, number u64, basefee, blobBaseFee, hash, batcherHash, …): OP specs, deposit
 * source hashes, "L1 info deposit": keccak256(bytes32(1) ‖ keccak256(l1BlockHash ‖ bytes32(seq))).
 */
export function l1InfoSourceHash(input: Hex): Hex {
  const sequenceNumber = hexToBigInt(sliceHex(input, 12, 20))
  const l1BlockHash = sliceHex(input, 100, 132)
  const depositId = keccak256(concatHex([l1BlockHash, padHex(toHex(sequenceNumber), { size: 32 })]))
  return keccak256(concatHex([padHex('0x01', { size: 32 }), depositId]))
}

/** One request a client sent: its method and parameters. */
export interface LoggedRequest {
  readonly method: string
  readonly params: readonly unknown[]
}

/**
 * A manual-clock chain with `preset` (and `opStack` parameters), a viem public client over it
 * for `viemChain` extended with `publicActionsL2()`, wallet clients for the dev accounts, and the
 * log of every request the clients sent.
 */
export async function opStackViem<const C extends ViemChain>(viemChain: C, options: ChainOptions) {
  const chain: Chain = await createChain({ clock: 'manual', ...options })
  const requests: LoggedRequest[] = []
  // retryCount 0: a rejected request must surface at once, not after viem's backoff.
  const transport = custom(
    {
      request: (args: { method: string; params?: unknown }) => {
        requests.push({ method: args.method, params: (args.params ?? []) as unknown[] })
        return chain.request(args)
      },
    },
    { retryCount: 0 },
  )
  const publicClient = createPublicClient({ chain: viemChain, transport, pollingInterval: 10 }).extend(publicActionsL2())
  const wallet = (index: number) =>
    createWalletClient({ account: privateKeyToAccount(chain.accounts[index].privateKey), chain: viemChain, transport, pollingInterval: 10 })
  return { chain, publicClient, wallet, requests }
}
