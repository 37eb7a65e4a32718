/**
 * Contracts and signed transactions for the server specs: Counter and Token deployed with real
 * creation transactions, and the calls whose logs the subscriptions and eth_getLogs follow.
 */
import { padHex, toEventSelector } from 'viem'
import { Counter } from '../../fixtures/artifacts/Counter.ts'
import { Token } from '../../fixtures/artifacts/Token.ts'
import type { Chain } from '../../lib/index.ts'
import type { Address, Hex } from '../../lib/types.ts'
import { deploy, signCall, type RpcLog, type Signer } from './chain-helpers.ts'
import { signer } from './wallet.ts'

/** keccak256('Incremented(address,uint256)'): Counter.increment's event. */
export const INCREMENTED = toEventSelector('Incremented(address,uint256)') as Hex
/** keccak256('Transfer(address,address,uint256)'): Token's transfer event. */
export const TRANSFER = toEventSelector('Transfer(address,address,uint256)') as Hex
/** Token's initial supply, minted to the deployer (alice). */
export const SUPPLY = 10n ** 24n

/** An address as an indexed topic (32 bytes, lowercase). */
export function topicOf(address: Address): Hex {
  return padHex(address.toLowerCase() as Hex, { size: 32 })
}

/** A uint256 as log data. */
export function word(value: bigint): Hex {
  return `0x${value.toString(16).padStart(64, '0')}`
}

/** The dev accounts the server specs use, and the deployed contracts. */
export interface Scene {
  /** Account 0: deployed both contracts (nonces 0 and 1), holds the whole token supply. */
  alice: Signer
  bob: Signer
  carol: Signer
  dave: Signer
  counter: Address
  token: Address
}

/** Deploys Counter (block 1) and Token('Token', 'TKN', SUPPLY) (block 2) from alice; both sealed. */
export async function deployScene(chain: Chain): Promise<Scene> {
  const alice = signer(chain, 0)
  const counter = (await deploy(chain, alice, Counter, [], 0)).toLowerCase() as Address
  const token = (await deploy(chain, alice, Token, ['Token', 'TKN', SUPPLY], 1)).toLowerCase() as Address
  return { alice, bob: signer(chain, 1), carol: signer(chain, 2), dave: signer(chain, 3), counter, token }
}

/**
 * The log of the scene's first Counter.increment (count 1) by `by`, the first transaction of
 * block 3, as RPC returns it: `blockHash` is ZERO_HASH while pre-confirmed, the real hash once sealed.
 */
export function firstIncrementLog(counter: Address, by: Address, transactionHash: Hex, blockHash: Hex, blockTimestamp: Hex): RpcLog {
  return {
    address: counter,
    topics: [INCREMENTED, topicOf(by)],
    data: word(1n),
    blockNumber: '0x3',
    transactionHash,
    transactionIndex: '0x0',
    blockHash,
    blockTimestamp,
    logIndex: '0x0',
    removed: false,
  }
}

/** A signed Counter.increment() (emits Incremented(by = sender, count)). */
export function signIncrement(from: Signer, counter: Address, nonce: number): Promise<Hex> {
  return signCall(from, counter, Counter.abi, 'increment', [], { nonce })
}

/** A signed Token.transfer(to, value) (emits Transfer(from, to, value)). */
export function signTokenTransfer(from: Signer, token: Address, to: Address, value: bigint, nonce: number): Promise<Hex> {
  return signCall(from, token, Token.abi, 'transfer', [to, value], { nonce })
}

/** A signed plain ETH transfer (no logs). */
export function signEthTransfer(from: Signer, to: Address, nonce: number, value = 1n): Promise<Hex> {
  return from.sign({ to, value, nonce })
}
