/**
 * Helpers for the chain specs: deploying fixtures with real signed creation transactions,
 * catching thrown RPC errors, and the JSON shapes of receipts and blocks.
 */
import { expect } from 'chai'
import { encodeDeployData, encodeFunctionData, getContractAddress, type Abi } from 'viem'
import type { Chain } from '../../lib/index.ts'
import type { Address, Hex } from '../../lib/types.ts'
import type { signer } from './wallet.ts'

export type Signer = ReturnType<typeof signer>

/** eth_getTransactionReceipt's JSON. */
export interface RpcLog {
  address: Hex
  topics: Hex[]
  data: Hex
  blockNumber: Hex
  transactionHash: Hex
  transactionIndex: Hex
  blockHash: Hex
  blockTimestamp: Hex
  logIndex: Hex
  removed: boolean
}
export interface RpcReceipt {
  transactionHash: Hex
  transactionIndex: Hex
  blockHash: Hex
  blockNumber: Hex
  from: Hex
  to: Hex | null
  cumulativeGasUsed: Hex
  gasUsed: Hex
  contractAddress: Hex | null
  logs: RpcLog[]
  logsBloom: Hex
  status: Hex
  effectiveGasPrice: Hex
  type: Hex
}

/** eth_getBlockByNumber's JSON (hashes only). */
export interface RpcBlock {
  number: Hex
  hash: Hex
  parentHash: Hex
  nonce: Hex
  sha3Uncles: Hex
  logsBloom: Hex
  transactionsRoot: Hex
  stateRoot: Hex
  receiptsRoot: Hex
  miner: Hex
  difficulty: Hex
  extraData: Hex
  size: Hex
  gasLimit: Hex
  gasUsed: Hex
  timestamp: Hex
  mixHash: Hex
  baseFeePerGas: Hex
  withdrawalsRoot?: Hex
  blobGasUsed: Hex
  excessBlobGas: Hex
  parentBeaconBlockRoot?: Hex
  requestsHash?: Hex
  transactions: Hex[]
}

/** 32 zero bytes: the pending block's hash and a pre-confirmed receipt's blockHash. */
export const ZERO_HASH = `0x${'0'.repeat(64)}` as Hex
export const ZERO_ADDRESS = `0x${'0'.repeat(40)}` as Address
/** keccak256(rlp('')): the root of an empty trie. */
export const EMPTY_TRIE_ROOT = '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421' as Hex

/**
 * The error a promise rejects with, checked to be a `kind` (any Error by default); fails the
 * test if the promise resolves.
 */
export async function rejection<T extends Error = Error & Record<string, any>>(
  promise: Promise<unknown>,
  kind?: abstract new (...args: never[]) => T,
): Promise<T> {
  try {
    await promise
  } catch (error) {
    expect(error).to.be.instanceOf(kind ?? Error)
    return error as T
  }
  return expect.fail('expected the promise to reject')
}

/** Signs and sends a creation transaction for `artifact`; returns the hash and the future address. */
export async function sendDeploy(
  chain: Chain,
  from: Signer,
  artifact: { abi: Abi; bytecode: Hex },
  args: readonly unknown[] = [],
  nonce = 0,
): Promise<{ hash: Hex; address: Address }> {
  const data = encodeDeployData({ abi: artifact.abi, bytecode: artifact.bytecode, args } as Parameters<typeof encodeDeployData>[0])
  const hash = await chain.sendRawTransaction(await from.sign({ to: null, data, gas: 3_000_000n, nonce }))
  return { hash, address: getContractAddress({ from: from.address, nonce: BigInt(nonce) }) as Address }
}

/** Deploys `artifact` and seals it (tick, then seal): the code is readable at `latest`. */
export async function deploy(
  chain: Chain,
  from: Signer,
  artifact: { abi: Abi; bytecode: Hex },
  args: readonly unknown[] = [],
  nonce = 0,
): Promise<Address> {
  const { hash, address } = await sendDeploy(chain, from, artifact, args, nonce)
  await chain.tick()
  await chain.mine()
  const receipt = await receiptOf(chain, hash)
  expect(receipt?.status, 'deployment status').to.equal('0x1')
  return address
}

/** Signs a call transaction to a contract. */
export async function signCall(
  from: Signer,
  to: Address,
  abi: Abi,
  functionName: string,
  args: readonly unknown[],
  fields: Parameters<Signer['sign']>[0] = {},
): Promise<Hex> {
  const data = encodeFunctionData({ abi, functionName, args } as Parameters<typeof encodeFunctionData>[0])
  return from.sign({ to, data, gas: 200_000n, ...fields })
}

export async function receiptOf(chain: Chain, hash: Hex): Promise<RpcReceipt | null> {
  return (await chain.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as RpcReceipt | null
}

export async function blockOf(chain: Chain, tag: Hex | 'latest' | 'pending' | 'safe' | 'finalized' | 'earliest'): Promise<RpcBlock | null> {
  return (await chain.request({ method: 'eth_getBlockByNumber', params: [tag, false] })) as RpcBlock | null
}

/** geth's CalcBaseFee (EIP-1559), written out independently of lib/. */
export function eip1559NextBaseFee(parentBaseFee: bigint, parentGasUsed: bigint, parentGasLimit: bigint): bigint {
  const target = parentGasLimit / 2n
  if (parentGasUsed === target) return parentBaseFee
  if (parentGasUsed > target) {
    const delta = (parentBaseFee * (parentGasUsed - target)) / target / 8n
    return parentBaseFee + (delta < 1n ? 1n : delta)
  }
  return parentBaseFee - (parentBaseFee * (target - parentGasUsed)) / target / 8n
}
