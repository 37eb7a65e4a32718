/**
 * The options of a fork, defined once like every option: `createChain({ fork: { url,
 * blockNumber, … } })` and the CLI's `--fork-*` flags.
 */
import { defaultForkCacheDirectory } from './cache-directory.ts'
import { define, integer, invalid, text, unsigned } from '../option-definition.ts'

/** A JSON-RPC endpoint URL: http or https. */
function endpoint(value: string, name: string): string {
  const given = text(value, name)
  let url: URL
  try {
    url = new URL(given)
  } catch {
    throw invalid(name, 'an http:// or https:// URL', value)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid(name, 'an http:// or https:// URL', value)
  return given
}

/** A block number fits a uint64. */
const uint64 = unsigned(64)

/** A block number: a non-negative integer below 2^64 (bigint, number, decimal or 0x-hex string). */
function blockNumber(value: bigint | number | string, name: string): bigint {
  if (typeof value === 'string' && /^0x[0-9a-fA-F]{1,16}$/.test(value.trim())) return BigInt(value.trim())
  return uint64(value, name)
}

/** A cache directory, or `false` (`'off'` on the command line) for none. */
function cacheDirectory(value: string | false, name: string): string | false {
  if (value === false || value === 'off') return false
  return text(value, name)
}

/**
 * The options of a fork (`createChain({ fork: { url, blockNumber } })`, `--fork-url`,
 * `--fork-block-number`): state loads lazily from the upstream at the fork block.
 */
export const forkOptions = {
  url: define<string, string>({
    flag: 'fork-url',
    description: 'JSON-RPC URL of a chain to fork: its state loads lazily from there, and the chain continues from its block',
    defaultText: 'none (a fresh chain)',
    parse: endpoint,
    default: () => '',
  }),
  blockNumber: define<bigint | number | string, bigint | undefined>({
    flag: 'fork-block-number',
    description: "the upstream block to fork at (when not given, a loaded fork dump's block, else the upstream's latest)",
    defaultText: "the upstream's latest",
    parse: blockNumber,
    default: () => undefined,
  }),
  cache: define<string | false, string | false>({
    flag: 'fork-cache',
    description: "directory of the on-disk cache of upstream state (by chain id and fork block), or 'off'",
    defaultText: 'the platform cache directory (~/.cache/preconf-devnet/fork on Linux)',
    parse: cacheDirectory,
    default: () => defaultForkCacheDirectory(),
  }),
  retries: define<number, number>({
    flag: 'fork-retries',
    description: 'retries of an upstream request that failed for a transient reason (connection, timeout, 429/5xx), with back-off',
    defaultText: '4',
    parse: integer(0, 100),
    default: () => 4,
  }),
  timeoutMs: define<number, number>({
    flag: 'fork-timeout',
    description: 'milliseconds an upstream request may take',
    defaultText: '20000',
    parse: integer(1),
    default: () => 20_000,
  }),
}
