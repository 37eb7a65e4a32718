/**
 * eth_feeHistory as geth answers it (eth/gasprice/feehistory.go): per block the base fee (plus
 * the next block's), the gas used ratio and, per percentile, the effective tip below which that
 * share of the block's gas paid; geth's field order and errors; the pre-confirmed block at
 * `pending`; and viem's getFeeHistory over it.
 */
import { expect } from 'chai'
import type { Hex } from 'viem'
import { createChain, type Chain } from '../../lib/index.ts'
import type { Address } from '../../lib/types.ts'
import { rejection } from '../support/chain-helpers.ts'
import { viemSetup } from '../support/clients-viem.ts'
import { GWEI, signer } from '../support/wallet.ts'

type FeeHistory = { oldestBlock: Hex; reward?: Hex[][]; baseFeePerGas: Hex[]; gasUsedRatio: number[]; baseFeePerBlobGas: Hex[]; blobGasUsedRatio: number[] }

const carol = `0x${'00'.repeat(18)}ca41` as Address
const history = (chain: Chain, params: unknown[]) => chain.request({ method: 'eth_feeHistory', params }) as Promise<FeeHistory>

describe('eth_feeHistory', () => {
  let chain: Chain
  /** Block 1: transfers tipping 1 and 3 gwei; block 2: none; block 3: one tipping 2 gwei. */
  before(async () => {
    chain = await createChain({ clock: 'manual', mining: 'off' })
    const alice = signer(chain, 0)
    const bob = signer(chain, 1)
    await chain.sendRawTransaction(await alice.sign({ to: carol, nonce: 0, maxPriorityFeePerGas: 1n * GWEI, maxFeePerGas: 10n * GWEI }))
    await chain.sendRawTransaction(await bob.sign({ to: carol, nonce: 0, maxPriorityFeePerGas: 3n * GWEI, maxFeePerGas: 10n * GWEI }))
    await chain.mine()
    await chain.mine()
    await chain.sendRawTransaction(await alice.sign({ to: carol, nonce: 1, maxPriorityFeePerGas: 2n * GWEI, maxFeePerGas: 10n * GWEI }))
    await chain.mine()
  })

  it("geth's fields in geth's order; rewards are the tips at each gas-weighted percentile (0 for an empty block); one more base fee than blocks, the last the next block's", async () => {
    const fees = await history(chain, ['0x3', 'latest', [25, 75]])
    expect(Object.keys(fees)).to.deep.equal(['oldestBlock', 'reward', 'baseFeePerGas', 'gasUsedRatio', 'baseFeePerBlobGas', 'blobGasUsedRatio'])
    expect(fees.oldestBlock).to.equal('0x1')
    const gwei = (n: bigint) => `0x${(n * GWEI).toString(16)}`
    expect(fees.reward).to.deep.equal([[gwei(1n), gwei(3n)], ['0x0', '0x0'], [gwei(2n), gwei(2n)]])
    const headers = await Promise.all([1, 2, 3].map((n) => chain.request({ method: 'eth_getBlockByNumber', params: [`0x${n}`, false] }) as Promise<{ baseFeePerGas: Hex; gasUsed: Hex; gasLimit: Hex }>))
    const pending = (await chain.request({ method: 'eth_getBlockByNumber', params: ['pending', false] })) as { baseFeePerGas: Hex }
    expect(fees.baseFeePerGas).to.deep.equal([...headers.map((header) => header.baseFeePerGas), pending.baseFeePerGas])
    expect(fees.gasUsedRatio).to.deep.equal(headers.map((header) => Number(header.gasUsed) / Number(header.gasLimit)))
  })

  it('without percentiles there is no reward; a count of 0 answers empty lists (geth: gasUsedRatio null, which viem cannot read); the count stops at the first block', async () => {
    expect(await history(chain, ['0x2', 'latest', []])).to.not.have.property('reward')
    expect(await history(chain, ['0x0', 'latest', []])).to.deep.equal({ oldestBlock: '0x0', baseFeePerGas: [], gasUsedRatio: [] })
    const all = await history(chain, ['0x10', 'latest'])
    expect([all.oldestBlock, all.gasUsedRatio.length]).to.deep.equal(['0x0', 4])
  })

  it("a newest block beyond the head is geth's -32000 'request beyond head block: requested N, head H'", async () => {
    const error = await rejection(history(chain, ['0x1', '0x10', []]))
    expect([error.code, error.message]).to.deep.equal([-32000, 'request beyond head block: requested 16, head 3'])
    // Past geth's int64 block numbers (a hash given as a number, say) it is a bad parameter, with geth's texts (rpc.BlockNumber, hexutil).
    const huge = await rejection(history(chain, ['0x1', `0x${'ab'.repeat(32)}`, []]))
    expect([huge.code, huge.message]).to.deep.equal([-32602, 'invalid argument 1 (newest block): hex number > 64 bits'])
    const pastInt64 = await rejection(history(chain, ['0x1', '0x8000000000000000', []]))
    expect([pastInt64.code, pastInt64.message]).to.deep.equal([-32602, 'invalid argument 1 (newest block): block number larger than int64'])
  })

  it("percentiles out of range or order are geth's -32000 'invalid reward percentile: …' (Go's %f); a percentile that is no number is -32602", async () => {
    const refusal = async (percentiles: unknown[]) => {
      const error = await rejection(history(chain, ['0x1', 'latest', percentiles]))
      return [error.code, error.message]
    }
    expect(await refusal([101])).to.deep.equal([-32000, 'invalid reward percentile: 101.000000'])
    expect(await refusal([-1])).to.deep.equal([-32000, 'invalid reward percentile: -1.000000'])
    expect(await refusal([90, 10])).to.deep.equal([-32000, 'invalid reward percentile: #0:90.000000 >= #1:10.000000'])
    expect(await refusal([5, 5])).to.deep.equal([-32000, 'invalid reward percentile: #0:5.000000 >= #1:5.000000'])
    expect(await refusal(Array.from({ length: 101 }, (_, i) => i / 2))).to.deep.equal([-32000, 'invalid reward percentile: over the query limit 100'])
    expect(await refusal([10, 'x'])).to.deep.equal([-32602, 'invalid argument 2 (reward percentiles)[1]: expected a number, got "x"'])
    // A count of 0 answers before the percentiles are judged, as in geth.
    expect(await history(chain, ['0x0', 'latest', [101]])).to.include({ oldestBlock: '0x0' })
  })

  it("at 'pending' the last block is the pre-confirmed one", async () => {
    const preconf = await createChain({ clock: 'manual' })
    await preconf.sendRawTransaction(await signer(preconf, 0).sign({ to: carol, nonce: 0, maxPriorityFeePerGas: 5n * GWEI, maxFeePerGas: 10n * GWEI }))
    await preconf.tick()
    const fees = await history(preconf, ['0x1', 'pending', [50]])
    expect([fees.oldestBlock, fees.reward]).to.deep.equal(['0x1', [[`0x${(5n * GWEI).toString(16)}`]]])
  })

  it("on an OP-stack chain a deposit's tip counts as 0, never below (Base's node, reth: a fee cap under the base fee tips nothing)", async () => {
    const base = await createChain({ clock: 'manual', preset: 'base' })
    await base.mine() // block 1 holds only its L1-attributes deposit, whose gas price is 0
    await base.sendRawTransaction(await signer(base, 0).sign({ to: carol, nonce: 0, maxPriorityFeePerGas: 2n * GWEI, maxFeePerGas: 10n * GWEI }))
    await base.mine() // block 2: the deposit (tip 0) and a transfer tipping 2 gwei
    const fees = await history(base, ['0x2', 'latest', [1, 99]])
    expect(fees.reward).to.deep.equal([
      ['0x0', '0x0'],
      ['0x0', `0x${(2n * GWEI).toString(16)}`],
    ])
  })

  it("viem's getFeeHistory reads it", async () => {
    const { chain: viemChain, publicClient } = await viemSetup({ chain: { mining: 'auto' } })
    await viemChain.sendRawTransaction(await signer(viemChain, 0).sign({ to: carol, nonce: 0, maxPriorityFeePerGas: 2n * GWEI, maxFeePerGas: 10n * GWEI }))
    const fees = await publicClient.getFeeHistory({ blockCount: 1, rewardPercentiles: [50] })
    expect(fees.oldestBlock).to.equal(1n)
    expect(fees.reward).to.deep.equal([[2n * GWEI]])
    expect(fees.baseFeePerGas).to.have.length(2)
  })
})
