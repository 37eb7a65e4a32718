/**
 * Load: 50 HTTP clients (keep-alive), each a distinct funded dev account, send 40 signed
 * EIP-1559 transfers apiece (nonces 0..39, distinct amounts, one recipient per client) at the
 * same time, against the realtime clock (a tick every 100 ms, a seal every second). Every send
 * must return its hash, and once sealed every transaction must be in exactly one block with a
 * successful receipt, every recipient must hold exactly what was sent to it, every sender's nonce
 * must be 40, each sender's transactions must be in nonce order, and Base's
 * service_transactionStatus must say Unknown (sealed) for all of them.
 */
import { expect } from 'chai'
import { bytesToHex, keccak256, type Hex } from 'viem'
import { signEIP1559 } from '../../bench/signing.ts'
import { createChain, type Chain } from '../../lib/index.ts'
import { startServer, type DevnetServer } from '../../lib/server/server.ts'
import type { Address } from '../../lib/types.ts'

const CLIENTS = 50
const PER_CLIENT = 40
const TOTAL = CLIENTS * PER_CLIENT
const GWEI = 1_000_000_000n
const ZERO_HASH = `0x${'0'.repeat(64)}`
/** geth's default batch limit: polls go in batches no larger. */
const BATCH = 1000
const REQUEST_DEADLINE_MS = 10_000

interface Sent {
  readonly client: number
  readonly nonce: number
  readonly raw: Hex
  readonly hash: Hex
  readonly value: bigint
}

interface Receipt {
  transactionHash: Hex
  blockHash: Hex
  blockNumber: Hex
  transactionIndex: Hex
  status: Hex
  from: Hex
  to: Hex
}

/** The recipient of client `c`: an address no dev account has. */
function recipientOf(client: number): Address {
  return `0x${(0xbeef0000 + client).toString(16).padStart(40, '0')}` as Address
}

/** The distinct amount client `c` sends with nonce `n`, in wei. */
function amountOf(client: number, nonce: number): bigint {
  return BigInt(client * 1000 + nonce + 1) * GWEI
}

let nextId = 1

/** One POST of a JSON-RPC body (a request or a batch) on fetch's keep-alive pool. */
async function post(url: string, body: unknown): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(REQUEST_DEADLINE_MS),
  })
  expect(response.status).to.equal(200)
  return response.json()
}

/** Calls `method` with each params list in batches of at most 1000; returns the results in order. */
async function batch(url: string, method: string, paramsList: unknown[][]): Promise<unknown[]> {
  const results: unknown[] = []
  for (let start = 0; start < paramsList.length; start += BATCH) {
    const chunk = paramsList.slice(start, start + BATCH).map((params) => ({ jsonrpc: '2.0', id: nextId++, method, params }))
    const replies = (await post(url, chunk)) as { id: number; result?: unknown; error?: { message: string } }[]
    expect(replies, `${method} batch`).to.have.length(chunk.length)
    replies.forEach((reply, i) => {
      expect(reply.id, `${method} batch order`).to.equal(chunk[i].id)
      expect(reply.error, `${method} ${JSON.stringify(chunk[i].params)}`).to.equal(undefined)
      results.push(reply.result)
    })
  }
  return results
}

