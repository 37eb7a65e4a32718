/**
 * EIP-7910's `eth_config`, as geth answers it (internal/ethapi/api.go `Config`): checked against
 * Anvil 1.7.1 under the same hardfork, but for the fork id, which Anvil leaves at zero where geth
 * gives EIP-2124's hash of the genesis.
 */
import { crc32 } from 'node:zlib'
import { hexToBytes } from '@ethereumjs/util'
import { expect } from 'chai'
import { createChain } from '../../lib/index.ts'
import { anvilOrSkip, type AnvilNode } from '../support/anvil-node.ts'

interface ForkConfig {
  activationTime: number
  blobSchedule: Record<string, number>
  chainId: string
  forkId: string
  precompiles: Record<string, string>
  systemContracts: Record<string, string>
}

interface ConfigAnswer {
  current: ForkConfig
  next: ForkConfig | null
  last: ForkConfig | null
}

describe('rpc: eth_config (EIP-7910)', () => {
  it("answers the chain's current rules: every fork from genesis, so no next or last", async () => {
    const chain = await createChain()
    const config = (await chain.request({ method: 'eth_config' })) as ConfigAnswer
    expect(config.next).to.equal(null)
    expect(config.last).to.equal(null)
    expect(config.current).to.include({ activationTime: 0, chainId: '0x7a69' })
    expect(config.current.blobSchedule).to.deep.equal({ target: 6, max: 9, baseFeeUpdateFraction: 5007716 })
    // Prague's precompiles, named as geth names them, and its system contracts.
    expect(Object.keys(config.current.precompiles)).to.have.length(17)
    expect(config.current.precompiles).to.include({ ECREC: '0x0000000000000000000000000000000000000001', BLS12_MAP_FP2_TO_G2: '0x0000000000000000000000000000000000000011' })
    expect(config.current.systemContracts).to.include({ HISTORY_STORAGE_ADDRESS: '0x0000f90827f1c53a10cb7a02335b175320002935' })
  })

  it("the fork id is EIP-2124's: the CRC32 of the genesis hash, no later fork folded in", async () => {
    const chain = await createChain()
    const genesis = (await chain.request({ method: 'eth_getBlockByNumber', params: ['0x0', false] })) as { hash: string }
    const config = (await chain.request({ method: 'eth_config' })) as ConfigAnswer
    expect(config.current.forkId).to.equal(`0x${crc32(hexToBytes(genesis.hash as `0x${string}`)).toString(16).padStart(8, '0')}`)
  })

  it('follows the hardfork and the chain: Cancun has neither BLS nor Prague\'s system contracts; a preset adds P256VERIFY; anvil_setChainId shows', async () => {
    const cancun = (await (await createChain({ hardfork: 'cancun' })).request({ method: 'eth_config' })) as ConfigAnswer
    expect(cancun.current.blobSchedule).to.deep.equal({ target: 3, max: 6, baseFeeUpdateFraction: 3338477 })
    expect(Object.keys(cancun.current.precompiles)).to.have.length(10)
    expect(cancun.current.systemContracts).to.deep.equal({ BEACON_ROOTS_ADDRESS: '0x000f3df6d732807ef1319fb7b8bb8522d0beac02' })
    const base = (await (await createChain({ preset: 'base' })).request({ method: 'eth_config' })) as ConfigAnswer
    expect(base.current).to.deep.include({ chainId: '0x2105' })
    expect(base.current.precompiles.P256VERIFY).to.equal('0x0000000000000000000000000000000000000100')
    const chain = await createChain()
    await chain.request({ method: 'anvil_setChainId', params: [5] })
    expect(((await chain.request({ method: 'eth_config' })) as ConfigAnswer).current.chainId).to.equal('0x5')
  })

  describe('against Anvil 1.7.1 under Osaka', () => {
    let anvil: AnvilNode | undefined
    after(() => anvil?.stop())

    it('the same answer but for the fork id', async function () {
      anvil = await anvilOrSkip(this, ['--hardfork', 'osaka'])
      const theirs = await anvil.request<ConfigAnswer>('eth_config')
      const ours = (await (await createChain({ hardfork: 'osaka' })).request({ method: 'eth_config' })) as ConfigAnswer
      expect(theirs.current.forkId).to.equal('0x00000000')
      expect({ ...ours, current: { ...ours.current, forkId: theirs.current.forkId } }).to.deep.equal(theirs)
    })
  })
})
