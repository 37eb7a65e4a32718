/**
 * A manual-clock chain with four sealed blocks of varied history, for the state-dump specs:
 * deployments (Counter, Token), logs, an ETH transfer, an impersonated sender, test-control
 * edits (setBalance, setCode, setStorageAt) before and after blocks, a creation that wipes
 * storage set beforehand (EIP-7610 aside, geth and ethereumjs clear it), a contract created and
 * self-destructed in one transaction (EIP-6780 deletes it), an empty block after
 * evm_increaseTime, and a next-block timestamp set but not yet used.
 */
import { encodeFunctionData, getContractAddress } from 'viem'
import { Counter } from '../../fixtures/artifacts/Counter.ts'
import { Token } from '../../fixtures/artifacts/Token.ts'
import { createChain, type Chain } from '../../lib/index.ts'
import type { Address, Hash, Hex } from '../../lib/types.ts'
import { sendDeploy, signCall } from './chain-helpers.ts'
import { signer } from './wallet.ts'

export const ETHER = 10n ** 18n
/** A sender with no key, funded by setBalance, sending through anvil_impersonateAccount. */
export const IMPERSONATED = '0x00000000000000000000000000000000000be5e1' as Address
/** An address given code and a storage word by test controls. */
export const CODE_HOLDER = '0x000000000000000000000000000000000000c0de' as Address
/** The code setCode puts there (PUSH1 1, PUSH1 0, RETURN). */
export const HELD_CODE = '0x60016000f3' as Hex
/** Where dev 2 sends 1 ether in block 1. */
export const RECIPIENT = '0x00000000000000000000000000000000000000aa' as Address
/** The timestamp evm_setNextBlockTimestamp gives block 5 (not sealed when the world is built). */
export const NEXT_TIMESTAMP = 1_735_700_000n

/** What the world holds, by name. */
export interface World {
  readonly chain: Chain
  readonly counter: Address
  readonly token: Address
  /** Dev 5's first creation: storage word 7 set there before block 1, wiped by the creation in block 2. */
  readonly wiped: Address
  /** Dev 6's first creation: funded and given storage before block 1, created and self-destructed in block 2. */
  readonly destroyed: Address
  /** Every transaction hash, in order. */
  readonly transactions: readonly Hash[]
  /** The impersonated sender's transaction (block 2). */
  readonly impersonatedTransaction: Hash
  /** Every address the specs read, and the storage slots read at each. */
  readonly addresses: readonly Address[]
  readonly slots: readonly bigint[]
}

const call = (to: Address, functionName: 'increment' | 'count') => ({ to, data: encodeFunctionData({ abi: Counter.abi, functionName }) })

/** Builds the world on a fresh manual-clock chain (chain id 31337). */
export async function buildWorld(): Promise<World> {
  const chain = await createChain({ clock: 'manual' })
  const dev = (i: number) => signer(chain, i)
  const wiped = getContractAddress({ from: dev(5).address, nonce: 0n }).toLowerCase() as Address
  const destroyed = getContractAddress({ from: dev(6).address, nonce: 0n }).toLowerCase() as Address
  const transactions: Hash[] = []

  // Before block 1: test-control edits, two deployments and a transfer.
  await chain.setBalance(IMPERSONATED, 5n * ETHER)
  await chain.setCode(CODE_HOLDER, HELD_CODE)
  await chain.setStorageAt(CODE_HOLDER, 1n, 0x42n)
  await chain.setStorageAt(wiped, 7n, 0x77n)
  await chain.setBalance(destroyed, ETHER)
  await chain.setStorageAt(destroyed, 3n, 0x33n)
  const counter = await sendDeploy(chain, dev(0), Counter)
  const token = await sendDeploy(chain, dev(1), Token, ['Token', 'TKN', 1000n])
  transactions.push(counter.hash, token.hash, await chain.sendRawTransaction(await dev(2).sign({ to: RECIPIENT, value: ETHER })))
  await chain.tick()
  await chain.mine()

  // Block 2, sealed by the clock: logs, an impersonated sender, the wipe and the self-destruct.
  transactions.push(await chain.sendRawTransaction(await signCall(dev(0), counter.address, Counter.abi, 'increment', [], { nonce: 1 })))
  transactions.push(await chain.sendRawTransaction(await signCall(dev(1), token.address, Token.abi, 'transfer', [dev(3).address, 100n], { nonce: 1 })))
  await chain.request({ method: 'anvil_impersonateAccount', params: [IMPERSONATED] })
  const impersonatedTransaction = (await chain.request({ method: 'eth_sendTransaction', params: [{ from: IMPERSONATED, ...call(counter.address, 'increment'), gas: '0x30d40' }] })) as Hash
  transactions.push(impersonatedTransaction)
  transactions.push((await sendDeploy(chain, dev(5), Counter)).hash)
  // Initcode CALLER SELFDESTRUCT: created and destroyed in one transaction, its balance sent to dev 6.
  transactions.push(await chain.sendRawTransaction(await dev(6).sign({ to: null, data: '0x33ff', gas: 100_000n })))
  await chain.clock.advance(2000)

  // Block 3: edits after a block, then a write on top of an edited word (count 10 → 11).
  await chain.setBalance(chain.accounts[9].address, 123n)
  await chain.setStorageAt(counter.address, 0n, 10n)
  transactions.push(await chain.sendRawTransaction(await signCall(dev(0), counter.address, Counter.abi, 'increment', [], { nonce: 2 })))
  await chain.mine()

  // Block 4: empty, 100 s ahead of the clock; then block 5's timestamp is set but not sealed.
  await chain.increaseTime(100)
  await chain.clock.advance(2000)
  await chain.setNextBlockTimestamp(NEXT_TIMESTAMP)

  const addresses = [
    ...chain.accounts.map(({ address }) => address.toLowerCase() as Address),
    counter.address,
    token.address,
    wiped,
    destroyed,
    IMPERSONATED,
    CODE_HOLDER,
    RECIPIENT,
    chain.options.coinbase,
  ]
  return { chain, counter: counter.address, token: token.address, wiped, destroyed, transactions, impersonatedTransaction, addresses, slots: [0n, 1n, 3n, 7n] }
}

/** Counter's `count()` at `block`, read with eth_call. */
export async function countAt(chain: Chain, counter: Address, block: Hex | 'latest'): Promise<bigint> {
  return BigInt((await chain.request({ method: 'eth_call', params: [call(counter, 'count'), block] })) as Hex)
}
