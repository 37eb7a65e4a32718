/**
 * Applies one transaction to a state layer, as geth's state transition and @ethereumjs/vm's
 * runTx do for Prague: upfront gas purchase, nonce, EIP-7702 authorizations, the call or
 * creation, refunds (capped at a fifth), the EIP-7623 floor, base fee burnt (or, on an OP-stack
 * chain, paid to its vault with the L1 and operator fees, as op-geth does), tip to the
 * coinbase, EIP-6780 self-destructs and EIP-161 cleanup. Plain value transfers between
 * accounts without code take a direct path with the same result; deposits run by their own
 * rules (run-deposit.ts).
 */
import { bigIntToUnpaddedBytes, generateAddress } from '@ethereumjs/util'
import { toHex } from '../bytes.ts'
import { TransactionRejection } from '../errors.ts'
import type { TransactionReceipt } from '../blocks/receipt.ts'
import { withAccountFields } from '../state/account.ts'
import { evmAddress } from '../state/evm-address.ts'
import type { StateLayer } from '../state/state-layer.ts'
import { ensureAccounts, heldAccount } from '../state/state-source.ts'
import { effectiveTip, type Transaction, type UserTransaction } from '../transactions/transaction.ts'
import type { Address } from '../types.ts'
import { toEVMBlock, type BlockContext } from './block-context.ts'
import { credit, gasUsedAfterRefund, logsOf, receiptOf, removeDestroyedCreations, type BlockPosition } from './transaction-outcome.ts'
import { applyAuthorizations } from './authorizations.ts'
import { prepareRun } from './prepare-run.ts'
import type { ExecutionEnvironment } from './execution-environment.ts'
import type { ExtraCharges, FeeRules } from './fee-rules.ts'
import { runDeposit } from './run-deposit.ts'

/** The gas of a plain transfer: the base cost of every transaction. */
export const PLAIN_TRANSFER_GAS = 21000n

/** A transaction that cannot be included in this block any more (the builder drops it). */
export class UnexecutableTransactionError extends Error {
  override name = 'UnexecutableTransactionError'
}

/** An {@link UnexecutableTransactionError} for a nonce the state has passed (another transaction's EIP-7702 authorization used it): the sender's next may run. */
export class StaleNonceError extends UnexecutableTransactionError {
  override name = 'StaleNonceError'
}

/** What the sender pays per gas in `block`, and how much of it goes to the coinbase. */
function gasPrices(transaction: UserTransaction, block: BlockContext): { price: bigint; tip: bigint } {
  const tip = effectiveTip(transaction, block.baseFeePerGas)
  return { price: block.baseFeePerGas + tip, tip }
}

/** geth's preCheck: the transaction must still fit the state it is about to run on (its cost counting `extra`, an OP-stack chain's L1 fees). */
function checkExecutable(transaction: UserTransaction, state: StateLayer, block: BlockContext, extra: bigint): void {
  const sender = heldAccount(state, transaction.sender)
  const nonce = sender?.nonce ?? 0n
  if (nonce !== transaction.nonce) {
    const ErrorClass = transaction.nonce < nonce ? StaleNonceError : UnexecutableTransactionError
    throw new ErrorClass(`nonce ${transaction.nonce} does not follow state nonce ${nonce}`)
  }
  // No EIP-3607 check: a sender with code sends, as in Anvil (config.rs sets disable_eip3607) and
  // Hardhat, where geth refuses it at execution (`sender not an eoa`).
  if (transaction.maxFeePerGas < block.baseFeePerGas) {
    throw new UnexecutableTransactionError(TransactionRejection.feeCapTooLow)
  }
  if ((sender?.balance ?? 0n) < transaction.cost + extra) {
    throw new UnexecutableTransactionError('insufficient funds for gas * price + value')
  }
}

/** Takes `amount` from the sender and bumps its nonce (the upfront part of every transaction). */
function chargeSender(transaction: UserTransaction, state: StateLayer, amount: bigint): void {
  // The sender may not exist yet: a zero-fee, zero-value transaction at base fee 0.
  const sender = heldAccount(state, transaction.sender)
  state.putAccount(transaction.sender, withAccountFields(sender, { nonce: (sender?.nonce ?? 0n) + 1n, balance: (sender?.balance ?? 0n) - amount }))
}

/** Whether the transaction only moves ether between accounts that run no code. */
export function isPlainTransfer(transaction: UserTransaction, state: StateLayer, environment: ExecutionEnvironment): boolean {
  const { to } = transaction
  if (to === undefined || transaction.data.length > 0 || transaction.type === 4 || transaction.accessList.length > 0) return false
  if ((heldAccount(state, to)?.code.length ?? 0) > 0) return false
  return environment.evm.getPrecompile(to) === undefined
}

/**
 * Pays out a transaction's gas once its use is known: the tip to the coinbase, the base fee to
 * its recipient (unless burnt), and an OP-stack chain's L1 fee and operator fee to their vaults.
 */
