/** The genesis block: the dev accounts funded, block 0 sealed with its real state root. */
import type { DevAccount } from './accounts/dev-accounts.ts'
import type { SealedBlock } from './blocks/block.ts'
import { blockSize } from './blocks/block-size.ts'
import { BLOOM_BYTES } from './blocks/bloom.ts'
import { emptyRequestsHash, EMPTY_TRIE_ROOT, hashHeader, type BlockHeader } from './blocks/header.ts'
import type { ResolvedChainOptions } from './options.ts'
import { withAccountFields } from './state/account.ts'
import type { StateHistory } from './state/state-history.ts'
import type { StateRoot } from './state/state-root.ts'
import type { Address } from './types.ts'

/** Writes the genesis allocation into `history` and returns block 0. */
export function createGenesis(
  options: ResolvedChainOptions,
  accounts: readonly DevAccount[],
  history: StateHistory,
  stateRoot: StateRoot,
): SealedBlock {
  for (const { address } of accounts) {
    const key = address.toLowerCase() as Address
    history.putAccount(0, key, withAccountFields(undefined, { balance: options.balance }))
    stateRoot.markAccount(key)
  }
  const header: BlockHeader = {
    parentHash: new Uint8Array(32),
    coinbase: options.coinbase,
    stateRoot: stateRoot.compute(history.latest),
    transactionsRoot: EMPTY_TRIE_ROOT,
    receiptsRoot: EMPTY_TRIE_ROOT,
    logsBloom: new Uint8Array(BLOOM_BYTES),
    number: 0n,
    gasLimit: options.blockGasLimit,
    gasUsed: 0n,
    timestamp: BigInt(options.genesisTimestamp),
    extraData: new Uint8Array(0),
    mixHash: new Uint8Array(32),
    baseFeePerGas: options.initialBaseFee,
    withdrawalsRoot: EMPTY_TRIE_ROOT,
    blobGasUsed: 0n,
    excessBlobGas: 0n,
    parentBeaconBlockRoot: new Uint8Array(32),
    requestsHash: emptyRequestsHash(options.hardfork),
  }
  const { hash, encodedLength } = hashHeader(header)
  return { header, hash, transactions: [], size: blockSize(encodedLength, []) }
}
