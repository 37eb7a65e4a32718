/**
 * The OP-stack L1-fee arithmetic against base/base's receipt vectors (crates/execution/rpc
 * receipt.rs) and the GasPriceOracle answers measured by executing its real Jovian bytecode
 * during the OP-stack research. Expected numbers are worked from the Fjord / Ecotone /
 * Isthmus / Jovian formulas by hand, not taken from the code under test.
 */
import { expect } from 'chai'
import { flzCompressLength } from '../../lib/op-stack/fastlz.ts'
import {
  daFootprint,
  ecotoneL1Cost,
  fjordL1Cost,
  fjordL1CostOfFlzLength,
  L1_BLOCK_FEE_SLOTS,
  l1FeeParametersFrom,
  l1FeeUpperBound,
  operatorFee,
  type L1FeeParameters,
} from '../../lib/op-stack/l1-fee.ts'

const bytes = (hex: string): Uint8Array => Uint8Array.from(Buffer.from(hex, 'hex'))

/** Vector A: OP Mainnet block 124,665,056 tx 1, a signed EIP-1559 envelope of 1176 bytes (875 zero). */
const TX_A = bytes('02f904940a8303fba78401d6d2798401db2b6d830493e0943e6f4f7866654c18f536170780344aa8772950b680b904246a761202000000000000000000000000087000a300de7200382b55d40045000000e5d60e0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000014000000000000000000000000000000000000000000000000000000000000000010000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000003a0000000000000000000000000000000000000000000000000000000000000022482ad56cb0000000000000000000000000000000000000000000000000000000000000020000000000000000000000000000000000000000000000000000000000000000200000000000000000000000000000000000000000000000000000000000000400000000000000000000000000000000000000000000000000000000000000120000000000000000000000000dc6ff44d5d932cbd77b52e5612ba0529dc6226f1000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000600000000000000000000000000000000000000000000000000000000000000044095ea7b300000000000000000000000021c4928109acb0659a88ae5329b5374a3024694c0000000000000000000000000000000000000000000000049b9ca9a6943400000000000000000000000000000000000000000000000000000000000000000000000000000000000021c4928109acb0659a88ae5329b5374a3024694c000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000600000000000000000000000000000000000000000000000000000000000000024b6b55f250000000000000000000000000000000000000000000000049b9ca9a694340000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000415ec214a3950bea839a7e6fbb0ba1540ac2076acd50820e2d5ef83d0902cdffb24a47aff7de5190290769c4f0a9c6fabf63012986a0d590b1b571547a8c7050ea1b00000000000000000000000000000000000000000000000000000000000000c080a06db770e6e25a617fe9652f0958bd9bd6e49281a53036906386ed39ec48eadf63a07f47cf51a4a40b4494cf26efc686709a9b03939e20ee27e59682f5faa536667e')
/**
 * Its block's Ecotone-format L1 info (and, for the GasPriceOracle rows, operator scalar 7,
 * constant 11, da 400). l1FeeScaled = 5227·16·1,055,991,687 + 1,014,213·1 = 88,314,697,781,397.
 */
const PARAMETERS_A: L1FeeParameters = {
  l1BaseFee: 1_055_991_687n,
  l1BlobBaseFee: 1n,
  baseFeeScalar: 5227n,
  blobBaseFeeScalar: 1_014_213n,
  operatorFeeScalar: 7n,
  operatorFeeConstant: 11n,
  daFootprintGasScalar: 400n,
}

/** Vector B: a Base mainnet transfer (chain 8453), 111 bytes (1 zero), and its block's L1 info. */
const TX_B = bytes('02f86c8221058034839a4ae283021528942f16386bb37709016023232523ff6d9daf444be380841249c58bc080a001b927eda2af9b00b52a57be0885e0303c39dd2831732e14051c2336470fd468a0681bf120baf562915841a48601c2b54a6742511e535cf8f71c95115af7ff63bd')
const PARAMETERS_B: L1FeeParameters = {
  l1BaseFee: 14_121_491_676n,
  l1BlobBaseFee: 1_324_954_204n,
  baseFeeScalar: 2269n,
  blobBaseFeeScalar: 1_055_762n,
  operatorFeeScalar: 0n,
  operatorFeeConstant: 0n,
  daFootprintGasScalar: 0n,
}

