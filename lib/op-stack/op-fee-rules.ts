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
import { daFootprintOfFlzLength, fjordL1CostOfFlzLength, L1_BLOCK_FEE_SLOTS, l1FeeParametersFrom, operatorFee, type L1FeeParameters } from './l1-fee.ts'
import { BASE_FEE_VAULT, L1_BLOCK, L1_FEE_VAULT, OPERATOR_FEE_VAULT } from './predeploys.ts'

/** The L1Block slots of the fee parameters. */
const [SLOT_1, SLOT_3, SLOT_7, SLOT_8] = L1_BLOCK_FEE_SLOTS

/** The words last read from L1Block and what they say (the same for every transaction of a block after its L1-attributes deposit). */
let lastRead: { slot1: bigint; slot3: bigint; slot7: bigint; slot8: bigint; parameters: L1FeeParameters } | undefined

/** The parameters of these words, parsed once for as long as they stay the same. */
function parametersOf(slot1: bigint, slot3: bigint, slot7: bigint, slot8: bigint): L1FeeParameters {
  const last = lastRead
  if (last !== undefined && last.slot1 === slot1 && last.slot3 === slot3 && last.slot7 === slot7 && last.slot8 === slot8) return last.parameters
  const parameters = l1FeeParametersFrom({ slot1, slot3, slot7, slot8 })
  lastRead = { slot1, slot3, slot7, slot8, parameters }
  return parameters
}

/** The fee parameters L1Block holds in `state`: at once when its words are at hand, else once they are loaded (a fork). */
function l1FeeParametersIn(state: StateView): L1FeeParameters | Promise<L1FeeParameters> {
  const slot1 = readStorage(state, L1_BLOCK, SLOT_1)
  const slot3 = readStorage(state, L1_BLOCK, SLOT_3)
  const slot7 = readStorage(state, L1_BLOCK, SLOT_7)
  const slot8 = readStorage(state, L1_BLOCK, SLOT_8)
  if (typeof slot1 === 'bigint' && typeof slot3 === 'bigint' && typeof slot7 === 'bigint' && typeof slot8 === 'bigint') return parametersOf(slot1, slot3, slot7, slot8)
  return Promise.all([slot1, slot3, slot7, slot8]).then(([w1, w3, w7, w8]) => parametersOf(w1, w3, w7, w8))
}

/** No operator fee (scalar and constant 0, the default). */
const NO_OPERATOR_FEE = (): bigint => 0n

/** Each transaction's FastLZ length, compressed once: at admission, then read again by the tick that runs it. */
const flzLengths = new WeakMap<UserTransaction, bigint>()

function flzLengthOf(transaction: UserTransaction): bigint {
  let length = flzLengths.get(transaction)
  if (length === undefined) {
    length = BigInt(flzCompressLength(transaction.raw))
    flzLengths.set(transaction, length)
  }
  return length
}

/** What `transaction` owes under `parameters`. */
function chargesOf(transaction: UserTransaction, parameters: L1FeeParameters): ExtraCharges {
  const flzLength = flzLengthOf(transaction)
  const { l1Fee, l1GasUsed } = fjordL1CostOfFlzLength(flzLength, parameters)
  const charged = parameters.operatorFeeScalar !== 0n || parameters.operatorFeeConstant !== 0n
  return {
    l1Fee,
    l1FeeRecipient: L1_FEE_VAULT,
    operatorFee: charged ? (gas) => operatorFee(gas, parameters, 'jovian') : NO_OPERATOR_FEE,
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
  credited: [BASE_FEE_VAULT, L1_FEE_VAULT, OPERATOR_FEE_VAULT],
  extraCharges(transaction, state) {
    const parameters = l1FeeParametersIn(state)
    return parameters instanceof Promise ? parameters.then((loaded) => chargesOf(transaction, loaded)) : chargesOf(transaction, parameters)
  },
}