function payFees(state: StateLayer, block: BlockContext, gasUsed: bigint, tip: bigint, fees: FeeRules, extra: ExtraCharges | undefined): void {
  credit(state, block.coinbase, gasUsed * tip)
  if (fees.baseFeeRecipient !== undefined) credit(state, fees.baseFeeRecipient, gasUsed * block.baseFeePerGas)
  if (extra === undefined) return
  credit(state, extra.l1FeeRecipient, extra.l1Fee)
  credit(state, extra.operatorFeeRecipient, extra.operatorFee(gasUsed))
}

/** The direct path for {@link isPlainTransfer} transactions (no EVM frame, same outcome). */
export function runPlainTransfer(transaction: UserTransaction, state: StateLayer, block: BlockContext, position: BlockPosition, fees: FeeRules, extra: ExtraCharges | undefined): TransactionReceipt {
  const { price, tip } = gasPrices(transaction, block)
  const owed = extra === undefined ? 0n : extra.l1Fee + extra.operatorFee(PLAIN_TRANSFER_GAS)
  chargeSender(transaction, state, PLAIN_TRANSFER_GAS * price + transaction.value + owed)
  credit(state, transaction.to!, transaction.value)
  payFees(state, block, PLAIN_TRANSFER_GAS, tip, fees, extra)
  return receiptOf(1, PLAIN_TRANSFER_GAS, price, [], undefined, position, extra?.receipt)
}

/** The general path: the transaction runs in the EVM. */
export async function runInEVM(
  transaction: UserTransaction,
  state: StateLayer,
  block: BlockContext,
  position: BlockPosition,
  environment: ExecutionEnvironment,
  extra: ExtraCharges | undefined,
): Promise<TransactionReceipt> {
  const { evm } = environment
  const { price, tip } = gasPrices(transaction, block)
  environment.state.attach(state)
  prepareRun(evm, transaction.sender, transaction.to, block.coinbase, transaction.accessList)

  const upfrontExtra = extra === undefined ? 0n : extra.l1Fee + extra.operatorFee(transaction.gasLimit)
  chargeSender(transaction, state, transaction.gasLimit * price + upfrontExtra)
  const authorizationRefund = await applyAuthorizations(transaction.authorizationList, state, environment)

  const result = await evm.runCall({
    block: toEVMBlock(block),
    gasPrice: price,
    caller: transaction.senderAddress,
    gasLimit: transaction.gasLimit - transaction.intrinsicGas,
    to: transaction.to === undefined ? undefined : evmAddress(transaction.to),
    value: transaction.value,
    data: transaction.data,
    skipNonceIncrement: true,
  })
  const execution = result.execResult

  const gasUsed = gasUsedAfterRefund(execution, transaction, authorizationRefund)

  // Unused gas comes back, and with it the operator fee charged on it.
  const extraRefund = extra === undefined ? 0n : extra.operatorFee(transaction.gasLimit) - extra.operatorFee(gasUsed)
  const payer = heldAccount(state, transaction.sender)
  state.putAccount(transaction.sender, withAccountFields(payer, { balance: (payer?.balance ?? 0n) + (transaction.gasLimit - gasUsed) * price + extraRefund }))
  payFees(state, block, gasUsed, tip, environment.fees, extra)

  removeDestroyedCreations(state, execution)
  await evm.journal.cleanup()

  const failed = execution.exceptionError !== undefined
  const logs = logsOf(execution)
  // geth reports the address a creation would have used, whether or not it succeeded.
  const contractAddress = transaction.to === undefined ? (toHex(generateAddress(transaction.senderAddress.bytes, bigIntToUnpaddedBytes(transaction.nonce))) as Address) : undefined
  return receiptOf(failed ? 0 : 1, gasUsed, price, logs, contractAddress, position, extra?.receipt)
}

/**
 * Executes `transaction` on `state` in `block`; throws {@link UnexecutableTransactionError} if it
 * no longer fits the state (the state is then untouched).
 */
export async function runTransaction(
  transaction: Transaction,
  state: StateLayer,
  block: BlockContext,
  position: BlockPosition,
  environment: ExecutionEnvironment,
): Promise<TransactionReceipt> {
  // The accounts the direct paths read synchronously, the fee vaults included (a forked chain may have to fetch them).
  const loading = ensureAccounts(state, [transaction.sender, transaction.to, block.coinbase, ...environment.fees.credited])
  if (loading !== undefined) await loading
  if (transaction.kind === 'deposit') return runDeposit(transaction, state, block, position, environment)
  const owed = environment.fees.extraCharges(transaction, state)
  const extra = owed instanceof Promise ? await owed : owed
  checkExecutable(transaction, state, block, extra === undefined ? 0n : extra.l1Fee + extra.operatorFee(transaction.gasLimit))
  if (isPlainTransfer(transaction, state, environment)) return runPlainTransfer(transaction, state, block, position, environment.fees, extra)
  return runInEVM(transaction, state, block, position, environment, extra)
}
