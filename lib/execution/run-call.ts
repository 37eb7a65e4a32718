/**
 * `eth_call` and the probes of `eth_estimateGas`: a message run on a throwaway layer over the
 * requested state, with geth's rules for calls (no nonce check, fees only if given, intrinsic
 * gas charged, base fee not enforced).
 */
import { bytesToHex, createAddressFromString } from '@ethereumjs/util'
import type { EVMError } from '@ethereumjs/evm'
import { ExecutionFailedError, ExecutionRevertedError, TransactionRejectedError, TransactionRejection } from '../errors.ts'
import { withAccountFields } from '../state/account.ts'
import { StateLayer } from '../state/state-layer.ts'
import { readAccount } from '../state/state-source.ts'
import type { StateView } from '../state/state-view.ts'
import type { AccessList } from '../transactions/transaction.ts'
import { ZERO_ADDRESS, type Address } from '../types.ts'
import { toEVMBlock, type BlockContext } from './block-context.ts'
import { prepareRun } from './prepare-run.ts'
import type { ExecutionEnvironment } from './execution-environment.ts'

/** geth's RPCGasCap: the gas an `eth_call` gets when it names none, and the most it may name. */
const DEFAULT_CALL_GAS = 50_000_000n

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
}

/** geth's texts for EVM failures, by @ethereumjs/evm's error names. */
const evmErrorMessages: Record<string, string> = {
  'out of gas': 'out of gas',
  'code store out of gas': 'contract creation code storage out of gas',
  'code size to deposit exceeds maximum code size': 'max code size exceeded',
  'stack underflow': 'stack underflow',
  'stack overflow': 'stack overflow',
  'invalid JUMP': 'invalid jump destination',
  'invalid opcode': 'invalid opcode',
  'static state change': 'write protection',
  'create collision': 'contract address collision',
  'insufficient balance': 'insufficient balance for transfer',
  'invalid bytecode deployed': 'invalid code: must not begin with 0xef',
  'initcode exceeds max initcode size': 'max initcode size exceeded',
}

/** The call's outcome as an `eth_call` answer: the return data, or the error geth would send. */
export function callResultOrThrow(outcome: CallOutcome): Uint8Array {
  const { error } = outcome
  if (error === undefined) return outcome.returnValue
  if (error.error === 'revert') throw new ExecutionRevertedError(bytesToHex(outcome.returnValue))
  throw new ExecutionFailedError(evmErrorMessages[error.error] ?? error.error)
}

/** Intrinsic gas of a message, with the transaction parameters of `environment`'s hardfork. */
function intrinsicGas(request: CallRequest, environment: ExecutionEnvironment): { intrinsic: bigint; floor: bigint } {
  const common = environment.transactionCommon
  const data = request.data ?? new Uint8Array(0)
  let zeroBytes = 0n
  for (const byte of data) if (byte === 0) zeroBytes++
  const nonZeroBytes = BigInt(data.length) - zeroBytes
  let intrinsic = common.param('txGas') + zeroBytes * common.param('txDataZeroGas') + nonZeroBytes * common.param('txDataNonZeroGas')
  if (request.to === undefined) {
    intrinsic += common.param('txCreationGas') + ((BigInt(data.length) + 31n) / 32n) * common.param('initCodeWordGas')
  }
  for (const entry of request.accessList ?? []) {
    intrinsic += common.param('accessListAddressGas') + BigInt(entry.storageKeys.length) * common.param('accessListStorageKeyGas')
  }
  const tokens = zeroBytes + nonZeroBytes * 4n
  const floor = common.isActivatedEIP(7623) ? common.param('txGas') + tokens * common.param('totalCostFloorPerToken') : 0n
  return { intrinsic, floor }
}

/** The gas price a call pays: geth charges nothing unless fees are given. */
function callGasPrice(request: CallRequest, block: BlockContext): bigint {
  if (request.gasPrice !== undefined) return request.gasPrice
  if (request.maxFeePerGas === undefined) return 0n
  const tip = request.maxPriorityFeePerGas ?? 0n
  const capped = block.baseFeePerGas + tip
  return capped < request.maxFeePerGas ? capped : request.maxFeePerGas
}

/** Runs `request` on a throwaway layer over `view`, in `block`; state is never changed. */
export async function runCall(
  request: CallRequest,
  view: StateView,
  block: BlockContext,
  environment: ExecutionEnvironment,
): Promise<CallOutcome> {
  const { evm } = environment
  const from = request.from ?? ZERO_ADDRESS
  // geth caps a call's gas at RPCGasCap (its default is the cap itself).
  const gas = request.gas === undefined || request.gas > DEFAULT_CALL_GAS ? DEFAULT_CALL_GAS : request.gas
  const value = request.value ?? 0n
  const price = callGasPrice(request, block)
  const layer = new StateLayer(view)
  environment.state.attach(layer)

  const sender = await readAccount(layer, from)
  const balance = sender?.balance ?? 0n
  const want = gas * price + value
  if (balance < want) {
    throw new TransactionRejectedError(TransactionRejection.insufficientFunds, `address ${from} have ${balance} want ${want}`)
  }
  const { intrinsic, floor } = intrinsicGas(request, environment)
  const needed = intrinsic > floor ? intrinsic : floor
  if (gas < needed) {
    throw new TransactionRejectedError(TransactionRejection.intrinsicGasTooLow, `have ${gas}, want ${needed}`)
  }
  if (price > 0n) layer.putAccount(from, withAccountFields(sender, { balance: balance - gas * price }))

  prepareRun(evm, from, request.to, block.coinbase, request.accessList ?? [])

  const result = await evm.runCall({
    block: toEVMBlock(block),
    gasPrice: price,
    caller: createAddressFromString(from),
    gasLimit: gas - intrinsic,
    to: request.to === undefined ? undefined : createAddressFromString(request.to),
    value,
    data: request.data,
  })
  evm.journal.cleanJournal()
  const execution = result.execResult
  const peakGasUsed = execution.executionGasUsed + intrinsic
  const refund = execution.gasRefund ?? 0n
  let gasUsed = peakGasUsed - (refund < peakGasUsed / 5n ? refund : peakGasUsed / 5n)
  if (gasUsed < floor) gasUsed = floor
  return {
    returnValue: execution.returnValue,
    gasUsed,
    peakGasUsed: peakGasUsed > floor ? peakGasUsed : floor,
    error: execution.exceptionError,
  }
}
