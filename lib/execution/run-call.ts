/**
 * `eth_call` and the probes of `eth_estimateGas`: a message run on a throwaway layer over the
 * requested state, with geth's rules for calls (no nonce check, fees only if given, intrinsic
 * gas charged, base fee not enforced).
 */
import type { EVMError } from '@ethereumjs/evm'
import { toChecksumAddress } from '@ethereumjs/util'
import { toHex } from '../bytes.ts'
import { ExecutionFailedError, ExecutionRevertedError, TransactionRejectedError, TransactionRejection } from '../errors.ts'
import { withAccountFields } from '../state/account.ts'
import { evmAddress } from '../state/evm-address.ts'
import { StateLayer } from '../state/state-layer.ts'
import { readAccount } from '../state/state-source.ts'
import type { StateView } from '../state/state-view.ts'
import type { AccessList, Authorization } from '../transactions/transaction.ts'
import { ZERO_ADDRESS, type Address, type Hex } from '../types.ts'
import { toEVMBlock, type BlockContext } from './block-context.ts'
import { applyAuthorizations, authorizationGas } from './authorizations.ts'
import { evmErrorText } from './evm-errors.ts'
import { prepareRun } from './prepare-run.ts'
import type { ExecutionEnvironment } from './execution-environment.ts'
import { refundedGasUsed } from './transaction-outcome.ts'

/** geth's RPCGasCap: the gas an `eth_call` gets when it names none, and the most it may name. */
export const DEFAULT_CALL_GAS = 50_000_000n

/** A message to run without a transaction (the fields of `eth_call`). */
export interface CallRequest {
  /** Defaults to the zero address. */
  readonly from?: Address
  /** Undefined runs `data` as init code. */
  readonly to?: Address
  /** Defaults to {@link DEFAULT_CALL_GAS}. */
  readonly gas?: bigint
  readonly gasPrice?: bigint
  readonly maxFeePerGas?: bigint
  readonly maxPriorityFeePerGas?: bigint
  readonly value?: bigint
  readonly data?: Uint8Array
  readonly accessList?: AccessList
  /** EIP-7702 authorizations, applied before the call as a type-4 transaction applies them. */
  readonly authorizationList?: readonly Authorization[]
  /** The chain the request is meant for: another chain's is refused (geth). */
  readonly chainId?: bigint
  /** EIP-4844 blob hashes: what BLOBHASH sees in a call (a transaction with them is refused). */
  readonly blobVersionedHashes?: readonly Hex[]
}

/** How a call ended. */
export interface CallOutcome {
  /** Return data, or the revert data of a reverted call. */
  readonly returnValue: Uint8Array
  /** Gas the call would be charged as a transaction (intrinsic + execution − refund, floor applied). */
  readonly gasUsed: bigint
  /** Gas consumed before refunds (what a transaction's gas limit must cover). */
  readonly peakGasUsed: bigint
  /** Undefined on success. */
  readonly error: EVMError | undefined
  /** The throwaway layer the call ran on: its writes over the view it was given (gas bought in full and none refunded, unless a traced call settled it). */
  readonly state: StateLayer
}

/** The call's outcome as an `eth_call` answer: the return data, or the error geth would send. */
export function callResultOrThrow(outcome: CallOutcome): Uint8Array {
  const { error } = outcome
  if (error === undefined) return outcome.returnValue
  if (error.error === 'revert') throw new ExecutionRevertedError(toHex(outcome.returnValue))
  throw new ExecutionFailedError(callErrorMessage(outcome))
}

/** geth's text for how a failed call ended (`execution reverted`, `out of gas`, …). */
export function callErrorMessage(outcome: Pick<CallOutcome, 'error'>): string {
  return outcome.error === undefined ? '' : evmErrorText(outcome.error)
}

/** Intrinsic gas of a message, with the transaction parameters of `environment`'s hardfork. */
function intrinsicGas(request: CallRequest, environment: ExecutionEnvironment): { intrinsic: bigint; floor: bigint } {
  const common = environment.transactionCommon
  const data = request.data ?? new Uint8Array(0)
  let zeros = 0
  for (let i = 0; i < data.length; i++) if (data[i] === 0) zeros++
  const zeroBytes = BigInt(zeros)
  const nonZeroBytes = BigInt(data.length - zeros)
  let intrinsic = common.param('txGas') + zeroBytes * common.param('txDataZeroGas') + nonZeroBytes * common.param('txDataNonZeroGas')
  if (request.to === undefined) {
    intrinsic += common.param('txCreationGas') + ((BigInt(data.length) + 31n) / 32n) * common.param('initCodeWordGas')
  }
  for (const entry of request.accessList ?? []) {
    intrinsic += common.param('accessListAddressGas') + BigInt(entry.storageKeys.length) * common.param('accessListStorageKeyGas')
  }
  intrinsic += authorizationGas(request.authorizationList?.length ?? 0, environment)
  const tokens = zeroBytes + nonZeroBytes * 4n
  const floor = common.isActivatedEIP(7623) ? common.param('txGas') + tokens * common.param('totalCostFloorPerToken') : 0n
  return { intrinsic, floor }
}

