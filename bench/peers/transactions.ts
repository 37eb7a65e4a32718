/**
 * The peer workload's transactions, signed once and sent as the same bytes to every node (all
 * start from the same 20 funded dev accounts, chain id and base fee): ERC-20 deploys, the
 * token's funding of the senders, 2000 ETH transfers and 2000 ERC-20 transfers from 20 senders,
 * and the long run of transfers the HTTP load sends.
 */
import { bytesToHex, hexToBytes } from '@ethereumjs/util'
import { encodeDeployData, encodeFunctionData, getContractAddress } from 'viem'
import type { Chain } from 'preconf-devnet'
import { Token } from '../../fixtures/artifacts/Token.ts'
import type { Address, Hex } from '../../lib/types.ts'
import { signEIP1559, syntheticAddress, transfers } from '../signing.ts'

const GWEI = 1_000_000_000n
/** ERC-20 deploys at the start (account 0's nonces 0 to 4): the first is the token the workload uses. */
export const DEPLOYS = 5
/** ETH transfers sealed in one block, and ERC-20 transfers in another. */
export const TRANSFERS = 2000
/** Transfers signed for the HTTP sendRawTransaction load (more than any node admits in its run). */
const HTTP_TRANSFERS = 30_000

/** Every signed transaction of the workload, as hex, in the order they are sent. */
export interface Workload {
  /** The token the first deploy creates. */
  readonly token: Address
  /** The account whose balance and token balance the reads ask for. */
  readonly holder: Address
  readonly deploys: readonly Hex[]
  /** Token transfers from account 0 to accounts 1–19, so that each can send ERC-20 transfers. */
  readonly funding: readonly Hex[]
  readonly ethTransfers: readonly Hex[]
  readonly erc20Transfers: readonly Hex[]
  /** For a node holding only the first deploy: transfers from every account, account 0 from nonce 1. */
  readonly httpTransfers: readonly Hex[]
}

/** Signs the workload with `chain`'s dev accounts and chain id. */
export function signWorkload(chain: Chain): Workload {
  const owner = chain.accounts[0]
  const chainId = chain.options.chainId
  const sign = (nonce: number, to: Address | undefined, data: Hex, gas: bigint): Hex =>
    bytesToHex(signEIP1559(owner.privateKey, { chainId, nonce: BigInt(nonce), to, data: hexToBytes(data), gas, maxFeePerGas: 100n * GWEI, maxPriorityFeePerGas: GWEI })) as Hex
  const initCode = encodeDeployData({ abi: Token.abi, bytecode: Token.bytecode, args: ['Token', 'TKN', 10n ** 30n] })
  const deploys = Array.from({ length: DEPLOYS }, (_, nonce) => sign(nonce, undefined, initCode, 2_000_000n))
  const token = getContractAddress({ from: owner.address, nonce: 0n }).toLowerCase() as Address
  const transferData = (to: Address, amount: bigint) => encodeFunctionData({ abi: Token.abi, functionName: 'transfer', args: [to, amount] })
  const funding = chain.accounts.slice(1).map((account, i) => sign(DEPLOYS + i, token, transferData(account.address, 10n ** 24n), 100_000n))
  const afterFunding = BigInt(DEPLOYS + funding.length)
  const hex = (raws: Uint8Array[]) => raws.map((raw) => bytesToHex(raw) as Hex)
  const ethTransfers = hex(transfers(chain, TRANSFERS, (sender) => (sender === 0 ? afterFunding : 0n), syntheticAddress))
  const perSender = BigInt(TRANSFERS / chain.accounts.length)
  const erc20Transfers = hex(
    transfers(
      chain,
      TRANSFERS,
      (sender) => (sender === 0 ? afterFunding : 0n) + perSender,
      syntheticAddress,
      (i) => ({ to: token, gas: 100_000n, data: hexToBytes(transferData(syntheticAddress(TRANSFERS + i), 1n)) }),
    ),
  )
  const httpTransfers = hex(transfers(chain, HTTP_TRANSFERS, (sender) => (sender === 0 ? 1n : 0n), syntheticAddress))
  return { token, holder: chain.accounts[3].address, deploys, funding, ethTransfers, erc20Transfers, httpTransfers }
}

/** The calldata of `balanceOf(holder)`. */
export function balanceOfData(holder: Address): Hex {
  return encodeFunctionData({ abi: Token.abi, functionName: 'balanceOf', args: [holder] })
}
