/**
 * One sequence of polled-filter calls, over raw JSON-RPC, that runs unchanged against the devnet
 * (auto mining: one block per transaction) and against Anvil (automine), so a spec can compare
 * the two answer for answer: filters installed, a Counter deployed and incremented twice from two
 * dev accounts, all sent signed (so the
 * transaction hashes agree), then each filter polled twice, eth_getFilterLogs, uninstalling and the errors.
 */
import { encodeFunctionData, getContractAddress, type Hex } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { Counter } from '../../fixtures/artifacts/Counter.ts'
import { DEFAULT_MNEMONIC } from '../../lib/index.ts'

/** Dev accounts 0 and 1 of the shared test mnemonic (the devnet's and Anvil's). */
const SENDERS = [0, 1].map((addressIndex) => mnemonicToAccount(DEFAULT_MNEMONIC, { addressIndex }))
const GWEI = 1_000_000_000n

/** A signed EIP-1559 transaction from `from` (the same bytes, so the same hash, on both nodes). */
function sign(from: (typeof SENDERS)[number], fields: { nonce: number; to?: Hex; data: Hex }): Promise<Hex> {
  return from.signTransaction({ type: 'eip1559', chainId: 31337, gas: 3_000_000n, maxFeePerGas: 10n * GWEI, maxPriorityFeePerGas: GWEI, ...fields })
}

/** One JSON-RPC reply, as the node sent it. */
export type RpcReply = { result: unknown; error?: undefined } | { result?: undefined; error: { code: number; message: string } }

/** Posts one JSON-RPC request to `url`; the reply's `result` or `error`. */
async function rpcReply(url: string, method: string, params: unknown[] = []): Promise<RpcReply> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
  return (await response.json()) as RpcReply
}

/** What one node answered along the sequence. */
export interface FilterSequenceRecord {
  readonly ids: { readonly logs: string; readonly blocks: string; readonly pending: string }
  /** The hashes of the transactions sent (deploy, increment, increment) and of blocks 1 to 3. */
  readonly sent: string[]
  readonly blockHashes: string[]
  /** Each filter's first and second eth_getFilterChanges. */
  readonly changes: { readonly logs: unknown[][]; readonly blocks: unknown[][]; readonly pending: unknown[][] }
  /** eth_getFilterLogs of `{ address: counter, fromBlock: '0x0' }`. */
  readonly filterLogs: unknown
  /** Replies that should be errors or plain values, by what was asked. */
  readonly replies: Record<string, RpcReply>
}

async function result(url: string, method: string, params: unknown[] = []): Promise<any> {
  const reply = await rpcReply(url, method, params)
  if (reply.error !== undefined) throw new Error(`${method} failed at ${url}: ${reply.error.message}`)
  return reply.result
}

/** Waits for the receipt of `hash` (Anvil's automine seals shortly after the send returns). */
async function sealed(url: string, hash: string): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    if ((await result(url, 'eth_getTransactionReceipt', [hash])) !== null) return
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  throw new Error(`no receipt for ${hash} at ${url}`)
}

/** Runs the sequence against the node at `url` (a fresh chain at block 0, transactions sealed at once). */
export async function runFilterSequence(url: string): Promise<FilterSequenceRecord> {
  const ids = {
    logs: await result(url, 'eth_newFilter', [{}]),
    blocks: await result(url, 'eth_newBlockFilter'),
    pending: await result(url, 'eth_newPendingTransactionFilter'),
  }
  const counter = getContractAddress({ from: SENDERS[0].address, nonce: 0n })
  const data = encodeFunctionData({ abi: Counter.abi, functionName: 'increment' })
  const signed = [await sign(SENDERS[0], { nonce: 0, data: Counter.bytecode }), await sign(SENDERS[0], { nonce: 1, to: counter, data }), await sign(SENDERS[1], { nonce: 0, to: counter, data })]
  const sent: string[] = []
  for (const raw of signed) {
    sent.push(await result(url, 'eth_sendRawTransaction', [raw]))
    await sealed(url, sent[sent.length - 1])
  }
  const blockHashes: string[] = []
  for (const number of ['0x1', '0x2', '0x3']) blockHashes.push((await result(url, 'eth_getBlockByNumber', [number, false])).hash)
  const poll = async (id: string) => [await result(url, 'eth_getFilterChanges', [id]), await result(url, 'eth_getFilterChanges', [id])]
  const changes = { logs: await poll(ids.logs), blocks: await poll(ids.blocks), pending: await poll(ids.pending) }
  const filterLogs = await result(url, 'eth_getFilterLogs', [await result(url, 'eth_newFilter', [{ address: counter, fromBlock: '0x0' }])])
  const replies: Record<string, RpcReply> = {}
  const ask = async (name: string, method: string, params: unknown[] = []) => (replies[name] = await rpcReply(url, method, params))
  await ask('changes of an unknown id', 'eth_getFilterChanges', ['0xdeadbeef'])
  await ask('logs of an unknown id', 'eth_getFilterLogs', ['0xdeadbeef'])
  await ask('logs of a block filter', 'eth_getFilterLogs', [ids.blocks])
  await ask('logs of a pending-transaction filter', 'eth_getFilterLogs', [ids.pending])
  await ask('uninstall', 'eth_uninstallFilter', [ids.logs])
  await ask('uninstall again', 'eth_uninstallFilter', [ids.logs])
  await ask('changes after uninstall', 'eth_getFilterChanges', [ids.logs])
  await ask('uninstall an unknown id', 'eth_uninstallFilter', ['0xdead'])
  await ask('changes without an id', 'eth_getFilterChanges')
  await ask('changes of a numeric id', 'eth_getFilterChanges', [5])
  await ask('a filter with a bad block tag', 'eth_newFilter', [{ fromBlock: 'banana' }])
  return { ids, sent, blockHashes, changes, filterLogs, replies }
}

/** A log without the fields that differ between two chains running the same calls (block and transaction hashes, timestamps). */
export function portable(log: Record<string, unknown>): Record<string, unknown> {
  const { blockHash: _b, blockTimestamp: _t, transactionHash: _h, ...rest } = log
  return rest
}
