/**
 * The state dump format, version 1: one JSON object.
 *
 * ```
 * { "format": "preconf-devnet/state", "version": 1, "chainId": 31337, "preset"?: "base",   (an OP-stack chain's)
 *   "clock": { "now": ms, "schedule": { …the block schedule… } },
 *   "blockSettings"?: { "coinbase", "gasLimit", "baseFee": null | { "value", "block" }, "prevRandao": null | { "value", "block" } },
 *   "fork": null | { "blockNumber", "blockHash" },   (a fork's dump: its first block is the upstream's)
 *   "blocks": [ { "hash", header fields, "size", "transactions": [ { "raw", "impersonated"?: sender, "status", "cumulativeGasUsed", "logs" } ] } ],
 *   "codes": { codeHash: code },
 *   "accounts": { address: [ [block, nonce, balance, codeHash] | [block] (deleted), … ] },
 *   "storage": { address: { "wipes"?: [block, …], "slots": { slot: [ [block, value], … ] } } },
 *   "historyFrom"?: block }   (a pruned chain's: reads of blocks before it are refused)
 * ```
 *
 * Numbers that may pass 2^53 are hex strings; block numbers and milliseconds are JSON numbers.
 * A file of another format, or of a newer version, is refused with a message that says so.
 */
import type { Common } from '@ethereumjs/common'
import type { BlockSettingsState } from '../builder/block-settings.ts'
import { KECCAK256_NULL } from '@ethereumjs/util'
import { toHex } from '../bytes.ts'
import { keccak256 } from '../crypto/keccak.ts'
import { PRESETS, type PresetName } from '../op-stack/presets.ts'
import type { AccountState } from '../state/account.ts'
import { EMPTY_CODE } from '../state/account.ts'
import type { HistoryEntry, KeyVersions } from '../state/state-history.ts'
import type { Address } from '../types.ts'
import { blockFromRecord, blockRecord } from './block-records.ts'
import type { ChainState } from './chain-state.ts'
import { addressAt, dataAt, hashAt, hexQuantity, integerAt, listAt, objectAt, quantityAt, StateDumpError, uint64At, wordAt } from './dump-fields.ts'

/** The format's name and the newest version this code reads and writes. */
const STATE_FORMAT = 'preconf-devnet/state'
const STATE_VERSION = 1

/** `state` as the format's JSON object. */
export function stateToJson(state: ChainState): Record<string, unknown> {
  const codes: Record<string, string> = {}
  const accounts: Record<string, unknown[]> = {}
  const storage: Record<string, unknown> = {}
  for (const { address, account, storage: words } of state.history) {
    if (account !== undefined) accounts[address] = account.values.map((value, i) => accountVersion(account.blocks[i], value, codes))
    if (words !== undefined) {
      const slots: Record<string, unknown[]> = {}
      for (const [slot, versions] of words.slots) slots[hexQuantity(slot)] = versions.values.map((value, i) => [versions.blocks[i], hexQuantity(value)])
      storage[address] = words.wipes === undefined ? { slots } : { wipes: words.wipes, slots }
    }
  }
  const schedule = state.schedule
  return {
    format: STATE_FORMAT,
    version: STATE_VERSION,
    chainId: state.chainId,
    ...(state.preset === undefined ? {} : { preset: state.preset }),
    clock: {
      now: state.clockMs,
      schedule: {
        ...schedule,
        nextTimestamp: optionalQuantity(schedule.nextTimestamp),
        openOverride: optionalQuantity(schedule.openOverride),
        timestampInterval: optionalQuantity(schedule.timestampInterval),
      },
    },
    // A fork's first block is the upstream's: its hash is taken as the upstream gave it.
    ...(state.settings === undefined ? {} : { blockSettings: settingsToJson(state.settings) }),
    fork: state.blocks[0].header.number === 0n ? null : { blockNumber: hexQuantity(state.blocks[0].header.number), blockHash: state.blocks[0].hash },
    blocks: state.blocks.map(blockRecord),
    codes,
    accounts,
    storage,
    ...(state.historyFrom === undefined ? {} : { historyFrom: state.historyFrom }),
  }
}

function accountVersion(block: number, account: AccountState | undefined, codes: Record<string, string>): unknown[] {
  if (account === undefined) return [block]
  const codeHash = toHex(account.codeHash)
  if (account.code.length > 0) codes[codeHash] ??= toHex(account.code)
  return [block, hexQuantity(account.nonce), hexQuantity(account.balance), codeHash]
}

/** The settings for the blocks to come, as the format writes them (one-block values with their block number). */
function settingsToJson({ coinbase, gasLimit, baseFee, prevRandao }: BlockSettingsState): Record<string, unknown> {
  return {
    coinbase,
    gasLimit: hexQuantity(gasLimit),
    baseFee: baseFee === undefined ? null : { value: hexQuantity(baseFee.value), block: Number(baseFee.blockNumber) },
    prevRandao: prevRandao === undefined ? null : { value: toHex(prevRandao.value), block: Number(prevRandao.blockNumber) },
  }
}

