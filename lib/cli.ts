#!/usr/bin/env node
/**
 * `preconf-devnet`: the devnet as a JSON-RPC node for CI jobs and local development.
 * Flags come from the option definitions (lib/options.ts, lib/server/http-options.ts); prints the
 * accounts and one ready line with the URL, warns when it listens beyond loopback, logs activity,
 * and shuts down cleanly on SIGINT/SIGTERM (in-flight requests answered first).
 */
import { existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { dirname, join, resolve as resolvePath } from 'node:path'
import { createChain, type Chain } from './chain.ts'
import { nativeSecp256k1 } from './crypto/secp256k1.ts'
import { UpstreamError } from './errors.ts'
import { StateDumpError } from './persistence/dump-fields.ts'
import { commandLineOptions, usage } from './cli-usage.ts'
import { forkOptions } from './fork/fork-options.ts'
import { faultOptions } from './faults/fault-options.ts'
import { opStackOptions } from './op-stack/op-stack-options.ts'
import { txpoolOptions } from './txpool/pool-options.ts'
import { serverOptions } from './cli-options.ts'
import { chainOptions, type ChainOptions, type OptionDefinition } from './options.ts'
import { createActivityLog } from './server/activity-log.ts'
import { isLoopback } from './server/http-guard.ts'
import { httpSafetyOptions } from './server/http-options.ts'
import { ListenError, SEALED_PATH, startServer, type ServerOptions } from './server/server.ts'
import { VERSION } from './version.ts'

type Definition = OptionDefinition<never, unknown>

/** How long SIGINT/SIGTERM wait for in-flight HTTP requests before cutting them. */
const SHUTDOWN_GRACE_MS = 5000

/** What the command line asked for. */
interface CommandLine {
  readonly chain: ChainOptions
  readonly host: string
  readonly port: number
  /** --allowed-hosts, --allowed-origins, --keep-alive-timeout, --batch-timeout, as given (startServer parses them). */
  readonly http: Pick<ServerOptions, 'allowedHosts' | 'allowedOrigins' | 'keepAliveTimeoutMs' | 'batchTimeoutMs'>
  readonly silent: boolean
  /** The state file to start from (--load-state, or --state when it exists). */
  readonly loadFrom: string | undefined
  /** The state file to write on exit (--dump-state, --state). */
  readonly dumpTo: string | undefined
}

/** `argv` with a bare `--prune-history` (no N after it) given as `--prune-history 0`: Anvil's meaning, the head's state alone. */
function withBarePruneHistory(argv: string[]): string[] {
  return argv.flatMap((arg, i) => (arg === '--prune-history' && (i + 1 === argv.length || argv[i + 1].startsWith('--')) ? [arg, '0'] : [arg]))
}

function parseCommandLine(argv: string[]): CommandLine | 'help' | 'version' {
  const flags = Object.fromEntries(commandLineOptions.map(({ definition }) => [definition.flag, { type: 'string' as const }]))
  const values: Record<string, string | boolean | undefined> = parseArgs({
    args: withBarePruneHistory(argv),
    options: { ...flags, instant: { type: 'boolean' }, silent: { type: 'boolean' }, help: { type: 'boolean', short: 'h' }, version: { type: 'boolean' } },
    strict: true,
    allowPositionals: false,
  }).values
  if (values.help === true) return 'help'
  if (values.version === true) return 'version'
  // Each flag is checked here, to name it in the error, and handed to createChain as given
  // (its parser runs there again: parsing a parsed value twice is not safe for every option).
  const chain: Record<string, unknown> = {}
  for (const [name, definition] of Object.entries(chainOptions) as Array<[string, Definition]>) {
    const given = values[definition.flag]
    if (typeof given !== 'string') continue
    definition.parse(given as never, `--${definition.flag}`)
    chain[name] = given
  }
  const group = (definitions: Record<string, Definition>): Record<string, unknown> | undefined => {
    const given: Record<string, unknown> = {}
    for (const [name, definition] of Object.entries(definitions)) {
      const value = values[definition.flag]
      if (typeof value !== 'string') continue
      definition.parse(value as never, `--${definition.flag}`)
      given[name] = value
    }
    return Object.keys(given).length > 0 ? given : undefined
  }
  const fork = group(forkOptions as Record<string, Definition>)
  if (fork !== undefined) {
    if (fork.url === undefined) throw new TypeError(`--${Object.keys(fork).map((name) => forkOptions[name as keyof typeof forkOptions].flag)[0]} needs --fork-url`)
    chain.fork = fork
  }
  const opStack = group(opStackOptions as Record<string, Definition>)
  if (opStack !== undefined) {
    if (chain.preset === undefined) throw new TypeError(`--${opStackOptions[Object.keys(opStack)[0] as keyof typeof opStackOptions].flag} needs --preset`)
    chain.opStack = opStack
  }
  const faults = group(faultOptions as Record<string, Definition>)
  if (faults !== undefined) chain.faults = faults
  const txpool = group(txpoolOptions as Record<string, Definition>)
  if (txpool !== undefined) chain.txpool = txpool
  if (chain.clock === undefined) chain.clock = chainOptions.clock.cliDefault
  if (values.instant === true) {
    if (chain.mining !== undefined && chain.mining !== 'instant') throw new TypeError(`--instant is --mining instant: it contradicts --mining ${String(chain.mining)}`)
    chain.mining = 'instant'
  }
  const host = typeof values.host === 'string' ? serverOptions.host.parse(values.host, '--host') : serverOptions.host.default({ clock: 'realtime' })
  const port = typeof values.port === 'string' ? serverOptions.port.parse(values.port, '--port') : serverOptions.port.default({ clock: 'realtime' })
  const file = (name: 'loadState' | 'dumpState' | 'state') => {
    const given = values[serverOptions[name].flag]
    return typeof given === 'string' ? serverOptions[name].parse(given, `--${serverOptions[name].flag}`) : undefined
  }
  if (file('state') !== undefined && (file('loadState') !== undefined || file('dumpState') !== undefined)) throw new TypeError('--state is --load-state and --dump-state together: give it alone')
  const state = writablePath(file('state'), '--state')
  const loadFrom = state === undefined ? file('loadState') : existsSync(state) ? state : undefined
  const http = group(httpSafetyOptions as Record<string, Definition>) ?? {}
  return { chain: chain as ChainOptions, host, port, http, silent: values.silent === true, loadFrom, dumpTo: state ?? writablePath(file('dumpState'), '--dump-state') }
}

/**
 * Where a state file is written: in a directory given, its `state.json`, as Anvil writes it; a
 * path whose directory is missing is refused now (a usage error), not when the node stops.
 */
function writablePath(path: string | undefined, flag: string): string | undefined {
  if (path === undefined) return undefined
  if (existsSync(path) && statSync(path).isDirectory()) return join(path, 'state.json')
  if (!existsSync(dirname(resolvePath(path)))) throw new TypeError(`${flag} ${path}: its directory does not exist`)
  return path
}

/** Writes `text` to `path` whole or not at all: a temporary file beside it, then renamed (removed if either fails). */
function writeWhole(path: string, text: string): void {
  const temporary = `${path}.${process.pid}.tmp`
  try {
    writeFileSync(temporary, text)
    renameSync(temporary, path)
  } catch (error) {
    rmSync(temporary, { force: true })
    throw error
  }
}

/** The banner's fork line (no URL on it: the ready line stays the only one with http://). */
function forkLine(chain: Chain): string[] {
  const { fork } = chain.options
  if (fork === undefined) return []
  return [`Fork: block ${chain.blockNumber()} of ${new URL(fork.url).host}, chain id ${chain.options.chainId}; cache ${fork.cache === false ? 'off' : fork.cache}`]
}

/** The warnings of a node reachable by more than this machine's own programs, for stderr. */
function exposureWarnings(host: string, http: CommandLine['http']): string[] {
  const warnings: string[] = []
  if (!isLoopback(host)) {
    warnings.push(
      `WARNING: listening on ${host}, beyond this machine's loopback. The dev accounts are unlocked: anyone who can reach this port ` +
        'can send transactions from them and spend their ether, sign with their keys, and rewrite the chain (anvil_setBalance, anvil_reset). ' +
        'Use --host 127.0.0.1 (the default) unless everyone on this network is trusted. ' +
        'Clients that name this machine by a host name (a Docker service name, say) need it in --allowed-hosts; IP addresses are served.',
    )
  }
  const origins = http.allowedOrigins === undefined ? [] : httpSafetyOptions.allowedOrigins.parse(http.allowedOrigins, '--allowed-origins')
  if (origins.includes('*')) {
    warnings.push('WARNING: --allowed-origins *: any web page open in a browser on this machine can drive the node and spend the dev accounts.')
  }
  return warnings
}

function banner(chain: Chain, loadedFrom: string | undefined): string {
  const { options } = chain
  // A loaded state brings its own genesis (and a fork's first block is the upstream's).
  const genesisTimestamp = chain.blockByNumber(0)?.header.timestamp ?? options.genesisTimestamp
  const ether = options.balance / 10n ** 18n
  const lines = ['preconf-devnet', '', 'Available Accounts', '==================']
  chain.accounts.forEach((account, i) => lines.push(`(${i}) ${account.address} (${ether} ETH)`))
  lines.push('', 'Private Keys', '==================')
  chain.accounts.forEach((account, i) => lines.push(`(${i}) ${account.privateKey}`))
  lines.push(
    '',
    `Chain ID: ${options.chainId}`,
    `Clock: ${options.clock}, a pre-confirmation every ${options.preconfIntervalMs} ms, a block every ${options.blockTimeMs} ms`,
    `Hardfork: ${options.hardfork}, block gas limit ${options.blockGasLimit}, genesis timestamp ${genesisTimestamp}`,
    ...forkLine(chain),
    ...(loadedFrom === undefined ? [] : [`State: loaded from ${loadedFrom}, block ${chain.blockNumber()}`]),
    `Sender recovery: ${nativeSecp256k1 ? 'native libsecp256k1' : '@noble/curves (native libsecp256k1 did not load)'}`,
    // No URL on this line: the ready line stays the only one with http:// (scripts grep for it).
    `Sealed-only endpoint: path ${SEALED_PATH} on the same port (no pre-confirmations; for cast send, forge script, Ignition)`,
    '',
  )
  return lines.join('\n')
}

async function main(argv: string[]): Promise<number> {
  // A reader that goes away (`| head`) must not crash the node: drop the output instead.
  process.stdout.on('error', () => {})
  let parsed: ReturnType<typeof parseCommandLine>
  try {
    parsed = parseCommandLine(argv)
  } catch (error) {
    process.stderr.write(`error: ${(error as Error).message}\n\n${usage()}\n`)
    return 2
  }
  if (parsed === 'help') {
    process.stdout.write(`${usage()}\n`)
    return 0
  }
  if (parsed === 'version') {
    process.stdout.write(`${VERSION}\n`)
    return 0
  }
  let chain: Chain
  try {
    const state = parsed.loadFrom === undefined ? undefined : readFileSync(parsed.loadFrom)
    chain = await createChain(state === undefined ? parsed.chain : { ...parsed.chain, state })
  } catch (error) {
    // An upstream that cannot be forked, or a state file that cannot be loaded, is not a usage error.
    if (error instanceof UpstreamError || error instanceof StateDumpError || (error as NodeJS.ErrnoException).syscall !== undefined) {
      const file = parsed.loadFrom === undefined || error instanceof UpstreamError ? '' : ` (${parsed.loadFrom})`
      process.stderr.write(`error: ${(error as Error).message}${file}\n`)
      return 1
    }
    process.stderr.write(`error: ${(error as Error).message}\n\n${usage()}\n`)
    return 2
  }
  const log = parsed.silent ? undefined : createActivityLog(chain, (line) => process.stdout.write(`${line}\n`))
  let server
  try {
    server = await startServer(chain, { host: parsed.host, port: parsed.port, onRequest: log?.request, ...parsed.http })
  } catch (error) {
    chain.close()
    process.stderr.write(`error: ${error instanceof ListenError ? error.message : String(error)}\n`)
    return 1
  }
  const flusher = log === undefined ? undefined : setInterval(log.flush, 1000).unref()
  const stopped = new Promise<number>((resolve) => {
    let stopping = false
    const shutdown = (signal: string): void => {
      // Repeated signals (supervisors often send several) must not cut the shutdown short.
      if (stopping) return
      stopping = true
      process.stdout.write(`\n${signal}: shutting down\n`)
      if (flusher !== undefined) clearInterval(flusher)
      log?.flush()
      log?.stop()
      // No new connections; in-flight requests are answered (the chain still running) for up to
      // SHUTDOWN_GRACE_MS; then the chain stops and its state is written.
      server
        .close({ graceMs: SHUTDOWN_GRACE_MS })
        .then(async () => {
          if (parsed.dumpTo === undefined) return 0
          writeWhole(parsed.dumpTo, await chain.dumpState('json'))
          process.stdout.write(`state written to ${parsed.dumpTo}\n`)
          return 0
        })
        .catch((error: Error) => {
          process.stderr.write(`error: ${error.message}\n`)
          return 1
        })
        .then(resolve)
    }
    process.on('SIGINT', () => shutdown('SIGINT'))
    process.on('SIGTERM', () => shutdown('SIGTERM'))
  })
  for (const warning of exposureWarnings(parsed.host, parsed.http)) process.stderr.write(`${warning}\n`)
  // Ready only once the signal handlers are in place: a script may stop the node at once.
  process.stdout.write(`${banner(chain, parsed.loadFrom)}Listening on ${server.url} (WebSocket ${server.wsUrl})\n`)
  return stopped
}

process.exit(await main(process.argv.slice(2)))
