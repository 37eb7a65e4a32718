/**
 * Applies one transaction to a state layer, as geth's state transition and @ethereumjs/vm's
 * runTx do for Prague: upfront gas purchase, nonce, EIP-7702 authorizations, the call or
 * creation, refunds (capped at a fifth), the EIP-7623 floor, base fee burnt, tip to the
 * coinbase, EIP-6780 self-destructs and EIP-161 cleanup. Plain value transfers between
 * accounts without code take a direct path with the same result.
 */
import { BIGINT_0, bigIntToUnpaddedBytes, bytesToHex, createAddressFromString, generateAddress } from '@ethereumjs/util'
import { logsBloom } from '../blocks/bloom.ts'
import type { Log, TransactionReceipt } from '../blocks/receipt.ts'
import { isEmptyAccount, withAccountFields } from '../state/account.ts'
import type { StateLayer } from '../state/state-layer.ts'
import { ensureAccounts, heldAccount } from '../state/state-source.ts'
import { effectiveTip, type Transaction, type UserTransaction } from '../transactions/transaction.ts'
import type { Address } from '../types.ts'
import { toEVMBlock, type BlockContext } from './block-context.ts'
import { applyAuthorizations, isDelegated } from './authorizations.ts'
import { prepareRun } from './prepare-run.ts'
import type { ExecutionEnvironment } from './execution-environment.ts'

/** The gas of a plain transfer: the base cost of every transaction. */
export const PLAIN_TRANSFER_GAS = 21000n
const MAX_REFUND_QUOTIENT = 5n

/** A transaction that cannot be included in this block any more (the builder drops it). */
export class UnexecutableTransactionError extends Error {
  override name = 'UnexecutableTransactionError'
}

/** Where the transaction lands in its block. */
export interface BlockPosition {
  /** Gas used by the block's earlier transactions. */
  readonly gasUsed: bigint
  /** Logs emitted by the block's earlier transactions. */
  readonly logCount: number
}

/** What the sender pays per gas in `block`, and how much of it goes to the coinbase. */
function gasPrices(transaction: UserTransaction, block: BlockContext): { price: bigint; tip: bigint } {
  const tip = effectiveTip(transaction, block.baseFeePerGas)
  return { price: block.baseFeePerGas + tip, tip }
}

/** geth's preCheck: the transaction must still fit the state it is about to run on. */
function checkExecutable(transaction: UserTransaction, state: StateLayer, block: BlockContext): void {
  const sender = heldAccount(state, transaction.sender)
  const nonce = sender?.nonce ?? 0n
  if (nonce !== transaction.nonce) {
    throw new UnexecutableTransactionError(`nonce ${transaction.nonce} does not follow state nonce ${nonce}`)
  }
  // EIP-3607, except for impersonated senders (Anvil lets impersonated contracts send).
  const delegated = sender !== undefined && isDelegated(sender.code)
  if (sender !== undefined && sender.code.length > 0 && !delegated && transaction.kind !== 'impersonated') {
    throw new UnexecutableTransactionError('sender not an eoa')
  }
  if (transaction.maxFeePerGas < block.baseFeePerGas) {
    throw new UnexecutableTransactionError('max fee per gas less than block base fee')
  }
  if ((sender?.balance ?? 0n) < transaction.cost) {
    throw new UnexecutableTransactionError('insufficient funds for gas * price + value')
  }
}

/** Takes `amount` from the sender and bumps its nonce (the upfront part of every transaction). */
function chargeSender(transaction: UserTransaction, state: StateLayer, amount: bigint): void {
  // The sender may not exist yet: a zero-fee, zero-value transaction at base fee 0.
  const sender = heldAccount(state, transaction.sender)
  state.putAccount(transaction.sender, withAccountFields(sender, { nonce: (sender?.nonce ?? 0n) + 1n, balance: (sender?.balance ?? 0n) - amount }))
}

/** Credits `amount` to `address`, leaving no empty account behind (EIP-161). */
function credit(state: StateLayer, address: Address, amount: bigint): void {
  const account = heldAccount(state, address)
  if (account === undefined && amount === 0n) return
  const updated = withAccountFields(account, { balance: (account?.balance ?? 0n) + amount })
  state.putAccount(address, isEmptyAccount(updated) ? undefined : updated)
}

