/**
 * Arbitraries and oracles for the server fuzz spec: wrong-typed values of every kind (JSON-safe
 * for HTTP, plus JavaScript-only values for the in-process provider), deeply nested values,
 * the parameter table of the RPC methods, and an independent, deliberately conservative
 * "could this be valid?" predicate per parameter kind. A value the predicate rejects must be
 * answered with -32602 naming its argument (geth's `invalid argument N`); a value it accepts
 * may succeed or fail, but never with -32603.
 */
import fc from 'fast-check'

/** The geth-style tags a block parameter takes. */
const TAG_NAMES = new Set(['latest', 'pending', 'safe', 'finalized', 'earliest'])
const QUANTITY = /^0x[0-9a-fA-F]{1,64}$/
const ADDRESS = /^0x[0-9a-fA-F]{40}$/
const HASH = /^0x[0-9a-fA-F]{64}$/
const DATA = /^0x(?:[0-9a-fA-F]{2})*$/
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER)

/** The kinds of RPC parameters. */
export type Kind =
  | 'address'
  | 'hash'
  | 'data'
  | 'quantity'
  | 'count'
  | 'milliseconds'
  | 'syncTimeout'
  | 'block'
  | 'boolean'
  | 'call'
  | 'transaction'
  | 'filter'
  | 'percentiles'
  | 'overrides'
  /** A JSON object (tracer configs, simulation payloads, block overrides): only its type is judged here. */
  | 'object'
  /** A JSON object or its JSON text (EIP-712 typed data). */
  | 'typedData'
  /** A string (filter ids). */
  | 'string'
  /** `evm_mine`'s parameter: a timestamp, or Anvil's `{ timestamp?, blocks? }` (an empty object is valid). */
  | 'mineOptions'
  /** An array of storage keys (eth_getProof). */
  | 'storageKeys'
  /** `anvil_reorg`'s `[[transaction, block], …]`: only its being an array is judged here. */
  | 'placements'
  /** eth_getStorageValues' `{ address: [slot, …] }` (32-byte slots). */
  | 'storageRequests'
  /** trace_replayBlockTransactions' trace types (`trace`, `stateDiff`; `vmTrace` is not served). */
  | 'traceTypes'

/** One positional parameter: the name in geth's `invalid argument N (name)`, its kind, a valid value. */
export interface ParamSpec {
  readonly name: string
  readonly kind: Kind
  readonly required: boolean
  readonly valid: unknown
}

/** A dev account (index 0) and another one, as valid sample addresses. */
export const ALICE = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
export const BOB = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
export const ZERO_HASH = `0x${'0'.repeat(64)}`

const p = (name: string, kind: Kind, required: boolean, valid: unknown): ParamSpec => ({ name, kind, required, valid })

/**
 * The parameters of each method of lib/rpc/methods.ts, written out from the method docs (geth's
 * signatures). Methods not listed here are fuzzed only with shapes invalid for any method.
 */
