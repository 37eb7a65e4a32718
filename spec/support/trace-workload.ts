/**
 * The transactions the trace specs send to Anvil and to the devnet alike, to compare their
 * traces: Tracee deployed (it CREATEs a child in its constructor), nested(5) with 7 wei (CALL
 * with value, STATICCALL, DELEGATECALL, a caught revert), boom(5) (reverts), spawn(3, SALT)
 * (CREATE, CREATE2). Each is mined on both before the next is sent.
 */
import { expect } from 'chai'
import { encodeFunctionData, getContractAddress, type Hex } from 'viem'
import type { Chain } from '../../lib/index.ts'
import type { Address } from '../../lib/types.ts'
import type { AnvilNode } from './anvil-node.ts'
import { Tracee } from './trace-contracts.ts'
import { signer } from './wallet.ts'

/** The CREATE2 salt of spawn. */
export const SALT = `0x${'11'.repeat(32)}` as Hex

/** Calldata of a Tracee function. */
export const traceeCall = (functionName: 'nested' | 'boom' | 'spawn' | 'total', args: readonly unknown[] = []): Hex =>
  encodeFunctionData({ abi: Tracee.abi, functionName, args } as Parameters<typeof encodeFunctionData>[0])

/** One sent transaction of the workload. */
export interface SentTransaction {
  readonly hash: Hex
  readonly data: Hex
  readonly create: boolean
}

/** Sends the workload from the first dev account to `chain` and to `anvil` (the same signed bytes); returns Tracee's address and the transactions. */
export async function sendTraceWorkload(chain: Chain, anvil: AnvilNode): Promise<{ tracee: Address; sent: SentTransaction[] }> {
  const alice = signer(chain, 0)
  const tracee = getContractAddress({ from: alice.address, nonce: 0n }).toLowerCase() as Address
  // Fee cap 10 gwei, tip 1 gwei: both nodes start at a 1 gwei base fee and accept them. Gas does not depend on the base fee.
  const transactions = [
    { to: null, data: Tracee.bytecode as Hex, gas: 1_000_000n },
    { to: tracee, data: traceeCall('nested', [5n]), value: 7n, gas: 300_000n },
    { to: tracee, data: traceeCall('boom', [5n]), gas: 300_000n },
    { to: tracee, data: traceeCall('spawn', [3n, SALT]), gas: 600_000n },
  ]
  const sent: SentTransaction[] = []
  for (const [nonce, fields] of transactions.entries()) {
    const raw = await alice.sign({ ...fields, nonce })
    const hash = await chain.sendRawTransaction(raw)
    expect(await anvil.request('eth_sendRawTransaction', [raw])).to.equal(hash)
    await anvil.mined(hash)
    sent.push({ hash, data: fields.data, create: fields.to === null })
  }
  return { tracee, sent }
}