/** Whether the transaction only moves ether between accounts that run no code. */
export function isPlainTransfer(transaction: UserTransaction, state: StateLayer, environment: ExecutionEnvironment): boolean {
  const { to } = transaction
  if (to === undefined || transaction.data.length > 0 || transaction.type === 4 || transaction.accessList.length > 0) return false
  if ((heldAccount(state, to)?.code.length ?? 0) > 0) return false
  return environment.evm.getPrecompile(to) === undefined
}

function receiptOf(
  status: 0 | 1,
  gasUsed: bigint,
  price: bigint,
  logs: readonly Log[],
  contractAddress: Address | undefined,
  position: BlockPosition,
): TransactionReceipt {
  return {
    status,
    gasUsed,
    cumulativeGasUsed: position.gasUsed + gasUsed,
    effectiveGasPrice: price,
    logs,
    logsBloom: logsBloom(logs),
    contractAddress,
    firstLogIndex: position.logCount,
  }
}

/** The direct path for {@link isPlainTransfer} transactions (no EVM frame, same outcome). */
export function runPlainTransfer(transaction: UserTransaction, state: StateLayer, block: BlockContext, position: BlockPosition): TransactionReceipt {
  const { price, tip } = gasPrices(transaction, block)
  chargeSender(transaction, state, PLAIN_TRANSFER_GAS * price + transaction.value)
  credit(state, transaction.to!, transaction.value)
  credit(state, block.coinbase, PLAIN_TRANSFER_GAS * tip)
  return receiptOf(1, PLAIN_TRANSFER_GAS, price, [], undefined, position)
}

/** The general path: the transaction runs in the EVM. */
export async function runInEVM(
  transaction: UserTransaction,
  state: StateLayer,
  block: BlockContext,
  position: BlockPosition,
  environment: ExecutionEnvironment,
): Promise<TransactionReceipt> {
  const { evm } = environment
  const { price, tip } = gasPrices(transaction, block)
  environment.state.attach(state)
  prepareRun(evm, transaction.sender, transaction.to, block.coinbase, transaction.accessList)

  chargeSender(transaction, state, transaction.gasLimit * price)
  const authorizationRefund = await applyAuthorizations(transaction.authorizationList, state, environment)

  const result = await evm.runCall({
    block: toEVMBlock(block),
    gasPrice: price,
    caller: transaction.senderAddress,
    gasLimit: transaction.gasLimit - transaction.intrinsicGas,
    to: transaction.to === undefined ? undefined : createAddressFromString(transaction.to),
    value: transaction.value,
    data: transaction.data,
    skipNonceIncrement: true,
  })
  const execution = result.execResult

  let gasUsed = execution.executionGasUsed + transaction.intrinsicGas
  const refund = (execution.gasRefund ?? BIGINT_0) + authorizationRefund
  const maxRefund = gasUsed / MAX_REFUND_QUOTIENT
  gasUsed -= refund < maxRefund ? refund : maxRefund
  if (gasUsed < transaction.floorDataGas) gasUsed = transaction.floorDataGas

  const payer = heldAccount(state, transaction.sender)
  state.putAccount(transaction.sender, withAccountFields(payer, { balance: (payer?.balance ?? 0n) + (transaction.gasLimit - gasUsed) * price }))
  credit(state, block.coinbase, gasUsed * tip)

  for (const address of execution.selfdestruct?.keys() ?? []) {
    if (execution.createdAddresses?.has(address) === true) state.putAccount(address as Address, undefined)
  }
  await evm.journal.cleanup()

  const failed = execution.exceptionError !== undefined
  const logs: Log[] = (execution.logs ?? []).map(([address, topics, data]) => ({ address: bytesToHex(address) as Address, topics, data }))
  // geth reports the address a creation would have used, whether or not it succeeded.
  const contractAddress = transaction.to === undefined ? (bytesToHex(generateAddress(transaction.senderAddress.bytes, bigIntToUnpaddedBytes(transaction.nonce))) as Address) : undefined
  return receiptOf(failed ? 0 : 1, gasUsed, price, logs, contractAddress, position)
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
  // The accounts the direct paths read synchronously (a forked chain may have to fetch them).
  const loading = ensureAccounts(state, [transaction.sender, transaction.to, block.coinbase])
  if (loading !== undefined) await loading
  checkExecutable(transaction, state, block)
  if (isPlainTransfer(transaction, state, environment)) return runPlainTransfer(transaction, state, block, position)
  return runInEVM(transaction, state, block, position, environment)
}