describe('load: 50 concurrent HTTP clients × 40 signed transfers on the realtime clock', function () {
  this.timeout(60_000)
  let chain: Chain
  let server: DevnetServer
  let url: string
  const sent: Sent[] = []
  const byClient: Sent[][] = []

  before(async () => {
    chain = await createChain({ clock: 'realtime', accounts: CLIENTS, blockTimeMs: 1000, preconfIntervalMs: 100 })
    server = await startServer(chain, { port: 0 })
    url = server.url
    // Sign everything up front (native secp256k1), so the clients only send.
    for (let client = 0; client < CLIENTS; client++) {
      const mine: Sent[] = []
      for (let nonce = 0; nonce < PER_CLIENT; nonce++) {
        const value = amountOf(client, nonce)
        const bytes = signEIP1559(chain.accounts[client].privateKey, {
          chainId: chain.options.chainId,
          nonce: BigInt(nonce),
          to: recipientOf(client),
          value,
          gas: 21_000n,
          maxFeePerGas: 100n * GWEI,
          maxPriorityFeePerGas: GWEI,
        })
        const raw = bytesToHex(bytes)
        const entry = { client, nonce, raw, hash: keccak256(raw), value }
        mine.push(entry)
        sent.push(entry)
      }
      byClient.push(mine)
    }
  })

  after(async () => {
    await server?.close()
  })

  it('admits all 2000 transactions (each send returns its hash), then seals each in exactly one block with status 1, exact recipient balances, sender nonces 40, nonce order per sender, status Unknown', async () => {
    const startBlock = BigInt((await post(url, { jsonrpc: '2.0', id: 0, method: 'eth_blockNumber', params: [] }) as { result: Hex }).result)
    // --- send: 50 clients at once, each its 40 transactions one after another (as a wallet does)
    const started = performance.now()
    const failures: string[] = []
    await Promise.all(
      byClient.map(async (transactions) => {
        for (const transaction of transactions) {
          const reply = (await post(url, { jsonrpc: '2.0', id: nextId++, method: 'eth_sendRawTransaction', params: [transaction.raw] })) as {
            result?: Hex
            error?: { code: number; message: string }
          }
          if (reply.result !== transaction.hash) failures.push(`client ${transaction.client} nonce ${transaction.nonce}: ${JSON.stringify(reply.error ?? reply.result)}`)
        }
      }),
    )
    const admittedMs = performance.now() - started
    expect(failures, 'every send returns the transaction hash').to.deep.equal([])

    // --- wait (poll) until every transaction has a receipt in a sealed block (a real block hash)
    const hashes = sent.map((transaction) => transaction.hash)
    let receipts: (Receipt | null)[] = []
    const deadline = Date.now() + 30_000
    for (;;) {
      receipts = (await batch(url, 'eth_getTransactionReceipt', hashes.map((hash) => [hash]))) as (Receipt | null)[]
      if (receipts.every((receipt) => receipt !== null && receipt.blockHash !== ZERO_HASH)) break
      if (Date.now() > deadline) {
        const waiting = receipts.filter((receipt) => receipt === null || receipt.blockHash === ZERO_HASH).length
        expect.fail(`${waiting} of ${TOTAL} transactions not sealed after 30 s`)
      }
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    const sealedMs = performance.now() - started
    console.log(
      `      load: ${TOTAL} txs admitted in ${admittedMs.toFixed(0)} ms (${((TOTAL * 1000) / admittedMs).toFixed(0)} tx/s over HTTP, ${CLIENTS} clients), all sealed after ${sealedMs.toFixed(0)} ms`,
    )

    // --- receipts: status 1, the right sender and recipient
    receipts.forEach((receipt, i) => {
      const transaction = sent[i]
      expect(receipt!.transactionHash).to.equal(transaction.hash)
      expect(receipt!.status, `client ${transaction.client} nonce ${transaction.nonce}`).to.equal('0x1')
      expect(receipt!.from.toLowerCase()).to.equal(chain.accounts[transaction.client].address.toLowerCase())
      expect(receipt!.to.toLowerCase()).to.equal(recipientOf(transaction.client))
    })

    // --- blocks: every transaction in exactly one block, 2000 in all, matching the receipts
    const head = BigInt((await post(url, { jsonrpc: '2.0', id: 0, method: 'eth_blockNumber', params: [] }) as { result: Hex }).result)
    const numbers: bigint[] = []
    for (let number = startBlock + 1n; number <= head; number++) numbers.push(number)
    const blocks = (await batch(url, 'eth_getBlockByNumber', numbers.map((number) => [`0x${number.toString(16)}`, false]))) as { hash: Hex; number: Hex; transactions: Hex[] }[]
    const where = new Map<Hex, { blockHash: Hex; blockNumber: Hex; index: number }>()
    let total = 0
    for (const block of blocks) {
      block.transactions.forEach((hash, index) => {
        expect(where.has(hash), `${hash} appears in two blocks`).to.equal(false)
        where.set(hash, { blockHash: block.hash, blockNumber: block.number, index })
      })
      total += block.transactions.length
    }
    expect(total, 'transactions across the sealed blocks').to.equal(TOTAL)
    expect(new Set(where.keys())).to.deep.equal(new Set(hashes))
    receipts.forEach((receipt) => {
      const location = where.get(receipt!.transactionHash)!
      expect({ blockHash: receipt!.blockHash, blockNumber: receipt!.blockNumber, index: Number(receipt!.transactionIndex) }).to.deep.equal(location)
    })

    // --- each sender's transactions are included in nonce order
    for (const transactions of byClient) {
      const order = transactions
        .map((transaction) => ({ nonce: transaction.nonce, at: where.get(transaction.hash)! }))
        .sort((a, b) => Number(BigInt(a.at.blockNumber) - BigInt(b.at.blockNumber)) || a.at.index - b.at.index)
        .map(({ nonce }) => nonce)
      expect(order).to.deep.equal([...Array(PER_CLIENT).keys()])
    }

    // --- balances and nonces, at latest (sealed) and pending
    const expectedBalances = byClient.map((transactions) => `0x${transactions.reduce((sum, transaction) => sum + transaction.value, 0n).toString(16)}`)
    for (const tag of ['latest', 'pending']) {
      const balances = await batch(url, 'eth_getBalance', byClient.map((_, client) => [recipientOf(client), tag]))
      expect(balances, `recipient balances at ${tag}`).to.deep.equal(expectedBalances)
      const nonces = await batch(url, 'eth_getTransactionCount', byClient.map((_, client) => [chain.accounts[client].address, tag]))
      expect(nonces, `sender nonces at ${tag}`).to.deep.equal(byClient.map(() => `0x${PER_CLIENT.toString(16)}`))
    }

    // --- Base's status: Unknown once sealed
    const statuses = await batch(url, 'service_transactionStatus', hashes.map((hash) => [hash]))
    expect(statuses.filter((status) => (status as { status: string }).status !== 'Unknown')).to.deep.equal([])
  })
})
