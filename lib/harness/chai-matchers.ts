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
import { decodePanicCode, decodeRevertReason, revertDataOf } from './revert-data.ts'

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

/**
 * The revert data of the subject (a promise, or a function returning one): undefined if it
 * resolved. A rejection that is not a revert (a pool error, a bug) is rethrown as it is, as
 * Hardhat's matchers do, rather than read as "did not revert".
 */
async function revertOf(subject: Subject): Promise<`0x${string}` | undefined> {
  try {
    await (typeof subject === 'function' ? (subject as () => unknown)() : subject)
    return undefined
  } catch (error) {
    const data = revertDataOf(error)
    if (data === undefined) throw error
    return data
  }
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

function hashOf(subject: unknown): string | undefined {
  if (typeof subject === 'string') return subject.toLowerCase()
  if (typeof subject === 'object' && subject !== null && typeof (subject as { hash?: unknown }).hash === 'string') return (subject as { hash: string }).hash.toLowerCase()
  return undefined
}

/** The matchers, bound to `chain` (for transaction status). */
export function createChaiMatchers(chain: Chain): ChaiPlugin {
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
        const hash = hashOf(await this._obj)
        const location = hash === undefined ? undefined : chain.findTransaction(hash as `0x${string}`)
        const actual = location?.status ?? 'unknown'
        this.assert(actual === expected, `expected transaction ${hash} to be ${wording}, but it is ${actual === 'mempool' ? 'in the mempool' : actual}`, `expected transaction ${hash} not to be ${wording}`, expected, actual)
      }
    Assertion.addMethod('inMempool', status('mempool', 'in the mempool'))
    Assertion.addMethod('preconfirmed', status('preconfirmed', 'pre-confirmed (and not yet sealed)'))
    Assertion.addMethod('sealedInBlock', status('sealed', 'sealed in a block'))
    // A dropped pre-confirmation: its transaction is back in the mempool, or gone.
    Assertion.addMethod('dropped', async function (this: AssertionLike) {
      const hash = hashOf(await this._obj)
      const actual = (hash === undefined ? undefined : chain.findTransaction(hash as `0x${string}`))?.status ?? 'unknown'
      const executed = actual === 'preconfirmed' || actual === 'sealed'
      this.assert(!executed, `expected transaction ${hash} to be dropped (neither pre-confirmed nor sealed), but it is ${actual}`, `expected transaction ${hash} not to be dropped, but it is ${actual === 'mempool' ? 'in the mempool' : actual}`, 'dropped', actual)
    })

    Assertion.addMethod('changeBalance', async function (address: string, delta: bigint | number, blockTag: BlockTag = 'latest') {
      if (typeof this._obj !== 'function') throw new TypeError('changeBalance needs a function that performs the action: expect(() => send()).to.changeBalance(...)')
      const before = await chain.getBalance(address, blockTag)
      await (this._obj as () => unknown)()
      const change = (await chain.getBalance(address, blockTag)) - before
      this.assert(change === BigInt(delta), `expected the balance of ${address} at ${String(blockTag)} to change by ${delta}, but it changed by ${change}`, `expected the balance of ${address} not to change by ${delta}`, BigInt(delta), change)
    })
  }
}
