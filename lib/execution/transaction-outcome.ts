/**
 * What every way of running a transaction ends with: the gas it used after refunds, the
 * creations it destroyed removed (EIP-6780), its logs, its receipt at its place in the block,
 * and credits that leave no empty account behind.
 */
import type { ExecResult } from '@ethereumjs/evm'
import { BIGINT_0 } from '@ethereumjs/util'
import { toHex } from '../bytes.ts'
import { logsBloom } from '../blocks/bloom.ts'
import type { L1FeeReceiptFields, Log, TransactionReceipt } from '../blocks/receipt.ts'
import { isEmptyAccount, withAccountFields } from '../state/account.ts'
import type { StateLayer } from '../state/state-layer.ts'
import { heldAccount } from '../state/state-source.ts'
import type { Transaction } from '../transactions/transaction.ts'
import type { Address } from '../types.ts'

/** EIP-3529: the refund is capped at a fifth of the gas used. */
const MAX_REFUND_QUOTIENT = 5n

/** The gas a run used: its peak (intrinsic plus execution) less `refund` capped at a fifth of it (EIP-3529), at least `floor` (EIP-7623's). */
export function refundedGasUsed(peak: bigint, refund: bigint, floor: bigint): bigint {
  const maxRefund = peak / MAX_REFUND_QUOTIENT
  const refunded = peak - (refund < maxRefund ? refund : maxRefund)
  return refunded < floor ? floor : refunded
}

/** The gas `transaction` used: intrinsic plus execution, less the capped refund (and `extraRefund`, EIP-7702's), at least the EIP-7623 floor. */
export function gasUsedAfterRefund(execution: ExecResult, transaction: Transaction, extraRefund = 0n): bigint {
  return refundedGasUsed(execution.executionGasUsed + transaction.intrinsicGas, (execution.gasRefund ?? BIGINT_0) + extraRefund, transaction.floorDataGas)
}

/** Removes the accounts the run created and self-destructed (EIP-6780). */
export function removeDestroyedCreations(state: StateLayer, execution: ExecResult): void {
  for (const address of execution.selfdestruct?.keys() ?? []) {
    if (execution.createdAddresses?.has(address) === true) state.putAccount(address as Address, undefined)
  }
}

/** The run's logs, as receipts hold them. */
export function logsOf(execution: ExecResult): Log[] {
  return (execution.logs ?? []).map(([address, topics, data]) => ({ address: toHex(address) as Address, topics, data }))
}

/** Where the transaction lands in its block. */
export interface BlockPosition {
  /** Gas used by the block's earlier transactions. */
  readonly gasUsed: bigint
  /** Logs emitted by the block's earlier transactions. */
  readonly logCount: number
}

/**
 * Credits `amount` to `address`, leaving no empty account behind (EIP-161): as geth's AddBalance,
 * a credit of 0 touches an existing empty account, which is then deleted (core/state
 * stateObject.AddBalance), and creates nothing.
 */
export function credit(state: StateLayer, address: Address, amount: bigint): void {
  const account = heldAccount(state, address)
  if (amount === 0n) {
    if (account !== undefined && isEmptyAccount(account)) state.putAccount(address, undefined)
    return
  }
  const updated = withAccountFields(account, { balance: (account?.balance ?? 0n) + amount })
  state.putAccount(address, isEmptyAccount(updated) ? undefined : updated)
}

/** A receipt of a transaction at `position` in its block (with an OP-stack chain's L1 fee fields, for a user transaction there). */
export function receiptOf(
  status: 0 | 1,
  gasUsed: bigint,
  price: bigint,
  logs: readonly Log[],
  contractAddress: Address | undefined,
  position: BlockPosition,
  l1?: L1FeeReceiptFields,
): TransactionReceipt {
  const receipt: TransactionReceipt = {
    status,
    gasUsed,
    cumulativeGasUsed: position.gasUsed + gasUsed,
    effectiveGasPrice: price,
    logs,
    logsBloom: logsBloom(logs),
    contractAddress,
    firstLogIndex: position.logCount,
    l1,
  }
  return receipt
}
