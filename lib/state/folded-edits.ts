/**
 * Test-control edits the state tries took in before a seal (a large edit is folded as it goes):
 * the values folded, key by key, until the next seal. The pending block repeats every edit, so
 * the seal marks each edited key again; a key whose sealed value is the one folded is already in
 * the tries and is not folded twice. A revert past a fold forgets them all (the tries go back).
 */
import type { UndoLog } from '../snapshots/undo-log.ts'
import type { Address } from '../types.ts'
import type { AccountState } from './account.ts'
import { sameAccount } from './key-versions.ts'
import { UNLOADED, type StateView } from './state-view.ts'

/** The values of edited keys as the tries hold them since a fold before the coming seal. */
export class FoldedEdits {
  private readonly accounts = new Map<Address, AccountState | undefined>()
  private readonly slots = new Map<Address, Map<bigint, bigint>>()

  constructor(private readonly undoLog?: UndoLog) {}

  /** Notes the values of `accounts` and `slots`, about to be folded from `head`. */
  folding(head: StateView, accounts: Iterable<Address>, slots: Iterable<readonly [Address, Iterable<bigint>]>): void {
    for (const address of accounts) {
      const account = head.getAccount(address)
      if (account !== UNLOADED) this.accounts.set(address, account)
    }
    for (const [address, words] of slots) {
      let folded = this.slots.get(address)
      if (folded === undefined) {
        folded = new Map()
        this.slots.set(address, folded)
      }
      for (const slot of words) {
        const value = head.getStorage(address, slot)
        if (value !== UNLOADED) folded.set(slot, value)
      }
    }
    if (this.undoLog?.recording) this.undoLog.record(() => this.clear())
  }

  /** Whether the tries already hold `account` (deleted: null) for `address`. */
  holdsAccount(address: Address, account: AccountState | null): boolean {
    return this.accounts.has(address) && sameAccount(this.accounts.get(address), account ?? undefined)
  }

  /** Whether the tries already hold `value` at `slot` of `address`. */
  holdsWord(address: Address, slot: bigint, value: bigint): boolean {
    return this.slots.get(address)?.get(slot) === value
  }

  /** Forgets every folded value (a seal took them in, or a revert took the fold back). */
  clear(): void {
    this.accounts.clear()
    this.slots.clear()
  }
}
