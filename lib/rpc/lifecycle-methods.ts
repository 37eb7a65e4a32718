/**
 * Starting the chain over and pointing a fork elsewhere: `anvil_reset` / `hardhat_reset` (as
 * created, or forking another block or chain, as viem's `testClient.reset` sends it) and
 * `anvil_setRpcUrl`.
 */
import type { ResetTarget } from '../fork/fork-setup.ts'
import { invalidArgument } from './hex.ts'
import { method, optional, required, type MethodDefinition } from './method-definition.ts'
import { parseQuantityLike } from './params.ts'

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
    blockNumber: blockNumber === undefined || blockNumber === null ? undefined : parseQuantityLike(blockNumber, `${name}.forking.blockNumber`),
  }
}

const resetTarget = optional('0 (options)', parseResetTarget, () => undefined)

/** The lifecycle methods, by RPC name. */
export const lifecycleMethods: Readonly<Record<string, MethodDefinition>> = {
  anvil_reset: method([resetTarget], async ({ reset }, target) => {
    await reset(target)
    return null
  }),
  hardhat_reset: method([resetTarget], async ({ reset }, target) => {
    await reset(target)
    return true
  }),
  // Anvil ignores it on a chain that is not a fork.
  anvil_setRpcUrl: method([required('0 (url)', parseUrl)], ({ engine }, url) => {
    engine.upstream?.setUrl(url)
    return null
  }),
}
