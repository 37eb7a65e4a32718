/**
 * How a chain is opened from its options: a fresh chain, or a fork. A fork takes the
 * upstream's chain id and the fork block's gas limit unless they are given, continues the fork
 * block's timestamps (its manual clock starts there), funds the dev accounts on top of the
 * upstream's state (as Anvil does), and seals blocks with the fork block's state root (it does
 * not hold the upstream's tries).
 */
import { devAccounts } from '../accounts/dev-accounts.ts'
import type { EngineSetup } from '../engine/engine.ts'
import { resolveChainOptions, type ChainOptions, type ResolvedChainOptions } from '../options.ts'
import { fixedStateCommitment } from '../state/state-commitment.ts'
import type { Address } from '../types.ts'
import { Fork } from './fork.ts'

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

/**
 * The options a reset opens the chain with: as `given` at creation when there is no target;
 * else forking the target, the url defaulting to the current fork's (with none, a fresh chain).
 */
export function resetOptions(given: ChainOptions, current: ResolvedChainOptions, target: ResetTarget | undefined): ChainOptions {
  if (target === undefined) return given
  const url = target.url ?? current.fork?.url
  const { fork, ...rest } = given
  if (url === undefined) return rest
  return { ...rest, fork: { ...fork, url, blockNumber: target.blockNumber } }
}

/** Resolves `given` and, for a fork, connects to the upstream and fetches the fork block. */
export async function openChain(given: ChainOptions): Promise<OpenedChain> {
  const options = resolveChainOptions(given)
  if (options.fork === undefined) return { options, setup: undefined }
  const fork = await Fork.open(options.fork)
  try {
    return forkedChain(given, fork)
  } catch (error) {
    fork.close()
    throw error
  }
}

/** The options and setup of a chain forked from `fork`, `given` taking precedence over what the fork implies. */
function forkedChain(given: ChainOptions, fork: Fork): OpenedChain {
  const { header } = fork.block
  const manual = (given.clock ?? 'manual') === 'manual'
  const stated = Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined))
  const options = resolveChainOptions({
    chainId: fork.chainId,
    blockGasLimit: header.gasLimit,
    ...(manual ? { genesisTimestamp: Number(header.timestamp) } : {}),
    ...stated,
  })
  const funded = new Map<Address, bigint>(devAccounts(options.mnemonic, options.accounts).map(({ address }) => [address.toLowerCase() as Address, options.balance]))
  const setup: EngineSetup = {
    source: fork.state(funded),
    commitment: () => fixedStateCommitment(header.stateRoot),
    origin: fork.block,
    upstream: fork,
  }
  return { options, setup }
}
