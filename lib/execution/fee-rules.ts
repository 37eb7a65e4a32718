/**
 * How a chain charges for gas beyond the price per gas: where the base fee goes (burnt on
 * Ethereum; an OP-stack chain's BaseFeeVault), and what else a user transaction owes (an
 * OP-stack chain's L1 data fee and operator fee, with their receipt fields).
 */
import type { L1FeeReceiptFields } from '../blocks/receipt.ts'
import type { StateView } from '../state/state-view.ts'
import type { UserTransaction } from '../transactions/transaction.ts'
import type { Address } from '../types.ts'

/** What a user transaction owes besides its gas: an OP-stack chain's L1 data fee and operator fee. */
export interface ExtraCharges {
  /** The L1 data fee, charged with the gas and paid to `l1FeeRecipient`. */
  readonly l1Fee: bigint
  readonly l1FeeRecipient: Address
  /** The operator fee for `gas`: charged on the gas limit upfront, settled on the gas used, paid to `operatorFeeRecipient`. */
  operatorFee(gas: bigint): bigint
  readonly operatorFeeRecipient: Address
  /** What the receipt reports of them. */
  readonly receipt: L1FeeReceiptFields
}

/** A chain's fee rules. */
export interface FeeRules {
  /** Where the base fee part of each gas payment goes; undefined: burnt (Ethereum). */
  readonly baseFeeRecipient: Address | undefined
  /** Every account these rules credit besides the coinbase, loaded before each transaction runs (a fork fetches them). */
  readonly credited: readonly Address[]
  /** What `transaction` owes besides its gas when run on `state`; undefined for nothing (at once, on a plain chain). */
  extraCharges(transaction: UserTransaction, state: StateView): ExtraCharges | undefined | Promise<ExtraCharges | undefined>
}

/** Ethereum's: the base fee is burnt, and nothing else is owed. */
export const ETHEREUM_FEE_RULES: FeeRules = {
  baseFeeRecipient: undefined,
  credited: [],
  extraCharges: () => undefined,
}
