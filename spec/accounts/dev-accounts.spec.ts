import { expect } from 'chai'
import { mnemonicToAccount } from 'viem/accounts'
import { DEFAULT_MNEMONIC, deriveAccounts, devAccounts } from '../../lib/accounts/dev-accounts.ts'
import { createChain } from '../../lib/index.ts'

describe('accounts/dev-accounts', () => {
  it("the built-in table is the default mnemonic's m/44'/60'/0'/0/i (checked by derivation)", () => {
    const table = devAccounts(DEFAULT_MNEMONIC, 20)
    expect(deriveAccounts(DEFAULT_MNEMONIC, 0, 20)).to.deep.equal(table)
  })

  it("matches viem's HD derivation, as Anvil and Hardhat derive (first is 0xf39F…2266)", () => {
    const [first] = devAccounts(DEFAULT_MNEMONIC, 1)
    expect(first.address).to.equal('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266')
    expect(devAccounts(DEFAULT_MNEMONIC, 3)[2].address).to.equal(mnemonicToAccount(DEFAULT_MNEMONIC, { addressIndex: 2 }).address)
  })

  it('derives past the table and for other mnemonics, once per process', () => {
    const mnemonic = 'legal winner thank year wave sausage worth useful legal winner thank yellow'
    const accounts = devAccounts(mnemonic, 2)
    expect(accounts[1].address).to.equal(mnemonicToAccount(mnemonic, { addressIndex: 1 }).address)
    expect(devAccounts(mnemonic, 2)[0]).to.equal(accounts[0])
    expect(devAccounts(DEFAULT_MNEMONIC, 21)[20].address).to.equal(mnemonicToAccount(DEFAULT_MNEMONIC, { addressIndex: 20 }).address)
  })

  it('funds each dev account with the configured balance at genesis', async () => {
    const chain = await createChain({ accounts: 3, balance: '1.5' })
    expect(chain.accounts).to.have.length(3)
    for (const { address } of chain.accounts) expect(await chain.getBalance(address, 'earliest')).to.equal(1_500_000_000_000_000_000n)
    expect(await chain.getBalance(devAccounts(DEFAULT_MNEMONIC, 4)[3].address)).to.equal(0n)
  })
})
