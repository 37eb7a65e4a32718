/**
 * The one configuration every node of the peer benchmark runs with, spelled for each: our
 * `createChain` options, Anvil's flags, Hardhat's network config (in bench/peers/hardhat.ts).
 * Blocks are made only by evm_mine, so that 2000 transactions seal in one block.
 */
import { createChain, type Chain } from 'preconf-devnet'

/** The workload's chain: 20 dev accounts of the usual mnemonic, funded alike. */
export const SETTINGS = {
  chainId: 31337,
  accounts: 20,
  balance: 10_000n * 10n ** 18n,
  /** 2000 ERC-20 transfers to fresh holders take ~100M gas. */
  blockGasLimit: 200_000_000n,
  initialBaseFee: 1_000_000_000n,
  hardfork: 'prague',
} as const

/** The settings as Hardhat's network takes them, with the dev accounts' keys. */
export type NodeSettings = typeof SETTINGS & { readonly privateKeys: readonly `0x${string}`[] }

/** Our chain, in-process, with the settings: no clock-driven ticks or seals (`mining: 'off'`). */
export function createOurs(): Promise<Chain> {
  return createChain({
    chainId: SETTINGS.chainId,
    accounts: SETTINGS.accounts,
    balance: SETTINGS.balance,
    blockGasLimit: SETTINGS.blockGasLimit,
    initialBaseFee: SETTINGS.initialBaseFee,
    hardfork: SETTINGS.hardfork,
    mining: 'off',
    // The HTTP load pools tens of thousands of transfers between seals: above geth's default limits.
    txpool: { globalSlots: 100_000, globalQueue: 100_000 },
  })
}

/** The settings as flags, spelled alike by Anvil and by our CLI (which takes Anvil's names). */
const SETTINGS_FLAGS: readonly string[] = [
  '--chain-id', String(SETTINGS.chainId),
  '--accounts', String(SETTINGS.accounts),
  '--balance', String(SETTINGS.balance / 10n ** 18n),
  '--gas-limit', String(SETTINGS.blockGasLimit),
  '--base-fee', String(SETTINGS.initialBaseFee),
  '--hardfork', SETTINGS.hardfork,
]

/** Anvil's flags for the settings (its default mnemonic is ours): automine off (`--no-mining`). */
export const ANVIL_ARGUMENTS: readonly string[] = [...SETTINGS_FLAGS, '--no-mining']

/** The CLI's flags for the settings, as createOurs has them (ours over HTTP runs as users run it, a process of its own, as Anvil does). */
export const CLI_ARGUMENTS: readonly string[] = [...SETTINGS_FLAGS, '--mining', 'off', '--txpool-global-slots', '100000', '--txpool-global-queue', '100000']
