/**
 * OP-stack deposit transactions (type 0x7e): their envelope, `0x7e ‖ rlp([sourceHash, from, to,
 * mint, value, gas, isSystemTx, data])` with no nonce, fee or signature (OP specs
 * `deposits.md`; op-alloy's `TxDeposit`), decoded into the engine's {@link DepositTransaction},
 * and their source hashes.
 */
import { RLP } from '@ethereumjs/rlp'
import { Address as EVMAddress, bigIntToUnpaddedBytes, bytesToBigInt, concatBytes, hexToBytes } from '@ethereumjs/util'
import { uintBytes, toHex } from '../bytes.ts'
import { keccak256 } from '../crypto/keccak.ts'
import { TransactionRejectedError, TransactionRejection } from '../errors.ts'
import type { Address, Hash } from '../types.ts'
import type { DepositTransaction } from './transaction.ts'

/** The EIP-2718 type of a deposit. */
export const DEPOSIT_TYPE = 0x7e

/** What a deposit says. */
export interface DepositFields {
  /** Where it came from on L1 (unique per deposit; see the source-hash functions below). */
  readonly sourceHash: Uint8Array
  readonly from: Address
  /** undefined: a creation. */
  readonly to: Address | undefined
  /** Ether minted to `from` on L2 before the deposit runs. */
  readonly mint: bigint
  readonly value: bigint
  readonly gasLimit: bigint
  /** Always false since Regolith. */
  readonly isSystemTx: boolean
  readonly data: Uint8Array
}

/** The deposit's envelope: `0x7e ‖ rlp([...])`. */
export function encodeDeposit(fields: DepositFields): Uint8Array {
  const payload = RLP.encode([
    fields.sourceHash,
    hexToBytes(fields.from),
    fields.to === undefined ? new Uint8Array(0) : hexToBytes(fields.to),
    bigIntToUnpaddedBytes(fields.mint),
    bigIntToUnpaddedBytes(fields.value),
    bigIntToUnpaddedBytes(fields.gasLimit),
    fields.isSystemTx ? Uint8Array.of(1) : new Uint8Array(0),
    fields.data,
  ])
  return concatBytes(Uint8Array.of(DEPOSIT_TYPE), payload)
}

function malformed(detail: string): never {
  throw new TransactionRejectedError(TransactionRejection.invalidTransaction, `deposit: ${detail}`)
}

/** A field of the list as bytes of at most `length` (an integer) or exactly `length` (an address or hash). */
function bytesField(value: unknown, name: string, length: number, exact: boolean): Uint8Array {
  if (!(value instanceof Uint8Array)) malformed(`${name} is a list, not bytes`)
  if (exact ? value.length !== length : value.length > length) malformed(`${name} has ${value.length} bytes`)
  if (!exact && value.length > 0 && value[0] === 0) malformed(`${name} has a leading zero byte`)
  return value
}

/** The fields of a deposit envelope; -32000 (geth's `invalid transaction`) when it does not decode. */
export function decodeDeposit(raw: Uint8Array): DepositFields {
  if (raw[0] !== DEPOSIT_TYPE) malformed('not a deposit envelope')
  let list: unknown
  try {
    list = RLP.decode(raw.subarray(1))
  } catch (error) {
    malformed(`rlp: ${(error as Error).message}`)
  }
  if (!Array.isArray(list) || list.length !== 8) malformed('expected a list of 8 fields')
  const [sourceHash, from, to, mint, value, gas, isSystemTx, data] = list as unknown[]
  if (!(to instanceof Uint8Array)) malformed('to is a list, not bytes')
  const toBytes = to
  if (toBytes.length !== 0 && toBytes.length !== 20) malformed(`to has ${toBytes.length} bytes`)
  const system = bytesField(isSystemTx, 'isSystemTx', 1, false)
  if (system.length === 1 && system[0] !== 1) malformed('isSystemTx is not a boolean')
  return {
    sourceHash: bytesField(sourceHash, 'sourceHash', 32, true),
    from: toHex(bytesField(from, 'from', 20, true)) as Address,
    to: toBytes.length === 0 ? undefined : (toHex(toBytes) as Address),
    // A u128, as Base's node (op-reth) holds it: the most ether a deposit can mint.
    mint: bytesToBigInt(bytesField(mint, 'mint', 16, false)),
    value: bytesToBigInt(bytesField(value, 'value', 32, false)),
    gasLimit: bytesToBigInt(bytesField(gas, 'gas', 8, false)),
    isSystemTx: system.length === 1,
    data: data instanceof Uint8Array ? data : malformed('data is a list, not bytes'),
  }
}

/** The engine's deposit of `fields`, with its envelope and hash (keccak256 of the envelope), its intrinsic gas and its floor. */
export function depositTransaction(fields: DepositFields, raw: Uint8Array = encodeDeposit(fields)): DepositTransaction {
  return {
    kind: 'deposit',
    hash: toHex(keccak256(raw)) as Hash,
    raw,
    type: DEPOSIT_TYPE,
    sender: fields.from,
    senderAddress: new EVMAddress(hexToBytes(fields.from)),
    to: fields.to,
    value: fields.value,
    data: fields.data,
    gasLimit: fields.gasLimit,
    intrinsicGas: depositIntrinsicGas(fields),
    floorDataGas: depositFloorDataGas(fields.data),
    sourceHash: fields.sourceHash,
    mint: fields.mint,
    isSystemTx: fields.isSystemTx,
  }
}

/** The gas a deposit pays before any code runs: 21,000 (+32,000 and the init-code words for a creation) and its calldata, as any transaction (EIP-2028, EIP-3860). */
export function depositIntrinsicGas(fields: Pick<DepositFields, 'to' | 'data'>): bigint {
  let gas = 21_000n
  for (const byte of fields.data) gas += byte === 0 ? 4n : 16n
  if (fields.to === undefined) gas += 32_000n + 2n * BigInt(Math.ceil(fields.data.length / 32))
  return gas
}

/**
 * EIP-7623's floor on a deposit's gas, as on any transaction since Isthmus (op-revm applies it to
 * deposits too; Anvil's optimism mode agrees): 21,000 + 10 per token, a zero byte one token and
 * any other byte four.
 */
function depositFloorDataGas(data: Uint8Array): bigint {
  let tokens = 0n
  for (const byte of data) tokens += byte === 0 ? 1n : 4n
  return 21_000n + 10n * tokens
}


/** The source hash of a deposit made by a log of an L1 block: keccak256(bytes32(0) ‖ keccak256(l1BlockHash ‖ bytes32(logIndex))). */
export function userDepositSourceHash(l1BlockHash: Uint8Array, logIndex: bigint): Uint8Array {
  return keccak256(concatBytes(uintBytes(0n), keccak256(concatBytes(l1BlockHash, uintBytes(logIndex)))))
}

/** The source hash of an L1-attributes deposit: keccak256(bytes32(1) ‖ keccak256(l1BlockHash ‖ bytes32(sequenceNumber))). */
export function l1InfoSourceHash(l1BlockHash: Uint8Array, sequenceNumber: bigint): Uint8Array {
  return keccak256(concatBytes(uintBytes(1n), keccak256(concatBytes(l1BlockHash, uintBytes(sequenceNumber)))))
}
