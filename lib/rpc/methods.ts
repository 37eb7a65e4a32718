/**
 * The JSON-RPC method table: every method's parameter parsers and handler, by name, gathered
 * from the method groups. Each handler calls the engine with typed values and formats the
 * result; parsers name the argument they reject (-32602).
 */
import { accountMethods } from './account-methods.ts'
import { blockControlMethods } from './block-control-methods.ts'
import { blockMethods } from './block-methods.ts'
import { filterMethods } from './filter-methods.ts'
import { method, optional, required, type MethodDefinition } from './method-definition.ts'
import { invalidArgument } from './hex.ts'
import { nodeMethods } from './node-methods.ts'
import { signMethods } from './sign-methods.ts'
import { simulateMethods } from './simulate-methods.ts'
import { stateControlMethods } from './state-control-methods.ts'
import { stateMethods } from './state-methods.ts'
import { testMethods } from './test-methods.ts'
import { traceMethods } from './trace-methods.ts'
import { transactionMethods } from './transaction-methods.ts'
import { txpoolMethods } from './txpool-methods.ts'

/** Every request-response method the devnet answers, by name (any transport). */
export const methods: Readonly<Record<string, MethodDefinition>> = {
  ...nodeMethods,
  ...blockMethods,
  ...stateMethods,
  ...accountMethods,
  ...simulateMethods,
  ...transactionMethods,
  ...txpoolMethods,
  ...signMethods,
  ...filterMethods,
  ...traceMethods,
  ...testMethods,
  ...stateControlMethods,
  ...blockControlMethods,
}

function parseSubscriptionName(value: unknown, name: string): string {
  if (typeof value !== 'string') throw invalidArgument(name, 'expected a subscription name')
  return value
}

function parseSubscriptionId(value: unknown, name: string): string {
  if (typeof value !== 'string') throw invalidArgument(name, 'expected a string')
  return value
}

/**
 * The subscription methods: answered in-process (notifications as EIP-1193 `message` events)
 * and over WebSocket; HTTP has no channel for notifications, so it does not offer them.
 */
export const subscriptionMethods: Readonly<Record<string, MethodDefinition>> = {
  eth_subscribe: method([required('0 (subscription)', parseSubscriptionName), optional('1 (options)', (value) => value, () => undefined)], ({ subscriptions }, kind, option) =>
    subscriptions.subscribe(kind, option),
  ),
  eth_unsubscribe: method([required('0 (subscription id)', parseSubscriptionId)], ({ subscriptions }, id) => subscriptions.unsubscribe(id)),
}
