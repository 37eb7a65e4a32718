/**
 * The on-disk cache of what a fork fetched from its upstream, so the next run against the same
 * fork block sends no request for it: one JSON-lines file per chain id and fork block
 * (`<directory>/<chainId>/<blockNumber>.jsonl`). Its first line names the fork block's hash; a
 * file written for another block of that number (a restarted local upstream, a reorg) is
 * started afresh. Records are appended after each turn of fetches; a torn last line (a killed
 * process) is skipped. The cache never fails the chain: where it cannot be read or written, the chain
 * runs without it and says so once.
 */
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { hexToBytes } from '@ethereumjs/util'
import { toHex } from '../bytes.ts'
import { withAccountCode, withAccountFields, type AccountState } from '../state/account.ts'
import type { Address, Hash } from '../types.ts'

/** The cache file's format name and version (its first line). */
const FORMAT = 'preconf-devnet/fork-cache'
const VERSION = 1

/** Which fork block a cache belongs to. */
export interface ForkCacheKey {
  readonly chainId: number
  readonly blockNumber: bigint
  readonly blockHash: Hash
}

/** Upstream state as fetched: accounts (null where the upstream has none) and storage words. */
export interface FetchedState {
  readonly accounts: Map<Address, AccountState | null>
  readonly storage: Map<Address, Map<bigint, bigint>>
}

/** What records each fetched key (the disk cache, or nothing). */
export interface FetchRecorder {
  account(address: Address, account: AccountState | null): void
  storage(address: Address, slot: bigint, value: bigint): void
}

const hex = (value: bigint): string => `0x${value.toString(16)}`
const ADDRESS = /^0x[0-9a-f]{40}$/
const QUANTITY = /^0x[0-9a-f]{1,64}$/
const DATA = /^0x(?:[0-9a-f]{2})*$/

/** The cache of one fork block: what earlier runs fetched, and a recorder appending what this one fetches. */
export class ForkCache implements FetchRecorder {
  /** The state earlier runs fetched. */
  readonly fetched: FetchedState = { accounts: new Map(), storage: new Map() }
  private buffer: string[] = []
  private scheduled = false
  private disabled = false

  private constructor(readonly path: string) {}

  /** Opens the cache of `key` in `directory` (creating it), reading what it holds. */
  static open(directory: string, key: ForkCacheKey): ForkCache {
    const cache = new ForkCache(join(directory, String(key.chainId), `${key.blockNumber}.jsonl`))
    const header = JSON.stringify({ format: FORMAT, version: VERSION, chainId: key.chainId, blockNumber: hex(key.blockNumber), blockHash: key.blockHash })
    let text: string | undefined
    try {
      text = readFileSync(cache.path, 'utf8')
    } catch {
      // No cache yet (or unreadable): start one.
    }
    const lines = text?.split('\n')
    if (lines !== undefined && lines[0] === header) {
      for (let i = 1; i < lines.length; i++) cache.load(lines[i])
      return cache
    }
    try {
      mkdirSync(dirname(cache.path), { recursive: true })
      writeFileSync(cache.path, `${header}\n`)
    } catch (error) {
      cache.disable(error)
    }
    return cache
  }

  /** Records a fetched account (null: the upstream has none). */
  account(address: Address, account: AccountState | null): void {
    this.append(account === null ? `["a","${address}"]` : `["a","${address}","${hex(account.nonce)}","${hex(account.balance)}","${toHex(account.code)}"]`)
  }

  /** Records a fetched storage word. */
  storage(address: Address, slot: bigint, value: bigint): void {
    this.append(`["s","${address}","${hex(slot)}","${hex(value)}"]`)
  }

  /**
   * Writes what is buffered, in one append: after each turn of fetches, and at close. Written
   * synchronously, so a process that exits right after (the CLI on SIGTERM) loses nothing.
   */
  flush(): void {
    if (this.disabled || this.buffer.length === 0) return
    const text = `${this.buffer.join('\n')}\n`
    this.buffer = []
    try {
      appendFileSync(this.path, text)
    } catch (error) {
      this.disable(error)
    }
  }

  private append(line: string): void {
    if (this.disabled) return
    this.buffer.push(line)
    if (this.scheduled) return
    this.scheduled = true
    setImmediate(() => {
      this.scheduled = false
      this.flush()
    })
  }

  /** Takes one record line; a malformed one (a torn write) is skipped. */
  private load(line: string): void {
    let record: unknown
    try {
      record = JSON.parse(line)
    } catch {
      return
    }
    if (!Array.isArray(record) || typeof record[1] !== 'string' || !ADDRESS.test(record[1])) return
    const address = record[1] as Address
    if (record[0] === 'a' && record.length === 2) this.fetched.accounts.set(address, null)
    else if (record[0] === 'a' && record.length === 5 && QUANTITY.test(record[2]) && QUANTITY.test(record[3]) && DATA.test(record[4])) {
      const fields = withAccountFields(undefined, { nonce: BigInt(record[2]), balance: BigInt(record[3]) })
      this.fetched.accounts.set(address, withAccountCode(fields, hexToBytes(record[4])))
    } else if (record[0] === 's' && record.length === 4 && QUANTITY.test(record[2]) && QUANTITY.test(record[3])) {
      let words = this.fetched.storage.get(address)
      if (words === undefined) this.fetched.storage.set(address, (words = new Map()))
      words.set(BigInt(record[2]), BigInt(record[3]))
    }
  }

  private disable(error: unknown): void {
    if (this.disabled) return
    this.disabled = true
    this.buffer = []
    process.emitWarning(`fork cache ${this.path} is not usable, running without it: ${(error as Error).message}`)
  }
}