/** The settings a dump's `blockSettings` holds, checked. */
function settingsFromJson(value: unknown): BlockSettingsState {
  const settings = objectAt(value, 'blockSettings')
  const oneOff = <T>(entry: unknown, path: string, read: (value: unknown, path: string) => T) => {
    if (entry === null) return undefined
    const { value, block } = objectAt(entry, path)
    return { value: read(value, `${path}.value`), blockNumber: BigInt(integerAt(block, `${path}.block`)) }
  }
  return {
    coinbase: addressAt(settings.coinbase, 'blockSettings.coinbase'),
    gasLimit: uint64At(settings.gasLimit, 'blockSettings.gasLimit'),
    baseFee: oneOff(settings.baseFee, 'blockSettings.baseFee', quantityAt),
    prevRandao: oneOff(settings.prevRandao, 'blockSettings.prevRandao', wordAt),
  }
}

const optionalQuantity = (value: bigint | undefined): string | null => (value === undefined ? null : hexQuantity(value))

/**
 * The chain state a dump's JSON describes, read whole and checked (blocks against their hashes,
 * code against its hash); `common` decodes the transactions.
 */
export function stateFromJson(json: unknown, common: (chainId: number) => Common): ChainState {
  const file = objectAt(json, 'the dump')
  if (file.format !== STATE_FORMAT) throw new StateDumpError(`not a preconf-devnet state (format ${JSON.stringify(file.format)?.slice(0, 40)}, expected "${STATE_FORMAT}")`)
  const version = integerAt(file.version, 'version')
  if (version > STATE_VERSION) throw new StateDumpError(`format version ${version} is newer than this preconf-devnet reads (${STATE_VERSION}); upgrade preconf-devnet to load it`)
  if (version < 1) throw new StateDumpError(`format version ${version} does not exist`)
  const chainId = integerAt(file.chainId, 'chainId')
  const clock = objectAt(file.clock, 'clock')
  const schedule = objectAt(clock.schedule, 'clock.schedule')
  // One Common per chain id the dump's transactions were signed for (the dump's own, and any an anvil_setChainId left behind).
  const commons = new Map<bigint, Common>()
  const commonFor = (signedFor: bigint): Common => {
    let found = commons.get(signedFor)
    if (found === undefined) commons.set(signedFor, (found = common(Number(signedFor))))
    return found
  }
  const fork = file.fork === undefined || file.fork === null ? undefined : objectAt(file.fork, 'fork')
  const forkHash = fork === undefined ? undefined : hashAt(fork.blockHash, 'fork.blockHash')
  const blocks = listAt(file.blocks, 'blocks').map((record, i) => blockFromRecord(record, `blocks[${i}]`, commonFor, chainId, i === 0 && fork !== undefined))
  if (blocks.length === 0) throw new StateDumpError('blocks is empty')
  if (fork === undefined && blocks[0].header.number !== 0n) throw new StateDumpError('blocks[0] is not genesis, and the dump is not of a fork')
  if (forkHash !== undefined && blocks[0].hash !== forkHash) throw new StateDumpError(`blocks[0] is not the fork block ${forkHash}`)
  for (let i = 1; i < blocks.length; i++) {
    if (blocks[i].header.number !== blocks[i - 1].header.number + 1n || toHex(blocks[i].header.parentHash) !== blocks[i - 1].hash) {
      throw new StateDumpError(`blocks[${i}] does not follow blocks[${i - 1}]`)
    }
  }
  return {
    chainId,
    ...(file.preset === undefined ? {} : { preset: presetAt(file.preset) }),
    clockMs: integerAt(clock.now, 'clock.now'),
    schedule: {
      preconfIntervalMs: positive(schedule.preconfIntervalMs, 'clock.schedule.preconfIntervalMs'),
      blockTimeMs: positive(schedule.blockTimeMs, 'clock.schedule.blockTimeMs'),
      nextTickAt: integerAt(schedule.nextTickAt, 'clock.schedule.nextTickAt'),
      sealAt: integerAt(schedule.sealAt, 'clock.schedule.sealAt'),
      offsetMs: signedInteger(schedule.offsetMs, 'clock.schedule.offsetMs'),
      nextTimestamp: nullableQuantity(schedule.nextTimestamp, 'clock.schedule.nextTimestamp'),
      openOverride: nullableQuantity(schedule.openOverride, 'clock.schedule.openOverride'),
      timestampInterval: nullableQuantity(schedule.timestampInterval, 'clock.schedule.timestampInterval'),
    },
    ...(file.blockSettings === undefined ? {} : { settings: settingsFromJson(file.blockSettings) }),
    blocks,
    history: historyFromJson(file, Number(blocks[blocks.length - 1].header.number)),
    ...(file.historyFrom === undefined ? {} : { historyFrom: historyFromAt(file.historyFrom, blocks) }),
  }
}

/** The preset an OP-stack chain's dump names: one this preconf-devnet knows. */
function presetAt(value: unknown): PresetName {
  if (typeof value !== 'string' || !Object.hasOwn(PRESETS, value)) {
    throw new StateDumpError(`preset should be one of ${Object.keys(PRESETS).join(', ')}, got ${JSON.stringify(value)?.slice(0, 40)}`)
  }
  return value as PresetName
}