export const METHOD_PARAMS: Readonly<Record<string, readonly ParamSpec[]>> = {
  web3_clientVersion: [],
  net_version: [],
  eth_networkId: [],
  eth_chainId: [],
  eth_blockNumber: [],
  eth_accounts: [],
  eth_requestAccounts: [],
  eth_gasPrice: [],
  eth_maxPriorityFeePerGas: [],
  preconf_tick: [],
  eth_getBalance: [p('0 (address)', 'address', true, ALICE), p('1 (block)', 'block', false, 'latest')],
  eth_getCode: [p('0 (address)', 'address', true, ALICE), p('1 (block)', 'block', false, 'pending')],
  eth_getTransactionCount: [p('0 (address)', 'address', true, ALICE), p('1 (block)', 'block', false, 'pending')],
  eth_getStorageAt: [p('0 (address)', 'address', true, ALICE), p('1 (slot)', 'quantity', true, '0x0'), p('2 (block)', 'block', false, 'latest')],
  eth_call: [p('0 (call)', 'call', true, { to: BOB }), p('1 (block)', 'block', false, 'latest'), p('2 (state overrides)', 'overrides', false, {}), p('3 (block overrides)', 'object', false, {})],
  eth_estimateGas: [
    p('0 (call)', 'call', true, { from: ALICE, to: BOB }),
    p('1 (block)', 'block', false, 'pending'),
    p('2 (state overrides)', 'overrides', false, {}),
    p('3 (block overrides)', 'object', false, {}),
  ],
  // The valid samples of the state-changing methods are never executed: another argument is always bad.
  eth_sendRawTransaction: [p('0 (transaction)', 'data', true, '0x00')],
  eth_sendRawTransactionSync: [p('0 (transaction)', 'data', true, '0x00'), p('1 (timeout ms)', 'syncTimeout', false, '0x0')],
  eth_sendTransaction: [p('0 (transaction)', 'transaction', true, { to: BOB })],
  eth_sendTransactionSync: [p('0 (transaction)', 'transaction', true, { to: BOB }), p('1 (timeout ms)', 'syncTimeout', false, '0x0')],
  // An OP-stack chain's simulated deposit; the fuzzed chain is a plain one, which refuses deposits (-32000).
  preconf_deposit: [p('0 (deposit)', 'object', true, { to: BOB })],
  eth_getLogs: [p('0 (filter)', 'filter', true, {})],
  eth_feeHistory: [p('0 (block count)', 'count', true, '0x1'), p('1 (newest block)', 'block', true, 'latest'), p('2 (reward percentiles)', 'percentiles', false, [])],
  eth_getBlockByNumber: [p('0 (block)', 'block', true, 'latest'), p('1 (full transactions)', 'boolean', false, false)],
  eth_getBlockByHash: [p('0 (hash)', 'hash', true, ZERO_HASH), p('1 (full transactions)', 'boolean', false, true)],
  eth_getTransactionByHash: [p('0 (hash)', 'hash', true, ZERO_HASH)],
  eth_getTransactionReceipt: [p('0 (hash)', 'hash', true, ZERO_HASH)],
  service_transactionStatus: [p('0 (hash)', 'hash', true, ZERO_HASH)],
  base_transactionStatus: [p('0 (hash)', 'hash', true, ZERO_HASH)],
  // Test controls (lib/rpc/test-methods.ts; Hardhat's and Anvil's signatures).
  preconf_advanceClock: [p('0 (milliseconds)', 'milliseconds', true, '0x0')],
  // The fault controls (lib/rpc/fault-methods.ts).
  preconf_dropPreconfirmations: [p('0 (drop)', 'object', false, {})],
  preconf_stall: [p('0 (milliseconds)', 'milliseconds', true, '0x0'), p('1 (pending)', 'string', false, 'latest')],
  preconf_skipTicks: [p('0 (ticks)', 'count', true, '0x0')],
  preconf_setFaults: [p('0 (faults)', 'object', true, {})],
  preconf_getFaults: [],
  evm_mine: [p('0 (timestamp)', 'mineOptions', false, null)],
  evm_snapshot: [],
  evm_revert: [p('0 (snapshot id)', 'count', true, '0x1')],
  anvil_rollback: [p('0 (depth)', 'count', false, '0x0')],
  anvil_reorg: [p('0 (depth)', 'count', true, '0x0'), p('1 (transactions)', 'placements', false, [])],
  evm_increaseTime: [p('0 (seconds)', 'count', true, '0x0')],
  evm_setNextBlockTimestamp: [p('0 (timestamp)', 'quantity', true, '0x0')],
  evm_setAutomine: [p('0 (enabled)', 'boolean', true, false)],
  anvil_getAutomine: [],
  hardhat_getAutomine: [],
  ...twins('mine', [p('0 (blocks)', 'count', false, '0x1'), p('1 (interval seconds)', 'quantity', false, '0x1')]),
  ...twins('setBalance', [p('0 (address)', 'address', true, BOB), p('1 (balance)', 'quantity', true, '0x0')]),
  tenderly_setBalance: [p('0 (address)', 'address', true, BOB), p('1 (balance)', 'quantity', true, '0x0')],
  ...twins('setNonce', [p('0 (address)', 'address', true, BOB), p('1 (nonce)', 'quantity', true, '0x0')]),
  evm_setAccountNonce: [p('0 (address)', 'address', true, BOB), p('1 (nonce)', 'quantity', true, '0x0')],
  ...twins('setCode', [p('0 (address)', 'address', true, BOB), p('1 (code)', 'data', true, '0x')]),
  ...twins('setStorageAt', [p('0 (address)', 'address', true, BOB), p('1 (slot)', 'quantity', true, '0x0'), p('2 (value)', 'hash', true, ZERO_HASH)]),
  ...twins('impersonateAccount', [p('0 (address)', 'address', true, BOB)]),
  ...twins('stopImpersonatingAccount', [p('0 (address)', 'address', true, BOB)]),
  anvil_setBlockTimestampInterval: [p('0 (seconds)', 'quantity', true, '0x1')],
  anvil_removeBlockTimestampInterval: [],
  // Node identity and status (geth, Anvil, Hardhat).
  web3_sha3: [p('0 (data)', 'data', true, '0x')],
  net_listening: [],
  net_peerCount: [],
  eth_protocolVersion: [],
  eth_syncing: [],
  eth_config: [],
  eth_mining: [],
  eth_hashrate: [],
  eth_coinbase: [],
  eth_blobBaseFee: [],
  hardhat_metadata: [],
  anvil_metadata: [],
  anvil_nodeInfo: [],
  // Blocks and what they hold (geth).
  eth_getBlockTransactionCountByNumber: [p('0 (block)', 'block', true, 'latest')],
  eth_getBlockTransactionCountByHash: [p('0 (hash)', 'hash', true, ZERO_HASH)],
  eth_getTransactionByBlockNumberAndIndex: [p('0 (block)', 'block', true, 'latest'), p('1 (index)', 'count', true, '0x0')],
  eth_getTransactionByBlockHashAndIndex: [p('0 (hash)', 'hash', true, ZERO_HASH), p('1 (index)', 'count', true, '0x0')],
  eth_getBlockReceipts: [p('0 (block)', 'block', true, 'latest')],
  eth_getUncleCountByBlockNumber: [p('0 (block)', 'block', true, 'latest')],
  eth_getUncleCountByBlockHash: [p('0 (hash)', 'hash', true, ZERO_HASH)],
  eth_getUncleByBlockNumberAndIndex: [p('0 (block)', 'block', true, 'latest'), p('1 (index)', 'count', true, '0x0')],
  eth_getUncleByBlockHashAndIndex: [p('0 (hash)', 'hash', true, ZERO_HASH), p('1 (index)', 'count', true, '0x0')],
  eth_getRawTransactionByHash: [p('0 (hash)', 'hash', true, ZERO_HASH)],
  eth_getTransactionBySenderAndNonce: [p('0 (address)', 'address', true, ALICE), p('1 (nonce)', 'quantity', true, '0x0')],
  eth_getRawTransactionByBlockNumberAndIndex: [p('0 (block)', 'block', true, 'latest'), p('1 (index)', 'count', true, '0x0')],
  eth_getRawTransactionByBlockHashAndIndex: [p('0 (hash)', 'hash', true, ZERO_HASH), p('1 (index)', 'count', true, '0x0')],
  // State, proofs, access lists and simulation (geth).
  eth_createAccessList: [p('0 (call)', 'call', true, { to: BOB }), p('1 (block)', 'block', false, 'latest')],
  eth_getProof: [p('0 (address)', 'address', true, ALICE), p('1 (storageKeys)', 'storageKeys', true, []), p('2 (block)', 'block', false, 'latest')],
  eth_getAccount: [p('0 (address)', 'address', true, ALICE), p('1 (block)', 'block', false, 'latest')],
  eth_getAccountInfo: [p('0 (address)', 'address', true, ALICE), p('1 (block)', 'block', false, 'latest')],
  eth_getStorageValues: [p('0 (requests)', 'storageRequests', true, { [ALICE]: [ZERO_HASH] }), p('1 (block)', 'block', false, 'latest')],
  anvil_getGenesisTime: [],
  eth_simulateV1: [p('0 (payload)', 'object', true, { blockStateCalls: [{ calls: [] }] }), p('1 (block)', 'block', false, 'latest')],
  // The mempool (geth's txpool namespace).
  txpool_status: [],
  txpool_content: [],
  txpool_contentFrom: [p('0 (address)', 'address', true, ALICE)],
  txpool_inspect: [],
  // Signing with the node's accounts.
  personal_sign: [p('0 (data)', 'data', true, '0x00'), p('1 (address)', 'address', true, ALICE)],
  eth_sign: [p('0 (address)', 'address', true, ALICE), p('1 (data)', 'data', true, '0x00')],
  eth_signTypedData_v4: [p('0 (address)', 'address', true, ALICE), p('1 (typedData)', 'typedData', true, {})],
  eth_signTypedData: [p('0 (address)', 'address', true, ALICE), p('1 (typedData)', 'typedData', true, {})],
  eth_signTypedData_v3: [p('0 (address)', 'address', true, ALICE), p('1 (typedData)', 'typedData', true, {})],
  eth_signTransaction: [p('0 (transaction)', 'transaction', true, { from: ALICE, to: BOB })],
  eth_fillTransaction: [p('0 (transaction)', 'call', true, { from: ALICE, to: BOB })],
  eth_sendUnsignedTransaction: [p('0 (transaction)', 'transaction', true, { from: ALICE, to: BOB })],
  // Filters (geth).
  eth_newFilter: [p('0 (filter)', 'filter', true, {})],
  eth_newBlockFilter: [],
  eth_newPendingTransactionFilter: [p('0 (fullTx)', 'boolean', false, false)],
  eth_getFilterChanges: [p('0 (filter id)', 'string', true, '0x1')],
  eth_getFilterLogs: [p('0 (filter id)', 'string', true, '0x1')],
  eth_uninstallFilter: [p('0 (filter id)', 'string', true, '0x1')],
  // Tracing and raw data (geth's debug namespace).
  debug_traceTransaction: [p('0 (hash)', 'hash', true, ZERO_HASH), p('1 (config)', 'object', false, {})],
  debug_traceBlockByNumber: [p('0 (block)', 'block', true, 'latest'), p('1 (config)', 'object', false, {})],
  debug_traceBlockByHash: [p('0 (hash)', 'hash', true, ZERO_HASH), p('1 (config)', 'object', false, {})],
  debug_traceCall: [p('0 (call)', 'call', true, { to: BOB }), p('1 (block)', 'block', false, 'latest'), p('2 (config)', 'object', false, {})],
  debug_getRawTransaction: [p('0 (hash)', 'hash', true, ZERO_HASH)],
  // Parity's flat traces (Anvil's trace namespace).
  trace_transaction: [p('0 (hash)', 'hash', true, ZERO_HASH)],
  trace_block: [p('0 (block)', 'block', true, 'latest')],
  trace_filter: [p('0 (filter)', 'object', true, {})],
  trace_replayBlockTransactions: [p('0 (block)', 'block', true, 'latest'), p('1 (trace types)', 'traceTypes', true, ['trace', 'stateDiff'])],
  debug_getRawHeader: [p('0 (block)', 'block', true, 'latest')],
  debug_getRawBlock: [p('0 (block)', 'block', true, 'latest')],
  debug_getRawReceipts: [p('0 (block)', 'block', true, 'latest')],
  // More test controls (Anvil's and Hardhat's names).
  evm_mine_detailed: [p('0 (timestamp)', 'mineOptions', false, null)],
  anvil_mine_detailed: [p('0 (timestamp)', 'mineOptions', false, null)],
  anvil_snapshot: [],
  anvil_revert: [p('0 (snapshot id)', 'count', true, '0x1')],
  anvil_increaseTime: [p('0 (seconds)', 'count', true, '0x0')],
  evm_setTime: [p('0 (timestamp)', 'quantity', true, '0x0')],
  anvil_setTime: [p('0 (timestamp)', 'quantity', true, '0x0')],
  anvil_setNextBlockTimestamp: [p('0 (timestamp)', 'quantity', true, '0x0')],
  hardhat_setBlockTimestampInterval: [p('0 (milliseconds)', 'quantity', true, '0x3e8')],
  hardhat_removeBlockTimestampInterval: [],
  anvil_setAutomine: [p('0 (enabled)', 'boolean', true, false)],
  evm_setIntervalMining: [p('0 (seconds)', 'count', true, '0x2')],
  anvil_setIntervalMining: [p('0 (seconds)', 'count', true, '0x2')],
  anvil_getIntervalMining: [],
  ...twins('addBalance', [p('0 (address)', 'address', true, BOB), p('1 (amount)', 'quantity', true, '0x0')]),
  tenderly_addBalance: [p('0 (address)', 'address', true, BOB), p('1 (amount)', 'quantity', true, '0x0')],
  ...twins('dealERC20', [p('0 (address)', 'address', true, BOB), p('1 (token)', 'address', true, BOB), p('2 (amount)', 'quantity', true, '0x0')]),
  anvil_setERC20Balance: [p('0 (address)', 'address', true, BOB), p('1 (token)', 'address', true, BOB), p('2 (amount)', 'quantity', true, '0x0')],
  anvil_setERC20Allowance: [p('0 (address)', 'address', true, BOB), p('1 (spender)', 'address', true, ALICE), p('2 (token)', 'address', true, BOB), p('3 (amount)', 'quantity', true, '0x0')],
  ...twins('autoImpersonateAccount', [p('0 (enabled)', 'boolean', true, false)]),
  ...twins('setCoinbase', [p('0 (address)', 'address', true, BOB)]),
  anvil_setChainId: [p('0 (chain id)', 'count', true, '0x7a69')],
  evm_setBlockGasLimit: [p('0 (gas limit)', 'quantity', true, '0x1c9c380')],
  anvil_setBlockGasLimit: [p('0 (gas limit)', 'quantity', true, '0x1c9c380')],
  ...twins('setNextBlockBaseFeePerGas', [p('0 (base fee)', 'quantity', true, '0x1')]),
  ...twins('setPrevRandao', [p('0 (prevRandao)', 'hash', true, ZERO_HASH)]),
  ...twins('setMinGasPrice', [p('0 (gas price)', 'quantity', true, '0x1')]),
  ...twins('setLoggingEnabled', [p('0 (enabled)', 'boolean', true, true)]),
  ...twins('dropTransaction', [p('0 (hash)', 'hash', true, ZERO_HASH)]),
  ...twins('dropAllTransactions', []),
  anvil_removePoolTransactions: [p('0 (address)', 'address', true, BOB)],
  ...twins('reset', [p('0 (options)', 'object', false, null)]),
  ...twins('setRpcUrl', [p('0 (url)', 'string', true, 'http://127.0.0.1:1')]),
  anvil_dumpState: [p('0 (preserve historical states)', 'boolean', false, true)],
  anvil_loadState: [p('0 (state)', 'data', true, '0x')],
  hardhat_dumpState: [p('0 (preserve historical states)', 'boolean', false, true)],
  hardhat_loadState: [p('0 (state)', 'data', true, '0x')],
  // Otterscan's (Anvil's signatures).
  erigon_getHeaderByNumber: [p('0 (block)', 'block', true, 'latest')],
  ots_getApiLevel: [],
  ots_hasCode: [p('0 (address)', 'address', true, ALICE), p('1 (block)', 'block', false, 'latest')],
  ots_getInternalOperations: [p('0 (hash)', 'hash', true, ZERO_HASH)],
  ots_traceTransaction: [p('0 (hash)', 'hash', true, ZERO_HASH)],
  ots_getTransactionError: [p('0 (hash)', 'hash', true, ZERO_HASH)],
  ots_getBlockDetails: [p('0 (block)', 'block', true, 'latest')],
  ots_getBlockDetailsByHash: [p('0 (hash)', 'hash', true, ZERO_HASH)],
  ots_getBlockTransactions: [p('0 (block)', 'count', true, '0x0'), p('1 (page)', 'count', true, '0x0'), p('2 (page size)', 'count', true, '0x1')],
  ots_searchTransactionsBefore: [p('0 (address)', 'address', true, ALICE), p('1 (block)', 'count', true, '0x0'), p('2 (page size)', 'count', true, '0x1')],
  ots_searchTransactionsAfter: [p('0 (address)', 'address', true, ALICE), p('1 (block)', 'count', true, '0x0'), p('2 (page size)', 'count', true, '0x1')],
  ots_getTransactionBySenderAndNonce: [p('0 (address)', 'address', true, ALICE), p('1 (nonce)', 'quantity', true, '0x0')],
  ots_getContractCreator: [p('0 (address)', 'address', true, ALICE)],
}

