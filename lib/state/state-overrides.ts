/**
 * geth's call overrides: state overrides (an account's balance, nonce, code and storage, or its
 * precompile moved elsewhere) written on a throwaway layer, and block overrides (fields of the
 * block a call runs in). `eth_call`, `eth_estimateGas` and each block of `eth_simulateV1` take
 * them; {@link withOverrides} runs a call with both applied.
 */
import { toChecksumAddress } from '@ethereumjs/util'
import { InvalidInputError } from '../errors.ts'
import type { BlockContext } from '../execution/block-context.ts'
import type { ExecutionEnvironment } from '../execution/execution-environment.ts'
import type { Address } from '../types.ts'
import { withAccountCode, withAccountFields } from './account.ts'
import { StateLayer } from './state-layer.ts'
import { readAccount } from './state-source.ts'
import type { StateView } from './state-view.ts'

/** One account's overrides; absent fields keep the account's own. */
export interface AccountOverride {
  readonly balance?: bigint
  readonly nonce?: bigint
  readonly code?: Uint8Array
  /** Replaces the whole storage: every slot not listed reads 0. */
  readonly state?: ReadonlyMap<bigint, bigint>
  /** Writes the listed slots over the account's storage. */
  readonly stateDiff?: ReadonlyMap<bigint, bigint>
  /** Moves the precompile at this address to another one (geth's `movePrecompileToAddress`). */
  readonly movePrecompileTo?: Address
}

/** State overrides, by account. */
export type StateOverrides = ReadonlyMap<Address, AccountOverride>

/** Fields of the block a call runs in, replaced (geth's `BlockOverrides`). */
export interface BlockOverrides {
  readonly number?: bigint
  /** Seconds. */
  readonly time?: bigint
  readonly gasLimit?: bigint
  readonly feeRecipient?: Address
  readonly prevRandao?: Uint8Array
  readonly baseFeePerGas?: bigint
  /** Applied by `eth_simulateV1` only: the block context has no blob base fee to replace yet. */
  readonly blobBaseFee?: bigint
}

/** What a call or an estimate may override. */
export interface CallOverrides {
  readonly state?: StateOverrides
  readonly block?: BlockOverrides
}

/** Writes the account fields and storage of `overrides` on `layer`, accounts in address order as geth. */
export async function applyStateOverrides(layer: StateLayer, overrides: StateOverrides): Promise<void> {
  for (const address of [...overrides.keys()].sort()) {
    const { balance, nonce, code, state, stateDiff } = overrides.get(address)!
    if (balance !== undefined || nonce !== undefined || code !== undefined) {
      const account = withAccountFields(await readAccount(layer, address), { balance, nonce })
      layer.putAccount(address, code === undefined ? account : withAccountCode(account, code))
    }
    if (state !== undefined) layer.clearStorage(address)
    for (const [slot, value] of state ?? stateDiff ?? []) layer.putStorage(address, slot, value)
  }
}

/**
 * Applies the precompile side of `overrides` to `environment`'s EVM as geth does: an overridden
 * precompile address runs as a plain account, a moved precompile runs at its new address. Returns
 * what puts the table back. -32000 with geth's texts for moves it refuses.
 */
export function overridePrecompiles(environment: ExecutionEnvironment, overrides: StateOverrides): () => void {
  // The EVM's table of precompiles, keyed by unprefixed lowercase address.
  const table = environment.evm.precompiles
  const keyOf = (address: Address) => address.slice(2)
  if (![...overrides].some(([address, { movePrecompileTo }]) => movePrecompileTo !== undefined || table.has(keyOf(address)))) return () => {}
  const saved = new Map(table)
  const restore = () => {
    table.clear()
    for (const [key, precompile] of saved) table.set(key, precompile)
  }
  try {
    for (const address of [...overrides.keys()].sort()) {
      const precompile = saved.get(keyOf(address))
      const target = overrides.get(address)!.movePrecompileTo
      if (target !== undefined) {
        if (precompile === undefined) throw new InvalidInputError(`account ${toChecksumAddress(address)} is not a precompile`)
        if (overrides.has(target)) throw new InvalidInputError(`account ${toChecksumAddress(target)} is already overridden`)
        table.set(keyOf(target), precompile)
      }
      if (precompile !== undefined) table.delete(keyOf(address))
    }
  } catch (error) {
    restore()
    throw error
  }
  return restore
}

/** `context` with the fields `overrides` replace. */
function applyBlockOverrides(context: BlockContext, overrides: BlockOverrides): BlockContext {
  return {
    number: overrides.number ?? context.number,
    timestamp: overrides.time ?? context.timestamp,
    baseFeePerGas: overrides.baseFeePerGas ?? context.baseFeePerGas,
    gasLimit: overrides.gasLimit ?? context.gasLimit,
    coinbase: overrides.feeRecipient ?? context.coinbase,
    prevRandao: overrides.prevRandao ?? context.prevRandao,
  }
}

/**
 * Runs `run` with `overrides` applied (geth's eth_call and eth_estimateGas): the state ones on a
 * throwaway layer over `view`, the block ones on `context`, precompiles moved for the run only.
 * `environment` must be this run's alone (a call-lane environment): its precompile table is
 * changed for the run.
 */
export async function withOverrides<T>(
  environment: ExecutionEnvironment,
  view: StateView,
  context: BlockContext,
  overrides: CallOverrides,
  run: (view: StateView, context: BlockContext) => Promise<T>,
): Promise<T> {
  const block = overrides.block === undefined ? context : applyBlockOverrides(context, overrides.block)
  if (overrides.state === undefined || overrides.state.size === 0) return run(view, block)
  const layer = new StateLayer(view)
  await applyStateOverrides(layer, overrides.state)
  const restore = overridePrecompiles(environment, overrides.state)
  try {
    return await run(layer, block)
  } finally {
    restore()
  }
}
