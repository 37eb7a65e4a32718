/**
 * Helpers for the harness specs: the types of the harness's chai matchers (chai's Assertion
 * augmented, so the spec type-checks), a way to catch the AssertionError a failing matcher
 * must reject with, and token reads.
 */
import { AssertionError, expect } from 'chai'
import { decodeFunctionResult, encodeFunctionData, type Address } from 'viem'
import type { Chain } from '../../lib/index.ts'
import type { CustomErrorAssertion, ErrorDecoder } from '../../lib/harness/index.ts'
import type { BlockTag } from '../../lib/types.ts'
import { Token } from '../../fixtures/artifacts/Token.ts'

declare global {
  namespace Chai {
    interface Assertion {
      /** The subject (promise or function) rejects with revert data. */
      readonly reverted: Promise<void>
      revertedWith(reason: string): Promise<void>
      revertedWithPanic(code?: bigint | number): Promise<void>
      revertedWithCustomError(decoder: ErrorDecoder, name: string): CustomErrorAssertion
      inMempool(): Promise<void>
      preconfirmed(): Promise<void>
      sealedInBlock(): Promise<void>
      dropped(): Promise<void>
      changeBalance(address: string, delta: bigint | number, blockTag?: BlockTag): Promise<void>
    }
  }
}

/**
 * The AssertionError `assertion` rejects with; fails the test if it resolves or rejects with
 * anything else (a TypeError from inside a matcher is a matcher bug, not a failed assertion).
 */
export async function assertionFailure(assertion: PromiseLike<unknown>): Promise<InstanceType<typeof AssertionError>> {
  let outcome: { rejected: false } | { rejected: true; error: unknown }
  try {
    await assertion
    outcome = { rejected: false }
  } catch (error) {
    outcome = { rejected: true, error }
  }
  if (!outcome.rejected) expect.fail('expected the assertion to fail, but it passed')
  expect(outcome.error, `expected an AssertionError, got ${String(outcome.error)}`).to.be.instanceOf(AssertionError)
  return outcome.error as InstanceType<typeof AssertionError>
}

/** Token.balanceOf(who) read with eth_call at `tag`. */
export async function tokenBalance(chain: Chain, token: Address, who: Address, tag: BlockTag = 'latest'): Promise<bigint> {
  const data = encodeFunctionData({ abi: Token.abi, functionName: 'balanceOf', args: [who] })
  const result = await chain.call({ to: token, data }, tag)
  return decodeFunctionResult({ abi: Token.abi, functionName: 'balanceOf', data: result })
}
