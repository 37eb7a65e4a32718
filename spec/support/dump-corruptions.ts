/**
 * Corrupt state dumps for the refusal specs, each made by editing a real dump (the parsed JSON,
 * or its gzipped hex), with the words its refusal must contain. All are given as hex, as
 * `anvil_loadState` takes them, so one list serves `createChain({ state })`,
 * `chain.loadState` and the RPC method.
 */
import { gunzipSync, gzipSync } from 'node:zlib'
import type { Hex } from '../../lib/types.ts'

/** A dump's parsed JSON. */
export type DumpJson = Record<string, any>

/** One corrupt dump. */
export interface Corruption {
  readonly what: string
  /** The corrupt dump as hex, made from a good dump's hex. */
  readonly make: (good: Hex) => Hex
  /** What the refusal's message must say. */
  readonly message: RegExp
}

/** The JSON inside a dump's hex (gzipped). */
export function jsonOfHex(hex: Hex): DumpJson {
  return JSON.parse(gunzipSync(Buffer.from(hex.slice(2), 'hex')).toString('utf8')) as DumpJson
}

/** `json` as hex of its gzipped text. */
export function hexOfJson(json: unknown): Hex {
  return `0x${gzipSync(typeof json === 'string' ? json : JSON.stringify(json)).toString('hex')}` as Hex
}

/** A good dump's JSON edited by `edit` (which gets a deep copy), as hex. */
const edited = (edit: (json: DumpJson) => void) => (good: Hex): Hex => {
  const json = jsonOfHex(good)
  edit(json)
  return hexOfJson(json)
}

/** The first block (from 1) with a transaction, and the account holding code. */
const firstTransaction = (json: DumpJson) => json.blocks.find((block: DumpJson) => block.transactions.length > 0)
const codeHolder = (json: DumpJson): [string, unknown[][]] => {
  const entry = Object.entries(json.accounts as Record<string, unknown[][]>).find(([, versions]) => (versions.at(-1)![3] as string) in json.codes)
  if (entry === undefined) throw new Error('the dump has no account with code')
  return entry
}

/** Every refusal the contract names, and a few of their neighbours. */
export const CORRUPTIONS: readonly Corruption[] = [
  {
    what: 'truncated gzip',
    make: (good) => good.slice(0, 2 + Math.floor((good.length - 2) / 4) * 2) as Hex,
    message: /gzip data is corrupt or truncated/,
  },
  { what: 'gzip of text that is not JSON', make: () => hexOfJson('{"format": "preconf-devnet/state", "version": 1,'), message: /not JSON/ },
  { what: 'bytes that are neither gzip nor JSON', make: () => '0xdeadbeef', message: /neither gzipped JSON, JSON text nor the hex of anvil_dumpState/ },
  {
    what: 'JSON of another format',
    make: edited((json) => {
      json.format = 'anvil/state'
    }),
    message: /not a preconf-devnet state \(format "anvil\/state", expected "preconf-devnet\/state"\)/,
  },
  {
    what: 'format version 2',
    make: edited((json) => {
      json.version = 2
    }),
    message: /version 2 is newer .*upgrade preconf-devnet/,
  },
  {
    what: 'a block whose hash does not match its header',
    make: edited((json) => {
      json.blocks[2].stateRoot = `0x${'11'.repeat(32)}`
    }),
    message: /blocks\[2\]: the header hashes to 0x[0-9a-f]{64}, not 0x[0-9a-f]{64}/,
  },
  {
    what: "a receipt that does not match its block's receipts root",
    make: edited((json) => {
      firstTransaction(json).transactions[0].cumulativeGasUsed = '0x1'
    }),
    message: /blocks\[1\]: its transactions or receipts do not match the header's roots/,
  },
  {
    what: 'a transaction whose raw bytes do not decode',
    make: edited((json) => {
      firstTransaction(json).transactions[0].raw = '0x02c0'
    }),
    message: /blocks\[1\]\.transactions\[0\]\.raw does not decode/,
  },
  {
    what: 'an account whose code hash is not in codes',
    make: edited((json) => {
      const [, versions] = codeHolder(json)
      delete json.codes[versions.at(-1)![3] as string]
    }),
    message: /no code with hash "?0x[0-9a-f]{64}"? in codes/,
  },
  {
    what: 'code that does not hash to its key',
    make: edited((json) => {
      const key = Object.keys(json.codes)[0]
      json.codes[key] = '0x00'
    }),
    message: /the code does not hash to its key/,
  },
  {
    what: "an account's versions out of order",
    make: edited((json) => {
      const [address, versions] = Object.entries(json.accounts as Record<string, unknown[][]>).find(([, versions]) => versions.length > 1)!
      json.accounts[address] = [...versions].reverse()
    }),
    message: /accounts\.0x[0-9a-f]{40}\[1\]\[0\]: block \d+ is out of order/,
  },
  {
    what: 'a version past the head',
    make: edited((json) => {
      const [address, versions] = codeHolder(json)
      json.accounts[address] = [...versions, [json.blocks.length + 5, '0x0', '0x0', versions.at(-1)![3]]]
    }),
    message: /past the head 4/,
  },
  {
    what: 'block settings whose coinbase is not an address',
    make: edited((json) => {
      json.blockSettings.coinbase = '0x1234'
    }),
    message: /blockSettings\.coinbase/,
  },
  {
    what: 'block settings whose gas limit does not fit a header (a uint64; audit Q, Q3)',
    make: edited((json) => {
      json.blockSettings.gasLimit = `0x1${'0'.repeat(30)}`
    }),
    message: /blockSettings\.gasLimit should be a hex quantity below 2\^64/,
  },
  {
    what: 'a preset this preconf-devnet does not know',
    make: edited((json) => {
      json.preset = 'mainnet'
    }),
    message: /preset should be one of base, base-sepolia, op, got "mainnet"/,
  },
  {
    what: 'a block missing from the middle',
    make: edited((json) => {
      json.blocks.splice(2, 1)
    }),
    message: /blocks\[2\] does not follow blocks\[1\]/,
  },
  {
    what: 'the genesis block removed (a first block that is not genesis, in a dump not of a fork)',
    make: edited((json) => {
      json.blocks.shift()
    }),
    message: /blocks\[0\] is not genesis, and the dump is not of a fork/,
  },
  {
    what: 'a signed transaction claimed as sent for an impersonated account',
    make: edited((json) => {
      firstTransaction(json).transactions[0].impersonated = `0x${'12'.repeat(20)}`
    }),
    message: /the transaction is signed, not sent for an impersonated 0x1212/,
  },
  {
    what: 'storage wipes out of order',
    make: edited((json) => {
      const [address] = Object.entries(json.storage as Record<string, DumpJson>)[0]
      json.storage[address].wipes = [3, 2]
    }),
    message: /wipes\[1\]: block 2 is out of order/,
  },
  {
    what: 'a storage wipe past the head',
    make: edited((json) => {
      const [address] = Object.entries(json.storage as Record<string, DumpJson>)[0]
      json.storage[address].wipes = [9]
    }),
    message: /wipes\[0\]: block 9 is out of order or past the head 4/,
  },
  {
    what: 'one account written twice (in two cases)',
    make: edited((json) => {
      const [address, versions] = codeHolder(json)
      json.accounts[address.toUpperCase().replace('0X', '0x')] = versions
    }),
    message: /accounts names 0x[0-9a-f]{40} twice/,
  },
  {
    what: 'no blocks',
    make: edited((json) => {
      json.blocks = []
    }),
    message: /blocks is empty/,
  },
]
