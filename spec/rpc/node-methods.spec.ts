/**
 * The node's metadata (lib/rpc/node-methods.ts `hardhat_metadata`, `anvil_metadata`): its
 * `instanceId` names a run of the node, as Hardhat's does ("uniquely identifies an instance/run
 * of Hardhat Network", new at hardhat_reset). Hardhat Ignition tells a restarted local chain by
 * it: with an id that repeated between two starts of the same configuration, Ignition took the
 * first start's deployments as still there (audit K). The chain itself stays deterministic.
 */
import { expect } from 'chai'
import { createChain, type Chain } from '../../lib/index.ts'

type Metadata = { instanceId: string; chainId: number; latestBlockHash: string }
const metadata = async (chain: Chain, method = 'hardhat_metadata') => (await chain.request({ method })) as Metadata

describe('rpc/node-methods: hardhat_metadata and anvil_metadata', () => {
  const chains: Chain[] = []
  afterEach(() => chains.splice(0).forEach((chain) => chain.close()))
  const create = async () => {
    const chain = await createChain({ clock: 'manual', genesisTimestamp: 1_735_689_600 })
    chains.push(chain)
    return chain
  }

  it('gives two starts of the same configuration the same genesis but different instance ids, each kept while the run lasts (a snapshot and its revert included)', async () => {
    const [first, second] = [await create(), await create()]
    const [a, b] = [await metadata(first), await metadata(second)]
    expect(a.latestBlockHash).to.equal(b.latestBlockHash)
    expect(a.instanceId).to.match(/^0x[0-9a-f]{64}$/)
    expect(a.instanceId).to.not.equal(b.instanceId)
    const snapshot = await first.request({ method: 'evm_snapshot' })
    await first.mine()
    await first.request({ method: 'evm_revert', params: [snapshot] })
    expect((await metadata(first)).instanceId).to.equal(a.instanceId)
    expect(await metadata(first, 'anvil_metadata')).to.deep.equal(await metadata(first))
  })

  it('gives a new instance id after a reset, as Hardhat does at hardhat_reset', async () => {
    const chain = await create()
    const before = await metadata(chain)
    await chain.request({ method: 'anvil_reset', params: [] })
    const after = await metadata(chain)
    expect(after.latestBlockHash).to.equal(before.latestBlockHash)
    expect(after.instanceId).to.not.equal(before.instanceId)
  })
})
