/**
 * Whether the pool takes a transaction, by geth's rules and texts (core/txpool/validation.go,
 * legacypool): known hash first, then the checks that need no state, then nonce and funds
 * against the pending (pre-confirmed) state; the pool's limits (`pool-bounds.ts`) come next,
 * and last the replacement rule (geth's `list.Add`), which the pool applies.
 */
import { TransactionRejectedError, TransactionRejection } from '../errors.ts'
import { heldAccount } from '../state/state-source.ts'
import type { StateView } from '../state/state-view.ts'
import type { UserTransaction } from '../transactions/transaction.ts'
import type { PoolEntries } from './pool-entries.ts'

/** geth's default price bump for replacements, in percent. */
const REPLACEMENT_PRICE_BUMP = 10n

/** What admission checks a transaction against. */
export interface AdmissionContext {
  readonly pool: PoolEntries
  /** The pre-confirmed state: nonces and balances the transaction must fit (the sender loaded). */
  readonly pending: StateView
  readonly blockGasLimit: bigint
  /** What the transaction owes besides gas and value: an OP-stack chain's L1 data fee and operator fee on its gas limit (op-geth's L1CostFn and OperatorCostFn). */
  readonly extraCost: bigint
}

/** The checks that need no state (geth's ValidateTransaction; fee and signature sanity run at decoding). */
export function checkIntrinsic(transaction: UserTransaction, blockGasLimit: bigint): void {
  if (transaction.gasLimit > blockGasLimit) throw new TransactionRejectedError(TransactionRejection.gasLimitExceeded)
  if (transaction.gasLimit < transaction.intrinsicGas) {
    throw new TransactionRejectedError(
      TransactionRejection.intrinsicGasTooLow,
      `gas ${transaction.gasLimit}, minimum needed ${transaction.intrinsicGas}`,
    )
  }
  if (transaction.gasLimit < transaction.floorDataGas) {
    throw new TransactionRejectedError(
      TransactionRejection.floorDataGas,
      `gas ${transaction.gasLimit}, minimum needed ${transaction.floorDataGas}`,
    )
  }
}

/**
 * Throws `replacement transaction underpriced` unless `replacement` may replace `current` (same
 * sender and nonce): its fee cap and tip must each be strictly greater and at least
 * `old × (100 + 10) / 100`, rounded down (geth's list.Add).
 */
export function checkReplacement(current: UserTransaction, replacement: UserTransaction): void {
  const feeCapThreshold = (current.maxFeePerGas * (100n + REPLACEMENT_PRICE_BUMP)) / 100n
  const tipThreshold = (current.maxPriorityFeePerGas * (100n + REPLACEMENT_PRICE_BUMP)) / 100n
  const priced =
    replacement.maxFeePerGas > current.maxFeePerGas &&
    replacement.maxPriorityFeePerGas > current.maxPriorityFeePerGas &&
    replacement.maxFeePerGas >= feeCapThreshold &&
    replacement.maxPriorityFeePerGas >= tipThreshold
  if (!priced) throw new TransactionRejectedError(TransactionRejection.replacementUnderpriced)
}

/** The checks against pending state and the pool (geth's ValidateTransactionWithState with ExistingExpenditure and ExistingCost). */
export function checkAgainstState(transaction: UserTransaction, context: AdmissionContext): void {
  const { sender } = transaction
  const account = heldAccount(context.pending, sender)
  const nextNonce = account?.nonce ?? 0n
  if (transaction.nonce < nextNonce) {
    throw new TransactionRejectedError(TransactionRejection.nonceTooLow, `next nonce ${nextNonce}, tx nonce ${transaction.nonce}`)
  }

  const balance = account?.balance ?? 0n
  const cost = transaction.cost + context.extraCost
  if (balance < cost) {
    throw new TransactionRejectedError(
      TransactionRejection.insufficientFunds,
      `balance ${balance}, tx cost ${cost}, overshot ${cost - balance}`,
    )
  }
  // geth's ExistingExpenditure and ExistingCost: only the executable run counts, not held transactions.
  const { cost: spent, end } = context.pool.executableRun(sender, nextNonce)
  const current = context.pool.atNonce(sender, transaction.nonce)
  if (current === undefined || transaction.nonce >= end) {
    if (balance < spent + cost) {
      throw new TransactionRejectedError(
        TransactionRejection.insufficientFunds,
        `balance ${balance}, queued cost ${spent}, tx cost ${cost}, overshot ${spent + cost - balance}`,
      )
    }
  } else {
    const bump = cost - current.transaction.cost
    if (balance < spent + bump) {
      throw new TransactionRejectedError(
        TransactionRejection.insufficientFunds,
        `balance ${balance}, queued cost ${spent}, tx bumped ${bump}, overshot ${spent + bump - balance}`,
      )
    }
  }
}
