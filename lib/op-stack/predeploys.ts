/**
 * The OP-stack predeploys an OP-stack genesis holds: their addresses, and the accounts (code and
 * storage) the engine writes at block 0. The contracts' code is the real published bytecode
 * (predeploy-code.ts; provenance in fixtures/op-stack/README.md), placed directly at the
 * predeploy address. On a real chain that address holds a Proxy delegating to the same code,
 * so storage (the L1 values, the GasPriceOracle flags) lives at the same address in both.
 */
import { hexToBytes } from '@ethereumjs/util'
import type { GenesisAccount } from '../state/account.ts'
import type { Address } from '../types.ts'
import { L1_BLOCK_NUMBER_RUNTIME, L2_TO_L1_MESSAGE_PASSER_RUNTIME, WETH_RUNTIME } from './devnet-predeploy-code.ts'
import { GAS_PRICE_ORACLE_RUNTIME, L1_BLOCK_RUNTIME, OPERATOR_FEE_VAULT_RUNTIME } from './predeploy-code.ts'

/** The WETH predeploy: Wrapped Ether (WETH9's interface). */
export const WETH: Address = '0x4200000000000000000000000000000000000006'
/** The L1BlockNumber predeploy: the L1 block number, read from L1Block. */
export const L1_BLOCK_NUMBER: Address = '0x4200000000000000000000000000000000000013'
/** The L2ToL1MessagePasser predeploy: where withdrawals start; its storage root is a block's withdrawalsRoot (Isthmus). */
export const L2_TO_L1_MESSAGE_PASSER: Address = '0x4200000000000000000000000000000000000016'
/** The L1Block predeploy: the L1 attributes (base fee, blob base fee, scalars, operator fee) of the current L2 block. */
export const L1_BLOCK: Address = '0x4200000000000000000000000000000000000015'
/** The GasPriceOracle predeploy: the L1-fee and operator-fee functions, computed from L1Block's values. */
export const GAS_PRICE_ORACLE: Address = '0x420000000000000000000000000000000000000f'
/** The SequencerFeeVault predeploy: receives the priority fees (the block's coinbase on OP-stack chains). */
export const SEQUENCER_FEE_VAULT: Address = '0x4200000000000000000000000000000000000011'
/** The BaseFeeVault predeploy: receives the base fee, which an OP-stack chain does not burn. */
export const BASE_FEE_VAULT: Address = '0x4200000000000000000000000000000000000019'
/** The L1FeeVault predeploy: receives the L1 data fee. */
export const L1_FEE_VAULT: Address = '0x420000000000000000000000000000000000001a'
/** The OperatorFeeVault predeploy (Isthmus): receives the operator fee. */
export const OPERATOR_FEE_VAULT: Address = '0x420000000000000000000000000000000000001b'
/** The depositor account: the sender of the L1-attributes deposit and the only caller L1Block's setters accept. */
export const DEPOSITOR_ACCOUNT: Address = '0xdeaddeaddeaddeaddeaddeaddeaddeaddead0001'

/**
 * GasPriceOracle slot 0 with all four fork flags packed in it (one byte each, from the low end:
 * isEcotone, isFjord, isIsthmus, isJovian). The contract's constructor writes nothing, so without
 * this word it computes Bedrock-era fees; on a real chain the depositor's setEcotone(),
 * setFjord(), setIsthmus() and setJovian() upgrade calls leave exactly this word.
 */
const GAS_PRICE_ORACLE_FORK_FLAGS = 0x01010101n

/**
 * The predeploys an OP-stack genesis holds: L1Block and GasPriceOracle with their Jovian runtime
 * code (GasPriceOracle slot 0 = 0x01010101: Ecotone, Fjord, Isthmus and Jovian active), and the
 * fee vaults. L1Block is returned with empty storage: `opStackRules` fills it with the genesis
 * L1 attributes, and the L1-attributes deposit of each block then writes it.
 *
 * WETH, L2ToL1MessagePasser and L1BlockNumber, which no upgrade transaction deploys (so the
 * specs publish no bytecode for them), are the devnet's own contracts written to their
 * interfaces, storage layouts and events (devnet-predeploy-code.ts, sources in
 * fixtures/op-stack/devnet/), so apps wrap ether and viem's withdrawal actions work.
 *
 * The OperatorFeeVault has the OperatorFeeVault code the Isthmus upgrade deploys (it withdraws to
 * the BaseFeeVault on L2, fixed in its code). The SequencerFeeVault, BaseFeeVault and L1FeeVault
 * are accounts with no code: no network-upgrade transaction deploys them, so the OP-stack specs
 * publish no bytecode for them, and their code is per chain anyway (recipient, minimum and
 * withdrawal network are constructor immutables). The devnet only credits fees to them, which
 * needs no code.
 *
 * Returns fresh accounts (new byte arrays and maps) on every call, in address order.
 */
export function opStackPredeploys(): readonly GenesisAccount[] {
  const noCode = () => new Uint8Array(0)
  const noStorage = () => new Map<bigint, bigint>()
  return [
    { address: WETH, code: hexToBytes(WETH_RUNTIME), storage: noStorage() },
    { address: GAS_PRICE_ORACLE, code: hexToBytes(GAS_PRICE_ORACLE_RUNTIME), storage: new Map([[0n, GAS_PRICE_ORACLE_FORK_FLAGS]]) },
    { address: SEQUENCER_FEE_VAULT, code: noCode(), storage: noStorage() },
    { address: L1_BLOCK_NUMBER, code: hexToBytes(L1_BLOCK_NUMBER_RUNTIME), storage: noStorage() },
    { address: L1_BLOCK, code: hexToBytes(L1_BLOCK_RUNTIME), storage: noStorage() },
    { address: L2_TO_L1_MESSAGE_PASSER, code: hexToBytes(L2_TO_L1_MESSAGE_PASSER_RUNTIME), storage: noStorage() },
    { address: BASE_FEE_VAULT, code: noCode(), storage: noStorage() },
    { address: L1_FEE_VAULT, code: noCode(), storage: noStorage() },
    { address: OPERATOR_FEE_VAULT, code: hexToBytes(OPERATOR_FEE_VAULT_RUNTIME), storage: noStorage() },
  ]
}
