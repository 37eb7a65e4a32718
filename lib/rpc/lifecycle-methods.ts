/**
 * Starting the chain over, saving it and pointing a fork elsewhere: `anvil_reset` /
 * `hardhat_reset` (as created, or forking another block or chain, as viem's `testClient.reset`
 * sends it), `anvil_dumpState` / `anvil_loadState` (as viem's `dumpState` / `loadState` send
 * them) and `anvil_setRpcUrl`.
 */
import type { ResetTarget } from '../open-chain.ts'
import { InvalidParamsError } from '../errors.ts'
import { StateDumpError } from '../persistence/dump-fields.ts'
import { invalidArgument } from './hex.ts'
import { method, optional, required, type MethodContext, type MethodDefinition } from './method-definition.ts'
import { parseBoolean, parseQuantityLike } from './params.ts'

/** An upstream endpoint URL (http or https). */
function parseUrl(value: unknown, name: string): string {
  if (typeof value !== 'string' || !/^https?:\/\//i.test(value) || !URL.canParse(value)) throw invalidArgument(name, 'expected an http:// or https:// URL')
  return value
}

/**
 * The reset's parameter: absent (or without `forking`), start over as created; `{ forking: {
 * jsonRpcUrl?, blockNumber? } }`, fork that (a null block number, as viem sends for none, is the
 * upstream's latest).
 */
function parseResetTarget(value: unknown, name: string): ResetTarget | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalidArgument(name, 'expected { forking?: { jsonRpcUrl?, blockNumber? } }')
  const unknown = Object.keys(value).find((key) => key !== 'forking')
  if (unknown !== undefined) throw invalidArgument(name, `unknown field "${unknown.slice(0, 40)}"; expected { forking?: { jsonRpcUrl?, blockNumber? } }`)
  const { forking } = value as { forking?: unknown }
  if (forking === undefined || forking === null) return undefined
  if (typeof forking !== 'object' || Array.isArray(forking)) throw invalidArgument(`${name}.forking`, 'expected { jsonRpcUrl?, blockNumber? }')
  const unknownForking = Object.keys(forking).find((key) => key !== 'jsonRpcUrl' && key !== 'blockNumber')
  if (unknownForking !== undefined) throw invalidArgument(`${name}.forking`, `unknown field "${unknownForking.slice(0, 40)}"; expected { jsonRpcUrl?, blockNumber? }`)
  const { jsonRpcUrl, blockNumber } = forking as { jsonRpcUrl?: unknown; blockNumber?: unknown }
  return {
    url: jsonRpcUrl === undefined || jsonRpcUrl === null ? undefined : parseUrl(jsonRpcUrl, `${name}.forking.jsonRpcUrl`),
    // viem's testClient.reset() sends Number(undefined) for no block: NaN in-process, null over JSON.
    blockNumber: blockNumber === undefined || blockNumber === null || Number.isNaN(blockNumber) ? undefined : parseQuantityLike(blockNumber, `${name}.forking.blockNumber`),
  }
}

/** A dump as `anvil_dumpState` gives it: hex (of gzipped JSON, or of JSON text). */
function parseStateHex(value: unknown, name: string): string {
  if (typeof value !== 'string' || !/^0x(?:[0-9a-fA-F]{2})*$/.test(value)) throw invalidArgument(name, 'expected the hex of a state dump')
  return value
}

const resetTarget = optional('0 (options)', parseResetTarget, () => undefined)

// Anvil's optional flag (keep historical states) changes nothing here: a dump always holds every block's state.
const dumpState = method([optional('0 (preserve historical states)', parseBoolean, () => true)], ({ lifecycle }) => lifecycle.dumpState())

const loadState = method([required('0 (state)', parseStateHex)], async ({ lifecycle }, state) => {
  try {
    await lifecycle.loadState(state)
  } catch (error) {
    // A dump that cannot be read is a bad argument; the chain is left as it was.
    if (error instanceof StateDumpError) throw invalidArgument('0 (state)', error.message)
    throw error
  }
  return true
})

const setRpcUrl = method([required('0 (url)', parseUrl)], ({ engine }, url) => {
  engine.upstream?.setUrl(url)
  return null
})

/**
 * Resets the chain to `target`. A block to fork with no URL, on a chain that is no fork, cannot
 * be met: refused with Anvil's error, the chain left as it was (a `forking` with neither, what
 * viem's `testClient.reset()` sends, resets the chain as created, where Anvil refuses it too).
 */
async function reset(context: MethodContext, target: ResetTarget | undefined): Promise<void> {
  if (target?.blockNumber !== undefined && target.url === undefined && context.engine.upstream === undefined) {
    throw new InvalidParamsError('Forking not enabled and RPC URL not provided to start forking')
  }
  await context.lifecycle.reset(target)
}

/** The lifecycle methods, by RPC name. */
export const lifecycleMethods: Readonly<Record<string, MethodDefinition>> = {
  anvil_reset: method([resetTarget], async (context, target) => {
    await reset(context, target)
    return null
  }),
  hardhat_reset: method([resetTarget], async (context, target) => {
    await reset(context, target)
    return true
  }),
  anvil_dumpState: dumpState,
  anvil_loadState: loadState,
  // Anvil's aliases (Hardhat itself has no such methods).
  hardhat_dumpState: dumpState,
  hardhat_loadState: loadState,
  // Anvil ignores it on a chain that is not a fork. Hardhat has no such method; viem's test
  // client in hardhat mode sends hardhat_setRpcUrl, answered as Anvil answers its own.
  anvil_setRpcUrl: setRpcUrl,
  hardhat_setRpcUrl: setRpcUrl,
}
