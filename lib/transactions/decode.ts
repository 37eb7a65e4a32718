/**
 * Raw bytes to a {@link UserTransaction}, with geth's rejection texts for what cannot be
 * decoded: unsupported types, another chain's id, a bad signature, an oversized payload.
 */
import type { Common } from '@ethereumjs/common'
import { RLP } from '@ethereumjs/rlp'
import {
  Capability,
  create1559FeeMarketTxFromBytesArray,
  createAccessList2930TxFromBytesArray,
  createEOACode7702TxFromBytesArray,
  createLegacyTxFromBytesArray,
  getCalldataFloorGas,
  type TypedTransaction,
} from '@ethereumjs/tx'
import { Address as EVMAddress, bytesToBigInt, SECP256K1_ORDER, SECP256K1_ORDER_DIV_2 } from '@ethereumjs/util'
import { toHex } from '../bytes.ts'
import { keccak256 } from '../crypto/keccak.ts'
import { TransactionRejectedError, TransactionRejection } from '../errors.ts'
import { addressKey, evmAddress } from '../state/evm-address.ts'
import type { Address, Hash, Hex } from '../types.ts'
import { decodePlainTransaction } from './decode-plain.ts'
import { BLOB_TRANSACTIONS_UNSUPPORTED, type Authorization, type UserTransaction } from './transaction.ts'

/** geth's txMaxSize: the largest transaction the pool accepts (128 KiB). */
const MAX_TRANSACTION_SIZE = 131072
/** EIP-3860: the most init code a creation may carry. */
export const MAX_INIT_CODE_SIZE = 49_152

type Values = Uint8Array[]

const constructors: Record<number, (values: Values, options: { common: Common }) => TypedTransaction> = {
  1: (values, options) => createAccessList2930TxFromBytesArray(values as never, options),
  2: (values, options) => create1559FeeMarketTxFromBytesArray(values as never, options),
  4: (values, options) => createEOACode7702TxFromBytesArray(values as never, options),
}

function reject(reason: (typeof TransactionRejection)[keyof typeof TransactionRejection], detail?: string, separator?: ': ' | ' '): never {
  throw new TransactionRejectedError(reason, detail, separator)
}

/** The transaction's envelope type; legacy transactions start with an RLP list byte. */
function envelopeType(raw: Uint8Array): number {
  if (raw.length === 0) reject(TransactionRejection.invalidTransaction, 'empty input')
  return raw[0] >= 0xc0 ? 0 : raw[0]
}

function decodeList(payload: Uint8Array): Values {
  let decoded: unknown
  try {
    decoded = RLP.decode(payload)
  } catch (error) {
    reject(TransactionRejection.invalidTransaction, `rlp: ${(error as Error).message}`)
  }
  if (!Array.isArray(decoded)) reject(TransactionRejection.invalidTransaction, 'rlp: expected a list')
  return decoded as Values
}

/** Where each field sits in a signed transaction's RLP list, by type. */
const layouts: Record<number, { tip?: number; feeCap?: number; gas: number; data: number; v: number; r: number; s: number }> = {
  0: { gas: 2, data: 5, v: 6, r: 7, s: 8 },
  1: { gas: 3, data: 6, v: 8, r: 9, s: 10 },
  2: { tip: 2, feeCap: 3, gas: 4, data: 7, v: 9, r: 10, s: 11 },
  4: { tip: 2, feeCap: 3, gas: 4, data: 7, v: 10, r: 11, s: 12 },
}

/** A field of the list as a number, or undefined if it is not a byte string. */
function field(values: Values, index: number | undefined): bigint | undefined {
  if (index === undefined) return undefined
  const value = values[index]
  return value instanceof Uint8Array ? bytesToBigInt(value) : undefined
}

/** The chain id a signature commits to, or undefined for a pre-EIP-155 legacy signature. */
function signedChainId(type: number, values: Values): bigint | undefined {
  if (type !== 0) return field(values, 0)
  const v = field(values, layouts[0].v) ?? 0n
  return v >= 35n ? (v - 35n) / 2n : undefined
}

