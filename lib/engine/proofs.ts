/**
 * Merkle proofs of accounts and storage (`eth_getProof`) and account summaries
 * (`eth_getAccount`). Proofs at the sealed head walk the tries the state commitment keeps; at an
 * older block, tries built for the request from the history (a cost of the whole state, as a
 * state load's); an account's storage root at another block (or at `pending`) is rebuilt from the
 * words it held there.
 */
import { hexToBytes, KECCAK256_NULL, KECCAK256_RLP } from '@ethereumjs/util'
import { keccak256 } from '../crypto/keccak.ts'
import { ResourceNotFoundError } from '../errors.ts'
import type { AccountState } from '../state/account.ts'
import type { StateCommitment } from '../state/state-commitment.ts'
import { storageKey, triesOf, writeStorageWord, type StateTries } from '../state/state-tries.ts'
import type { StateHistory } from '../state/state-history.ts'
import { heldAccount, loadAccount } from '../state/state-source.ts'
import { UNLOADED, type StateView } from '../state/state-view.ts'
import { trieProof } from '../trie/proof.ts'
import { trieRoot } from '../trie/trie-encoding.ts'
import type { TrieNode } from '../trie/trie-nodes.ts'
import type { Address } from '../types.ts'
import type { BlockResolver, ResolvedBlock } from './block-resolver.ts'
import type { UpstreamChain } from './upstream-chain.ts'

/** What proofs read. */
export interface ProofParts {
  readonly blocks: BlockResolver
  readonly history: StateHistory
  readonly commitment: StateCommitment
  /** A forked chain's upstream: it holds the state tries the chain does not. */
  readonly upstream: UpstreamChain | undefined
}

/** An account as the state trie holds it (`eth_getAccount`); an absent account reads as an empty one, as in Anvil. */
export interface AccountSummary {
  readonly nonce: bigint
  readonly balance: bigint
  /** The root of the account's storage trie (the empty trie's root when it holds no word). */
  readonly storageRoot: Uint8Array
  readonly codeHash: Uint8Array
}

/** One storage word and its proof in the account's storage trie. */
export interface StorageProof {
  readonly slot: bigint
  readonly value: bigint
  /** RLP trie nodes, root first. */
  readonly proof: Uint8Array[]
}

/** An account, its proof in the state trie, and the proofs of the words asked for (`eth_getProof`). */
export interface AccountProof extends AccountSummary {
  readonly address: Address
  /** RLP trie nodes, root first. */
  readonly accountProof: Uint8Array[]
  /** One per slot asked for, in the order asked. */
  readonly storageProof: StorageProof[]
}

/** The word at `slot` of `address` in `state`, which a chain with tries always holds. */
function heldWord(state: StateView, address: Address, slot: bigint): bigint {
  const value = state.getStorage(address, slot)
  if (value === UNLOADED) throw new Error(`proof: slot ${slot} of ${address} is not loaded`)
  return value
}

/** The account's fields as the trie holds them; an absent account reads as an empty one, as in Anvil. */
function summary(account: AccountState | undefined, storageRoot: () => Uint8Array): AccountSummary {
  if (account === undefined) return { nonce: 0n, balance: 0n, storageRoot: KECCAK256_RLP, codeHash: KECCAK256_NULL }
  return { nonce: account.nonce, balance: account.balance, storageRoot: storageRoot(), codeHash: account.codeHash }
}

/** The proof of `address` and of its words at `slots` in `tries`, the tries of `state`. */
function proofIn(tries: StateTries, state: StateView, address: Address, slots: readonly bigint[]): AccountProof {
  const account = heldAccount(state, address)
  const storage = account === undefined ? undefined : tries.storage(address)
  return {
    address,
    ...summary(account, () => trieRoot(storage)),
    accountProof: trieProof(tries.accounts, keccak256(hexToBytes(address))),
    storageProof: slots.map((slot) => ({
      slot,
      value: heldWord(state, address, slot),
      proof: trieProof(storage, storageKey(slot)),
    })),
  }
}

/** Account and storage proofs, and account summaries. */
export class Proofs {
  constructor(readonly parts: ProofParts) {}

