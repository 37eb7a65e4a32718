/**
 * How an RPC method is declared: its parameters (each a name for error messages, a parser and,
 * if optional, a default) and a handler that receives them parsed.
 */
import type { ChainView, Engine } from '../engine/engine.ts'
import type { ResetTarget } from '../open-chain.ts'
import type { StateInput } from '../persistence/state-encoding.ts'
import type { Hex } from '../types.ts'
import type { Filters } from './filters.ts'
import type { Subscriptions } from './subscriptions.ts'

/** What a method's handler works with. */
export interface MethodContext {
  readonly engine: Engine
  /**
   * What the endpoint serving the request reads: the engine itself (the pre-confirmation
   * endpoint) or its sealed view (the standard endpoint of the same chain).
   */
  readonly view: ChainView
  readonly subscriptions: Subscriptions
  /** The polled filters (`eth_newFilter` …). */
  readonly filters: Filters
  /** What replaces the chain's engine: a reset, a state load; and the state dump. */
  readonly lifecycle: ChainLifecycle
}

/** The controls that start the chain over or save it, which only the chain facade can serve. */
export interface ChainLifecycle {
  /**
   * This run's id (`hardhat_metadata`'s `instanceId`): random, new at each start, reset and load,
   * as Hardhat's. Ignition tells a restarted chain by it, so it must differ between two starts
   * with the same options; it is no part of the chain, whose contents stay deterministic.
   */
  readonly instanceId: Hex
  /** Starts the chain over (`anvil_reset`): as created, or forking `target`. */
  reset(target: ResetTarget | undefined): Promise<void>
  /** The chain's state as hex of gzipped JSON (`anvil_dumpState`). */
  dumpState(): Promise<string>
  /** Replaces the chain with a dumped state (`anvil_loadState`). */
  loadState(input: StateInput): Promise<void>
}

/** A parameter: its name (for error messages), parser, and default when omitted (required if none). */
export interface Parameter<T> {
  readonly name: string
  readonly parse: (value: unknown, name: string) => T
  readonly fallback?: () => T
}

type Parsed<P> = { [K in keyof P]: P[K] extends Parameter<infer T> ? T : never }

/**
 * Where a method reads, for a forked chain: which argument names the block (a selector, or a
 * block hash) and whether the method reads the state there or the block's own contents (state
 * at the fork block is local, its contents are the upstream's); or which names a transaction.
 * A read of what only the upstream holds goes to the upstream, as sent.
 */
export type ReadTarget =
  | { readonly block: number; readonly reads: 'state' | 'contents' }
  | { readonly transaction: number }

/** One RPC method. */
export interface MethodDefinition {
  readonly parameters: readonly Parameter<unknown>[]
  readonly handler: (context: MethodContext, args: unknown[]) => unknown
  /** Where the method reads (forked chains hand reads of the upstream's blocks to it). */
  readonly target?: ReadTarget
}

/** Declares a method: its parameters, then a handler that gets them parsed and typed. */
export function method<const P extends readonly Parameter<unknown>[]>(
  parameters: P,
  handler: (context: MethodContext, ...args: Parsed<P>) => unknown,
): MethodDefinition {
  return { parameters, handler: (context, args) => handler(context, ...(args as Parsed<P>)) }
}

/** A parameter that must be given. */
export function required<T>(name: string, parse: (value: unknown, name: string) => T): Parameter<T> {
  return { name, parse }
}

/** A parameter that may be omitted (or null), taking `fallback()` then. */
export function optional<T>(name: string, parse: (value: unknown, name: string) => T, fallback: () => T): Parameter<T> {
  return { name, parse, fallback }
}

/**
 * The same test control under `anvil_` (answering null, as Anvil) and `hardhat_` (answering
 * true, as Hardhat); `definition` gets the answer its name owes.
 */
export function anvilAndHardhat(name: string, definition: (answer: null | true) => MethodDefinition): Record<string, MethodDefinition> {
  return { [`anvil_${name}`]: definition(null), [`hardhat_${name}`]: definition(true) }
}
