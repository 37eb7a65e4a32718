/**
 * The fast path of decoding, for the envelopes nearly every client sends: EIP-1559, EIP-2930
 * and EIP-155 legacy transactions, signed, well formed and within every limit. The envelope is
 * read in place (`rlp-items.ts`), the signing payload is cut from it rather than re-encoded,
 * and the intrinsic gas comes from the chain's parameters as @ethereumjs/tx computes it
 * (`getIntrinsicGas`, `getCalldataFloorGas`). Building @ethereumjs/tx's object for the same
 * answer was a third of what an admission allocated. Whatever this path does not recognise as
 * plainly valid — another type, a malformed or non-canonical field, a limit reached, a chain
 * rule it does not model, a signature that does not recover — it returns `undefined` for, and
 * `decode.ts` decodes that envelope with @ethereumjs/tx, whose verdicts and texts stand.
 * spec/transactions/decode-plain.spec.ts checks both paths give the same transactions.
 */
import type { Common } from '@ethereumjs/common'
import { bigIntToUnpaddedBytes, bytesToBigInt, ecrecover as nobleEcrecover, SECP256K1_ORDER, SECP256K1_ORDER_DIV_2 } from '@ethereumjs/util'
import { toHex } from '../bytes.ts'
import { keccak256 } from '../crypto/keccak.ts'
import { ecrecover as nativeEcrecover } from '../crypto/secp256k1.ts'
import { addressKey, evmAddress } from '../state/evm-address.ts'
import type { Address, Hash, Hex } from '../types.ts'
import { rlpBytes, rlpList } from '../trie/trie-encoding.ts'
import { itemsOf, readList, type RlpItem } from './rlp-items.ts'
import type { AccessList, UserTransaction } from './transaction.ts'

const recover = nativeEcrecover ?? nobleEcrecover

const MAX_UINT256 = (1n << 256n) - 1n
const MAX_NONCE = (1n << 64n) - 1n

/** EIPs whose gas or limits this path does not model: a chain with any of them active always takes the library's path. */
const UNMODELLED_EIPS = [2780, 7976, 7981, 8037, 8038]

/** What the path reads of a chain's Common, once (not its chain id, which `anvil_setChainId` may change). */
interface FastPathRules {
  readonly txGas: bigint
  readonly txCreationGas: bigint
  readonly txDataZeroGas: bigint
  readonly txDataNonZeroGas: bigint
  readonly accessListAddressGas: bigint
  readonly accessListStorageKeyGas: bigint
  /** EIP-3860's gas per init code word and size limit, undefined before it. */
  readonly initCode: { readonly wordGas: bigint; readonly maxSize: number } | undefined
  /** EIP-7623's floor gas per calldata token, undefined before it. */
  readonly floorPerToken: bigint | undefined
  /** EIP-7825's cap on a transaction's gas, undefined before it. */
  readonly maxGasLimit: bigint | undefined
}

const rulesByCommon = new WeakMap<Common, FastPathRules | null>()

function rulesOf(common: Common): FastPathRules | undefined {
  let rules = rulesByCommon.get(common)
  if (rules === undefined) {
    const modelled = common.isActivatedEIP(1559) && common.isActivatedEIP(2930) && !UNMODELLED_EIPS.some((eip) => common.isActivatedEIP(eip))
    rules = modelled
      ? {
          txGas: common.param('txGas'),
          txCreationGas: common.param('txCreationGas'),
          txDataZeroGas: common.param('txDataZeroGas'),
          txDataNonZeroGas: common.param('txDataNonZeroGas'),
          accessListAddressGas: common.param('accessListAddressGas'),
          accessListStorageKeyGas: common.param('accessListStorageKeyGas'),
          initCode: common.isActivatedEIP(3860) ? { wordGas: common.param('initCodeWordGas'), maxSize: Number(common.param('maxInitCodeSize')) } : undefined,
          floorPerToken: common.isActivatedEIP(7623) ? common.param('totalCostFloorPerToken') : undefined,
          maxGasLimit: common.isActivatedEIP(7825) ? common.param('maxTransactionGasLimit') : undefined,
        }
      : null
    rulesByCommon.set(common, rules)
  }
  return rules ?? undefined
}

/** Where each field sits in a signed envelope's list, by type (`fee` is the gas price of types 0 and 1). */
const LAYOUTS = {
  0: { count: 9, chainId: undefined, nonce: 0, tip: 1, fee: 1, gas: 2, to: 3, value: 4, data: 5, accessList: undefined, v: 6 },
  1: { count: 11, chainId: 0, nonce: 1, tip: 2, fee: 2, gas: 3, to: 4, value: 5, data: 6, accessList: 7, v: 8 },
  2: { count: 12, chainId: 0, nonce: 1, tip: 2, fee: 3, gas: 4, to: 5, value: 6, data: 7, accessList: 8, v: 9 },
} as const

/** A canonical unsigned integer of at most `maxBytes` bytes (no leading zero), or undefined. */
function quantity(item: RlpItem, maxBytes = 32): bigint | undefined {
  const { content, isList } = item
  if (isList || content.length > maxBytes || (content.length > 0 && content[0] === 0)) return undefined
  return content.length === 0 ? 0n : bytesToBigInt(content)
}

