import { Address as EVMAddress, createAddressFromString } from '@ethereumjs/util'
import { expect } from 'chai'
import { addressKey, evmAddress, journalKey } from '../../lib/state/evm-address.ts'

const MIXED = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const LOWER = MIXED.toLowerCase()

describe('state/evm-address', () => {
  it('makes one address object per address, equal to the library’s own in every method the EVM uses', () => {
    const made = evmAddress(LOWER)
    const library = createAddressFromString(LOWER)
    expect(evmAddress(LOWER)).to.equal(made)
    expect(made).to.be.instanceOf(EVMAddress)
    expect(made.bytes).to.deep.equal(library.bytes)
    expect(made.toString()).to.equal(library.toString())
    expect(made.equals(library)).to.equal(true)
    expect(library.equals(made)).to.equal(true)
    expect(made.isZero()).to.equal(false)
    expect(evmAddress(`0x${'0'.repeat(40)}`).isZero()).to.equal(true)
  })

  it('keys a checksummed spelling in lowercase, as the engine and the journal key addresses', () => {
    const made = evmAddress(MIXED)
    expect(made.toString()).to.equal(LOWER)
    expect(addressKey(made)).to.equal(LOWER)
    expect(journalKey(made)).to.equal(LOWER.slice(2))
  })

  it('keys addresses the library made itself (a contract’s, a call’s target) from their bytes', () => {
    const library = new EVMAddress(createAddressFromString(MIXED).bytes)
    expect(addressKey(library)).to.equal(LOWER)
    expect(journalKey(library)).to.equal(LOWER.slice(2))
    expect(journalKey(library)).to.equal(journalKey(library))
  })

  it('stays right past its table’s bound: every address still spells itself, old or new', () => {
    const spelled = (n: number) => `0x${n.toString(16).padStart(40, '0')}`
    const first = evmAddress(spelled(1))
    for (let n = 2; n < 20_000; n++) expect(addressKey(evmAddress(spelled(n)))).to.equal(spelled(n))
    const again = evmAddress(spelled(1))
    expect(addressKey(again)).to.equal(spelled(1))
    expect(again.equals(first)).to.equal(true)
  })
})
