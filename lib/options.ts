/**
 * Every option of a chain, defined once as data: its default, CLI flag, description and parser.
 * The library's option types, the CLI flags, `--help` and the README's table all derive from
 * these definitions.
 */
import { DEFAULT_MNEMONIC } from './accounts/dev-accounts.ts'
import { wallTimeMs, type ClockMode } from './clock/clock.ts'
import type { Hardfork } from './execution/common.ts'
import { faultOptions, maxTickJitterMs, profileOptions, type FaultSwitches, type ProfileName } from './faults/fault-options.ts'
import { profileSwitches } from './faults/profiles.ts'
import { callOptions } from './execution/call-options.ts'
import { forkOptions } from './fork/fork-options.ts'
import { opStackOptions } from './op-stack/op-stack-options.ts'
import { txpoolOptions } from './txpool/pool-options.ts'
import { historyOptions } from './state/history-options.ts'
import { PRESETS, type PresetName } from './op-stack/presets.ts'
import { address, define, ether, integer, invalid, oneOf, text, unsigned, type OptionDefinition } from './option-definition.ts'
import type { StateInput } from './persistence/state-encoding.ts'
import type { Address } from './types.ts'

export type { OptionDefinition } from './option-definition.ts'

/**
 * `interval`: pre-confirmation ticks and seals follow the clock. `instant`: each accepted
 * transaction is pre-confirmed before `sendRawTransaction` returns; seals still follow the clock.
 * `auto`: each is pre-confirmed and sealed in its own block at once, and the clock seals nothing
 * (Hardhat's automine). `off`: nothing happens until a tick or a block is asked for
 * (`preconf_tick`, `evm_mine`; Anvil's `evm_setIntervalMining(0)`).
 */
export type MiningMode = 'interval' | 'instant' | 'auto' | 'off'

/** The JSON-RPC code of an `execution reverted` error: Base's documented -32000, or geth's and Anvil's 3. */
export type RevertCode = -32000 | 3

/** The default genesis timestamp under the manual clock: 2025-01-01T00:00:00Z. */
const MANUAL_GENESIS_TIMESTAMP = 1_735_689_600