  /**
   * The proof of `address` and of its words at `slots`, at `at`, a sealed block: at the head, on
   * the tries the commitment keeps, with test-control edits since the last seal included, as
   * Anvil includes them (the proof's root is then not yet the head's `stateRoot`); at an older
   * block, on tries built for the request from every key the history holds, read at that block
   * (Anvil answers older blocks too; a test-control edit made while that block was the head is
   * part of it, as reads there show it). -32000 at `pending` (it has no state trie) and on a chain
   * without tries (a fork); -32602 at a block whose state is pruned.
   */
  proof(address: Address, slots: readonly bigint[], at: ResolvedBlock): AccountProof {
    // Asked first at every block: a chain without tries (a fork) refuses here, whatever the block.
    const head = this.headTries()
    if (at.kind === 'pending') throw new ResourceNotFoundError('proofs are available for sealed blocks only: the pending block has no state trie')
    const number = at.block.header.number
    if (number === this.parts.blocks.headNumber) return proofIn(head, this.parts.history.latest, address, slots)
    const { history } = this.parts
    const state = history.at(Number(number))
    const built = triesOf(state, history.keys())
    return proofIn({ accounts: built.accounts, storage: (account) => built.storageTries.get(account) }, state, address, slots)
  }

  /** The account at `address` as the state trie holds it at `at` (any block); on a fork, see {@link forkAccount}. */
  account(address: Address, at: ResolvedBlock): AccountSummary | Promise<AccountSummary> {
    const { upstream } = this.parts
    if (upstream !== undefined) return this.forkAccount(address, at, upstream)
    const tries = this.headTries()
    const account = heldAccount(at.state, address)
    if (at.kind === 'pending') return summary(account, () => trieRoot(this.pendingStorage(tries, address, at)))
    if (at.block.header.number === this.parts.blocks.headNumber) return summary(account, () => trieRoot(tries.storage(address)))
    return summary(account, () => trieRoot(this.storageAt(address, Number(at.block.header.number))))
  }

  /**
   * The account at `address` on a fork, which holds no tries: its fields as the chain reads them
   * at `at`, its storage root the upstream's at the fork block (as Anvil answers), unless the
   * chain has written to that storage by `at`: then the root is not known here (-32000).
   */
  private async forkAccount(address: Address, at: ResolvedBlock, upstream: UpstreamChain): Promise<AccountSummary> {
    const account = await loadAccount(at.state, address)
    const number = at.kind === 'pending' ? this.parts.blocks.headNumber : at.block.header.number
    const written = this.parts.history.wroteStorage(address, Number(number)) || (at.kind === 'pending' && at.block.state.storage.has(address))
    if (account !== undefined && written) {
      throw new ResourceNotFoundError(`the storage root of ${address} is not known on a forked chain once the chain has written to its storage: it does not hold the upstream's state trie`)
    }
    const storageRoot = account === undefined ? KECCAK256_RLP : await upstream.storageRoot(address)
    return summary(account, () => storageRoot)
  }

  /** The head's tries, every edit since the last seal folded in. */
  private headTries(): StateTries {
    return this.parts.commitment.tries(this.parts.history.latest)
  }

  /** The storage trie of `address` in the pending block: the head's, with the block's writes over it. */
  private pendingStorage(tries: StateTries, address: Address, at: Extract<ResolvedBlock, { kind: 'pending' }>): TrieNode | undefined {
    const writes = at.block.state.storage.get(address)
    if (writes === undefined) return tries.storage(address)
    let trie = writes.cleared ? undefined : tries.storage(address)
    for (const [slot, value] of writes) trie = writeStorageWord(trie, slot, value)
    return trie
  }

  /** The storage trie of `address` at the end of an older sealed block, built from the words the history holds there. */
  private storageAt(address: Address, blockNumber: number): TrieNode | undefined {
    let trie: TrieNode | undefined
    for (const [slot, value] of this.parts.history.storageWordsAt(address, blockNumber)) trie = writeStorageWord(trie, slot, value)
    return trie
  }
}