function twins(name: string, params: ParamSpec[]): Record<string, ParamSpec[]> {
  return { [`anvil_${name}`]: params, [`hardhat_${name}`]: params }
}

/** Methods that only read: fuzzed with any arguments, valid or not. */
export const READ_ONLY_METHODS = [
  'web3_clientVersion',
  'net_version',
  'eth_networkId',
  'eth_chainId',
  'eth_blockNumber',
  'eth_accounts',
  'eth_requestAccounts',
  'eth_gasPrice',
  'eth_maxPriorityFeePerGas',
  'eth_getBalance',
  'eth_getCode',
  'eth_getTransactionCount',
  'eth_getStorageAt',
  'eth_call',
  'eth_estimateGas',
  'eth_getLogs',
  'eth_feeHistory',
  'eth_getBlockByNumber',
  'eth_getBlockByHash',
  'eth_getTransactionByHash',
  'eth_getTransactionReceipt',
  'service_transactionStatus',
  'base_transactionStatus',
  'anvil_getAutomine',
  'hardhat_getAutomine',
  'web3_sha3',
  'net_listening',
  'net_peerCount',
  'eth_protocolVersion',
  'eth_syncing',
  'eth_config',
  'eth_mining',
  'eth_hashrate',
  'eth_coinbase',
  'eth_blobBaseFee',
  'hardhat_metadata',
  'anvil_metadata',
  'anvil_nodeInfo',
  'eth_getBlockTransactionCountByNumber',
  'eth_getBlockTransactionCountByHash',
  'eth_getTransactionByBlockNumberAndIndex',
  'eth_getTransactionByBlockHashAndIndex',
  'eth_getBlockReceipts',
  'eth_getUncleCountByBlockNumber',
  'eth_getUncleCountByBlockHash',
  'eth_getUncleByBlockNumberAndIndex',
  'eth_getUncleByBlockHashAndIndex',
  'eth_getRawTransactionByHash',
  'eth_getTransactionBySenderAndNonce',
  'eth_getRawTransactionByBlockNumberAndIndex',
  'eth_getRawTransactionByBlockHashAndIndex',
  'eth_createAccessList',
  'eth_getProof',
  'eth_getAccount',
  'eth_getAccountInfo',
  'eth_getStorageValues',
  'anvil_getGenesisTime',
  'eth_simulateV1',
  'txpool_status',
  'txpool_content',
  'txpool_contentFrom',
  'txpool_inspect',
  'personal_sign',
  'eth_sign',
  'eth_signTypedData_v4',
  'eth_signTypedData',
  'eth_signTypedData_v3',
  'eth_signTransaction',
  'eth_fillTransaction',
  'debug_traceTransaction',
  'debug_traceBlockByNumber',
  'debug_traceBlockByHash',
  'debug_traceCall',
  'debug_getRawTransaction',
  'debug_getRawHeader',
  'debug_getRawBlock',
  'debug_getRawReceipts',
  'anvil_getIntervalMining',
  'erigon_getHeaderByNumber',
  'ots_getApiLevel',
  'ots_hasCode',
  'ots_getInternalOperations',
  'ots_traceTransaction',
  'ots_getTransactionError',
  'ots_getBlockDetails',
  'ots_getBlockDetailsByHash',
  'ots_getBlockTransactions',
  'ots_searchTransactionsBefore',
  'ots_searchTransactionsAfter',
  'ots_getTransactionBySenderAndNonce',
  'ots_getContractCreator',
]

