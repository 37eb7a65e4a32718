/**
 * chai assertions for what pre-confirmation tests check, named as Hardhat's chai matchers where
 * they overlap. Every one is asynchronous: `await` it.
 *
 * ```ts
 * await expect(reverter.read.revertWithReason(['boom'])).to.be.revertedWith('boom')
 * await expect(call()).to.be.revertedWithCustomError(Token.abi, 'InsufficientBalance').withArgs(alice, 0n, 1n)
 * await expect(hash).to.be.preconfirmed()          // or .sealedInBlock(), .inMempool()
 * await expect(hash).to.be.dropped()               // a pre-confirmation taken back: neither pre-confirmed nor sealed
 * await expect(() => send()).to.changeBalance(bob, 5n, 'pending')
 * ```
 */
import type { BlockTag, Chain } from '../index.ts'
import { locateTransaction, registerChain, wasWithdrawn } from './chain-registry.ts'
import { decodePanicCode, decodeRevertReason, isExecutionHalt, revertDataOf } from './revert-data.ts'

/** The part of chai a plugin uses (kept structural so chai stays a peer of the user's choosing). */
interface ChaiLike {
  Assertion: {
    addMethod(name: string, method: (this: AssertionLike, ...args: any[]) => any): void
    addProperty(name: string, getter: (this: AssertionLike) => any): void
  }
}
interface AssertionLike {
  _obj: unknown
  assert(condition: boolean, message: string, negatedMessage: string, expected?: unknown, actual?: unknown): void
}

/** A chai plugin: `chai.use(harness.chaiMatchers)`. */
export type ChaiPlugin = (chai: ChaiLike, utils: unknown) => void

/** An ABI (viem style) or a contract or interface with `parseError` (ethers style). */
export type ErrorDecoder = readonly unknown[] | { readonly abi: readonly unknown[] } | { readonly interface: { parseError(data: string): { name: string; args: ArrayLike<unknown> } | null } } | { parseError(data: string): { name: string; args: ArrayLike<unknown> } | null }

/** A thenable assertion that can also check the decoded error's arguments. */
export interface CustomErrorAssertion extends PromiseLike<void> {
  withArgs(...expected: unknown[]): Promise<void>
}

type Subject = unknown

/** The transaction hash a subject names: a hash, a transaction (`hash`) or a receipt (viem's `transactionHash`, ethers' `hash`). */
function hashOf(subject: unknown): string | undefined {
  if (typeof subject === 'string') return /^0x[0-9a-fA-F]{64}$/.test(subject) ? subject.toLowerCase() : undefined
  if (typeof subject !== 'object' || subject === null) return undefined
  const { hash, transactionHash } = subject as { hash?: unknown; transactionHash?: unknown }
  const named = typeof hash === 'string' ? hash : typeof transactionHash === 'string' ? transactionHash : undefined
  return named === undefined ? undefined : hashOf(named)
}

/** The hash of a subject the status matchers take; anything else is a TypeError, never a vacuous pass. */
function requiredHashOf(subject: unknown): string {
  const hash = hashOf(subject)
  if (hash === undefined) throw new TypeError(`expected a transaction hash, a transaction or a receipt, got ${typeof subject === 'string' ? `"${subject}"` : String(subject)}`)
  return hash
}

/**
 * The revert data of the subject (a promise, or a function returning one): `0x` for a run that
 * halted without any (INVALID, out of gas), undefined if it succeeded. A rejection that is no
 * failed run (a pool error, a bug) is rethrown as it is, as Hardhat's matchers do, rather than
 * read as "did not revert". A subject that resolves to a sent transaction (its hash, the
 * transaction, its receipt) is judged by its receipt, as Hardhat's matchers judge it.
 */
async function revertOf(subject: Subject): Promise<`0x${string}` | undefined> {
  let value: unknown
  try {
    value = await (typeof subject === 'function' ? (subject as () => unknown)() : subject)
  } catch (error) {
    const data = revertDataOf(error)
    if (data !== undefined) return data
    if (isExecutionHalt(error)) return '0x'
    throw error
  }
  return sentRevertOf(value)
}

