/**
 * The controls of the blocks to come and of the mempool (Anvil's and Hardhat's): coinbase, gas
 * limit, base fee, prevRandao, dropped transactions, and the settings that do not apply under
 * EIP-1559. Hardhat's names answer `true`, Anvil's `null`, as each does.
 */
import { hexToBytes } from '@ethereumjs/util'
import { InvalidInputError, InvalidParamsError } from '../errors.ts'
import { parseAddress, parseHash } from './hex.ts'
import { anvilAndHardhat, method, required, type MethodDefinition } from './method-definition.ts'
import { parseBoolean, parseQuantityLike, parseUint64 } from './params.ts'

/** Every block and mempool control, by RPC name. */
export const blockControlMethods: Readonly<Record<string, MethodDefinition>> = {
  ...anvilAndHardhat('setCoinbase', (answer) =>
    method([required('0 (address)', parseAddress)], async ({ engine }, coinbase) => {
      await engine.controls.setCoinbase(coinbase)
      return answer
    }),
  ),
  evm_setBlockGasLimit: method([required('0 (gas limit)', parseUint64)], async ({ engine }, gasLimit) => {
    await engine.controls.setBlockGasLimit(gasLimit)
    return true
  }),
  anvil_setBlockGasLimit: method([required('0 (gas limit)', parseUint64)], async ({ engine }, gasLimit) => {
    await engine.controls.setBlockGasLimit(gasLimit)
    return true
  }),
  ...anvilAndHardhat('setNextBlockBaseFeePerGas', (answer) =>
    method([required('0 (base fee)', parseQuantityLike)], async ({ engine }, baseFee) => {
      await engine.controls.setNextBlockBaseFee(baseFee)
      return answer
    }),
  ),
  ...anvilAndHardhat('setPrevRandao', (answer) =>
    method([required('0 (prevRandao)', parseHash)], async ({ engine }, value) => {
      await engine.controls.setNextBlockPrevRandao(hexToBytes(value))
      return answer
    }),
  ),
  // A minimum gas price has no meaning once the base fee prices gas (EIP-1559): each name is
  // refused as its node refuses it (Anvil -32602, Hardhat -32000, each naming its own method).
  anvil_setMinGasPrice: method([required('0 (gas price)', parseQuantityLike)], () => {
    throw new InvalidParamsError('anvil_setMinGasPrice is not supported when EIP-1559 is active')
  }),
  hardhat_setMinGasPrice: method([required('0 (gas price)', parseQuantityLike)], () => {
    throw new InvalidInputError('hardhat_setMinGasPrice is not supported when EIP-1559 is active')
  }),
  ...anvilAndHardhat('setLoggingEnabled', (answer) =>
    method([required('0 (enabled)', parseBoolean)], ({ engine }, enabled) => {
      engine.controls.setLoggingEnabled(enabled)
      return answer
    }),
  ),
  // Hardhat answers whether it dropped the transaction; Anvil its hash, or null.
  hardhat_dropTransaction: method([required('0 (hash)', parseHash)], ({ engine }, hash) => engine.controls.dropTransaction(hash)),
  anvil_dropTransaction: method([required('0 (hash)', parseHash)], async ({ engine }, hash) => ((await engine.controls.dropTransaction(hash)) ? hash : null)),
  ...anvilAndHardhat('dropAllTransactions', (answer) =>
    method([], async ({ engine }) => {
      await engine.controls.dropTransactions()
      return answer
    }),
  ),
  anvil_removePoolTransactions: method([required('0 (address)', parseAddress)], async ({ engine }, sender) => {
    await engine.controls.dropTransactions(sender)
    return null
  }),
}