/** Whether a method may change the chain when its arguments are valid (anything not known to only read). */
export function isStateChanging(method: string): boolean {
  return !READ_ONLY_METHODS.includes(method)
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function isAbsent(value: unknown): boolean {
  return value === undefined || value === null
}

/** A QUANTITY: hex of 1..64 digits, or (in-process, as the API documents) a safe integer or bigint ≥ 0. */
export function maybeQuantity(value: unknown): boolean {
  if (typeof value === 'string') return QUANTITY.test(value)
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0
  if (typeof value === 'bigint') return value >= 0n
  return false
}

function quantityValue(value: unknown): bigint | undefined {
  if (!maybeQuantity(value)) return undefined
  return typeof value === 'string' ? BigInt(value) : BigInt(value as number | bigint)
}

function maybeSmallQuantity(value: unknown, max = MAX_SAFE): boolean {
  const quantity = quantityValue(value)
  return quantity !== undefined && quantity <= max
}

/** A tag, a number, or an EIP-1898 object (followed through nested blockNumber objects, without recursion). */
function maybeBlock(value: unknown): boolean {
  let current = value
  for (;;) {
    if (typeof current === 'string' && TAG_NAMES.has(current)) return true
    if (!isPlainObject(current)) return maybeQuantity(current)
    const { blockHash, blockNumber } = current
    if (blockHash !== undefined && blockNumber !== undefined) return false
    if (blockHash !== undefined) return typeof blockHash === 'string' && HASH.test(blockHash)
    if (blockNumber === undefined) return false
    current = blockNumber
  }
}

const CALL_FIELDS: Record<string, Kind | 'accessList'> = {
  from: 'address',
  to: 'address',
  gas: 'quantity',
  gasPrice: 'quantity',
  maxFeePerGas: 'quantity',
  maxPriorityFeePerGas: 'quantity',
  value: 'quantity',
  nonce: 'quantity',
  data: 'data',
  input: 'data',
  accessList: 'accessList',
}

/** A call object none of whose known fields is definitely malformed. */
function maybeCall(value: unknown): boolean {
  if (!isPlainObject(value)) return false
  for (const [key, kind] of Object.entries(CALL_FIELDS)) {
    const field = value[key]
    if (isAbsent(field)) continue
    if (kind === 'accessList') {
      if (!maybeAccessList(field)) return false
      continue
    }
    if (!maybeValid(kind, field)) return false
  }
  const { data, input, gasPrice, maxFeePerGas, maxPriorityFeePerGas } = value
  if (!isAbsent(data) && !isAbsent(input) && String(data).toLowerCase() !== String(input).toLowerCase()) return false
  if (!isAbsent(gasPrice) && (!isAbsent(maxFeePerGas) || !isAbsent(maxPriorityFeePerGas))) return false
  return true
}

function maybeAccessList(value: unknown): boolean {
  if (!Array.isArray(value)) return false
  return value.every(
    (entry) =>
      isPlainObject(entry) &&
      typeof entry.address === 'string' &&
      ADDRESS.test(entry.address) &&
      Array.isArray(entry.storageKeys) &&
      entry.storageKeys.every((key: unknown) => typeof key === 'string' && HASH.test(key)),
  )
}

function maybeFilter(value: unknown): boolean {
  if (!isPlainObject(value)) return false
  const { address, topics, blockHash, fromBlock, toBlock } = value
  if (!isAbsent(address) && !(Array.isArray(address) ? address : [address]).every((entry) => typeof entry === 'string' && ADDRESS.test(entry))) return false
  if (!isAbsent(topics)) {
    if (!Array.isArray(topics) || topics.length > 4) return false
    // A null among a position's choices makes it a wildcard (geth, Anvil).
    const ok = topics.every((topic) => topic === null || (Array.isArray(topic) ? topic.every((choice) => choice === null || (typeof choice === 'string' && HASH.test(choice))) : typeof topic === 'string' && HASH.test(topic)))
    if (!ok) return false
  }
  if (!isAbsent(blockHash) && !(typeof blockHash === 'string' && HASH.test(blockHash))) return false
  if (!isAbsent(fromBlock) && !maybeBlock(fromBlock)) return false
  if (!isAbsent(toBlock) && !maybeBlock(toBlock)) return false
  if (!isAbsent(blockHash) && (!isAbsent(fromBlock) || !isAbsent(toBlock))) return false
  return true
}

/** An array of finite numbers: their range and order are the fee oracle's to judge (geth: -32000), not the parameter's. */
function maybePercentiles(value: unknown): boolean {
  return Array.isArray(value) && value.every((entry) => typeof entry === 'number' && Number.isFinite(entry))
}

/**
 * Whether `value` might be accepted for a parameter of `kind` (present, not null). Conservative:
 * when in doubt it says yes, so a "no" is a value every JSON-RPC node rejects.
 */
export function maybeValid(kind: Kind, value: unknown): boolean {
  switch (kind) {
    case 'address':
      return typeof value === 'string' && ADDRESS.test(value)
    case 'hash':
      return typeof value === 'string' && HASH.test(value)
    case 'data':
      return typeof value === 'string' && DATA.test(value)
    case 'quantity':
      return maybeQuantity(value)
    case 'count':
    case 'milliseconds':
      return maybeSmallQuantity(value)
    case 'syncTimeout':
      return maybeSmallQuantity(value, 6000n)
    case 'block':
      return maybeBlock(value)
    case 'boolean':
      return typeof value === 'boolean'
    case 'call':
      return maybeCall(value)
    case 'transaction':
      // eth_sendTransaction needs a sender (geth: "from" is required to sign).
      return maybeCall(value) && !isAbsent((value as Record<string, unknown>).from)
    case 'filter':
      return maybeFilter(value)
    case 'percentiles':
      return maybePercentiles(value)
    case 'overrides':
    case 'object':
      return isPlainObject(value)
    case 'mineOptions':
      return maybeQuantity(value) || isPlainObject(value)
    case 'typedData':
      return isPlainObject(value) || typeof value === 'string'
    case 'string':
      return typeof value === 'string'
    case 'storageKeys':
      return Array.isArray(value) && value.every((key) => typeof key === 'string')
    case 'placements':
      return Array.isArray(value)
    case 'storageRequests':
      return (
        isPlainObject(value) &&
        Object.entries(value as Record<string, unknown>).every(([key, slots]) => ADDRESS.test(key) && Array.isArray(slots) && slots.every((slot) => typeof slot === 'string' && HASH.test(slot)))
      )
    case 'traceTypes':
      return Array.isArray(value) && value.every((type) => type === 'trace' || type === 'stateDiff')
  }
}

/**
 * The -32602 message prefix geth-style parsing must give when argument `index` is `value` and
 * every other argument is valid, or undefined when `value` might be valid.
 */
export function expectedInvalidPrefix(spec: ParamSpec, index: number, value: unknown): string | undefined {
  if (isAbsent(value)) return spec.required ? `missing value for required argument ${index}` : undefined
  return maybeValid(spec.kind, value) ? undefined : `invalid argument ${spec.name}`
}

// ---------------------------------------------------------------- value pools

const HEX_CHARS = [...'0123456789abcdefABCDEF']
/** `min..max` hex digits (no prefix). */
export const hexDigits = (min: number, max: number) => fc.string({ unit: fc.constantFrom(...HEX_CHARS), minLength: min, maxLength: max })

/** Hex strings that break one rule or another (and some that are valid for some kinds). */
export const hexish = fc.oneof(
  hexDigits(65, 200).map((digits) => `0x${digits}`), // more than 256 bits
  fc.constantFrom(1, 3, 39, 41, 63, 65).chain((n) => hexDigits(n, n)).map((digits) => `0x${digits}`), // odd length, short/long address or hash
  fc.constantFrom(38, 42, 62, 66).chain((n) => hexDigits(n, n)).map((digits) => `0x${digits}`), // even but wrong length
  fc.constantFrom(40, 64).chain((n) => hexDigits(n, n)), // address / hash without 0x
  fc.constantFrom(40, 64).chain((n) => hexDigits(n, n)).map((digits) => `0X${digits}`), // upper-case prefix
  fc.constantFrom(1, 2, 40, 64).chain((n) => hexDigits(n, n)).map((digits) => `0x${digits}`), // well-formed hex of some kind
  fc.constantFrom(
    '0x',
    '0x0',
    '0x00',
    '0x-1',
    '-0x1',
    '0xg',
    '0x 1',
    ' 0x1',
    '0x1 ',
    '0x1.5',
    '0x1e3',
    '0x_1',
    `0x${'f'.repeat(64)}`,
    `0x1${'0'.repeat(64)}`,
    `0x${'0'.repeat(65)}`,
    `${ALICE} `,
    ALICE.slice(2),
    ALICE.toUpperCase(),
  ),
)

/** Strings that numbers or tags might be mistaken for. */
export const nanishStrings = fc.constantFrom(
  'NaN',
  'Infinity',
  '-Infinity',
  '-1',
  '0',
  '1',
  '1e308',
  '1e18',
  '',
  ' ',
  'null',
  'undefined',
  'true',
  'false',
  'Latest',
  'PENDING',
  'latest ',
  'earliest\u0000',
  'safe\n',
  'newest',
  '[]',
  '{}',
)

/** Names on Object.prototype (and friends) that a naive lookup table would find. */
export const PROTOTYPE_KEYS = [
  '__proto__',
  'constructor',
  'toString',
  'toLocaleString',
  'hasOwnProperty',
  'valueOf',
  'isPrototypeOf',
  'propertyIsEnumerable',
  '__defineGetter__',
  '__lookupGetter__',
  'prototype',
]

const numbers = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(-1, 0, 1, 1e308, -1e308, 2 ** 53, 2 ** 53 + 2, 2 ** 64, 2 ** 256, 1.5, -0.5, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, 5e-324),
)