/**
 * A sent transaction's revert: none if its receipt has status 1, else the data its trace returned
 * (`0x` without any). A value that names no transaction of the chains (a call's 32-byte result,
 * say) did not revert; one still in the mempool has not run, and cannot be judged yet.
 */
async function sentRevertOf(value: unknown): Promise<`0x${string}` | undefined> {
  const hash = hashOf(value)
  const found = hash === undefined ? undefined : locateTransaction(hash)
  if (found === undefined) return undefined
  if (found.location.status === 'mempool') throw new Error(`transaction ${hash} has not run yet (it is in the mempool): move the clock on, then assert`)
  if (found.location.included.receipt.status === 1) return undefined
  const trace = (await found.chain.request({ method: 'debug_traceTransaction', params: [hash, { tracer: 'callTracer' }] })) as { output?: `0x${string}` }
  return trace.output ?? '0x'
}

async function decodeCustomError(decoder: ErrorDecoder, data: `0x${string}`): Promise<{ name: string; args: unknown[] } | undefined> {
  const parser = 'interface' in decoder ? decoder.interface : 'parseError' in decoder ? decoder : undefined
  if (parser !== undefined) {
    const parsed = parser.parseError(data)
    return parsed === null ? undefined : { name: parsed.name, args: Array.from(parsed.args) }
  }
  const abi = Array.isArray(decoder) ? decoder : (decoder as { abi: readonly unknown[] }).abi
  const { decodeErrorResult } = await import('viem')
  try {
    const decoded = decodeErrorResult({ abi: abi as never, data })
    return { name: decoded.errorName, args: [...((decoded.args as unknown[] | undefined) ?? [])] }
  } catch {
    return undefined
  }
}

/** Values as compared by withArgs: numbers as bigints, addresses lowercase. */
function normalise(value: unknown): unknown {
  if (typeof value === 'number' && Number.isInteger(value)) return BigInt(value)
  if (typeof value === 'string' && /^0x[0-9a-fA-F]{40}$/.test(value)) return value.toLowerCase()
  if (Array.isArray(value)) return value.map(normalise)
  return value
}

function sameValues(a: unknown, b: unknown): boolean {
  return JSON.stringify(normalise(a), (_, v) => (typeof v === 'bigint' ? `${v}n` : v)) === JSON.stringify(normalise(b), (_, v) => (typeof v === 'bigint' ? `${v}n` : v))
}

/**
 * The matchers of `chain`'s harness. The transaction matchers find the transaction on whichever
 * harnessed chain knows it (tests may run several); `changeBalance` reads `chain`.
 */