describe('op-stack/l1-fee', () => {
  describe('l1FeeParametersFrom (L1Block storage, as the Jovian setter wrote it)', () => {
    it('names the slots 1, 3, 7 and 8', () => {
      expect(L1_BLOCK_FEE_SLOTS).to.deep.equal([1n, 3n, 7n, 8n])
    })

    it('unpacks the words setL1BlockValuesJovian stored (scalars 5227 / 1,014,213, operator 7 / 11, da 400)', () => {
      const parameters = l1FeeParametersFrom({
        slot1: 0x3ef12787n,
        slot3: 0x146b_000f79c5_0000000000000003n, // baseFeeScalar ‖ blobBaseFeeScalar ‖ sequenceNumber 3
        slot7: 1n,
        slot8: 0x0190_00000007_000000000000000bn, // da ‖ operatorFeeScalar ‖ operatorFeeConstant
      })
      expect(parameters).to.deep.equal(PARAMETERS_A)
    })

    it('keeps a da scalar the Isthmus setter cleared as 0', () => {
      const parameters = l1FeeParametersFrom({ slot1: 1n, slot3: 0n, slot7: 0n, slot8: 0x00000007_000000000000000bn })
      expect([parameters.operatorFeeScalar, parameters.operatorFeeConstant, parameters.daFootprintGasScalar]).to.deep.equal([7n, 11n, 0n])
    })
  })

  describe('fjordL1Cost (base/base receipt.rs vectors)', () => {
    it('vector A: flzLen 385 → est 836,500·385 − 42,585,600 = 279,466,900 → l1GasUsed 4471, l1Fee 24,681,034,813', () => {
      expect(flzCompressLength(TX_A)).to.equal(385)
      expect(fjordL1Cost(TX_A, PARAMETERS_A)).to.deep.equal({ l1GasUsed: 4471n, l1Fee: 24_681_034_813n })
    })

    it('vector B: flzLen 115 → est clamped to 100e6 → l1GasUsed 1600, l1Fee 191,150,293,412', () => {
      expect(flzCompressLength(TX_B)).to.equal(115)
      expect(fjordL1Cost(TX_B, PARAMETERS_B)).to.deep.equal({ l1GasUsed: 1600n, l1Fee: 191_150_293_412n })
    })

    it('clamps below flzLen 171: 170 → est 100e6 (l1GasUsed 1600, l1Fee 8,831,469,778); 171 → 100,455,900 (1607, 8,871,732,448)', () => {
      expect(fjordL1CostOfFlzLength(170n, PARAMETERS_A)).to.deep.equal({ l1GasUsed: 1600n, l1Fee: 8_831_469_778n })
      expect(fjordL1CostOfFlzLength(171n, PARAMETERS_A)).to.deep.equal({ l1GasUsed: 1607n, l1Fee: 8_871_732_448n })
    })
  })

  describe('ecotoneL1Cost (op-geth newL1CostFuncEcotone)', () => {
    it('vector A: 4·875 + 16·301 = 8316 calldata gas → l1Fee 8316·88,314,697,781,397/16e6 = 45,901,564,171', () => {
      expect(ecotoneL1Cost(TX_A, PARAMETERS_A)).to.deep.equal({ l1GasUsed: 8316n, l1Fee: 45_901_564_171n })
    })

    it('vector B: 4·1 + 16·110 = 1764 calldata gas → l1Fee 210,743,198,487', () => {
      expect(ecotoneL1Cost(TX_B, PARAMETERS_B)).to.deep.equal({ l1GasUsed: 1764n, l1Fee: 210_743_198_487n })
    })

    it('charges nothing for nothing', () => {
      expect(ecotoneL1Cost(new Uint8Array(0), PARAMETERS_A)).to.deep.equal({ l1GasUsed: 0n, l1Fee: 0n })
    })
  })

  describe('the GasPriceOracle bytecode\'s answers for vector A (it adds the 68 signature bytes itself)', () => {
    it('Ecotone getL1Fee 51,906,963,621 / getL1GasUsed 9404: the contract adds 68·16 gas, i.e. 68 non-zero bytes', () => {
      const withSignature = new Uint8Array([...TX_A, ...new Uint8Array(68).fill(0xff)])
      expect(ecotoneL1Cost(withSignature, PARAMETERS_A)).to.deep.equal({ l1GasUsed: 9404n, l1Fee: 51_906_963_621n })
    })

    it('Fjord getL1Fee 29,704,551,452 / getL1GasUsed 5381: the Fjord cost of flzLen 385 + 68', () => {
      const length = BigInt(flzCompressLength(TX_A)) + 68n
      expect(fjordL1CostOfFlzLength(length, PARAMETERS_A)).to.deep.equal({ l1GasUsed: 5381n, l1Fee: 29_704_551_452n })
    })

    it('getL1FeeUpperBound(1176) = 89,617,374,899 (s = 1244, flzLen 1244 + 4 + 16 = 1264)', () => {
      expect(l1FeeUpperBound(1176n, PARAMETERS_A)).to.equal(89_617_374_899n)
    })

    it('Isthmus getOperatorFee: 21000·7/1e6 + 11 = 11 and 1e6·7/1e6 + 11 = 18', () => {
      expect(operatorFee(21_000n, PARAMETERS_A, 'isthmus')).to.equal(11n)
      expect(operatorFee(1_000_000n, PARAMETERS_A, 'isthmus')).to.equal(18n)
    })

    it('Jovian getOperatorFee: 21000·7·100 + 11 = 14,700,011 and 1e6·7·100 + 11 = 700,000,011', () => {
      expect(operatorFee(21_000n, PARAMETERS_A, 'jovian')).to.equal(14_700_011n)
      expect(operatorFee(1_000_000n, PARAMETERS_A, 'jovian')).to.equal(700_000_011n)
    })
  })

  describe('operatorFee', () => {
    it('is 0 when scalar and constant are 0, in both forks', () => {
      expect(operatorFee(30_000_000n, PARAMETERS_B, 'isthmus')).to.equal(0n)
      expect(operatorFee(30_000_000n, PARAMETERS_B, 'jovian')).to.equal(0n)
    })

    it('rounds the Isthmus product down before adding the constant (999,999·1/1e6 = 0)', () => {
      expect(operatorFee(999_999n, { ...PARAMETERS_B, operatorFeeScalar: 1n, operatorFeeConstant: 5n }, 'isthmus')).to.equal(5n)
    })
  })

  describe('daFootprint (Jovian blobGasUsed, op-geth CalcGasUsedJovian per transaction)', () => {
    it('vector A: est 279,466,900 → 279 bytes × 400 = 111,600; × 7 = 1953', () => {
      expect(daFootprint(TX_A, PARAMETERS_A)).to.equal(111_600n)
      expect(daFootprint(TX_A, { ...PARAMETERS_A, daFootprintGasScalar: 7n })).to.equal(1953n)
    })

    it('vector B: the 100-byte minimum × the default 400 for a stored 0 = 40,000', () => {
      expect(daFootprint(TX_B, PARAMETERS_B)).to.equal(40_000n)
    })
  })
})