/** Long strings, hex and not (up to 200 000 characters). */
export const longStrings = fc.oneof(
  fc.tuple(fc.integer({ min: 1_000, max: 200_000 }), fc.constantFrom('a', '0', 'é', '😀', ' ')).map(([n, c]) => c.repeat(n)),
  fc.integer({ min: 500, max: 100_000 }).map((n) => `0x${'ab'.repeat(n)}`),
  fc.integer({ min: 500, max: 100_000 }).map((n) => `0x${'f'.repeat(2 * n + 1)}`),
)

const protoObjects = fc.constantFrom(
  '{"__proto__":{"blockNumber":"0x0","from":"0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"}}',
  '{"constructor":{"prototype":{"x":1}}}',
  '{"toString":1,"valueOf":[]}',
  '{"__proto__":null}',
  '{"hasOwnProperty":"x","blockHash":null}',
  '{"blockHash":"0x00","blockNumber":"0x0"}',
  '{"blockNumber":{"blockNumber":"0x0"}}',
  '{"blockNumber":"latest "}',
  '{"data":"0x01","input":"0x02"}',
  '{"gasPrice":"0x1","maxFeePerGas":"0x1"}',
  '{"accessList":[{"address":"0x00","storageKeys":[]}]}',
  '{"accessList":[{"storageKeys":"0x"}]}',
  '{"topics":[[[]]]}',
  '{"topics":[null,null,null,null,null]}',
  '{"address":["0x00"]}',
  '{"blockHash":"0x0000000000000000000000000000000000000000000000000000000000000000","fromBlock":"latest"}',
).map((text) => JSON.parse(text) as unknown)

