/**
 * What every way of running a transaction ends with: its receipt at its place in the block,
 * and credits that leave no empty account behind.
 */
import { logsBloom } from '../blocks/bloom.ts'
import type { L1FeeReceiptFields, Log, TransactionReceipt } from '../blocks/receipt.ts'
import { isEmptyAccount, withAccountFields } from '../state/account.ts'
import type { StateLayer } from '../state/state-layer.ts'
import { heldAccount } from '../state/state-source.ts'
import type { Address } from '../types.ts'

/** Where the transaction lands in its block. */
export interface BlockPosition {
  /** Gas used by the block's earlier transactions. */
  readonly gasUsed: bigint
  /** Logs emitted by the block's earlier transactions. */
  readonly logCount: number
}

/** Credits `amount` to `address`, leaving no empty account behind (EIP-161). */
export function credit(state: StateLayer, address: Address, amount: bigint): void {
  if (amount === 0n) return
  const account = heldAccount(state, address)
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
