/** Reads of state at a block, and the calls and estimates run on it. */
import { callResultOrThrow } from '../execution/run-call.ts'
import { formatCode } from './format-transaction.ts'
import { invalidArgument, parseAddress, toData, toQuantity, toWord } from './hex.ts'
import { method, optional, required, type MethodDefinition } from './method-definition.ts'
import { parseBlockTag, parseCallRequest, parseQuantityLike } from './params.ts'

function rejectStateOverrides(value: unknown, name: string): undefined {
  if (value === null || (typeof value === 'object' && Object.keys(value as object).length === 0)) return undefined
  throw invalidArgument(name, 'state overrides are not supported by preconf-devnet')
}

/** A value now, or once its state has loaded, formatted. */
function formatted<T>(value: T | Promise<T>, format: (value: T) => unknown): unknown {
  return value instanceof Promise ? value.then(format) : format(value)
}

/** An address parameter. */
export const address = (name: string) => required(`${name} (address)`, parseAddress)

/** A block parameter, `fallback` when omitted. */
export const block = (index: number, fallback: 'latest' | 'pending' = 'latest') =>
  optional(`${index} (block)`, parseBlockTag, () => parseBlockTag(fallback, `${index} (block)`))

/** The state methods, by name. */
export const stateMethods: Readonly<Record<string, MethodDefinition>> = {
  eth_getBalance: method([address('0'), block(1)], ({ view }, account, selector) => formatted(view.reads.balance(account, selector), toQuantity)),
  eth_getCode: method([address('0'), block(1)], ({ view }, account, selector) => formatted(view.reads.code(account, selector), formatCode)),
  eth_getStorageAt: method([address('0'), required('1 (slot)', parseQuantityLike), block(2)], ({ view }, account, slot, selector) =>
    formatted(view.reads.storage(account, slot, selector), toWord),
  ),
  eth_getTransactionCount: method([address('0'), block(1)], ({ view }, account, selector) => formatted(view.reads.nonce(account, selector), toQuantity)),
  eth_call: method(
    [required('0 (call)', parseCallRequest), block(1), optional('2 (state overrides)', rejectStateOverrides, () => undefined)],
    async ({ view }, request, selector) => toData(callResultOrThrow(await view.calls.call(request, selector))),
  ),
  eth_estimateGas: method(
    [required('0 (call)', parseCallRequest), block(1, 'pending'), optional('2 (state overrides)', rejectStateOverrides, () => undefined)],
    async ({ view }, request, selector) => toQuantity(await view.calls.estimateGas(request, selector)),
  ),
}