/** Wrong-typed values that survive JSON (what an HTTP client can send). */
export const jsonWrong: fc.Arbitrary<unknown> = fc.oneof(
  numbers,
  fc.boolean(),
  fc.constant(null),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  nanishStrings,
  hexish,
  fc.constantFrom(...PROTOTYPE_KEYS),
  longStrings,
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
  protoObjects,
  fc.jsonValue({ maxDepth: 3 }),
)

/** Values only a JavaScript caller can pass (in-process `chain.request`). */
export const jsOnly: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(NaN, Infinity, -Infinity, undefined, -1n, 0n, 1n, 2n ** 256n, 2n ** 300n, -(2n ** 64n)),
  fc.bigInt(),
  fc.constantFrom<unknown>(Symbol('fuzz'), () => 1, new Date(0), new Map([[1, 2]]), Object.create(null), new Uint8Array([1, 2, 3]), [undefined], { to: undefined }),
)

/** Everything a JavaScript caller can pass. */
export const jsWrong: fc.Arbitrary<unknown> = fc.oneof({ weight: 4, arbitrary: jsonWrong }, { weight: 1, arbitrary: jsOnly })

// ------------------------------------------------------------- field-level bad objects

const ADDRESS_FIELDS = ['from', 'to']
const QUANTITY_FIELDS = ['gas', 'gasPrice', 'maxFeePerGas', 'maxPriorityFeePerGas', 'value', 'nonce']
const DATA_FIELDS = ['data', 'input']

