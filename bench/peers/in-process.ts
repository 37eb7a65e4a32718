/**
 * The peer workload in-process, the same JSON-RPC requests to any node (ours through
 * `chain.request`, Hardhat's EDR provider through its `request`): an ERC-20 deployed and sealed
 * five times, 2000 signed ETH transfers admitted then sealed by evm_mine, 2000 ERC-20 transfers
 * sealed likewise, 10k reads of each kind and 5k `balanceOf` eth_calls.
 */
import { median, timed } from '../measure.ts'
import type { Phase } from './rounds.ts'
import type { RpcNode } from './rpc-node.ts'
import { balanceOfData, TRANSFERS, type Workload } from './transactions.ts'

const READS = 10_000
const CALLS = 5_000

/** What one in-process round measured on one node (rates per second; the deploy in ms). */
export interface InProcessFigures {
  readonly deployMs: number
  readonly sendRawTransaction: number
  readonly sealEth: number
  readonly sealErc20: number
  readonly getBalance: number
  readonly getStorageAt: number
  readonly getCode: number
  readonly call: number
}

/** The workload's phases, in order, on a fresh node: every figure is a rate but the deploy's time. */
export function inProcessPhases(workload: Workload): Array<Phase<InProcessFigures>> {
  const { token, holder } = workload
  const balanceOf = balanceOfData(holder)
  const send = (node: RpcNode, raw: string) => node.request('eth_sendRawTransaction', [raw])
  const phase = (name: keyof InProcessFigures, run: (node: RpcNode) => Promise<number>): Phase<InProcessFigures> => ({ name, run: async (node) => ({ [name]: await run(node) }) })
  return [
    phase('deployMs', async (node) => {
      const times: number[] = []
      for (const deploy of workload.deploys) times.push(await timed(async () => (await send(node, deploy), await node.request('evm_mine', []))))
      if ((await node.request('eth_getCode', [token, 'latest'])) === '0x') throw new Error(`${node.name}: no token at ${token} after the deploys`)
      for (const raw of workload.funding) await send(node, raw)
      await node.request('evm_mine', [])
      await check(node, workload.funding.length)
      return median(times)
    }),
    phase('sendRawTransaction', async (node) => {
      const elapsed = await timed(async () => {
        for (const raw of workload.ethTransfers) await send(node, raw)
      })
      return (TRANSFERS / elapsed) * 1000
    }),
    phase('sealEth', async (node) => {
      const elapsed = await timed(() => node.request('evm_mine', []))
      await check(node, TRANSFERS)
      return (TRANSFERS / elapsed) * 1000
    }),
    phase('sealErc20', async (node) => {
      for (const raw of workload.erc20Transfers) await send(node, raw)
      const elapsed = await timed(() => node.request('evm_mine', []))
      await check(node, TRANSFERS)
      return (TRANSFERS / elapsed) * 1000
    }),
    phase('getBalance', (node) => countRate(() => node.request('eth_getBalance', [holder, 'latest']), READS)),
    phase('getStorageAt', (node) => countRate(() => node.request('eth_getStorageAt', [token, '0x2', 'latest']), READS)),
    phase('getCode', (node) => countRate(() => node.request('eth_getCode', [token, 'latest']), READS)),
    // The calldata is encoded once: encoding it (viem's work, a client's) is not the node's.
    phase('call', (node) => countRate(() => node.request('eth_call', [{ to: token, data: balanceOf }, 'latest']), CALLS)),
  ]
}

/** Throws unless the latest block holds `count` transactions and the last succeeded. */
async function check(node: RpcNode, count: number): Promise<void> {
  const block = (await node.request('eth_getBlockByNumber', ['latest', false])) as { transactions: string[] }
  const last = block.transactions.at(-1)
  const receipt = last === undefined ? undefined : ((await node.request('eth_getTransactionReceipt', [last])) as { status: string })
  if (block.transactions.length !== count || receipt?.status !== '0x1') {
    throw new Error(`${node.name}: evm_mine sealed ${block.transactions.length} transactions (expected ${count}), the last with status ${receipt?.status}`)
  }
}

/** Operations per second of `count` runs of `operation`, after a tenth as many untimed. */
async function countRate(operation: () => Promise<unknown>, count: number): Promise<number> {
  for (let i = 0; i < count / 10; i++) await operation()
  const elapsed = await timed(async () => {
    for (let i = 0; i < count; i++) await operation()
  })
  return (count / elapsed) * 1000
}