export function createChaiMatchers(chain: Chain): ChaiPlugin {
  registerChain(chain)
  // chai keeps every plugin it was given: the plugin holds its chain weakly, so a test's chain can go.
  const ref = new WeakRef(chain)
  const harnessChain = (): Chain => {
    const live = ref.deref()
    if (live === undefined) throw new Error("changeBalance: this harness's chain is gone")
    return live
  }
  return (chai) => {
    const { Assertion } = chai

    Assertion.addProperty('reverted', async function () {
      const data = await revertOf(this._obj)
      this.assert(data !== undefined, 'expected the call or transaction to revert, but it did not', 'expected no revert, but it reverted', undefined, data)
    })

    Assertion.addMethod('revertedWith', async function (reason: string) {
      const data = await revertOf(this._obj)
      const actual = data === undefined ? undefined : decodeRevertReason(data)
      this.assert(
        actual === reason,
        `expected a revert with reason "${reason}", but ${data === undefined ? 'it did not revert' : actual === undefined ? `it reverted with ${data}` : `the reason was "${actual}"`}`,
        `expected no revert with reason "${reason}"`,
        reason,
        actual,
      )
    })

    Assertion.addMethod('revertedWithPanic', async function (code?: bigint | number) {
      const data = await revertOf(this._obj)
      const actual = data === undefined ? undefined : decodePanicCode(data)
      const matches = actual !== undefined && (code === undefined || actual === BigInt(code))
      this.assert(matches, `expected a panic${code === undefined ? '' : ` with code ${code}`}, got ${actual === undefined ? (data ?? 'no revert') : `code ${actual}`}`, 'expected no panic', code, actual)
    })

    Assertion.addMethod('revertedWithCustomError', function (decoder: ErrorDecoder, name: string): CustomErrorAssertion {
      const assertion = this
      const decoded = (async () => {
        const data = await revertOf(assertion._obj)
        const error = data === undefined ? undefined : await decodeCustomError(decoder, data)
        assertion.assert(
          error?.name === name,
          `expected a revert with custom error ${name}, but ${data === undefined ? 'it did not revert' : error === undefined ? `it reverted with ${data}` : `the error was ${error.name}`}`,
          `expected no revert with custom error ${name}`,
          name,
          error?.name,
        )
        return error?.args ?? []
      })()
      return {
        then: (resolve, reject) => decoded.then(() => undefined).then(resolve, reject),
        withArgs: async (...expected) => {
          const args = await decoded
          assertion.assert(sameValues(args, expected), `expected ${name} with arguments ${String(expected)}, got ${String(args)}`, `expected other arguments than ${String(expected)}`, expected, args)
        },
      }
    })

    const status = (expected: 'mempool' | 'preconfirmed' | 'sealed', wording: string) =>
      async function (this: AssertionLike) {
        const hash = requiredHashOf(await this._obj)
        const actual = locateTransaction(hash)?.location.status ?? 'unknown'
        this.assert(actual === expected, `expected transaction ${hash} to be ${wording}, but it is ${actual === 'mempool' ? 'in the mempool' : actual}`, `expected transaction ${hash} not to be ${wording}`, expected, actual)
      }
    Assertion.addMethod('inMempool', status('mempool', 'in the mempool'))
    Assertion.addMethod('preconfirmed', status('preconfirmed', 'pre-confirmed (and not yet sealed)'))
    Assertion.addMethod('sealedInBlock', status('sealed', 'sealed in a block'))
    // A dropped pre-confirmation: it was taken back, and its transaction is back in the mempool, or gone.
    Assertion.addMethod('dropped', async function (this: AssertionLike) {
      const hash = requiredHashOf(await this._obj)
      const found = locateTransaction(hash)
      const status = found?.location.status
      const withdrawn = wasWithdrawn(hash, found?.chain)
      const actual = status ?? (withdrawn ? 'gone' : 'unknown')
      const dropped = withdrawn && status !== 'preconfirmed' && status !== 'sealed'
      const shown = actual === 'mempool' ? 'in the mempool' : actual === 'unknown' ? 'unknown (never pre-confirmed here)' : actual
      this.assert(dropped, `expected transaction ${hash} to be dropped (taken back, neither pre-confirmed nor sealed), but it is ${shown}`, `expected transaction ${hash} not to be dropped, but it is ${shown}`, 'dropped', actual)
    })

    Assertion.addMethod('changeBalance', async function (address: string, delta: bigint | number, blockTag: BlockTag = 'latest') {
      if (typeof this._obj !== 'function') throw new TypeError('changeBalance needs a function that performs the action: expect(() => send()).to.changeBalance(...)')
      const chain = harnessChain()
      const before = await chain.getBalance(address, blockTag)
      await (this._obj as () => unknown)()
      const change = (await chain.getBalance(address, blockTag)) - before
      this.assert(change === BigInt(delta), `expected the balance of ${address} at ${String(blockTag)} to change by ${delta}, but it changed by ${change}`, `expected the balance of ${address} not to change by ${delta}`, BigInt(delta), change)
    })
  }
}
