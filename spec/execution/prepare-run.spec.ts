/**
 * A run's EIP-2929 warm set (lib/execution/prepare-run.ts): every precompile of the EVM's rules,
 * the sender, the recipient, the coinbase and the access list start warm; nothing else does, and
 * a run's access list does not leak into the next run (the precompiles' set is shared between
 * runs, each run reading through it under entries of its own).
 */
import { expect } from 'chai'
import { hexToBytes } from '@ethereumjs/util'
import { prepareRun } from '../../lib/execution/prepare-run.ts'
import type { Address } from '../../lib/types.ts'
import { executionEnvironment, TEST_BLOCK } from '../support/execution-world.ts'

const SENDER = '0x00000000000000000000000000000000000a11ce' as Address
const RECIPIENT = '0x0000000000000000000000000000000000000b0b' as Address
const STRANGER = '0x000000000000000000000000000000000000c0de' as Address
const ECRECOVER = '0x0000000000000000000000000000000000000001' as Address
const SLOT = `0x${'0'.repeat(63)}7` as const

describe('execution/prepare-run: what a run starts warm', () => {
  it('warms every precompile, the sender, the recipient, the coinbase and the access list, and the next run starts afresh', () => {
    const { evm } = executionEnvironment()
    const { journal } = evm
    const warm = (address: string) => journal.isWarmedAddress(hexToBytes(address as Address))
    const warmSlot = (address: string, slot: string) => journal.isWarmedStorage(hexToBytes(address as Address), hexToBytes(slot as Address))
    const precompiles = [...evm.precompiles.keys()].map((key) => `0x${key}`)
    // Prague's: ecrecover to the BLS12-381 ones.
    expect(precompiles.length).to.be.at.least(17)

    prepareRun(evm, SENDER, RECIPIENT, TEST_BLOCK.coinbase, [{ address: ECRECOVER, storageKeys: [SLOT] }, { address: STRANGER, storageKeys: [SLOT] }])
    for (const address of [...precompiles, SENDER, RECIPIENT, TEST_BLOCK.coinbase, STRANGER]) expect(warm(address), address).to.equal(true)
    expect(warmSlot(ECRECOVER, SLOT)).to.equal(true)
    expect(warmSlot(STRANGER, SLOT)).to.equal(true)

    prepareRun(evm, SENDER, undefined, TEST_BLOCK.coinbase, [])
    for (const address of precompiles) expect(warm(address), address).to.equal(true)
    expect(warm(RECIPIENT)).to.equal(false)
    expect(warm(STRANGER)).to.equal(false)
    expect(warmSlot(ECRECOVER, SLOT)).to.equal(false)
  })
})
