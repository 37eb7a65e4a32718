/**
 * geth's prestateTracer in diffMode (eth/tracers/native/prestate.go, processDiffState): of the
 * accounts a run touched, those it changed — `pre`, as they were before (only the slots that
 * changed and were not zero), and `post`, the fields that changed as they are after (slots
 * written to zero left out). An account left as it was is in neither; one that was empty before
 * (no balance, nonce or code) is only in `post`. A contract created and destroyed in the same
 * transaction (EIP-6780) is in `pre` as it was, and not in `post`.
 */
import { equalsBytes, KECCAK256_NULL } from '@ethereumjs/util'
import type { StateView } from '../../state/state-view.ts'
import type { Address } from '../../types.ts'
import { accountAt, isEmpty, prestateOf, type AccountAt, type Prestate, type PrestateAccount, type Touched } from './prestate-tracer.ts'
import type { PrestateTracerConfig } from './tracer.ts'

/** The fields of an account a run changed, as they are after it. */
export interface PostAccount {
  readonly balance: bigint | undefined
  readonly nonce: bigint | undefined
  /** The new code; undefined if unchanged, removed (geth omits empty code) or with `disableCode`. */
  readonly code: Uint8Array | undefined
  readonly codeHash: Uint8Array | undefined
  /** The changed slots with a non-zero value now. */
  readonly storage: ReadonlyMap<bigint, bigint>
}

/** What a run changed: before (`pre`) and after (`post`), by address in ascending order. */
export interface PrestateDiff {
  readonly pre: Prestate
  readonly post: ReadonlyMap<Address, PostAccount>
}

/** The diff of what a run `touched` between the state it started on and the state it left. */
export async function prestateDiff(touched: Touched, before: StateView, after: StateView, config: PrestateTracerConfig): Promise<PrestateDiff> {
  const pre = new Map<Address, PrestateAccount>()
  const post = new Map<Address, PostAccount>()
  for (const address of [...touched.accounts.keys()].sort()) {
    const slots = config.disableStorage ? [] : touched.accounts.get(address)!
    const old = await accountAt(before, address, slots)
    // EIP-6780: SELFDESTRUCT deletes only an account created in the same transaction, one with no code before it.
    if (touched.selfdestructed.has(address) && old.code.length === 0) {
      if (!isEmpty(old)) pre.set(address, prestateOf(old, old.storage, config))
      continue
    }
    const changes = changed(old, await accountAt(after, address, slots), config)
    if (changes === undefined) continue
    post.set(address, changes.post)
    if (!isEmpty(old)) pre.set(address, prestateOf(old, changes.preStorage, config))
  }
  return { pre, post }
}

/** What changed from `old` to `now`, with the old values of the changed non-zero slots; undefined if nothing did. */
function changed(old: AccountAt, now: AccountAt, config: PrestateTracerConfig): { post: PostAccount; preStorage: Map<bigint, bigint> } | undefined {
  let modified = false
  const mark = <T>(differs: boolean, value: T): T | undefined => {
    if (!differs) return undefined
    modified = true
    return value
  }
  const balance = mark(now.balance !== old.balance, now.balance)
  const nonce = mark(now.nonce !== old.nonce, now.nonce)
  // No code reads as the empty code's hash, before and after (an account that no longer exists too).
  const codeHash = mark(!equalsBytes(now.codeHash ?? KECCAK256_NULL, old.codeHash ?? KECCAK256_NULL), now.codeHash ?? KECCAK256_NULL)
  // geth's `code` is omitempty: code removed (an EIP-7702 delegation cleared) shows only in the code hash.
  const code = config.disableCode ? undefined : mark(!equalsBytes(now.code, old.code), now.code.length > 0 ? now.code : undefined)
  const preStorage = new Map<bigint, bigint>()
  const storage = new Map<bigint, bigint>()
  for (const [slot, value] of old.storage) {
    const next = now.storage.get(slot)!
    if (next === value) continue
    modified = true
    if (value !== 0n) preStorage.set(slot, value)
    if (next !== 0n) storage.set(slot, next)
  }
  return modified ? { post: { balance, nonce, code, codeHash, storage }, preStorage } : undefined
}
