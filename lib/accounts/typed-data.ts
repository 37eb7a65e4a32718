/**
 * EIP-712 typed data, version 4 (`eth_signTypedData_v4`): the digest
 * keccak256(0x1901 ‖ hashStruct(domain) ‖ hashStruct(message)) over JSON values, with nested
 * structs, arrays (dynamic and fixed, nested), `bytes` and `string` hashed, and the atomic types
 * (`address`, `bool`, `bytes1`…`bytes32`, `int8`…`int256`, `uint8`…`uint256`) range-checked,
 * as viem's `hashTypedData` and MetaMask's v4 compute it. A value that does not fit its type
 * is an {@link InvalidParamsError} whose message starts with the value's path (`message.to.wallet: …`).
 */
import { concatBytes, hexToBytes, setLengthLeft, setLengthRight } from '@ethereumjs/util'
import { keccak256 } from '../crypto/keccak.ts'
import { InvalidParamsError } from '../errors.ts'

/** One member of a struct type: its name and its type (`uint256`, `Person`, `Person[]`, `bytes32[2]`…). */
export interface TypedDataField {
  readonly name: string
  readonly type: string
}

/** The typed data a wallet is asked to sign, as JSON (numbers may be JSON numbers, decimal or hex strings). */
export interface TypedData {
  /** Struct types by name (own keys only); {@link parseTypedData} derives `EIP712Domain` from `domain`'s fields when absent. */
  readonly types: Readonly<Record<string, readonly TypedDataField[]>>
  readonly primaryType: string
  readonly domain: Readonly<Record<string, unknown>>
  /** Unused when `primaryType` is `EIP712Domain` (the digest then covers the domain alone). */
  readonly message: Readonly<Record<string, unknown>>
}

type Types = Readonly<Record<string, readonly TypedDataField[]>>

/** The domain fields EIP-712 defines, in its order: what `EIP712Domain` is when `types` omits it. */
const DOMAIN_FIELDS: readonly TypedDataField[] = [
  { name: 'name', type: 'string' },
  { name: 'version', type: 'string' },
  { name: 'chainId', type: 'uint256' },
  { name: 'verifyingContract', type: 'address' },
  { name: 'salt', type: 'bytes32' },
]

/** How deep values may nest (structs in structs, arrays in arrays): far beyond real typed data, well within the stack. */
const MAX_DEPTH = 256

const hexDataPattern = /^0x([0-9a-fA-F]{2})*$/
const integerPattern = /^-?(0x[0-9a-fA-F]+|[0-9]+)$/

function fail(path: string, reason: string): never {
  throw new InvalidParamsError(`${path}: ${reason}`)
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** `record[key]` if `record` has it as its own key (never what Object.prototype has: `constructor`, `toString`, …). */
function own<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined
}

/** A short rendering of any value for a message (never throws: bigints, cycles, symbols). */
function show(value: unknown): string {
  let text: string
  try {
    text = typeof value === 'string' ? `"${value}"` : typeof value === 'bigint' ? `${value}` : (JSON.stringify(value) ?? String(value))
  } catch {
    text = typeof value
  }
  return text.length > 80 ? `${text.slice(0, 77)}...` : text
}

function parseFields(value: unknown, path: string): TypedDataField[] {
  if (!Array.isArray(value)) fail(path, 'expected an array of { name, type }')
  return value.map((field, i) => {
    if (!isRecord(field) || typeof field.name !== 'string' || typeof field.type !== 'string') fail(`${path}[${i}]`, 'expected { name, type } strings')
    return { name: field.name, type: field.type }
  })
}

/** Checks the shape of `value` (an object, e.g. parsed from the JSON string a client sent) as {@link TypedData}. */
export function parseTypedData(value: unknown): TypedData {
  if (!isRecord(value)) fail('typed data', `expected an object, got ${show(value)}`)
  if (!isRecord(value.types)) fail('types', 'expected an object of struct types')
  if (typeof value.primaryType !== 'string') fail('primaryType', `expected a type name, got ${show(value.primaryType)}`)
  const domain = value.domain ?? {}
  if (!isRecord(domain)) fail('domain', `expected an object, got ${show(domain)}`)
  const types: Record<string, TypedDataField[]> = Object.create(null)
  for (const [name, fields] of Object.entries(value.types)) types[name] = parseFields(fields, `types.${name}`)
  types.EIP712Domain ??= DOMAIN_FIELDS.filter(({ name }) => own(domain, name) !== undefined && own(domain, name) !== null)
  if (own(types, value.primaryType) === undefined) fail('primaryType', `${show(value.primaryType)} is not one of the types`)
  const message = value.primaryType === 'EIP712Domain' ? (value.message ?? {}) : value.message
  if (!isRecord(message)) fail('message', `expected an object, got ${show(message)}`)
  return { types, primaryType: value.primaryType, domain, message }
}

/** The struct types `type` refers to, itself included (array suffixes stripped). */
function dependencies(type: string, types: Types): Set<string> {
  const found = new Set<string>()
  const pending = [type]
  while (pending.length > 0) {
    const name = /^\w*/.exec(pending.pop()!)![0]
    const fields = own(types, name)
    if (found.has(name) || fields === undefined) continue
    found.add(name)
    for (const field of fields) pending.push(field.type)
  }
  return found
}

/** `Mail(Person from,Person to,string contents)Person(string name,address wallet)`: the type, then its dependencies sorted. */
function encodeType(primaryType: string, types: Types): string {
  const found = dependencies(primaryType, types)
  found.delete(primaryType)
  return [primaryType, ...[...found].sort()].map((name) => `${name}(${types[name].map(({ name: field, type }) => `${type} ${field}`).join(',')})`).join('')
}

