/**
 * Ethereum's system contracts a fresh chain's genesis holds, as Anvil 1.7.1's does: Arachnid's
 * deterministic deployment proxy (the CREATE2 deployer `forge script` deploys through), and from
 * Prague EIP-2935's block-hash history contract. Before a block's transactions run, the history
 * contract's ring of the last 8191 block hashes takes the parent's hash (EIP-2935's system
 * call, which Anvil makes too).
 */
import { hexToBytes } from '@ethereumjs/util'
import { DETERMINISTIC_DEPLOYMENT_PROXY_RUNTIME } from '../op-stack/preinstall-code.ts'
import type { GenesisAccount } from '../state/account.ts'
import type { StateLayer } from '../state/state-layer.ts'
import type { Address, Hash } from '../types.ts'
import type { Hardfork } from './common.ts'

/** Arachnid's deterministic deployment proxy: CREATE2 of the calldata's tail with its first word as the salt. */
export const DETERMINISTIC_DEPLOYMENT_PROXY: Address = '0x4e59b44847b379578588920ca78fbf26c0b4956c'

/** EIP-2935's history contract (HISTORY_STORAGE_ADDRESS). */
export const HISTORY_STORAGE: Address = '0x0000f90827f1c53a10cb7a02335b175320002935'

/** How many block hashes the history contract keeps (HISTORY_SERVE_WINDOW). */
const HISTORY_SERVE_WINDOW = 8191n

/** The history contract's runtime code, as EIP-2935 publishes it (and Anvil 1.7.1 holds it). */
const HISTORY_STORAGE_RUNTIME = '0x3373fffffffffffffffffffffffffffffffffffffffe14604657602036036042575f35600143038111604257611fff81430311604257611fff9006545f5260205ff35b5f5ffd5b5f35611fff60014303065500'

/** Whether blocks under `hardfork` keep their parents' hashes in the history contract (EIP-2935, from Prague). */
export function keepsBlockHashes(hardfork: Hardfork): boolean {
  return hardfork !== 'cancun'
}

/** The system contracts of a fresh chain under `hardfork`, with nonce 0 as Anvil places them; fresh accounts on every call. */
export function systemContracts(hardfork: Hardfork): GenesisAccount[] {
  const accounts: GenesisAccount[] = [{ address: DETERMINISTIC_DEPLOYMENT_PROXY, code: hexToBytes(DETERMINISTIC_DEPLOYMENT_PROXY_RUNTIME), storage: new Map() }]
  if (keepsBlockHashes(hardfork)) accounts.push({ address: HISTORY_STORAGE, code: hexToBytes(HISTORY_STORAGE_RUNTIME), storage: new Map() })
  return accounts
}

/**
 * The system calls block `number` opens with under `hardfork`, before its first transaction
 * (geth's core.PreExecution): from Prague, EIP-2935's, its parent's hash into the ring of the
 * history contract. Building a block makes them, and so does re-executing one (a trace, a
 * simulated block), as geth's tracers and simulator do.
 */
export function startBlock(state: StateLayer, hardfork: Hardfork, number: bigint, parentHash: Hash): void {
  if (keepsBlockHashes(hardfork)) state.putStorage(HISTORY_STORAGE, (number - 1n) % HISTORY_SERVE_WINDOW, BigInt(parentHash))
}
