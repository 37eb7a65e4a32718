/**
 * How a chain is opened from its options: a fresh chain, a fork, a loaded state dump, or a
 * dump loaded onto a fork of the block it was dumped from. What a fork or a dump implies (the
 * chain id; a fork's gas limit and, under the manual clock, its timestamps) applies unless the
 * options say otherwise. A fork funds the dev accounts on top of the upstream's state (as Anvil
 * does) and seals blocks with the fork block's state root (it does not hold the upstream's tries).
 */
import { devAccounts } from './accounts/dev-accounts.ts'
import type { EngineSetup } from './engine/engine.ts'
import { createTransactionCommon } from './execution/common.ts'
import { Fork } from './fork/fork.ts'
import { resolveChainOptions, type ChainOptions, type ResolvedChainOptions } from './options.ts'
import type { ChainState } from './persistence/chain-state.ts'
import { StateDumpError } from './persistence/dump-fields.ts'
import { stateFromInput, type StateInput } from './persistence/state-encoding.ts'
import { stateFromJson } from './persistence/state-file.ts'
import { fixedStateCommitment, TrieStateCommitment } from './state/state-commitment.ts'
import { EMPTY_STATE_SOURCE } from './state/state-source.ts'
import type { Address } from './types.ts'

/** A chain's options with every default applied, and its engine's setup (undefined: a fresh chain). */
export interface OpenedChain {
  readonly options: ResolvedChainOptions
  readonly setup: EngineSetup | undefined
}

/** What `anvil_reset` starts over with: a fork's url (default: the current fork's) and block (default: the upstream's latest). */
export interface ResetTarget {
  readonly url?: string
  readonly blockNumber?: bigint
}

/** The fork a chain is on now: its upstream's url (and the one it was opened with) and the fork block. */
export interface LiveFork {
  readonly url: string
  readonly openedUrl: string
  readonly blockNumber: bigint
}

/** Why a chain is opened anew: a reset (to a fork target, or as created), or a state to load; and the fork it is on now. */
export type Reopening = ({ readonly reset: ResetTarget | undefined } | { readonly state: StateInput }) & { readonly live: LiveFork | undefined }

/** `given` with its fork (if any) pinned to `blockNumber`: the block it was created on, not the upstream's latest again. */
export function pinnedFork(given: ChainOptions, blockNumber: bigint | undefined): ChainOptions {
  return given.fork === undefined || blockNumber === undefined ? given : { ...given, fork: { ...given.fork, blockNumber } }
}

/**
 * The options a chain `created` so (its fork pinned to its block) is opened anew with. A reset
 * with no target: as created (through the endpoint `anvil_setRpcUrl` moved its fork to). A
 * reset to a target: forking it, the url defaulting to the fork the chain is on now (with none,
 * a fresh chain); a reset never reloads a state. A load: as created, with the state, on the
 * fork the chain is on now.
 */
export function reopenedOptions(created: ChainOptions, change: Reopening): ChainOptions {
  const { fork, state: _state, ...rest } = created
  const { live } = change
  if ('state' in change) return { ...rest, ...(live === undefined ? {} : { fork: { ...fork, url: live.url, blockNumber: live.blockNumber } }), state: change.state }
  if (change.reset === undefined) {
    // As created; a fork opened from the created url that anvil_setRpcUrl moved since goes through the url in use.
    const moved = fork !== undefined && live !== undefined && live.openedUrl === fork.url
    return moved ? { ...created, fork: { ...fork, url: live.url } } : created
  }
  const url = change.reset.url ?? live?.url
  if (url === undefined) return rest
  return { ...rest, fork: { ...fork, url, blockNumber: change.reset.blockNumber } }
}

/**
 * Resolves `given`; for a fork, connects to the upstream and fetches the fork block; for a
 * state, reads the whole dump (a bad one is refused before anything is built).
 */
export async function openChain(given: ChainOptions): Promise<OpenedChain> {
  if (typeof given !== 'object' || given === null || Array.isArray(given)) throw new TypeError(`invalid options: expected an object, got ${Array.isArray(given) ? 'an array' : String(given)}`)
  const stated = Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined)) as ChainOptions
  const first = resolveChainOptions(stated)
  const state = given.state === undefined ? undefined : stateFromJson(stateFromInput(given.state), (chainId) => createTransactionCommon(chainId, first.hardfork))
  // A load continues the dumped chain: its chain id and its preset, unless the options name others.
  const fromState = state === undefined ? {} : { chainId: state.chainId, ...(state.preset === undefined ? {} : { preset: state.preset }) }
  if (first.fork === undefined) {
    const options = resolveChainOptions({ ...fromState, ...stated })
    return { options, setup: state === undefined ? undefined : { source: EMPTY_STATE_SOURCE, commitment: (undoLog) => new TrieStateCommitment(undoLog), state } }
  }
  // A fork's dump loaded with no fork block named goes on from its own fork block (the upstream's latest has moved on since).
  const dumpedFork = state !== undefined && state.blocks[0].header.number > 0n ? state.blocks[0].header.number : undefined
  const fork = await Fork.open({ ...first.fork, blockNumber: first.fork.blockNumber ?? dumpedFork })
  try {
    return forkedChain(stated, fromState, fork, state)
  } catch (error) {
    fork.close()
    throw error
  }
}

/** The options and setup of a chain forked from `fork` (with `state` on top), `given` taking precedence over what the fork and the state imply. */
function forkedChain(given: ChainOptions, fromState: ChainOptions, fork: Fork, state: ChainState | undefined): OpenedChain {
  const { header } = fork.block
  if (state !== undefined && state.blocks[0].hash !== fork.block.hash) {
    throw new StateDumpError(`it starts at block ${state.blocks[0].header.number} (${state.blocks[0].hash}), not at the fork block ${header.number} (${fork.block.hash})`)
  }
  const manual = (given.clock ?? 'manual') === 'manual'
  const options = resolveChainOptions({
    chainId: fork.chainId,
    blockGasLimit: header.gasLimit,
    ...(manual ? { genesisTimestamp: Number(header.timestamp) } : {}),
    ...fromState,
    ...given,
  })
  const funded = new Map<Address, bigint>(devAccounts(options.mnemonic, options.accounts).map(({ address }) => [address.toLowerCase() as Address, options.balance]))
  const setup: EngineSetup = {
    source: fork.state(funded),
    commitment: () => fixedStateCommitment(header.stateRoot),
    origin: fork.block,
    upstream: fork,
    state,
  }
  return { options, setup }
}