/** The gas price a call pays: geth charges nothing unless fees are given. */
export function callGasPrice(request: CallRequest, block: BlockContext): bigint {
  if (request.gasPrice !== undefined) return request.gasPrice
  if (request.maxFeePerGas === undefined) return 0n
  const tip = request.maxPriorityFeePerGas ?? 0n
  const capped = block.baseFeePerGas + tip
  return capped < request.maxFeePerGas ? capped : request.maxFeePerGas
}

/** geth's check of a request's `chainId` (TransactionArgs' CallDefaults and setDefaults): -32000 when it names another chain. */
export function checkChainId(request: CallRequest, chainId: bigint): void {
  if (request.chainId !== undefined && request.chainId !== chainId) throw new ExecutionFailedError(`chainId does not match node's (have=${request.chainId}, want=${chainId})`)
}

/** geth's checks of a call's blob hashes (state transition preCheck): a call to an address, each hash of version 0x01. */
function checkBlobHashes({ blobVersionedHashes: hashes, to }: CallRequest): void {
  if (hashes === undefined) return
  if (to === undefined) throw new ExecutionFailedError('blob transaction of type create')
  if (hashes.length === 0) throw new ExecutionFailedError('blob transaction missing blob hashes')
  const invalid = hashes.findIndex((hash) => !hash.startsWith('0x01'))
  if (invalid >= 0) throw new ExecutionFailedError(`blob ${invalid} has invalid hash version`)
}

/**
 * Runs `request` on a throwaway layer over `view`, in `block`; state is never changed. Refused
 * first as geth refuses a call: another chain's id, a tip above the fee cap, bad blob hashes.
 */
export async function runCall(
  request: CallRequest,
  view: StateView,
  block: BlockContext,
  environment: ExecutionEnvironment,
): Promise<CallOutcome> {
  const { evm } = environment
  const from = request.from ?? ZERO_ADDRESS
  checkChainId(request, environment.chainId.value)
  const { maxFeePerGas, maxPriorityFeePerGas } = request
  if (maxFeePerGas !== undefined && maxPriorityFeePerGas !== undefined && maxPriorityFeePerGas > maxFeePerGas) {
    throw new TransactionRejectedError(TransactionRejection.tipAboveFeeCap, `address ${toChecksumAddress(from)}, maxPriorityFeePerGas: ${maxPriorityFeePerGas}, maxFeePerGas: ${maxFeePerGas}`)
  }
  checkBlobHashes(request)
  // geth caps a call's gas at RPCGasCap (its default is the cap itself).
  const gas = request.gas === undefined || request.gas > DEFAULT_CALL_GAS ? DEFAULT_CALL_GAS : request.gas
  const value = request.value ?? 0n
  const price = callGasPrice(request, block)
  const layer = new StateLayer(view)
  environment.state.attach(layer)

  const sender = await readAccount(layer, from)
  const balance = sender?.balance ?? 0n
  // geth's buyGas checks the balance at the fee cap and charges the price paid.
  const want = gas * (request.maxFeePerGas ?? price) + value
  if (balance < want) {
    throw new TransactionRejectedError(TransactionRejection.insufficientFunds, `address ${toChecksumAddress(from)} have ${balance} want ${want}`)
  }
  // geth's state transition checks the intrinsic gas, then EIP-7623's floor, each with its error.
  const { intrinsic, floor } = intrinsicGas(request, environment)
  if (gas < intrinsic) throw new TransactionRejectedError(TransactionRejection.intrinsicGasTooLow, `have ${gas}, want ${intrinsic}`)
  if (gas < floor) throw new TransactionRejectedError(TransactionRejection.floorDataGas, `have ${gas}, want ${floor}`)
  // As geth's state transition: the sender's nonce goes up (and its gas is bought) before the
  // authorizations apply, so a self-sponsored EIP-7702 authorization (nonce + 1) is valid here too.
  layer.putAccount(from, withAccountFields(sender, { nonce: (sender?.nonce ?? 0n) + 1n, balance: balance - gas * price }))

  prepareRun(evm, from, request.to, block.coinbase, request.accessList ?? [])
  const authorizationRefund = await applyAuthorizations(request.authorizationList ?? [], layer, environment)

  const result = await evm.runCall({
    block: toEVMBlock(block),
    gasPrice: price,
    caller: evmAddress(from),
    gasLimit: gas - intrinsic,
    to: request.to === undefined ? undefined : evmAddress(request.to),
    value,
    data: request.data,
    blobVersionedHashes: request.blobVersionedHashes as Hex[] | undefined,
    skipNonceIncrement: true,
  })
  evm.journal.cleanJournal()
  const execution = result.execResult
  const peakGasUsed = execution.executionGasUsed + intrinsic
  const gasUsed = refundedGasUsed(peakGasUsed, (execution.gasRefund ?? 0n) + authorizationRefund, floor)
  return {
    returnValue: execution.returnValue,
    gasUsed,
    peakGasUsed: peakGasUsed > floor ? peakGasUsed : floor,
    error: execution.exceptionError,
    state: layer,
  }
}
