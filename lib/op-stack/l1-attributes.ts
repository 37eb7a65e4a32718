/**
 * The L1-attributes deposit every OP-stack block opens with (OP specs `deposits.md`,
 * `jovian/l1-attributes.md`): from the depositor account to L1Block, 1,000,000 gas, no mint or
 * value, calling `setL1BlockValuesJovian` with its packed 178 bytes. The devnet's L1 is
 * synthetic: an L1 block every 12 s of L2 time after the previous origin (so the origin follows
 * the chain's clock, deterministically), its hash derived from its number, and the fees and
 * scalars the chain is configured with.
 */
import { bytesToBigInt, hexToBytes, setLengthLeft } from '@ethereumjs/util'
import { putUint } from '../bytes.ts'
import { keccak256 } from '../crypto/keccak.ts'
import { depositTransaction, l1InfoSourceHash } from '../transactions/deposit.ts'
import type { DepositTransaction } from '../transactions/transaction.ts'
import type { ResolvedOpStackOptions } from '../options.ts'
import { DEPOSITOR_ACCOUNT, L1_BLOCK } from './predeploys.ts'

/** Seconds between L1 blocks. */
const L1_BLOCK_TIME = 12n
/** The gas of every L1-attributes deposit. */
const L1_INFO_GAS = 1_000_000n
/** `setL1BlockValuesJovian()`. */
const JOVIAN_SELECTOR = Uint8Array.of(0x3d, 0xb6, 0xbe, 0x2b)
/** The L1 origin of a chain's genesis: block 1 at the genesis timestamp. */
export const GENESIS_L1_NUMBER = 1n

/** An L1 block an L2 block takes as its origin. */
export interface L1Origin {
  readonly number: bigint
  /** Seconds. */
  readonly timestamp: bigint
}

/** Everything an L1-attributes deposit carries. */
export interface L1Attributes {
  readonly origin: L1Origin
  /** L2 blocks since the origin changed: 0 for the first block of an epoch. */
  readonly sequenceNumber: bigint
  readonly options: ResolvedOpStackOptions
}

/** What the synthetic L1 block hashes are made from: a fixed prefix, then the number as a 32-byte word. */
const L1_HASH_PREFIX = new TextEncoder().encode('preconf-devnet L1 block')

/** The synthetic L1 block hash of `number`: keccak256("preconf-devnet L1 block" ‖ uint256(number)). */
export function l1BlockHash(number: bigint): Uint8Array {
  const preimage = new Uint8Array(L1_HASH_PREFIX.length + 32)
  preimage.set(L1_HASH_PREFIX, 0)
  putUint(preimage, L1_HASH_PREFIX.length, 32, number)
  return keccak256(preimage)
}

/** The origin of an L2 block at `timestamp` after a parent whose origin was `previous`: the latest 12-second step at or before it. */
export function l1OriginAt(timestamp: bigint, previous: L1Origin): L1Origin {
  if (timestamp < previous.timestamp + L1_BLOCK_TIME) return previous
  const steps = (timestamp - previous.timestamp) / L1_BLOCK_TIME
  return { number: previous.number + steps, timestamp: previous.timestamp + steps * L1_BLOCK_TIME }
}

/** The deposit's calldata (178 bytes): selector ‖ baseFeeScalar u32 ‖ blobBaseFeeScalar u32 ‖ sequenceNumber u64 ‖ timestamp u64 ‖ number u64 ‖ basefee u256 ‖ blobBaseFee u256 ‖ hash ‖ batcherHash ‖ operatorFeeScalar u32 ‖ operatorFeeConstant u64 ‖ daFootprintGasScalar u16. */
function jovianL1InfoCalldata(attributes: L1Attributes): Uint8Array {
  const { origin, options } = attributes
  const out = new Uint8Array(178)
  out.set(JOVIAN_SELECTOR, 0)
  putUint(out, 4, 4, BigInt(options.baseFeeScalar))
  putUint(out, 8, 4, BigInt(options.blobBaseFeeScalar))
  putUint(out, 12, 8, attributes.sequenceNumber)
  putUint(out, 20, 8, origin.timestamp)
  putUint(out, 28, 8, origin.number)
  putUint(out, 36, 32, options.l1BaseFee)
  putUint(out, 68, 32, options.l1BlobBaseFee)
  out.set(l1BlockHash(origin.number), 100)
  out.set(batcherHash(options), 132)
  putUint(out, 164, 4, BigInt(options.operatorFeeScalar))
  putUint(out, 168, 8, options.operatorFeeConstant)
  putUint(out, 176, 2, DA_FOOTPRINT_GAS_SCALAR)
  return out
}

/** The chain's batch sender as the batcher hash (the 20-byte address, left-padded). */
function batcherHash(options: ResolvedOpStackOptions): Uint8Array {
  return setLengthLeft(hexToBytes(options.batcher), 32)
}

/** The DA footprint gas scalar the deposits carry (Jovian's default, which op-node writes). */
const DA_FOOTPRINT_GAS_SCALAR = 400n

/** The L1-attributes deposit of an L2 block with `attributes`. */
export function l1InfoDeposit(attributes: L1Attributes): DepositTransaction {
  const data = jovianL1InfoCalldata(attributes)
  const fields = {
    sourceHash: l1InfoSourceHash(l1BlockHash(attributes.origin.number), attributes.sequenceNumber),
    from: DEPOSITOR_ACCOUNT,
    to: L1_BLOCK,
    mint: 0n,
    value: 0n,
    gasLimit: L1_INFO_GAS,
    isSystemTx: false,
    data,
  }
  return depositTransaction(fields)
}

/**
 * L1Block's storage as `setL1BlockValuesJovian` leaves it for `attributes` (slots 0–4, 7, 8;
 * gpo-and-l1block research): what a genesis holds before its first block's deposit.
 */
export function l1BlockStorage(attributes: L1Attributes): Map<bigint, bigint> {
  const { origin, options } = attributes
  return new Map([
    [0n, (origin.timestamp << 64n) | origin.number],
    [1n, options.l1BaseFee],
    [2n, bytesToBigInt(l1BlockHash(origin.number))],
    [3n, (BigInt(options.baseFeeScalar) << 96n) | (BigInt(options.blobBaseFeeScalar) << 64n) | attributes.sequenceNumber],
    [4n, bytesToBigInt(batcherHash(options))],
    [7n, options.l1BlobBaseFee],
    [8n, (DA_FOOTPRINT_GAS_SCALAR << 96n) | (BigInt(options.operatorFeeScalar) << 64n) | options.operatorFeeConstant],
  ])
}

/** The origin and sequence number L1Block's slots 0 and 3 hold. */
export function originInStorage(slot0: bigint, slot3: bigint): { readonly origin: L1Origin; readonly sequenceNumber: bigint } {
  const mask64 = (1n << 64n) - 1n
  return { origin: { number: slot0 & mask64, timestamp: (slot0 >> 64n) & mask64 }, sequenceNumber: slot3 & mask64 }
}