/** Where a pruned chain's history starts: a block the dump holds. */
function historyFromAt(value: unknown, blocks: readonly { header: { number: bigint } }[]): number {
  const block = integerAt(value, 'historyFrom')
  const [first, head] = [Number(blocks[0].header.number), Number(blocks[blocks.length - 1].header.number)]
  if (block < first || block > head) throw new StateDumpError(`historyFrom should be a block the dump holds (${first} to ${head}), got ${block}`)
  return block
}

function positive(value: unknown, path: string): number {
  const number = integerAt(value, path)
  if (number === 0) throw new StateDumpError(`${path} should be at least 1`)
  return number
}

function signedInteger(value: unknown, path: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw new StateDumpError(`${path} should be an integer`)
  return value
}

function nullableQuantity(value: unknown, path: string): bigint | undefined {
  return value === null || value === undefined ? undefined : quantityAt(value, path)
}

/** Every address's versions, checked: code against its hash, versions in block order up to the head. */
function historyFromJson(file: Record<string, unknown>, head: number): HistoryEntry[] {
  const codes: CodeTable = new Map([[toHex(KECCAK256_NULL), { code: EMPTY_CODE, codeHash: KECCAK256_NULL }]])
  for (const [hash, code] of Object.entries(objectAt(file.codes ?? {}, 'codes'))) {
    const bytes = dataAt(code, `codes.${hash}`)
    const codeHash = keccak256(bytes)
    if (toHex(codeHash) !== hashAt(hash, `codes key ${hash}`)) throw new StateDumpError(`codes.${hash}: the code does not hash to its key`)
    codes.set(hash.toLowerCase(), { code: bytes, codeHash })
  }
  const entries = new Map<Address, { account?: KeyVersions<AccountState | undefined>; storage?: HistoryEntry['storage'] }>()
  for (const [key, versions] of Object.entries(objectAt(file.accounts, 'accounts'))) {
    const address = addressAt(key, `accounts key ${key}`)
    if (entries.has(address)) throw new StateDumpError(`accounts names ${address} twice`)
    entries.set(address, { account: versionsAt(versions, `accounts.${key}`, head, (entry, path) => accountAt(entry, path, codes)) })
  }
  for (const [key, value] of Object.entries(objectAt(file.storage ?? {}, 'storage'))) {
    const address = addressAt(key, `storage key ${key}`)
    const fields = objectAt(value, `storage.${key}`)
    const wipes = fields.wipes === undefined ? undefined : listAt(fields.wipes, `storage.${key}.wipes`).map((block, i) => integerAt(block, `storage.${key}.wipes[${i}]`))
    wipes?.forEach((block, i) => {
      if (block > head || (i > 0 && block <= wipes[i - 1])) throw new StateDumpError(`storage.${key}.wipes[${i}]: block ${block} is out of order or past the head ${head}`)
    })
    if (entries.get(address)?.storage !== undefined) throw new StateDumpError(`storage names ${address} twice`)
    const slots = new Map<bigint, KeyVersions<bigint>>()
    for (const [slot, words] of Object.entries(objectAt(fields.slots, `storage.${key}.slots`))) {
      const path = `storage.${key}.slots.${slot}`
      slots.set(quantityAt(slot, `${path} (key)`), versionsAt(words, path, head, (entry, at) => quantityAt(entry[1], `${at}[1]`)))
    }
    entries.set(address, { ...entries.get(address), storage: { wipes, slots } })
  }
  return [...entries].map(([address, { account, storage }]) => ({ address, account, storage }))
}

/** A list of `[block, …value]` entries, in strictly rising block order, none past the head. */
function versionsAt<T>(value: unknown, path: string, head: number, read: (entry: unknown[], path: string) => T): KeyVersions<T> {
  const entries = listAt(value, path)
  if (entries.length === 0) throw new StateDumpError(`${path} is empty`)
  const blocks: number[] = []
  const values: T[] = []
  entries.forEach((entry, i) => {
    const at = `${path}[${i}]`
    const fields = listAt(entry, at)
    const block = integerAt(fields[0], `${at}[0]`)
    if (block > head || (i > 0 && block <= blocks[i - 1])) throw new StateDumpError(`${at}[0]: block ${block} is out of order or past the head ${head}`)
    blocks.push(block)
    values.push(read(fields, at))
  })
  return { blocks, values }
}

/** The code of each code hash a dump names, with the hash as bytes, shared by every account running it. */
type CodeTable = Map<string, { readonly code: Uint8Array; readonly codeHash: Uint8Array }>

function accountAt(entry: unknown[], path: string, codes: CodeTable): AccountState | undefined {
  if (entry.length === 1) return undefined
  const known = typeof entry[3] === 'string' ? codes.get(entry[3].toLowerCase()) : undefined
  if (known === undefined) throw new StateDumpError(`${path}[3]: no code with hash ${JSON.stringify(entry[3])?.slice(0, 70)} in codes`)
  return { nonce: quantityAt(entry[1], `${path}[1]`), balance: quantityAt(entry[2], `${path}[2]`), code: known.code, codeHash: known.codeHash }
}
