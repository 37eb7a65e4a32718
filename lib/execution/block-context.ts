/** The block a transaction or call executes in, and its form for @ethereumjs/evm. */
import type { EVMRunCallOpts } from '@ethereumjs/evm'
import { evmAddress } from '../state/evm-address.ts'
import type { Address } from '../types.ts'

/** What the EVM sees of the enclosing block (NUMBER, TIMESTAMP, BASEFEE, COINBASE, …). */
export interface BlockContext {
  readonly number: bigint
  /** Seconds. */
  readonly timestamp: bigint
  readonly baseFeePerGas: bigint
  readonly gasLimit: bigint
  readonly coinbase: Address
  readonly prevRandao: Uint8Array
}

/** EIP-4844's minimum blob base fee: no blobs are ever included, so it never rises. */
export const BLOB_BASE_FEE = 1n

type EVMBlock = NonNullable<EVMRunCallOpts['block']>
const evmBlocks = new WeakMap<BlockContext, EVMBlock>()

/** The context as the EVM's block argument (built once per context). */
export function toEVMBlock(context: BlockContext): EVMBlock {
  let block = evmBlocks.get(context)
  if (block === undefined) {
    block = {
      header: {
        number: context.number,
        coinbase: evmAddress(context.coinbase),
        timestamp: context.timestamp,
        difficulty: 0n,
        prevRandao: context.prevRandao,
        gasLimit: context.gasLimit,
        baseFeePerGas: context.baseFeePerGas,
        getBlobGasPrice: () => BLOB_BASE_FEE,
      },
    }
    evmBlocks.set(context, block)
  }
  return block
}
