import { expect } from 'chai'
import { createBlockHeader } from '@ethereumjs/block'
import { Mainnet, createCustomCommon } from '@ethereumjs/common'
import { bytesToHex, hexToBytes } from '@ethereumjs/util'
import { parseEther } from 'viem'
import { nextBaseFee } from '../../lib/blocks/base-fee.ts'
import { systemContracts } from '../../lib/execution/system-contracts.ts'
import { createChain } from '../../lib/index.ts'
import { signer } from '../support/wallet.ts'

type BlockJSON = Record<string, string>

/** The hash @ethereumjs/block computes for a block as `eth_getBlockByNumber` returns it. */
function referenceHash(block: BlockJSON, hardfork: 'cancun' | 'prague'): string {
  const common = createCustomCommon({ chainId: 31337 }, Mainnet, { hardfork })
  const header = createBlockHeader(
    {
      parentHash: block.parentHash as `0x${string}`,
      uncleHash: block.sha3Uncles as `0x${string}`,
      coinbase: block.miner as `0x${string}`,
      stateRoot: block.stateRoot as `0x${string}`,
      transactionsTrie: block.transactionsRoot as `0x${string}`,
      receiptTrie: block.receiptsRoot as `0x${string}`,
      logsBloom: block.logsBloom as `0x${string}`,
      difficulty: 0n,
      number: BigInt(block.number),
      gasLimit: BigInt(block.gasLimit),
      gasUsed: BigInt(block.gasUsed),
      timestamp: BigInt(block.timestamp),
      extraData: block.extraData as `0x${string}`,
      mixHash: block.mixHash as `0x${string}`,
      nonce: block.nonce as `0x${string}`,
      baseFeePerGas: BigInt(block.baseFeePerGas),
      withdrawalsRoot: block.withdrawalsRoot as `0x${string}`,
      blobGasUsed: BigInt(block.blobGasUsed),
      excessBlobGas: BigInt(block.excessBlobGas),
      parentBeaconBlockRoot: block.parentBeaconBlockRoot as `0x${string}`,
      requestsHash: block.requestsHash as `0x${string}` | undefined,
    },
    { common, skipConsensusFormatValidation: true },
  )
  return bytesToHex(header.hash())
}

describe('blocks/header', () => {
  it('block hashes match @ethereumjs/block for genesis and a block with transactions (Prague header)', async () => {
    const chain = await createChain()
    const alice = signer(chain, 0)
    await chain.sendRawTransaction(await alice.sign({ to: chain.accounts[1].address, value: parseEther('1') }))
    await chain.clock.advance(2000)
    for (const number of ['0x0', '0x1']) {
      const block = (await chain.request({ method: 'eth_getBlockByNumber', params: [number, false] })) as BlockJSON
      expect(block.hash, `block ${number}`).to.equal(referenceHash(block, 'prague'))
    }
  })

  it('under Cancun the header has no requestsHash, and its hash still matches @ethereumjs/block', async () => {
    const chain = await createChain({ hardfork: 'cancun' })
    await chain.clock.advance(2000)
    const block = (await chain.request({ method: 'eth_getBlockByNumber', params: ['0x1', false] })) as BlockJSON
    expect(block).to.not.have.property('requestsHash')
    expect(block.hash).to.equal(referenceHash(block, 'cancun'))
  })

  it('the genesis state root matches @ethereumjs/statemanager for the funded dev accounts and the system contracts', async () => {
    const { MerkleStateManager } = await import('@ethereumjs/statemanager')
    const { Account, createAddressFromString } = await import('@ethereumjs/util')
    const chain = await createChain({ accounts: 3, balance: 5 })
    const reference = new MerkleStateManager()
    for (const { address } of chain.accounts) {
      await reference.putAccount(createAddressFromString(address), new Account(0n, parseEther('5')))
    }
    for (const { address, code } of systemContracts('prague')) {
      await reference.putAccount(createAddressFromString(address), new Account(0n, 0n))
      await reference.putCode(createAddressFromString(address), code)
    }
    const genesis = (await chain.request({ method: 'eth_getBlockByNumber', params: ['earliest', false] })) as BlockJSON
    expect(genesis.stateRoot).to.equal(bytesToHex(await reference.getStateRoot()))
    expect(hexToBytes(genesis.stateRoot as `0x${string}`)).to.have.length(32)
  })

  describe('EIP-1559 base fee from the parent (geth CalcBaseFee)', () => {
    const limit = 30_000_000n
    it('stays put at the target (half the limit)', () => expect(nextBaseFee(1_000_000_000n, limit / 2n, limit)).to.equal(1_000_000_000n))
    it('falls 12.5% after an empty block', () => expect(nextBaseFee(1_000_000_000n, 0n, limit)).to.equal(875_000_000n))
    it('rises 12.5% after a full block', () => expect(nextBaseFee(1_000_000_000n, limit, limit)).to.equal(1_125_000_000n))
    it('rises by at least 1 wei above the target', () => expect(nextBaseFee(7n, limit / 2n + 1n, limit)).to.equal(8n))
    it('bottoms out at 7 wei after many empty blocks (the decrease rounds to zero)', () => expect(nextBaseFee(7n, 0n, limit)).to.equal(7n))
  })
})