/** The access list as addresses and keys, if every entry is a 20-byte address and 32-byte keys. */
function accessListOf(item: RlpItem): { list: AccessList; keys: number } | undefined {
  if (!item.isList) return undefined
  const entries = itemsOf(item)
  if (entries === undefined) return undefined
  const list: { address: Address; storageKeys: Hex[] }[] = []
  let keys = 0
  for (const entry of entries) {
    const parts = entry.isList ? itemsOf(entry) : undefined
    if (parts === undefined || parts.length !== 2) return undefined
    const [address, slots] = parts
    const slotItems = slots.isList ? itemsOf(slots) : undefined
    if (address.isList || address.content.length !== 20 || slotItems === undefined) return undefined
    const storageKeys: Hex[] = []
    for (const slot of slotItems) {
      if (slot.isList || slot.content.length !== 32) return undefined
      storageKeys.push(toHex(slot.content) as Hex)
    }
    keys += storageKeys.length
    list.push({ address: toHex(address.content) as Address, storageKeys })
  }
  return { list, keys }
}

/** Zero and non-zero bytes of `data`. */
function byteCounts(data: Uint8Array): { zeros: number; nonZeros: number } {
  let zeros = 0
  for (let i = 0; i < data.length; i++) if (data[i] === 0) zeros++
  return { zeros, nonZeros: data.length - zeros }
}

/** RLP's two empty strings: EIP-155's zeroed r and s in a legacy signing payload. */
const EMPTY_STRING = Uint8Array.of(0x80)

/** keccak256 of the signing payload: the envelope's fields before the signature, under a list prefix of their own (and EIP-155's chain id, 0, 0). */
function signingHash(raw: Uint8Array, type: number, items: readonly RlpItem[], v: number, chainId: bigint): Uint8Array {
  const fields = raw.subarray(items[0].start, items[v].start)
  if (type !== 0) return keccak256(rlpList([fields], type))
  return keccak256(rlpList([fields, rlpBytes(bigIntToUnpaddedBytes(chainId)), EMPTY_STRING, EMPTY_STRING]))
}

/**
 * The transaction `raw` (hash `hash`, envelope type `type`) if it is a plainly valid signed
 * EIP-155, EIP-2930 or EIP-1559 transaction for `common`'s chain; undefined for the library.
 */
export function decodePlainTransaction(raw: Uint8Array, hash: Hash, type: number, common: Common): UserTransaction | undefined {
  if (type !== 0 && type !== 1 && type !== 2) return undefined
  const rules = rulesOf(common)
  const items = rules === undefined ? undefined : readList(raw, type === 0 ? 0 : 1)
  const layout = LAYOUTS[type]
  if (rules === undefined || items === undefined || items.length !== layout.count) return undefined

  const nonce = quantity(items[layout.nonce], 8)
  const tip = quantity(items[layout.tip])
  const feeCap = quantity(items[layout.fee])
  const gasLimit = quantity(items[layout.gas], 8)
  const value = quantity(items[layout.value])
  const v = quantity(items[layout.v])
  const r = quantity(items[layout.v + 1])
  const s = quantity(items[layout.v + 2])
  const toItem = items[layout.to]
  const dataItem = items[layout.data]
  if (nonce === undefined || tip === undefined || feeCap === undefined || gasLimit === undefined || value === undefined || v === undefined || r === undefined || s === undefined) return undefined
  if (nonce >= MAX_NONCE || tip > feeCap || gasLimit * feeCap > MAX_UINT256 || r === 0n || r >= SECP256K1_ORDER || s === 0n || s > SECP256K1_ORDER_DIV_2) return undefined
  if (toItem.isList || (toItem.content.length !== 0 && toItem.content.length !== 20) || dataItem.isList) return undefined
  if (rules.maxGasLimit !== undefined && gasLimit > rules.maxGasLimit) return undefined
  const data = dataItem.content
  const creates = toItem.content.length === 0
  if (creates && rules.initCode !== undefined && data.length > rules.initCode.maxSize) return undefined

  const chainId = common.chainId()
  if (layout.chainId === undefined) {
    // Legacy: only EIP-155 signatures for this chain (the library judges the rest).
    if (v !== chainId * 2n + 35n && v !== chainId * 2n + 36n) return undefined
  } else if (quantity(items[layout.chainId]) !== chainId || v > 1n) {
    return undefined
  }
  const accessList = layout.accessList === undefined ? { list: [], keys: 0 } : accessListOf(items[layout.accessList])
  if (accessList === undefined) return undefined

  let publicKey: Uint8Array
  try {
    publicKey = recover(signingHash(raw, type, items, layout.v, chainId), v, items[layout.v + 1].content, items[layout.v + 2].content, type === 0 ? chainId : undefined)
  } catch {
    return undefined
  }
  const senderAddress = evmAddress(toHex(keccak256(publicKey).subarray(12)))

  const { zeros, nonZeros } = byteCounts(data)
  let intrinsicGas = rules.txGas + BigInt(zeros) * rules.txDataZeroGas + BigInt(nonZeros) * rules.txDataNonZeroGas
  if (creates) intrinsicGas += rules.txCreationGas + (rules.initCode === undefined ? 0n : rules.initCode.wordGas * BigInt(Math.ceil(data.length / 32)))
  intrinsicGas += BigInt(accessList.list.length) * rules.accessListAddressGas + BigInt(accessList.keys) * rules.accessListStorageKeyGas
  const floorDataGas = rules.floorPerToken === undefined ? 0n : rules.txGas + rules.floorPerToken * BigInt(zeros + 4 * nonZeros)

  return {
    kind: 'signed',
    hash,
    raw,
    type,
    sender: addressKey(senderAddress),
    senderAddress,
    nonce,
    gasLimit,
    maxFeePerGas: feeCap,
    maxPriorityFeePerGas: tip,
    to: creates ? undefined : (toHex(toItem.content) as Address),
    value,
    data,
    intrinsicGas,
    floorDataGas,
    cost: gasLimit * feeCap + value,
    chainId,
    accessList: accessList.list,
    authorizationList: [],
    v,
    r,
    s,
  }
}
