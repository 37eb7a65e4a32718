/**
 * Every option of a chain, defined once as data: its default, CLI flag, description and parser.
 * The library's option types, the CLI flags, `--help` and the README's table all derive from
 * these definitions.
 */
import { DEFAULT_MNEMONIC } from './accounts/dev-accounts.ts'
import { wallTimeMs, type ClockMode } from './clock/clock.ts'
import type { Hardfork } from './execution/common.ts'
import type { Address } from './types.ts'

/** One option. `Input` is what callers may pass, `Value` what the chain uses. */
export interface OptionDefinition<Input, Value> {
  /** The CLI flag, without dashes. */
  readonly flag: string
  /** One line for `--help` and the README. */
  readonly description: string
  /** The default, as shown in `--help` and the README. */
  readonly defaultText: string
  /** Parses a value given by a caller or a CLI string; throws a TypeError naming the option. */
  readonly parse: (value: Input | string, name: string) => Value
  /** The value used when the option is not given (may depend on the clock mode). */
  readonly default: (context: { clock: ClockMode }) => Value
  /** The CLI's default, where it differs from the library's. */
  readonly cliDefault?: Value
}

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

function invalid(name: string, expected: string, value: unknown): TypeError {
  return new TypeError(`invalid option ${name}: expected ${expected}, got ${typeof value === 'string' ? `"${value}"` : String(value)}`)
}

function integer(min: number, max = Number.MAX_SAFE_INTEGER) {
  return (value: number | string, name: string): number => {
    const number = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value
    if (typeof number !== 'number' || !Number.isSafeInteger(number) || number < min || number > max) {
      throw invalid(name, `an integer from ${min}${max === Number.MAX_SAFE_INTEGER ? '' : ` to ${max}`}`, value)
    }
    return number
  }
}

function wei(value: bigint | number | string, name: string): bigint {
  if (typeof value === 'bigint' && value >= 0n) return value
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value)
  if (typeof value === 'string' && /^\d+$/.test(value.trim())) return BigInt(value.trim())
  throw invalid(name, 'a non-negative integer amount', value)
}

/** Decimal ether (`"10000"`, `0.5`, `1000n`) to wei. */
function ether(value: bigint | number | string, name: string): bigint {
  const text = typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : `${value}`
  const match = /^(\d+)(?:\.(\d{1,18}))?$/.exec(text)
  if ((typeof value === 'bigint' && value < 0n) || match === null) throw invalid(name, 'a non-negative amount of ether', value)
  return BigInt(match[1]) * 10n ** 18n + BigInt((match[2] ?? '').padEnd(18, '0'))
}

function oneOf<T extends string>(...choices: T[]) {
  return (value: T | string, name: string): T => {
    if (!choices.includes(value as T)) throw invalid(name, choices.join(' | '), value)
    return value as T
  }
}

function address(value: string, name: string): Address {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(value)) throw invalid(name, 'a 20-byte hex address', value)
  return value.toLowerCase() as Address
}

function text(value: string, name: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw invalid(name, 'a non-empty string', value)
  return value.trim()
}

function define<Input, Value>(definition: OptionDefinition<Input, Value>): OptionDefinition<Input, Value> {
  return definition
}

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
    parse: wei,
    default: () => 30_000_000n,
  }),
  initialBaseFee: define<bigint | number | string, bigint>({
    flag: 'base-fee',
    description: 'base fee of the first block, in wei (EIP-1559 moves it from there)',
    defaultText: '1000000000',
    parse: wei,
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
}

/** The options of the `preconf-devnet` command beyond the chain's. */
export const serverOptions = {
  host: define<string, string>({
    flag: 'host',
    description: 'interface to listen on (loopback only by default)',
    defaultText: '127.0.0.1',
    parse: text,
    default: () => '127.0.0.1',
  }),
  port: define<number, number>({
    flag: 'port',
    description: 'port for HTTP and WebSocket JSON-RPC; 0 picks a free port',
    defaultText: '8545',
    parse: integer(0, 65535),
    default: () => 8545,
  }),
}

type Definitions = typeof chainOptions
type InputOf<D> = D extends OptionDefinition<infer Input, unknown> ? Input : never
type ValueOf<D> = D extends OptionDefinition<unknown, infer Value> ? Value : never

/** Options of `createChain`; every field is optional (see `chainOptions` for each default). */
export type ChainOptions = { [K in keyof Definitions]?: InputOf<Definitions[K]> }

/** Options with every default applied and every value checked. */
export type ResolvedChainOptions = { readonly [K in keyof Definitions]: ValueOf<Definitions[K]> }

/** Applies defaults and checks every given value; unknown options are an error. */
export function resolveChainOptions(options: ChainOptions = {}): ResolvedChainOptions {
  for (const name of Object.keys(options)) {
    if (!(name in chainOptions)) throw new TypeError(`unknown option ${name}`)
  }
  const clock = options.clock === undefined ? 'manual' : chainOptions.clock.parse(options.clock, 'clock')
  const resolved: Record<string, unknown> = {}
  for (const [name, definition] of Object.entries(chainOptions) as Array<[keyof Definitions, OptionDefinition<unknown, unknown>]>) {
    const given = options[name]
    resolved[name] = given === undefined ? definition.default({ clock }) : definition.parse(given, name)
  }
  if ((resolved.preconfIntervalMs as number) > (resolved.blockTimeMs as number)) {
    throw new TypeError(
      `invalid options: preconfIntervalMs (${resolved.preconfIntervalMs}) must not exceed blockTimeMs (${resolved.blockTimeMs}), or no pre-confirmation would ever run`,
    )
  }
  return resolved as ResolvedChainOptions
}
