import { expect } from 'chai'
import { MerkleStateManager } from '@ethereumjs/statemanager'
import { Account, bigIntToUnpaddedBytes, bytesToHex, createAddressFromString, hexToBytes, setLengthLeft } from '@ethereumjs/util'
import { encodeAbiParameters, encodeDeployData, encodeFunctionData, getContractAddress, keccak256, parseEther } from 'viem'
import { Token } from '../../fixtures/artifacts/Token.ts'
import { createChain, type Chain } from '../../lib/index.ts'
import { DETERMINISTIC_DEPLOYMENT_PROXY, HISTORY_STORAGE } from '../../lib/execution/system-contracts.ts'
import type { Address, Hex } from '../../lib/types.ts'
import { signer } from '../support/wallet.ts'

function mappingSlot(key: Address, slot: bigint): Hex {
  return keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [key, slot]))
}

/** Rebuilds the state an ethereumjs node would hold, from the chain's own answers at `latest`. */
async function referenceRoot(chain: Chain, accounts: Address[], storage: Record<Address, Hex[]>): Promise<Hex> {
  const reference = new MerkleStateManager()
  for (const address of accounts) {
    const key = createAddressFromString(address)
    const balance = await chain.getBalance(address)
    const nonce = BigInt(await chain.getTransactionCount(address))
    const code = await chain.getCode(address)
    if (balance === 0n && nonce === 0n && code === '0x') continue
    await reference.putAccount(key, new Account(nonce, balance))
    if (code !== '0x') await reference.putCode(key, hexToBytes(code))
    for (const slot of storage[address] ?? []) {
      const value = BigInt(await chain.getStorageAt(address, slot))
      if (value !== 0n) await reference.putStorage(key, setLengthLeft(hexToBytes(slot), 32), bigIntToUnpaddedBytes(value))
    }
  }
  return bytesToHex(await reference.getStateRoot()) as Hex
}

describe('state/state-root', () => {
  it('matches @ethereumjs/statemanager after a deployment, storage writes and transfers', async () => {
    const chain = await createChain({ accounts: 3 })
    const alice = signer(chain, 0)
    const bob = chain.accounts[1].address
    await chain.sendRawTransaction(await alice.sign({ to: null, gas: 2_000_000n, data: encodeDeployData({ abi: Token.abi, bytecode: Token.bytecode, args: ['Token', 'TKN', 1000n] }) }))
    const token = getContractAddress({ from: alice.address, nonce: 0n })
    await chain.sendRawTransaction(await alice.sign({ nonce: 1, to: token, gas: 100_000n, data: encodeFunctionData({ abi: Token.abi, functionName: 'transfer', args: [bob, 250n] }) }))
    await chain.sendRawTransaction(await alice.sign({ nonce: 2, to: bob, value: parseEther('3') }))
    await chain.clock.advance(2000)

    const block = (await chain.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as { stateRoot: Hex; transactions: unknown[] }
    expect(block.transactions).to.have.length(3)
    const accounts = [...chain.accounts.map((account) => account.address), chain.options.coinbase, token.toLowerCase() as Address, DETERMINISTIC_DEPLOYMENT_PROXY, HISTORY_STORAGE]
    const slots = [0n, 1n, 2n].map((slot) => `0x${slot.toString(16)}` as Hex)
    slots.push(mappingSlot(alice.address, 3n), mappingSlot(bob, 3n))
    // Block 1 wrote the genesis hash into slot 0 of EIP-2935's ring.
    expect(block.stateRoot).to.equal(await referenceRoot(chain, accounts, { [token.toLowerCase()]: slots, [HISTORY_STORAGE]: ['0x0'] }))
  })

  it('changes only when state changes: before Prague, an empty block keeps its parent state root', async () => {
    const chain = await createChain({ hardfork: 'cancun' })
    await chain.clock.advance(4000)
    const one = (await chain.request({ method: 'eth_getBlockByNumber', params: ['0x1', false] })) as { stateRoot: Hex }
    const two = (await chain.request({ method: 'eth_getBlockByNumber', params: ['0x2', false] })) as { stateRoot: Hex }
    expect(two.stateRoot).to.equal(one.stateRoot)
  })
})
