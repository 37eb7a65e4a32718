/**
 * The soak's setup against a running node: the dev accounts' keys (derived here from the
 * mnemonic, as the node derives them), an ERC-20 for the eth_call reads (deployed by the last
 * dev account, so the senders' nonces start where the node says), and the senders' nonces.
 */
import { bytesToHex } from '@ethereumjs/util'
import { encodeDeployData, getContractAddress, hexToBytes } from 'viem'
import { Token } from '../fixtures/artifacts/Token.ts'
import { DEFAULT_MNEMONIC, devAccounts } from '../lib/accounts/dev-accounts.ts'
import type { Address } from '../lib/types.ts'
import type { RpcClient } from './soak-http.ts'
import type { Sender } from './soak-senders.ts'
import { signEIP1559, syntheticAddress } from './signing.ts'

const GWEI = 1_000_000_000n

/** What the timed run needs from the node. */
export interface Setup {
  chainId: number
  /** The ERC-20 the eth_call reads ask. */
  token: Address
  senders: Sender[]
  /** The senders' addresses (the reads ask about them). */
  holders: Address[]
  /** Where the transfers go: 1,000 fresh addresses, cycled. */
  recipients: Address[]
}

/** Derives `accounts` dev accounts of `mnemonic`, deploys the token from the last and reads the others' nonces. */
export async function prepare(client: RpcClient, accounts: number, mnemonic = DEFAULT_MNEMONIC): Promise<Setup> {
  const keys = devAccounts(mnemonic, accounts)
  const served = await client.call<string[]>('eth_accounts')
  if (served[0]?.toLowerCase() !== keys[0].address.toLowerCase()) throw new Error(`the node's first account is ${served[0]}, not ${keys[0].address}: pass the same --mnemonic`)
  const chainId = Number(await client.call<string>('eth_chainId'))
  const deployer = keys[accounts - 1]
  const nonce = BigInt(await client.call<string>('eth_getTransactionCount', [deployer.address, 'pending']))
  const data = hexToBytes(encodeDeployData({ abi: Token.abi, bytecode: Token.bytecode, args: ['Token', 'TKN', 10n ** 30n] }))
  const raw = signEIP1559(deployer.privateKey, { chainId, nonce, data, gas: 3_000_000n, maxFeePerGas: 100n * GWEI, maxPriorityFeePerGas: GWEI })
  const hash = await client.call<string>('eth_sendRawTransaction', [bytesToHex(raw)])
  await receipt(client, hash)
  const senders = keys.slice(0, accounts - 1)
  const nonces = await Promise.all(senders.map(({ address }) => client.call<string>('eth_getTransactionCount', [address, 'pending'])))
  return {
    chainId,
    token: getContractAddress({ from: deployer.address, nonce }).toLowerCase() as Address,
    senders: senders.map(({ address, privateKey }, i) => ({ address: address.toLowerCase() as Address, privateKey, nonce: BigInt(nonces[i]) })),
    holders: senders.map(({ address }) => address.toLowerCase() as Address),
    recipients: Array.from({ length: 1000 }, (_, i) => syntheticAddress(i)),
  }
}

/** Waits (up to 10 s) for `hash`'s receipt, pre-confirmed or sealed; throws if it failed. */
async function receipt(client: RpcClient, hash: string): Promise<void> {
  const deadline = performance.now() + 10_000
  while (performance.now() < deadline) {
    const found = await client.call<{ status: string } | null>('eth_getTransactionReceipt', [hash])
    if (found !== null) {
      if (found.status !== '0x1') throw new Error(`the token's deployment ${hash} failed`)
      return
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`the token's deployment ${hash} has no receipt after 10 s`)
}