/**
 * The chain id the transaction `raw` was signed for, read from its envelope (undefined for a
 * pre-EIP-155 legacy signature, a deposit or bytes that do not decode): a dump's transactions
 * decode for their own, which `anvil_setChainId` may have changed since.
 */
export function signedChainIdOf(raw: Uint8Array): bigint | undefined {
  const type = raw.length === 0 ? undefined : raw[0] >= 0xc0 ? 0 : raw[0]
  if (type === undefined || layouts[type] === undefined) return undefined
  try {
    return signedChainId(type, RLP.decode(type === 0 ? raw : raw.subarray(1)) as Values)
  } catch {
    return undefined
  }
}

/** geth's ValidateSignatureValues (homestead rules): 0 < r, s < n, s ≤ n/2, a valid y-parity or v. */
function hasValidSignatureValues(type: number, values: Values): boolean {
  const layout = layouts[type]
  const [v, r, s] = [field(values, layout.v), field(values, layout.r), field(values, layout.s)]
  if (v === undefined || r === undefined || s === undefined) return true // malformed: the decoder reports it
  const parityOk = type === 0 ? v === 27n || v === 28n || v >= 35n : v <= 1n
  return parityOk && r > 0n && r < SECP256K1_ORDER && s > 0n && s <= SECP256K1_ORDER_DIV_2
}

/**
 * geth's pool check of EIP-7825 (Osaka): -32000 `transaction gas limit too high (cap: 16777216,
 * tx: …)` for a transaction whose gas exceeds the cap (core/txpool/validation.go).
 */
export function checkGasCap(gasLimit: bigint, common: Common): void {
  const cap = transactionGasCap(common)
  if (cap !== undefined && gasLimit > cap) reject(TransactionRejection.gasLimitTooHigh, `(cap: ${cap}, tx: ${gasLimit})`, ' ')
}

/** EIP-7825's cap on a transaction's gas (2^24 from Osaka on); undefined before it. */
export function transactionGasCap(common: Common): bigint | undefined {
  return common.isActivatedEIP(7825) ? common.param('maxTransactionGasLimit') : undefined
}

/** The transaction hash of a signed transaction: keccak256 of its envelope. */
export function hashTransaction(raw: Uint8Array): Hash {
  return toHex(keccak256(raw)) as Hash
}

/**
 * Decodes and checks the signed transaction `raw` (whose hash is `hash`) for a chain with
 * `chainId`, using `common` (from createTransactionCommon: ethereumjs does not copy it): a plain
 * EIP-155, EIP-2930 or EIP-1559 transaction on the fast path (`decode-plain.ts`), any other and
 * every rejection through @ethereumjs/tx.
 */
