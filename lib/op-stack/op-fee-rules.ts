/**
 * An OP-stack chain's fee rules (op-geth `state_transition.go`, OP specs `exec-engine.md`
 * §Fees): the base fee goes to the BaseFeeVault rather than being burnt, and each user
 * transaction owes its L1 data fee (Fjord, over its signed envelope) to the L1FeeVault and its
 * operator fee (Jovian) to the OperatorFeeVault, both from the values the block's L1-attributes
 * deposit wrote into L1Block, read from the state the transaction runs on.
 */
import type { ExtraCharges, FeeRules } from '../execution/fee-rules.ts'
import { readStorage } from '../state/state-source.ts'
import type { StateView } from '../state/state-view.ts'
import type { UserTransaction } from '../transactions/transaction.ts'
import { flzCompressLength } from './fastlz.ts'
import { daFootprintOfFlzLength, fjordL1CostOfFlzLength, l1FeeParametersFrom, operatorFee, type L1FeeParameters } from './l1-fee.ts'
import { BASE_FEE_VAULT, L1_BLOCK, L1_FEE_VAULT, OPERATOR_FEE_VAULT } from './predeploys.ts'

/** The fee parameters L1Block holds in `state`: at once when its words are at hand, else once they are loaded (a fork). */
export function l1FeeParametersIn(state: StateView): L1FeeParameters | Promise<L1FeeParameters> {
  const words = [readStorage(state, L1_BLOCK, 1n), readStorage(state, L1_BLOCK, 3n), readStorage(state, L1_BLOCK, 7n), readStorage(state, L1_BLOCK, 8n)]
  const from = ([slot1, slot3, slot7, slot8]: bigint[]) => l1FeeParametersFrom({ slot1, slot3, slot7, slot8 })
  return words.some((word) => word instanceof Promise) ? Promise.all(words).then(from) : from(words as bigint[])
}

/** What `transaction` owes under `parameters`. */
function chargesOf(transaction: UserTransaction, parameters: L1FeeParameters): ExtraCharges {
  const flzLength = BigInt(flzCompressLength(transaction.raw))
  const { l1Fee, l1GasUsed } = fjordL1CostOfFlzLength(flzLength, parameters)
  return {
    l1Fee,
    l1FeeRecipient: L1_FEE_VAULT,
    operatorFee: (gas) => operatorFee(gas, parameters, 'jovian'),
    operatorFeeRecipient: OPERATOR_FEE_VAULT,
    receipt: {
      l1BaseFee: parameters.l1BaseFee,
      l1GasUsed,
      l1Fee,
      baseFeeScalar: parameters.baseFeeScalar,
      l1BlobBaseFee: parameters.l1BlobBaseFee,
      blobBaseFeeScalar: parameters.blobBaseFeeScalar,
      operatorFeeScalar: parameters.operatorFeeScalar,
      operatorFeeConstant: parameters.operatorFeeConstant,
      daFootprintGasScalar: parameters.daFootprintGasScalar,
      daFootprint: daFootprintOfFlzLength(flzLength, parameters),
    },
  }
}

/** The fee rules of an OP-stack chain with every fork through Jovian active. */
export const OP_STACK_FEE_RULES: FeeRules = {
  baseFeeRecipient: BASE_FEE_VAULT,
  extraCharges(transaction, state) {
    const parameters = l1FeeParametersIn(state)
    return parameters instanceof Promise ? parameters.then((loaded) => chargesOf(transaction, loaded)) : chargesOf(transaction, parameters)
  },
}
