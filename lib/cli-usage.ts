/**
 * The command line's documentation, generated from the option definitions: `--help` and the
 * README's options table (a spec checks the README against {@link optionsTable}).
 */
import { faultOptions } from './faults/fault-options.ts'
import { forkOptions } from './fork/fork-options.ts'
import { opStackOptions } from './op-stack/op-stack-options.ts'
import { txpoolOptions } from './txpool/pool-options.ts'
import { serverOptions } from './cli-options.ts'
import { chainOptions, type OptionDefinition } from './options.ts'
import { httpSafetyOptions } from './server/http-options.ts'

type Definition = OptionDefinition<never, unknown>

/** An option the command line takes as `--flag <value>`, with its name in the library (undefined: the CLI's own). */
export interface CommandLineOption {
  readonly definition: Definition
  readonly library: string | undefined
}

const entries = (definitions: Record<string, Definition>, library: (name: string) => string | undefined): CommandLineOption[] =>
  Object.entries(definitions).map(([name, definition]) => ({ definition, library: library(name) }))

/**
 * Every option the command line takes as `--flag <value>`: the chain's, the fork's, the OP
 * stack's, the txpool's, the fault switches and the server's (the HTTP ones are also
 * `startServer`'s).
 */
export const commandLineOptions: readonly CommandLineOption[] = [
  ...entries(chainOptions as Record<string, Definition>, (name) => name),
  ...entries(forkOptions as Record<string, Definition>, (name) => `fork.${name}`),
  ...entries(opStackOptions as Record<string, Definition>, (name) => `opStack.${name}`),
  ...entries(faultOptions as Record<string, Definition>, (name) => `faults.${name}`),
  ...entries(txpoolOptions as Record<string, Definition>, (name) => `txpool.${name}`),
  ...entries(serverOptions as Record<string, Definition>, () => undefined),
  ...entries(httpSafetyOptions as Record<string, Definition>, (name) => `startServer: ${name}`),
]

/** Flags that are not options of a chain. */
const switches: ReadonlyArray<readonly [string, string]> = [
  ['--instant', 'same as --mining instant: each accepted transaction is pre-confirmed at once'],
  ['--silent', 'no request or block log'],
  ['--help, -h', 'this help'],
  ['--version', 'the version'],
]

/** `--help`: every flag with its description and default. */
export function usage(): string {
  const rows = commandLineOptions.map(({ definition }) => [`  --${definition.flag} <value>`, `${definition.description} (default: ${definition.defaultText})`])
  rows.push(...switches.map(([flag, text]) => [`  ${flag}`, text]))
  const width = Math.max(...rows.map(([flag]) => flag.length)) + 2
  return [
    'Usage: preconf-devnet [options]',
    '',
    'A local chain with pre-confirmations (flashblocks): JSON-RPC over HTTP and WebSocket.',
    '',
    'Options:',
    ...rows.map(([flag, text]) => flag.padEnd(width) + text),
  ].join('\n')
}

const cell = (text: string): string => text.replace(/\|/g, '\\|')

/** The README's options table: flag, library option, default, description. */
export function optionsTable(): string {
  const rows = commandLineOptions.map(({ definition, library }) => {
    const name = library === undefined ? '(CLI only)' : `\`${library}\``
    return `| \`--${definition.flag}\` | ${name} | ${cell(definition.defaultText)} | ${cell(definition.description)} |`
  })
  rows.push(...switches.map(([flag, text]) => `| \`${flag}\` | | | ${cell(text)} |`))
  return ['| flag | library option | default | description |', '| --- | --- | --- | --- |', ...rows].join('\n')
}