/** The options of a chain. */
export const chainOptions = {
  chainId: define<number, number>({
    flag: 'chain-id',
    description: 'EIP-155 chain id',
    defaultText: '31337',
    parse: integer(1),
    default: () => 31337,
  }),
  clock: define<ClockMode, ClockMode>({
    flag: 'clock',
    description: 'manual: time moves only when advanced; realtime: it follows the wall clock',
    defaultText: 'manual (library), realtime (CLI)',
    parse: oneOf('manual', 'realtime'),
    default: () => 'manual',
    cliDefault: 'realtime',
  }),
  accounts: define<number, number>({
    flag: 'accounts',
    description: "dev accounts derived from the mnemonic (m/44'/60'/0'/0/i) and funded",
    defaultText: '10',
    parse: integer(0, 100_000),
    default: () => 10,
  }),
  balance: define<bigint | number | string, bigint>({
    flag: 'balance',
    description: 'ether given to each dev account at genesis',
    defaultText: '10000',
    parse: ether,
    default: () => 10_000n * 10n ** 18n,
  }),
  mnemonic: define<string, string>({
    flag: 'mnemonic',
    description: 'BIP-39 mnemonic of the dev accounts',
    defaultText: `"${DEFAULT_MNEMONIC}"`,
    parse: text,
    default: () => DEFAULT_MNEMONIC,
  }),
  preconfIntervalMs: define<number, number>({
    flag: 'preconf-interval',
    description: 'milliseconds between pre-confirmation ticks (flashblocks)',
    defaultText: '200',
    parse: integer(1),
    default: () => 200,
  }),
  blockTimeMs: define<number, number>({
    flag: 'block-time',
    description: 'milliseconds between sealed blocks',
    defaultText: '2000',
    parse: integer(1),
    default: () => 2000,
  }),
  blockGasLimit: define<bigint | number | string, bigint>({
    flag: 'gas-limit',
    description: 'gas limit of every block',
    defaultText: '30000000',
    parse: unsigned(64),
    default: () => 30_000_000n,
  }),
  initialBaseFee: define<bigint | number | string, bigint>({
    flag: 'base-fee',
    description: "base fee of the genesis block, in wei; EIP-1559 moves it from there, so block 1's is 875000000 by default, as in geth and Hardhat (Anvil's block 1 keeps the genesis's)",
    defaultText: '1000000000',
    parse: unsigned(256),
    default: () => 1_000_000_000n,
  }),
  hardfork: define<Hardfork, Hardfork>({
    flag: 'hardfork',
    description: 'EVM rules: cancun | prague | osaka',
    defaultText: 'prague',
    parse: oneOf<Hardfork>('cancun', 'prague', 'osaka'),
    default: () => 'prague',
  }),
  coinbase: define<string, Address>({
    flag: 'coinbase',
    description: 'fee recipient of every block (receives the priority fees)',
    defaultText: '0xc014ba5ec014ba5ec014ba5ec014ba5ec014ba5e',
    parse: address,
    default: () => '0xc014ba5ec014ba5ec014ba5ec014ba5ec014ba5e',
  }),
  genesisTimestamp: define<number, number>({
    flag: 'timestamp',
    description: 'genesis timestamp in seconds; the clock starts there',
    defaultText: `${MANUAL_GENESIS_TIMESTAMP} (manual clock), the current time (realtime)`,
    parse: integer(0),
    default: ({ clock }) => (clock === 'manual' ? MANUAL_GENESIS_TIMESTAMP : Math.floor(wallTimeMs() / 1000)),
  }),
  mining: define<MiningMode, MiningMode>({
    flag: 'mining',
    description: 'interval: ticks and seals follow the clock; instant: each accepted tx is pre-confirmed at once; auto: each is pre-confirmed and sealed at once (Hardhat automine); off: only preconf_tick and evm_mine make blocks',
    defaultText: 'interval',
    parse: oneOf<MiningMode>('interval', 'instant', 'auto', 'off'),
    default: () => 'interval',
  }),
  safeLag: define<number, number>({
    flag: 'safe-lag',
    description: "blocks by which the 'safe' tag trails 'latest' (clamped to genesis; Anvil: 32)",
    defaultText: '32',
    parse: integer(0),
    default: () => 32,
  }),
  finalizedLag: define<number, number>({
    flag: 'finalized-lag',
    description: "blocks by which the 'finalized' tag trails 'latest' (clamped to genesis; Anvil: 64)",
    defaultText: '64',
    parse: integer(0),
    default: () => 64,
  }),
  preset: define<PresetName, PresetName | undefined>({
    flag: 'preset',
    description: "base | base-sepolia | op: an OP-stack chain like that one (its chain id, block times, EIP-1559 parameters and minimum base fee; deposits, the L1 data fee, the predeploys); it runs the EVM rules of `--hardfork`, with Base's cap of 2^24 gas per transaction (EIP-7825) on the Base presets (`--transaction-gas-cap`)",
    defaultText: 'none (a plain chain)',
    parse: oneOf<PresetName>('base', 'base-sepolia', 'op'),
    default: () => undefined,
  }),
  ...profileOptions,
  ...historyOptions,
  revertCode: define<RevertCode | `${RevertCode}`, RevertCode>({
    flag: 'revert-code',
    description: 'JSON-RPC code of a revert: -32000 (Base\'s docs) or 3 (geth and Anvil; cast decodes the revert data only then)',
    defaultText: '-32000',
    parse: (value, name) => {
      const code = typeof value === 'string' ? Number(value.trim()) : value
      if (code !== -32000 && code !== 3) throw invalid(name, '3 | -32000', value)
      return code
    },
    default: () => -32000,
  }),
  ...callOptions,
}

type Definitions = typeof chainOptions
type ForkDefinitions = typeof forkOptions
type OpStackDefinitions = typeof opStackOptions
type FaultDefinitions = typeof faultOptions
type TxPoolDefinitions = typeof txpoolOptions
type InputOf<D> = D extends OptionDefinition<infer Input, unknown> ? Input : never
type ValueOf<D> = D extends OptionDefinition<unknown, infer Value> ? Value : never

/** Options of a fork: `url` is required, the rest optional (see `forkOptions` for each default). */
export type ForkOptions = { url: string } & { [K in Exclude<keyof ForkDefinitions, 'url'>]?: InputOf<ForkDefinitions[K]> }

/** A fork's options with every default applied. */
export type ResolvedForkOptions = { readonly [K in keyof ForkDefinitions]: ValueOf<ForkDefinitions[K]> }

/** An OP-stack chain's parameters (with a `preset`): every field optional (see `opStackOptions`). */
export type OpStackOptions = { [K in keyof OpStackDefinitions]?: InputOf<OpStackDefinitions[K]> }

/** An OP-stack chain's parameters with every default (the preset's, then the option's) applied. */
export type ResolvedOpStackOptions = { readonly [K in keyof OpStackDefinitions]: ValueOf<OpStackDefinitions[K]> }

/** Fault switches (see `faultOptions`): every field optional, each overriding the profile's value. */
export type FaultOptions = { [K in keyof FaultDefinitions]?: InputOf<FaultDefinitions[K]> }

/** The transaction pool's limits: every field optional (see `txpoolOptions`, geth's defaults). */
export type TxPoolOptions = { [K in keyof TxPoolDefinitions]?: InputOf<TxPoolDefinitions[K]> }

/** The transaction pool's limits with every default applied. */
export type ResolvedTxPoolOptions = { readonly [K in keyof TxPoolDefinitions]: ValueOf<TxPoolDefinitions[K]> }

