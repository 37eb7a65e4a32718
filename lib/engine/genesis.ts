/** The genesis block: the dev accounts funded, the system contracts and the chain's own accounts (an OP-stack chain's predeploys and preinstalls) in place, block 0 sealed with its state root. */
import type { DevAccount } from '../accounts/dev-accounts.ts'
import { assembleBlock } from '../blocks/assemble.ts'
import type { SealedBlock } from '../blocks/block.ts'
import { emptyRequestsHash } from '../blocks/header.ts'
import type { ResolvedChainOptions } from '../options.ts'
import { systemContracts } from '../execution/system-contracts.ts'
import { withAccountCode, withAccountFields, type GenesisAccount } from '../state/account.ts'
import type { StateCommitment } from '../state/state-commitment.ts'
import type { ChainRules } from './chain-rules.ts'
import type { StateHistory } from '../state/state-history.ts'
import type { Address } from '../types.ts'

const ZERO_HASH = new Uint8Array(32)

/**
 * Writes the genesis allocation into `history` and returns block 0: the dev accounts, then the
 * system contracts, then the chain rules' accounts (an OP-stack chain's predeploys and
 * preinstalls), a later account at the same address taking its place.
 */
export function createGenesis(
  options: ResolvedChainOptions,
  accounts: readonly DevAccount[],
  rules: ChainRules,
  history: StateHistory,
  commitment: StateCommitment,
): SealedBlock {
  for (const { address } of accounts) {
    const key = address.toLowerCase() as Address
    history.putAccount(0, key, withAccountFields(undefined, { balance: options.balance }))
    commitment.markAccount(key)
  }
  const allocation = new Map<Address, GenesisAccount>()
  for (const account of [...systemContracts(options.hardfork), ...rules.genesisAccounts(BigInt(options.genesisTimestamp), BigInt(options.chainId))]) allocation.set(account.address, account)
  for (const { address, code, storage, nonce } of allocation.values()) {
    history.putAccount(0, address, withAccountFields(withAccountCode(undefined, code), { nonce }))
    commitment.markAccount(address)
    for (const [slot, value] of storage) {
      history.putStorage(0, address, slot, value)
      commitment.markSlot(address, slot)
    }
  }
  return assembleBlock({
    parentHash: ZERO_HASH,
    context: {
      number: 0n,
      timestamp: BigInt(options.genesisTimestamp),
      baseFeePerGas: options.initialBaseFee,
      gasLimit: options.blockGasLimit,
      coinbase: options.coinbase,
      prevRandao: ZERO_HASH,
    },
    transactions: [],
    gasUsed: 0n,
    stateRoot: commitment.compute(history.latest),
    extraData: rules.blocks.extraData,
    requestsHash: emptyRequestsHash(options.hardfork),
  })
}
