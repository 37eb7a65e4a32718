/**
 * Helpers for the test-control specs (snapshots, cheats, mining modes, time controls): a
 * picture of everything a client can observe about a chain, to compare before and after a
 * snapshot's detour, and a recorder of when each tick and seal happened.
 */
import type { Chain } from '../../lib/index.ts'
import type { Address, Hex } from '../../lib/types.ts'

/** What a client sees of one account at one tag. */
export interface AccountPicture {
  balance: bigint
  nonce: number
  code: Hex
  storage: Hex[]
}

/** Everything observable about the chain for the given accounts, slots and transactions. */
export interface WorldPicture {
  blockNumber: bigint
  now: number
  rpcBlockNumber: unknown
  latest: unknown
  pending: unknown
  blocks: unknown[]
  accounts: Record<string, { latest: AccountPicture; pending: AccountPicture; history: bigint[] }>
  transactions: Record<string, { transaction: unknown; receipt: unknown; status: unknown }>
}

async function account(chain: Chain, address: Address, slots: readonly bigint[], tag: 'latest' | 'pending'): Promise<AccountPicture> {
  return {
    balance: await chain.getBalance(address, tag),
    nonce: await chain.getTransactionCount(address, tag),
    code: await chain.getCode(address, tag),
    storage: await Promise.all(slots.map((slot) => chain.getStorageAt(address, slot, tag))),
  }
}

/**
 * Reads, through the chain's plain functions and its RPC: block number, clock, the latest and
 * pending blocks with full transactions, every sealed block, each account's balance, nonce,
 * code and `slots` at latest and pending, and each transaction's lookup, receipt and status.
 */
export async function pictureOf(chain: Chain, addresses: readonly Address[], slots: readonly bigint[], hashes: readonly Hex[]): Promise<WorldPicture> {
  const request = (method: string, ...params: unknown[]) => chain.request({ method, params })
  const blocks: unknown[] = []
  for (let n = 0n; n <= chain.blockNumber(); n++) blocks.push(await request('eth_getBlockByNumber', `0x${n.toString(16)}`, true))
  const accounts: WorldPicture['accounts'] = {}
  for (const address of addresses) {
    const history: bigint[] = []
    for (let n = 0n; n <= chain.blockNumber(); n++) history.push(await chain.getBalance(address, n))
    accounts[address] = { latest: await account(chain, address, slots, 'latest'), pending: await account(chain, address, slots, 'pending'), history }
  }
  const transactions: WorldPicture['transactions'] = {}
  for (const hash of hashes) {
    transactions[hash] = {
      transaction: await request('eth_getTransactionByHash', hash),
      receipt: await request('eth_getTransactionReceipt', hash),
      status: await request('service_transactionStatus', hash),
    }
  }
  return {
    blockNumber: chain.blockNumber(),
    now: chain.clock.now(),
    rpcBlockNumber: await request('eth_blockNumber'),
    latest: await request('eth_getBlockByNumber', 'latest', true),
    pending: await request('eth_getBlockByNumber', 'pending', true),
    blocks,
    accounts,
    transactions,
  }
}

/** Records each tick and seal as a line with the clock time it happened at. */
export function recordEvents(chain: Chain): string[] {
  const events: string[] = []
  chain.on('preconfirmation', (p) =>
    events.push(`tick ${p.blockNumber}.${p.index} [${p.transactions.map((t) => t.transaction.hash).join(',')}] @${chain.clock.now()}`),
  )
  chain.on('block', (b) => events.push(`block ${b.header.number} ${b.hash} t=${b.header.timestamp} @${chain.clock.now()}`))
  return events
}

/** The timestamps (seconds) of sealed blocks 0..head. */
export async function timestamps(chain: Chain): Promise<bigint[]> {
  const result: bigint[] = []
  for (let n = 0; n <= Number(chain.blockNumber()); n++) result.push(chain.blockByNumber(n)!.header.timestamp)
  return result
}

/** Whether each value is greater than the one before. */
export function strictlyIncreasing(values: readonly bigint[]): boolean {
  return values.every((value, i) => i === 0 || value > values[i - 1])
}

/** A quantity as minimal hex. */
export function hex(value: bigint | number): Hex {
  return `0x${value.toString(16)}` as Hex
}