export function decodeTransaction(raw: Uint8Array, hash: Hash, common: Common, chainId: bigint): UserTransaction {
  if (raw.length > MAX_TRANSACTION_SIZE) {
    reject(TransactionRejection.oversizedData, `transaction size ${raw.length}, limit ${MAX_TRANSACTION_SIZE}`)
  }
  const type = envelopeType(raw)
  if (type === 3) reject(TransactionRejection.typeNotSupported, BLOB_TRANSACTIONS_UNSUPPORTED)
  if (type !== 0 && constructors[type] === undefined) reject(TransactionRejection.typeNotSupported, `received type ${type}`)
  const plain = decodePlainTransaction(raw, hash, type, common)
  if (plain !== undefined) return plain
  const values = decodeList(type === 0 ? raw : raw.subarray(1))

  // geth checks these before recovering the sender; ethereumjs would throw its own texts.
  const gasLimit = field(values, layouts[type].gas)
  if (gasLimit !== undefined) checkGasCap(gasLimit, common)
  const tip = field(values, layouts[type].tip)
  const feeCap = field(values, layouts[type].feeCap)
  if (tip !== undefined && feeCap !== undefined && tip > feeCap) reject(TransactionRejection.tipAboveFeeCap)
  const signedFor = signedChainId(type, values)
  if (signedFor !== undefined && signedFor !== chainId) {
    reject(TransactionRejection.invalidSender, `invalid chain id for signer: have ${signedFor} want ${chainId}`)
  }
  if (!hasValidSignatureValues(type, values)) reject(TransactionRejection.invalidSender, 'invalid transaction v, r, s values')

  let tx: TypedTransaction
  try {
    const build = type === 0 ? createLegacyTxFromBytesArray : constructors[type]
    tx = build(values as never, { common })
  } catch (error) {
    const message = (error as Error).message
    if (/initcode size/.test(message)) {
      const size = (values[layouts[type].data] as Uint8Array).length
      reject(TransactionRejection.initCodeTooLarge, `code size ${size}, limit ${MAX_INIT_CODE_SIZE}`)
    }
    reject(TransactionRejection.invalidTransaction, message.replace(/ \(tx type=.*$/, ''))
  }
  if (!tx.isSigned()) reject(TransactionRejection.invalidSender, 'transaction is not signed')

  let senderAddress
  try {
    // The address from the recovered key with our Keccak (ethereumjs would hash it with noble).
    senderAddress = evmAddress(toHex(keccak256(tx.getSenderPublicKey()).subarray(12)))
  } catch {
    reject(TransactionRejection.invalidSender, 'invalid transaction v, r, s values')
  }

  return toUserTransaction(tx, raw, hash, senderAddress, 'signed')
}

/**
 * The engine's form of an ethereumjs transaction whose sender is known (recovered, or given for
 * an impersonated account): every field read once, so nothing later goes back to the library.
 */
export function toUserTransaction(tx: TypedTransaction, raw: Uint8Array, hash: Hash, senderAddress: EVMAddress, kind: UserTransaction['kind']): UserTransaction {
  const fees = 'maxFeePerGas' in tx ? { cap: tx.maxFeePerGas, tip: tx.maxPriorityFeePerGas } : { cap: tx.gasPrice, tip: tx.gasPrice }
  return {
    kind,
    hash,
    raw,
    type: tx.type,
    sender: addressKey(senderAddress),
    senderAddress,
    nonce: tx.nonce,
    gasLimit: tx.gasLimit,
    maxFeePerGas: fees.cap,
    maxPriorityFeePerGas: fees.tip,
    to: tx.to === undefined ? undefined : (toHex(tx.to.bytes) as Address),
    value: tx.value,
    data: tx.data,
    intrinsicGas: tx.getIntrinsicGas(),
    floorDataGas: getCalldataFloorGas(tx),
    cost: tx.gasLimit * fees.cap + tx.value,
    chainId: 'chainId' in tx ? tx.chainId : tx.supports(Capability.EIP155ReplayProtection) ? tx.common.chainId() : undefined,
    accessList: 'accessList' in tx ? tx.accessList.map(([address, keys]) => ({ address: toHex(address) as Address, storageKeys: keys.map((key) => toHex(key) as Hex) })) : [],
    authorizationList: 'authorizationList' in tx ? (tx.authorizationList as Authorization[]) : [],
    v: tx.v!,
    r: tx.r!,
    s: tx.s!,
  }
}

/**
 * A transaction a sealed block already holds, rebuilt from its envelope and its known sender (a
 * state load): no pool rules and no signature recovery (an impersonated transaction has no real
 * signature). Throws if the envelope does not decode.
 */
export function rebuildTransaction(raw: Uint8Array, sender: Address, kind: UserTransaction['kind'], common: Common): UserTransaction {
  const type = envelopeType(raw)
  const build = type === 0 ? createLegacyTxFromBytesArray : constructors[type]
  if (build === undefined) reject(TransactionRejection.typeNotSupported, `received type ${type}`)
  const tx = build(decodeList(type === 0 ? raw : raw.subarray(1)) as never, { common })
  return toUserTransaction(tx, raw, hashTransaction(raw), evmAddress(sender), kind)
}