function hexData(value: unknown, path: string): Uint8Array {
  if (typeof value !== 'string' || !hexDataPattern.test(value)) fail(path, `expected 0x-prefixed hex bytes, got ${show(value)}`)
  return hexToBytes(value as `0x${string}`)
}

function integer(value: unknown, path: string): bigint {
  if (typeof value === 'bigint') return value
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value)
  if (typeof value === 'string' && integerPattern.test(value)) {
    return value.startsWith('-') ? -BigInt(value.slice(1)) : BigInt(value)
  }
  fail(path, `expected an integer (a JSON number, or a decimal or 0x-hex string), got ${show(value)}`)
}

/** An atomic value as its 32-byte word, or a failure if it does not fit `type`. */
function encodeAtomic(type: string, value: unknown, path: string): Uint8Array {
  if (type === 'address') {
    const bytes = hexData(value, path)
    if (bytes.length !== 20) fail(path, `expected a 20-byte address, got ${show(value)}`)
    return setLengthLeft(bytes, 32)
  }
  if (type === 'bool') {
    if (typeof value !== 'boolean') fail(path, `expected a boolean, got ${show(value)}`)
    return setLengthLeft(Uint8Array.of(value ? 1 : 0), 32)
  }
  const fixed = /^bytes([0-9]+)$/.exec(type)
  if (fixed !== null && Number(fixed[1]) >= 1 && Number(fixed[1]) <= 32) {
    const bytes = hexData(value, path)
    if (bytes.length !== Number(fixed[1])) fail(path, `expected ${fixed[1]} bytes for ${type}, got ${bytes.length}`)
    return setLengthRight(bytes, 32)
  }
  const sized = /^(u?)int([0-9]+)$/.exec(type)
  const bits = sized === null ? 0 : Number(sized[2])
  if (sized === null || bits < 8 || bits > 256 || bits % 8 !== 0) fail(path, `unknown type "${type}"`)
  const number = integer(value, path)
  const [min, max] = sized[1] === 'u' ? [0n, 2n ** BigInt(bits) - 1n] : [-(2n ** BigInt(bits - 1)), 2n ** BigInt(bits - 1) - 1n]
  if (number < min || number > max) fail(path, `${show(value)} does not fit ${type}`)
  return setLengthLeft(hexToBytes(`0x${BigInt.asUintN(256, number).toString(16).padStart(64, '0')}`), 32)
}

/** The digest parts of one run: struct type hashes are computed once per type. */
class Encoder {
  private readonly typeHashes = new Map<string, Uint8Array>()

  constructor(private readonly types: Types) {}

  /** keccak256(typeHash ‖ each member encoded). */
  hashStruct(type: string, data: unknown, path: string, depth = 0): Uint8Array {
    const fields = own(this.types, type)
    if (fields === undefined) fail(path, `unknown type "${type}"`)
    if (!isRecord(data)) fail(path, `expected an object for ${type}, got ${show(data)}`)
    const members = fields.map(({ name, type: memberType }) => {
      const value = own(data, name)
      if (value === undefined || value === null) fail(`${path}.${name}`, `missing value for ${memberType}`)
      return this.encodeField(memberType, value, `${path}.${name}`, depth + 1)
    })
    return keccak256(concatBytes(this.typeHash(type), ...members))
  }

  private typeHash(type: string): Uint8Array {
    let hash = this.typeHashes.get(type)
    if (hash === undefined) {
      hash = keccak256(new TextEncoder().encode(encodeType(type, this.types)))
      this.typeHashes.set(type, hash)
    }
    return hash
  }

  private encodeField(type: string, value: unknown, path: string, depth: number): Uint8Array {
    if (depth > MAX_DEPTH) fail(path, `nested more than ${MAX_DEPTH} levels deep`)
    if (own(this.types, type) !== undefined) return this.hashStruct(type, value, path, depth)
    if (type === 'bytes') return keccak256(hexData(value, path))
    if (type === 'string') {
      if (typeof value !== 'string') fail(path, `expected a string, got ${show(value)}`)
      return keccak256(new TextEncoder().encode(value))
    }
    if (type.endsWith(']')) {
      const open = type.lastIndexOf('[')
      const length = type.slice(open + 1, -1)
      if (!Array.isArray(value)) fail(path, `expected an array for ${type}, got ${show(value)}`)
      if (length !== '' && value.length !== Number(length)) fail(path, `expected ${length} items for ${type}, got ${value.length}`)
      const inner = type.slice(0, open)
      return keccak256(concatBytes(...value.map((item, i) => this.encodeField(inner, item, `${path}[${i}]`, depth + 1))))
    }
    return encodeAtomic(type, value, path)
  }
}

/**
 * The EIP-712 digest of `typedData` (what `eth_signTypedData_v4` signs): keccak256(0x1901 ‖
 * domain separator ‖ hashStruct(primaryType, message)), the last part left out when
 * `primaryType` is `EIP712Domain`.
 */
export function hashTypedData(typedData: TypedData): Uint8Array {
  const encoder = new Encoder(typedData.types)
  const parts = [Uint8Array.of(0x19, 0x01), encoder.hashStruct('EIP712Domain', typedData.domain, 'domain')]
  if (typedData.primaryType !== 'EIP712Domain') parts.push(encoder.hashStruct(typedData.primaryType, typedData.message, 'message'))
  return keccak256(concatBytes(...parts))
}

