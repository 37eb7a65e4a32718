/**
 * One transaction or call run with a tracer attached: the tracer hears the run start, every
 * frame and opcode, and the gas the receipt charges; the EVM listeners come off however the run
 * ends. A plain transfer runs no EVM frame, so its one frame is reported here, as geth reports it.
 */
import type { TransactionReceipt } from '../../blocks/receipt.ts'
import type { StateLayer } from '../../state/state-layer.ts'
import { ensureAccounts } from '../../state/state-source.ts'
import type { StateView } from '../../state/state-view.ts'
import type { Transaction } from '../../transactions/transaction.ts'
import { ZERO_ADDRESS, type Address } from '../../types.ts'
import type { BlockContext } from '../block-context.ts'
import type { ExecutionEnvironment } from '../execution-environment.ts'
import { callGasPrice, DEFAULT_CALL_GAS, runCall, type CallOutcome, type CallRequest } from '../run-call.ts'
import { runTransaction } from '../run-transaction.ts'
import { credit, type BlockPosition } from '../transaction-outcome.ts'
import { TraceSession } from './evm-hooks.ts'
import type { TracerHooks } from './tracer.ts'

/** Runs `transaction` on `state` in `block` as {@link runTransaction} does, reporting to `tracer`. */
export async function traceTransaction(
  transaction: Transaction,
  state: StateLayer,
  block: BlockContext,
  position: BlockPosition,
  environment: ExecutionEnvironment,
  tracer: TracerHooks,
): Promise<TransactionReceipt> {
  const { sender: from, to, data: input, value, gasLimit } = transaction
  const authorizationList = transaction.kind === 'deposit' ? [] : transaction.authorizationList
  tracer.onTxStart?.({ from, to, input, value, gasLimit, coinbase: block.coinbase, authorizationList })
  const session = new TraceSession(environment.evm, tracer, position.logCount)
  let receipt: TransactionReceipt
  try {
    receipt = await runTransaction(transaction, state, block, position, environment)
  } finally {
    session.detach()
  }
  if (!session.entered) {
    tracer.onEnter?.({ depth: 0, type: 'CALL', from, to, input, gas: gasLimit - transaction.intrinsicGas, value })
    tracer.onExit?.({ depth: 0, output: new Uint8Array(0), gasUsed: 0n, error: undefined, reverted: false, createdAddress: undefined })
  }
  tracer.onTxEnd?.(receipt.gasUsed)
  return receipt
}

/**
 * Runs `request` on a throwaway layer over `view` as {@link runCall} does (`eth_call`), reporting
 * to `tracer`; then settles its gas as geth's traced call does (a whole state transition): the
 * unused gas back to the sender, the tip to the coinbase, nothing when the call names no fee.
 * The outcome's state is the state the call left.
 */
export async function traceCall(request: CallRequest, view: StateView, block: BlockContext, environment: ExecutionEnvironment, tracer: TracerHooks): Promise<CallOutcome> {
  const gasLimit = request.gas === undefined || request.gas > DEFAULT_CALL_GAS ? DEFAULT_CALL_GAS : request.gas
  const start = { from: request.from ?? ZERO_ADDRESS, to: request.to, input: request.data ?? new Uint8Array(0), value: request.value ?? 0n, gasLimit, coinbase: block.coinbase, authorizationList: request.authorizationList ?? [] }
  tracer.onTxStart?.(start)
  const session = new TraceSession(environment.evm, tracer, 0)
  let outcome: CallOutcome
  try {
    outcome = await runCall(request, view, block, environment)
  } finally {
    session.detach()
  }
  await settleGas(outcome, start.from, gasLimit, callGasPrice(request, block), block)
  tracer.onTxEnd?.(outcome.gasUsed)
  return outcome
}

/** Refunds the call's unused gas at `price` to `from` and pays the coinbase its tip above the base fee (geth's state transition, fees skipped at price 0). */
async function settleGas(outcome: CallOutcome, from: Address, gasLimit: bigint, price: bigint, block: BlockContext): Promise<void> {
  if (price === 0n) return
  const { state, gasUsed } = outcome
  await ensureAccounts(state, [from, block.coinbase])
  credit(state, from, (gasLimit - gasUsed) * price)
  const tip = price - block.baseFeePerGas
  if (tip > 0n) credit(state, block.coinbase, gasUsed * tip)
}
