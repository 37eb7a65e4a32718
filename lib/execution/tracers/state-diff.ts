/**
 * Parity's `stateDiff` of one transaction (`trace_replayBlockTransactions`), as Anvil 1.7.1
 * builds it (revm-inspectors' `populate_state_diff`): every account the transaction wrote,
 * against the state it started on. An account the transaction created with no balance before
 * is born (`+`: balance, nonce, code and the slots it set); any other lists balance and nonce as
 * unchanged (`=`) or changed (`*`), its code as changed if it was created over a funded address
 * (unchanged otherwise), and the slots whose value changed. An account left as it was is not
 * listed, nor one created and destroyed in the same transaction.
 */
import { equalsBytes } from '@ethereumjs/util'
import { EMPTY_ACCOUNT, type AccountState } from '../../state/account.ts'
import { readAccount, readStorage } from '../../state/state-source.ts'
import type { StateChanges, StateView } from '../../state/state-view.ts'
import type { Address } from '../../types.ts'
import type { FrameEnd, FrameStart, Tracer } from './tracer.ts'

/** One field's change: unchanged, born with a value, or changed from one value to another. */
export type Delta<T> = { readonly kind: 'same' } | { readonly kind: 'born'; readonly value: T } | { readonly kind: 'changed'; readonly from: T; readonly to: T }

/** What a transaction changed of one account. */
export interface AccountDiff {
  readonly balance: Delta<bigint>
  readonly nonce: Delta<bigint>
  readonly code: Delta<Uint8Array>
  /** The changed slots, in ascending order. */
  readonly storage: ReadonlyMap<bigint, Delta<bigint>>
}

/** A transaction's state diff, by address in ascending order. */
export type StateDiff = ReadonlyMap<Address, AccountDiff>

/** Which accounts a run created and destroyed (in frames that kept their effects), and its output. */
export interface Creations {
  readonly created: ReadonlySet<Address>
  readonly destroyed: ReadonlySet<Address>
  /** The top frame's return data, revert data or deployed code; empty after any other failure (revm's `output`). */
  readonly output: Uint8Array
}

/** The creations and self-destructs one frame made, with those of the frames it opened. */
interface FrameEffects {
  readonly created: Address[]
  readonly destroyed: Address[]
}

const SAME: Delta<never> = { kind: 'same' }

/** Tracks the accounts a run created and destroyed: a failed frame's (and its callees') are undone, as revm's journal undoes them. */
export class CreationTracer implements Tracer<Creations> {
  private readonly open: FrameEffects[] = []
  private kept: FrameEffects = { created: [], destroyed: [] }
  private output: Uint8Array = new Uint8Array(0)

  onEnter(frame: FrameStart): void {
    // A self-destruct is a frame of its own that opens and closes at once.
    if (frame.type === 'SELFDESTRUCT') this.open.at(-1)?.destroyed.push(frame.from)
    this.open.push({ created: [], destroyed: [] })
  }

  onExit(end: FrameEnd): void {
    const effects = this.open.pop()
    if (effects === undefined) return
    if (end.depth === 0) this.output = end.error !== undefined && !end.reverted ? new Uint8Array(0) : end.output
    if (end.error !== undefined) return
    if (end.createdAddress !== undefined) effects.created.push(end.createdAddress)
    const parent = this.open.at(-1) ?? this.kept
    parent.created.push(...effects.created)
    parent.destroyed.push(...effects.destroyed)
  }

  result(): Creations {
    return { created: new Set(this.kept.created), destroyed: new Set(this.kept.destroyed), output: this.output }
  }
}

function numberDelta(from: bigint, to: bigint): Delta<bigint> {
  return from === to ? SAME : { kind: 'changed', from, to }
}

/** The diff of what a transaction wrote (`after`, a layer of its writes over `before`), given its `creations`. */
export async function stateDiff(after: StateView & StateChanges, creations: Creations, before: StateView): Promise<StateDiff> {
  const diff = new Map<Address, AccountDiff>()
  for (const address of [...new Set([...after.accounts.keys(), ...after.storage.keys()])].sort()) {
    const created = creations.created.has(address)
    if (created && creations.destroyed.has(address)) continue
    const old: AccountState = (await readAccount(before, address)) ?? EMPTY_ACCOUNT
    const now: AccountState = (await readAccount(after, address)) ?? EMPTY_ACCOUNT
    const storage = new Map<bigint, Delta<bigint>>()
    const born = created && old.balance === 0n
    for (const slot of [...(after.storage.get(address)?.keys() ?? [])].sort((a, b) => (a < b ? -1 : 1))) {
      const from = await readStorage(before, address, slot)
      const to = await readStorage(after, address, slot)
      if (from !== to) storage.set(slot, born ? { kind: 'born', value: to } : { kind: 'changed', from, to })
    }
    if (born) {
      diff.set(address, { balance: { kind: 'born', value: now.balance }, nonce: { kind: 'born', value: now.nonce }, code: { kind: 'born', value: now.code }, storage })
      continue
    }
    const unchanged = old.balance === now.balance && old.nonce === now.nonce && equalsBytes(old.codeHash, now.codeHash)
    if (storage.size === 0 && unchanged) continue
    diff.set(address, {
      balance: numberDelta(old.balance, now.balance),
      nonce: numberDelta(old.nonce, now.nonce),
      // Only a creation changes code here, and always (revm's Delta::changed, even to the same code); an EIP-7702 delegation set or cleared lists it unchanged, as revm does.
      code: created ? { kind: 'changed', from: old.code, to: now.code } : SAME,
      storage,
    })
  }
  return diff
}