/** A value that is definitely invalid for `kind` (never null/undefined). */
export function invalidFor(kind: Kind, pool: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return pool.filter((value) => !isAbsent(value) && !maybeValid(kind, value))
}

/** A call object with exactly one malformed field (the others valid). */
export function callWithBadField(pool: fc.Arbitrary<unknown>): fc.Arbitrary<Record<string, unknown>> {
  return fc.oneof(
    fc.tuple(fc.constantFrom(...ADDRESS_FIELDS), invalidFor('address', pool)).map(([key, bad]) => ({ to: BOB, [key]: bad })),
    fc.tuple(fc.constantFrom(...QUANTITY_FIELDS), invalidFor('quantity', pool)).map(([key, bad]) => ({ to: BOB, [key]: bad })),
    fc.tuple(fc.constantFrom(...DATA_FIELDS), invalidFor('data', pool)).map(([key, bad]) => ({ to: BOB, [key]: bad })),
    pool.filter((value) => !isAbsent(value) && !Array.isArray(value)).map((bad) => ({ to: BOB, accessList: bad })),
    fc.constantFrom({ to: BOB, data: '0x01', input: '0x02' }, { to: BOB, gasPrice: '0x1', maxFeePerGas: '0x2' }, { to: BOB, gasPrice: '0x1', maxPriorityFeePerGas: '0x2' }),
  )
}

