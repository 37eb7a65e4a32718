/** Reads of state at a block, and the calls and estimates run on it. */
import { ClientLimitExceededError, InvalidParamsError } from '../errors.ts'
import { callErrorMessage, callResultOrThrow } from '../execution/run-call.ts'
import type { Address, Hex } from '../types.ts'
import { formatCode } from './format-transaction.ts'
import { invalidArgument, parseAddress, parseHash, toData, toQuantity, toWord } from './hex.ts'
import { method, optional, required, type MethodDefinition } from './method-definition.ts'
import { parseBlockOverrides, parseStateOverrides } from './overrides.ts'
import { parseBlockOrHash, parseBlockTag, parseCallRequest, parseQuantityLike } from './params.ts'

const stateOverrides = optional('2 (state overrides)', parseStateOverrides, () => undefined)
const blockOverrides = optional('3 (block overrides)', parseBlockOverrides, () => undefined)

/** A value now, or once its state has loaded, formatted. */
function formatted<T>(value: T | Promise<T>, format: (value: T) => unknown): unknown {
  return value instanceof Promise ? value.then(format) : format(value)
}

/** geth's maxGetStorageSlots: the most slots one eth_getStorageValues reads, all addresses together. */
const MAX_STORAGE_VALUES = 1024

/**
 * eth_getStorageValues' request: each address's slots, as geth decodes its map (32-byte slot
 * hashes; an address spelled twice keeps its last slots). geth's limits: -32602 `empty request`
 * for no slots, -38026 past {@link MAX_STORAGE_VALUES}.
 */
function parseStorageRequests(value: unknown, name: string): Map<Address, bigint[]> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalidArgument(name, 'expected an object of addresses to slot arrays')
  const requests = new Map<Address, bigint[]>()
  let total = 0
  for (const [key, slots] of Object.entries(value)) {
    const account = parseAddress(key, `${name} key`)
    if (!Array.isArray(slots)) throw invalidArgument(`${name}.${key}`, 'expected an array of 32-byte slots')
    total += slots.length
    if (total > MAX_STORAGE_VALUES) throw new ClientLimitExceededError(`too many slots (max ${MAX_STORAGE_VALUES})`)
    requests.set(account, slots.map((slot, i) => BigInt(parseHash(slot, `${name}.${key}[${i}]`))))
  }
  if (total === 0) throw new InvalidParamsError('empty request')
  return requests
}

/** An address parameter. */
export const address = (name: string) => required(`${name} (address)`, parseAddress)

/** A block parameter (a tag, a number, an EIP-1898 object or a bare block hash: geth's BlockNumberOrHash), `fallback` when omitted. */
export const block = (index: number, fallback: 'latest' | 'pending' = 'latest') =>
  optional(`${index} (block)`, parseBlockOrHash, () => parseBlockTag(fallback, `${index} (block)`))

/** The state methods, by name. */
export const stateMethods: Readonly<Record<string, MethodDefinition>> = {
  eth_getBalance: method([address('0'), block(1)], ({ view }, account, selector) => formatted(view.reads.balance(account, selector), toQuantity)),
  eth_getCode: method([address('0'), block(1)], ({ view }, account, selector) => formatted(view.reads.code(account, selector), formatCode)),
  eth_getStorageAt: method([address('0'), required('1 (slot)', parseQuantityLike), block(2)], ({ view }, account, slot, selector) =>
    formatted(view.reads.storage(account, slot, selector), toWord),
  ),
  // geth's (and Anvil's): many slots of many accounts at one block, each as a 32-byte word.
  eth_getStorageValues: method([required('0 (requests)', parseStorageRequests), block(1)], async ({ view }, requests, selector) => {
    const result: Record<string, Hex[]> = {}
    for (const [account, slots] of requests) {
      const words: Hex[] = []
      for (const slot of slots) words.push(toWord(await view.reads.storage(account, slot, selector)))
      result[account] = words
    }
    return result
  }),
  eth_getTransactionCount: method([address('0'), block(1)], ({ view }, account, selector) => formatted(view.reads.nonce(account, selector), toQuantity)),
  // Anvil's: the three reads in one answer, in its field order; the nonce is eth_getTransactionCount's.
  eth_getAccountInfo: method([address('0'), block(1)], async ({ view }, account, selector) => {
    const { reads } = view
    const [balance, nonce, code] = await Promise.all([reads.balance(account, selector), reads.nonce(account, selector), reads.code(account, selector)])
    return { balance: toQuantity(balance), nonce: toQuantity(nonce), code: formatCode(code) }
  }),
  eth_call: method([required('0 (call)', parseCallRequest), block(1), stateOverrides, blockOverrides], async ({ view }, request, selector, state, block) =>
    toData(callResultOrThrow(await view.calls.call(request, selector, { state, block }))),
  ),
  eth_createAccessList: method([required('0 (call)', parseCallRequest), block(1)], async ({ view }, request, selector) => {
    const { accessList, gasUsed, outcome } = await view.calls.createAccessList(request, selector)
    const result: Record<string, unknown> = { accessList, gasUsed: toQuantity(gasUsed) }
    // geth reports a failed run beside the list rather than as the answer's error.
    if (outcome.error !== undefined) result.error = callErrorMessage(outcome)
    return result
  }),
  eth_estimateGas: method([required('0 (call)', parseCallRequest), block(1, 'pending'), stateOverrides, blockOverrides], async ({ view }, request, selector, state, block) =>
    toQuantity(await view.calls.estimateGas(request, selector, { state, block })),
  ),
}
