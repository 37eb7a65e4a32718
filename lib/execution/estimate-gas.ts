/**
 * `eth_estimateGas` as geth's gasestimator does it: cap the gas (Osaka's EIP-7825 cap, what the
 * sender can pay, the RPC gas cap), run once at the cap, then binary-search the least gas that
 * succeeds, starting from an optimistic guess of (used + 2300) × 64/63 and stopping within 1.5%.
 */
import { TransactionRejectedError, TransactionRejection, ExecutionFailedError } from '../errors.ts'
import { callResultOrThrow, DEFAULT_CALL_GAS, type CallOutcome, type CallRequest } from './run-call.ts'
import { PLAIN_TRANSFER_GAS } from './run-transaction.ts'

/** Runs the request with a given gas limit. */
export type GasProbe = (gas: bigint) => Promise<CallOutcome>

/** geth's estimateGasErrorRatio. */
const ERROR_RATIO = 0.015
const CALL_STIPEND = 2300n

/** What the estimate needs to know besides the probe. */
export interface EstimateContext {
  readonly request: CallRequest
  /** The block's gas limit: the cap when the request names no gas. */
  readonly blockGasLimit: bigint
  /** The sender's balance, to cap gas by what it can pay. */
  readonly balance: bigint
  /** Whether `to` runs code (a plain transfer to an account without code costs 21000). */
  readonly recipientHasCode: boolean
  /** EIP-7825's cap on a transaction's gas (Osaka on), undefined before it. */
  readonly transactionGasCap: bigint | undefined
}

/** Whether the run ran out of gas, its gas charge failing included (geth's errors.Is(err, ErrOutOfGas): `out of gas: …`). */
function isOutOfGas(outcome: CallOutcome): boolean {
  const error = outcome.error?.error
  return error === 'out of gas' || error === 'code store out of gas' || (error?.startsWith('out of gas:') ?? false)
}

/** geth's error for a request that fails at the highest gas it may have. */
function allowanceExceeded(hi: bigint): ExecutionFailedError {
  return new ExecutionFailedError(`gas required exceeds allowance (${hi})`)
}

/** The least gas limit with which the request succeeds. */
export async function estimateGas(context: EstimateContext, probe: GasProbe): Promise<bigint> {
  const { request } = context
  let hi = request.gas !== undefined && request.gas >= PLAIN_TRANSFER_GAS ? request.gas : context.blockGasLimit
  if (context.transactionGasCap !== undefined && hi > context.transactionGasCap) hi = context.transactionGasCap
  const feeCap = request.gasPrice ?? request.maxFeePerGas ?? 0n
  if (feeCap > 0n) {
    const value = request.value ?? 0n
    if (value > context.balance) throw new TransactionRejectedError(TransactionRejection.insufficientFundsForTransfer)
    const allowance = (context.balance - value) / feeCap
    if (allowance < hi) hi = allowance
  }
  if (hi > DEFAULT_CALL_GAS) hi = DEFAULT_CALL_GAS

  const plainTransfer = (request.data === undefined || request.data.length === 0) && (request.authorizationList?.length ?? 0) === 0
  if (request.to !== undefined && plainTransfer && !context.recipientHasCode) {
    // geth tries 21000 and goes on to the search whatever stops it: an access list, say, costs more.
    const outcome = await probe(PLAIN_TRANSFER_GAS).catch(() => undefined)
    if (outcome !== undefined && outcome.error === undefined) return PLAIN_TRANSFER_GAS
  }

  // geth's execute takes a cap below the intrinsic gas (what the sender can pay, say) as a failed run.
  const atCap = await probe(hi).catch((error: unknown) => {
    if (error instanceof TransactionRejectedError && error.reason === TransactionRejection.intrinsicGasTooLow) throw allowanceExceeded(hi)
    throw error
  })
  if (atCap.error !== undefined) {
    if (isOutOfGas(atCap)) throw allowanceExceeded(hi)
    callResultOrThrow(atCap)
  }
  let lo = atCap.peakGasUsed - 1n
  const optimistic = ((atCap.peakGasUsed + CALL_STIPEND) * 64n) / 63n
  if (optimistic < hi) {
    const outcome = await probe(optimistic)
    if (outcome.error === undefined) hi = optimistic
    else lo = optimistic
  }
  while (lo + 1n < hi) {
    if (Number(hi - lo) / Number(hi) < ERROR_RATIO) break
    let middle = lo + (hi - lo) / 2n
    if (middle > lo * 2n) middle = lo * 2n
    const outcome = await probe(middle)
    if (outcome.error === undefined) hi = middle
    else lo = middle
  }
  return hi
}
