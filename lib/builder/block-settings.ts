/**
 * What test controls set for the blocks to come (Hardhat's and Anvil's setters): the coinbase and
 * gas limit from a block on, and a base fee or prevRandao for one block. A setting applies to
 * the pending block while it is untouched, else from the next block.
 */
import type { Address } from '../types.ts'

/** A value meant for one block. */
interface OneOff<T> {
  readonly value: T
  readonly blockNumber: bigint
}

/** The state of the settings, as a snapshot keeps it. */
export interface BlockSettingsState {
  readonly coinbase: Address
  readonly gasLimit: bigint
  readonly baseFee: OneOff<bigint> | undefined
  readonly prevRandao: OneOff<Uint8Array> | undefined
}

/** The settings of the blocks to come. */
export class BlockSettings {
  private state: BlockSettingsState

  constructor(coinbase: Address, gasLimit: bigint) {
    this.state = { coinbase, gasLimit, baseFee: undefined, prevRandao: undefined }
  }

  /** The fee recipient of new blocks. */
  get coinbase(): Address {
    return this.state.coinbase
  }

  /** The gas limit of new blocks. */
  get gasLimit(): bigint {
    return this.state.gasLimit
  }

  /** The base fee set for block `number`, if any. */
  baseFeeFor(number: bigint): bigint | undefined {
    return this.state.baseFee?.blockNumber === number ? this.state.baseFee.value : undefined
  }

  /** The prevRandao set for block `number`, if any. */
  prevRandaoFor(number: bigint): Uint8Array | undefined {
    return this.state.prevRandao?.blockNumber === number ? this.state.prevRandao.value : undefined
  }

  /** New blocks go to `coinbase` (`anvil_setCoinbase`). */
  setCoinbase(coinbase: Address): void {
    this.state = { ...this.state, coinbase }
  }

  /** New blocks have `gasLimit` (`evm_setBlockGasLimit`). */
  setGasLimit(gasLimit: bigint): void {
    this.state = { ...this.state, gasLimit }
  }

  /** Block `blockNumber` has base fee `value` (`anvil_setNextBlockBaseFeePerGas`). */
  setBaseFee(value: bigint, blockNumber: bigint): void {
    this.state = { ...this.state, baseFee: { value, blockNumber } }
  }

  /** Block `blockNumber` has prevRandao `value` (`hardhat_setPrevRandao`). */
  setPrevRandao(value: Uint8Array, blockNumber: bigint): void {
    this.state = { ...this.state, prevRandao: { value, blockNumber } }
  }

  /** The settings as they are now (a state dump keeps them). */
  get saved(): BlockSettingsState {
    return this.state
  }

  /** Takes up settings a state dump kept. */
  resume(state: BlockSettingsState): void {
    this.state = state
  }

  /** The settings as they are now, and how to restore them (world snapshots). */
  capture(): () => void {
    const state = this.state
    return () => (this.state = state)
  }
}