/** Options of `createChain`; every field is optional (see `chainOptions` for each default). */
export type ChainOptions = { [K in keyof Definitions]?: InputOf<Definitions[K]> } & {
  /** Fork a live chain (`--fork-url`): see `forkOptions`. */
  fork?: ForkOptions
  /** The parameters of an OP-stack chain (with `preset`): see `opStackOptions`. */
  opStack?: OpStackOptions
  /** The failure modes of real pre-confirmation nodes, each switch on its own (over `profile`): see `faultOptions`. */
  faults?: FaultOptions
  /** The transaction pool's limits (`--txpool-*`): see `txpoolOptions`. */
  txpool?: TxPoolOptions
  /** Start from a state dump (`chain.dumpState()`, `anvil_dumpState`, a `--dump-state` file): hex, JSON text, bytes or the parsed object. */
  state?: StateInput
}

/** Options with every default applied and every value checked. */
export type ResolvedChainOptions = { readonly [K in keyof Definitions]: ValueOf<Definitions[K]> } & {
  /** The fork's options, or undefined for a fresh chain. */
  readonly fork: ResolvedForkOptions | undefined
  /** The OP-stack parameters (a chain with a preset), or undefined for a plain chain. */
  readonly opStack: ResolvedOpStackOptions | undefined
  /** The fault switches: the profile's, each given one over it. */
  readonly faults: FaultSwitches
  /** The transaction pool's limits. */
  readonly txpool: ResolvedTxPoolOptions
}

/** Applies each definition's parser to the given values and its default to the rest. */
function resolveGroup(definitions: Record<string, OptionDefinition<never, unknown>>, given: Record<string, unknown>, clock: ClockMode, prefix: string): Record<string, unknown> {
  for (const name of Object.keys(given)) {
    if (!(name in definitions)) throw new TypeError(`unknown option ${prefix}${name}`)
  }
  const resolved: Record<string, unknown> = {}
  for (const [name, definition] of Object.entries(definitions)) {
    const value = given[name]
    resolved[name] = value === undefined ? definition.default({ clock }) : definition.parse(value as never, `${prefix}${name}`)
  }
  return resolved
}

/** The entries of `given` that are not undefined (an undefined option is not given). */
function definedOnly(given: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined))
}

function resolveFork(fork: unknown, clock: ClockMode): ResolvedForkOptions | undefined {
  if (fork === undefined) return undefined
  if (typeof fork !== 'object' || fork === null || (fork as { url?: unknown }).url === undefined) throw invalid('fork', '{ url, blockNumber?, cache?, retries?, timeoutMs? }', fork)
  return resolveGroup(forkOptions, fork as Record<string, unknown>, clock, 'fork.') as ResolvedForkOptions
}

/** Applies defaults and checks every given value; unknown options are an error. */
export function resolveChainOptions(options: ChainOptions = {}): ResolvedChainOptions {
  // A state is read by openChain (lib/open-chain.ts), which resolves the options around it.
  const { fork, state: _state, opStack, faults, txpool, ...rest } = options
  const clock = options.clock === undefined ? 'manual' : chainOptions.clock.parse(options.clock, 'clock')
  // A preset's values are defaults: each option given overrides its own.
  const preset = rest.preset === undefined ? undefined : PRESETS[chainOptions.preset.parse(rest.preset, 'preset')!]
  const resolved = resolveGroup(chainOptions, { ...preset?.chain, ...definedOnly(rest) }, clock, '')
  resolved.fork = resolveFork(fork, clock)
  if (opStack !== undefined && preset === undefined) throw new TypeError("invalid options: opStack parameters need a preset (preset: 'base', 'base-sepolia' or 'op')")
  resolved.opStack = preset === undefined ? undefined : resolveGroup(opStackOptions, { ...preset.opStack, ...definedOnly(opStack ?? {}) }, clock, 'opStack.')
  const profile = profileSwitches(resolved.profile as ProfileName, resolved.preconfIntervalMs as number)
  resolved.faults = resolveGroup(faultOptions, { ...profile, ...definedOnly(faults ?? {}) }, clock, 'faults.')
  if ((resolved.faults as FaultSwitches).tickJitterMs > maxTickJitterMs(resolved.preconfIntervalMs as number)) {
    throw new TypeError(`invalid options: faults.tickJitterMs (${(resolved.faults as FaultSwitches).tickJitterMs}) must not exceed half the tick interval (${resolved.preconfIntervalMs} ms), or ticks would change order`)
  }
  resolved.txpool = resolveGroup(txpoolOptions, definedOnly(txpool ?? {}), clock, 'txpool.')
  if ((resolved.preconfIntervalMs as number) > (resolved.blockTimeMs as number)) {
    throw new TypeError(
      `invalid options: preconfIntervalMs (${resolved.preconfIntervalMs}) must not exceed blockTimeMs (${resolved.blockTimeMs}), or no pre-confirmation would ever run`,
    )
  }
  return resolved as ResolvedChainOptions
}
