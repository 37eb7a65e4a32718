/**
 * The JSON-RPC method table: every method's parameter parsers and handler, by name, gathered
 * from the method groups. Each handler calls the engine with typed values and formats the
 * result; parsers name the argument they reject (-32602).
 */
import { accountMethods } from './account-methods.ts'
import { blockControlMethods } from './block-control-methods.ts'
import { blockMethods } from './block-methods.ts'
import { faultMethods } from './fault-methods.ts'
import { filterMethods } from './filter-methods.ts'
import { lifecycleMethods } from './lifecycle-methods.ts'
import { method, optional, required, type MethodDefinition, type ReadTarget } from './method-definition.ts'
import { invalidArgument } from './hex.ts'
import { nodeMethods } from './node-methods.ts'
import { signMethods } from './sign-methods.ts'
import { simulateMethods } from './simulate-methods.ts'
import { stateControlMethods } from './state-control-methods.ts'
import { stateMethods } from './state-methods.ts'
import { testMethods } from './test-methods.ts'
import { traceMethods } from './trace-methods.ts'
import { otterscanMethods } from './otterscan-methods.ts'
import { parityTraceMethods } from './parity-trace-methods.ts'
import { transactionMethods } from './transaction-methods.ts'
import { txpoolMethods } from './txpool-methods.ts'

const state = (block: number): ReadTarget => ({ block, reads: 'state' })
const contents = (block: number): ReadTarget => ({ block, reads: 'contents' })
const transaction: ReadTarget = { transaction: 0 }

/**
 * Where each reading method reads, for a forked chain: state before the fork block, the
 * contents of blocks up to it (a block, its transactions, receipts, traces, encodings, fee
 * history, proofs against its state root) and transactions in them are the upstream's, and the
 * request goes there as sent.
 */
const readTargets: Readonly<Record<string, ReadTarget>> = {
  eth_getBalance: state(1),
  eth_getCode: state(1),
  eth_getStorageAt: state(2),
  eth_getStorageValues: state(1),
  eth_getTransactionCount: state(1),
  eth_call: state(1),
  eth_estimateGas: state(1),
  eth_createAccessList: state(1),
  eth_getAccount: state(1),
  eth_getAccountInfo: state(1),
  eth_simulateV1: state(1),
  debug_traceCall: state(1),
  eth_getProof: contents(2),
  eth_feeHistory: contents(1),
  eth_getBlockByNumber: contents(0),
  eth_getBlockByHash: contents(0),
  eth_getBlockTransactionCountByNumber: contents(0),
  eth_getBlockTransactionCountByHash: contents(0),
  eth_getTransactionByBlockNumberAndIndex: contents(0),
  eth_getTransactionByBlockHashAndIndex: contents(0),
  eth_getRawTransactionByBlockNumberAndIndex: contents(0),
  eth_getRawTransactionByBlockHashAndIndex: contents(0),
  eth_getBlockReceipts: contents(0),
  eth_getUncleCountByBlockNumber: contents(0),
  eth_getUncleCountByBlockHash: contents(0),
  debug_traceBlockByNumber: contents(0),
  debug_traceBlockByHash: contents(0),
  debug_getRawHeader: contents(0),
  debug_getRawBlock: contents(0),
  debug_getRawReceipts: contents(0),
  eth_getTransactionByHash: transaction,
  eth_getTransactionReceipt: transaction,
  eth_getRawTransactionByHash: transaction,
  debug_traceTransaction: transaction,
  debug_getRawTransaction: transaction,
  trace_transaction: transaction,
  trace_block: contents(0),
  erigon_getHeaderByNumber: contents(0),
  ots_hasCode: state(1),
  ots_getBlockDetails: contents(0),
  ots_getBlockDetailsByHash: contents(0),
  ots_getBlockTransactions: contents(0),
  ots_traceTransaction: transaction,
  ots_getInternalOperations: transaction,
  ots_getTransactionError: transaction,
}

/** `definitions` with each method's read target from {@link readTargets}. */
function withReadTargets(definitions: Record<string, MethodDefinition>): Record<string, MethodDefinition> {
  for (const [name, target] of Object.entries(readTargets)) definitions[name] = { ...definitions[name], target }
  return definitions
}

/** Every request-response method the devnet answers, by name (any transport). */
export const methods: Readonly<Record<string, MethodDefinition>> = withReadTargets({
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
  ...parityTraceMethods,
  ...otterscanMethods,
  ...testMethods,
  ...faultMethods,
  ...stateControlMethods,
  ...blockControlMethods,
  ...lifecycleMethods,
})

function parseSubscriptionName(value: unknown, name: string): string {
  if (typeof value !== 'string') throw invalidArgument(name, 'expected a subscription name')
  return value
}

function parseSubscriptionId(value: unknown, name: string): string {
  if (typeof value !== 'string') throw invalidArgument(name, 'expected a string')
  return value
}

/** The methods that submit a transaction (transports let them wait for their turn under load). */
export const SUBMISSION_METHODS: ReadonlySet<string> = new Set(['eth_sendRawTransaction', 'eth_sendTransaction', 'eth_sendRawTransactionSync', 'eth_sendTransactionSync'])

/**
 * The subscription methods: answered in-process (notifications as EIP-1193 `message` events)
 * and over WebSocket; HTTP has no channel for notifications, so it does not offer them.
 */
export const subscriptionMethods: Readonly<Record<string, MethodDefinition>> = {
  // The sealed endpoint (its view is not the engine's own) has no pre-confirmation streams.
  eth_subscribe: method([required('0 (subscription)', parseSubscriptionName), optional('1 (options)', (value) => value, () => undefined)], ({ engine, view, subscriptions }, kind, option) =>
    subscriptions.subscribe(kind, option, view === engine),
  ),
  eth_unsubscribe: method([required('0 (subscription id)', parseSubscriptionId)], ({ subscriptions }, id) => subscriptions.unsubscribe(id)),
}