/** A log filter with exactly one malformed part. */
export function filterWithBadField(pool: fc.Arbitrary<unknown>): fc.Arbitrary<Record<string, unknown>> {
  return fc.oneof(
    invalidFor('address', pool).map((bad) => ({ address: bad })),
    invalidFor('address', pool).map((bad) => ({ address: [ALICE, bad] })),
    pool.filter((value) => !isAbsent(value) && !Array.isArray(value)).map((bad) => ({ topics: bad })),
    invalidFor('hash', pool).map((bad) => ({ topics: [null, bad] })),
    invalidFor('hash', pool).map((bad) => ({ topics: [[ZERO_HASH, bad]] })),
    fc.constant({ topics: [null, null, null, null, null] }),
    invalidFor('hash', pool).map((bad) => ({ blockHash: bad })),
    invalidFor('block', pool).map((bad) => ({ fromBlock: bad })),
    invalidFor('block', pool).map((bad) => ({ fromBlock: 'earliest', toBlock: bad })),
    fc.constant({ blockHash: ZERO_HASH, toBlock: 'latest' }),
  )
}

/** A definitely invalid value for parameter `spec` (null included for required ones). */
export function invalidParam(spec: ParamSpec, pool: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  const plain = pool.filter((value) => (isAbsent(value) ? spec.required : !maybeValid(spec.kind, value)))
  if (spec.kind === 'call' || spec.kind === 'transaction') return fc.oneof(plain, callWithBadField(pool))
  if (spec.kind === 'filter') return fc.oneof(plain, filterWithBadField(pool))
  if (spec.kind === 'block') return fc.oneof(plain, invalidFor('block', pool).map((bad) => ({ blockNumber: bad })))
  if (spec.kind === 'percentiles') {
    const badEntry = pool.filter((value) => !(typeof value === 'number' && Number.isFinite(value)))
    return fc.oneof(plain, fc.tuple(fc.integer({ min: 0, max: 100 }), badEntry).map(([ok, bad]) => [ok, bad]))
  }
  return plain
}

/** Could `value` make eth_sendTransaction sign and admit a transaction? (a dev `from` and no bad field) */
export function couldAdmit(value: unknown, devAddresses: readonly string[]): boolean {
  if (!maybeCall(value)) return false
  const from = (value as Record<string, unknown>).from
  return typeof from === 'string' && devAddresses.some((address) => address.toLowerCase() === from.toLowerCase())
}

// ------------------------------------------------------------------------ deep values

/** A nesting: `depth` levels of arrays (`[[…]]`) or of one-key objects (`{"key":{…}}`). */
export interface Nesting {
  readonly depth: number
  readonly shape: 'array' | 'object'
  readonly key: string
}

/** Depths 1..100 000, biased to the extremes. */
export const depths = fc.oneof(fc.integer({ min: 1, max: 100 }), fc.integer({ min: 1, max: 100_000 }), fc.constantFrom(1, 2, 5_000, 20_000, 100_000))

export const nestings = (keys: readonly string[]): fc.Arbitrary<Nesting> =>
  fc.record({ depth: depths, shape: fc.constantFrom<'array' | 'object'>('array', 'object'), key: fc.constantFrom(...keys) })

/** The nesting as JSON text (built without recursion). */
export function nestedText({ depth, shape, key }: Nesting): string {
  if (shape === 'array') return '['.repeat(depth) + ']'.repeat(depth)
  return `{${JSON.stringify(key)}:`.repeat(depth - 1) + '{}' + '}'.repeat(depth - 1)
}

/** The nesting as a value (built without recursion; JSON.parse would give the same). */
export function nestedValue({ depth, shape, key }: Nesting): unknown {
  let value: unknown = shape === 'array' ? [] : {}
  for (let level = 1; level < depth; level++) {
    if (shape === 'array') value = [value]
    else {
      const next: Record<string, unknown> = {}
      Object.defineProperty(next, key, { value, enumerable: true, writable: true, configurable: true })
      value = next
    }
  }
  return value
}
