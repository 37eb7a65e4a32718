/**
 * The fork block as the local chain holds it: the upstream's header, hash and size as the
 * upstream sent them (the next local block's parent hash is that hash), with no transactions of
 * its own (the block's contents are read from the upstream, as every block before it).
 */
import type { SealedBlock } from '../blocks/block.ts'
import type { BlockHeader } from '../blocks/header.ts'
import { UpstreamError } from '../errors.ts'
import { addressFrom, dataFrom, hashFrom, quantityFrom, type AnswerOrigin } from './upstream-values.ts'

const ZERO_32 = new Uint8Array(32)
const ZERO_BLOOM = new Uint8Array(256)

/** The block `json` (an `eth_getBlockByNumber` answer without transactions) as a sealed block of the local chain. */
export function forkBlockFrom(json: unknown, origin: AnswerOrigin): SealedBlock {
  if (typeof json !== 'object' || json === null) throw new UpstreamError(`upstream ${origin.upstream} has no block ${origin.method}`)
  const block = json as Record<string, unknown>
  const optional = <T>(value: unknown, parse: (value: unknown, origin: AnswerOrigin) => T, fallback: T): T => (value === undefined || value === null ? fallback : parse(value, origin))
  const header: BlockHeader = {
    parentHash: dataFrom(hashFrom(block.parentHash, origin), origin),
    coinbase: addressFrom(block.miner, origin),
    stateRoot: dataFrom(hashFrom(block.stateRoot, origin), origin),
    transactionsRoot: dataFrom(hashFrom(block.transactionsRoot, origin), origin),
    receiptsRoot: dataFrom(hashFrom(block.receiptsRoot, origin), origin),
    logsBloom: optional(block.logsBloom, dataFrom, ZERO_BLOOM),
    number: quantityFrom(block.number, origin),
    gasLimit: quantityFrom(block.gasLimit, origin),
    gasUsed: quantityFrom(block.gasUsed, origin),
    timestamp: quantityFrom(block.timestamp, origin),
    extraData: optional(block.extraData, dataFrom, new Uint8Array(0)),
    mixHash: optional(block.mixHash, dataFrom, ZERO_32),
    baseFeePerGas: optional(block.baseFeePerGas, quantityFrom, 0n),
    withdrawalsRoot: optional(block.withdrawalsRoot, dataFrom, ZERO_32),
    blobGasUsed: optional(block.blobGasUsed, quantityFrom, 0n),
    excessBlobGas: optional(block.excessBlobGas, quantityFrom, 0n),
    parentBeaconBlockRoot: optional(block.parentBeaconBlockRoot, dataFrom, ZERO_32),
    requestsHash: optional(block.requestsHash, dataFrom, undefined),
  }
  return { header, hash: hashFrom(block.hash, origin), transactions: [], size: Number(optional(block.size, quantityFrom, 0n)) }
}
