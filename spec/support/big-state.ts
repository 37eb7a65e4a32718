/**
 * A large state for the dump and load timings: a fresh chain's own dump with `count`
 * synthesized accounts added at block 0 (nonce 1, balance 1 ether + i, no code), so the state
 * is built in milliseconds instead of by sending `count` transactions.
 */
import { createChain } from '../../lib/index.ts'
import type { Address } from '../../lib/types.ts'
import { jsonOfHex, type DumpJson } from './dump-corruptions.ts'

/** keccak256 of empty code. */
const EMPTY_CODE_HASH = '0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470'

/** The `i`th synthesized address (from 1: 0x…01, 0x…02, …). */
export const syntheticAddress = (i: number): Address => `0x${(i + 1).toString(16).padStart(40, '0')}` as Address

/** The balance given to the `i`th synthesized account. */
export const syntheticBalance = (i: number): bigint => 10n ** 18n + BigInt(i)

/** A genesis dump with `count` more accounts, as the parsed object. */
export async function dumpWithAccounts(count: number): Promise<DumpJson> {
  const base = await createChain()
  const json = jsonOfHex((await base.dumpState()) as `0x${string}`)
  base.close()
  const accounts: Record<string, unknown[]> = { ...json.accounts }
  for (let i = 0; i < count; i++) accounts[syntheticAddress(i)] = [[0, '0x1', `0x${syntheticBalance(i).toString(16)}`, EMPTY_CODE_HASH]]
  return { ...json, accounts }
}

/** Milliseconds `run` takes, with its result. */
export async function timed<T>(run: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now()
  const value = await run()
  return { ms: Math.round(performance.now() - start), value }
}
