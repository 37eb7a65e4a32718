/**
 * Every read a chain answers about its sealed history, gathered over JSON-RPC into one plain
 * object, so two chains (one dumped, one loaded from the dump) compare with one deep equality:
 * blocks by number and by hash (with full transactions), each transaction and receipt, every
 * log, and each address's balance, nonce, code and storage words at every sealed block.
 */
import type { Address, Hex } from '../../lib/types.ts'

/** Anything with EIP-1193 `request`: a chain, its sealed endpoint, a viem-free HTTP client. */
export interface Requester {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>
}

/** A JSON-RPC call's result, typed loosely for comparisons. */
export const rpc = <T = any>(chain: Requester, method: string, ...params: unknown[]): Promise<T> => chain.request({ method, params }) as Promise<T>

const hex = (value: bigint | number): Hex => `0x${value.toString(16)}`

/** What one address holds at one block. */
export interface AccountReads {
  balance: Hex
  nonce: Hex
  code: Hex
  storage: Hex[]
}

/** The chain's answers, keyed by what was asked. */
export interface ChainReads {
  chainId: Hex
  blockNumber: Hex
  blocksByNumber: unknown[]
  blocksByHash: unknown[]
  transactions: Record<string, unknown>
  receipts: Record<string, unknown>
  logs: unknown[]
  /** `accounts[block][address]`. */
  accounts: Record<string, AccountReads>[]
}

/** Reads of `addresses` (and `slots` of each) at every block up to the head, and everything about each block. */
export async function readEverything(chain: Requester, addresses: readonly Address[], slots: readonly bigint[], withAccounts = true): Promise<ChainReads> {
  const head = Number(await rpc<Hex>(chain, 'eth_blockNumber'))
  const blocksByNumber: any[] = []
  const blocksByHash: unknown[] = []
  const transactions: Record<string, unknown> = {}
  const receipts: Record<string, unknown> = {}
  const accounts: Record<string, AccountReads>[] = []
  for (let number = 0; number <= head; number++) {
    const block = await rpc(chain, 'eth_getBlockByNumber', hex(number), true)
    blocksByNumber.push(block)
    blocksByHash.push(await rpc(chain, 'eth_getBlockByHash', block.hash, true))
    for (const { hash } of block.transactions as { hash: Hex }[]) {
      transactions[hash] = await rpc(chain, 'eth_getTransactionByHash', hash)
      receipts[hash] = await rpc(chain, 'eth_getTransactionReceipt', hash)
    }
    if (withAccounts) accounts.push(await accountsAt(chain, addresses, slots, hex(number)))
  }
  return {
    chainId: await rpc(chain, 'eth_chainId'),
    blockNumber: hex(head),
    blocksByNumber,
    blocksByHash,
    transactions,
    receipts,
    logs: await rpc(chain, 'eth_getLogs', { fromBlock: '0x0', toBlock: 'latest' }),
    accounts,
  }
}

/** Balance, nonce, code and `slots` of each of `addresses` at `block`. */
export async function accountsAt(chain: Requester, addresses: readonly Address[], slots: readonly bigint[], block: Hex | 'latest' | 'pending'): Promise<Record<string, AccountReads>> {
  const reads: Record<string, AccountReads> = {}
  for (const address of addresses) {
    reads[address] = {
      balance: await rpc(chain, 'eth_getBalance', address, block),
      nonce: await rpc(chain, 'eth_getTransactionCount', address, block),
      code: await rpc(chain, 'eth_getCode', address, block),
      storage: await Promise.all(slots.map((slot) => rpc<Hex>(chain, 'eth_getStorageAt', address, hex(slot), block))),
    }
  }
  return reads
}
