/**
 * The tip suggested to wallets after the latest block: Anvil's on a plain chain (anvil 1.7.1
 * `lowest_suggestion_tip`, checked against Anvil here: tips of 3 and 5 gwei → 0x0b2d05e00, an empty
 * block or a 0.5 gwei tip → 1 gwei), op-reth's on an OP-stack chain (reth `op_suggest_tip_cap`,
 * the suggestion Base's node serves), and the tip the node's signer fills in.
 */
import { expect } from 'chai'
import { hexToBigInt, type Hex } from 'viem'
import { createChain, type Chain } from '../../lib/index.ts'
import { blockOf, receiptOf } from '../support/chain-helpers.ts'
import { GWEI, signer } from '../support/wallet.ts'

const TO = '0x00000000000000000000000000000000000000aa'

async function quantity(chain: Chain, method: string, params: unknown[] = []): Promise<bigint> {
  return hexToBigInt((await chain.request({ method, params })) as Hex)
}

/** Sends a transfer from dev account `index` with `tip` (nonce `nonce`, fee cap 100 gwei). */
async function send(chain: Chain, index: number, tip: bigint, nonce = 0): Promise<Hex> {
  const raw = await signer(chain, index).sign({ to: TO, value: 1n, nonce, maxFeePerGas: 100n * GWEI, maxPriorityFeePerGas: tip })
  return chain.sendRawTransaction(raw) as Promise<Hex>
}

describe('tip suggestion (eth_maxPriorityFeePerGas, eth_gasPrice)', () => {
  describe('a plain chain, as Anvil', () => {
    it('suggests the lowest tip paid in the latest block, at least 1 gwei: 1 gwei at genesis, 3 gwei after tips of 3 and 5, 1 gwei after an empty block or a 0.5 gwei tip', async () => {
      const chain = await createChain({ clock: 'manual' })
      expect(await quantity(chain, 'eth_maxPriorityFeePerGas')).to.equal(GWEI)
      await send(chain, 0, 3n * GWEI)
      await send(chain, 1, 5n * GWEI)
      await chain.mine()
      expect(await quantity(chain, 'eth_maxPriorityFeePerGas')).to.equal(3n * GWEI)
      const pendingBaseFee = hexToBigInt((await blockOf(chain, 'pending'))!.baseFeePerGas)
      expect(await quantity(chain, 'eth_gasPrice')).to.equal(pendingBaseFee + 3n * GWEI)
      await chain.mine()
      expect(await quantity(chain, 'eth_maxPriorityFeePerGas')).to.equal(GWEI)
      await send(chain, 0, GWEI / 2n, 1)
      await chain.mine()
      expect(await quantity(chain, 'eth_maxPriorityFeePerGas')).to.equal(GWEI)
    })

    it("the node's signer fills Anvil's 1 gwei whatever the suggestion", async () => {
      const chain = await createChain({ clock: 'manual' })
      await send(chain, 1, 5n * GWEI)
      await chain.mine()
      const hash = (await chain.request({ method: 'eth_sendTransaction', params: [{ from: chain.accounts[0].address, to: TO, value: '0x1' }] })) as Hex
      const sent = (await chain.request({ method: 'eth_getTransactionByHash', params: [hash] })) as { maxPriorityFeePerGas: Hex }
      expect(hexToBigInt(sent.maxPriorityFeePerGas)).to.equal(GWEI)
    })
  })

  describe("an OP-stack chain, as Base's node (op-reth)", () => {
    it('suggests 0.001 gwei while the latest block has room, whatever its transactions paid; the signer fills the same', async () => {
      const chain = await createChain({ clock: 'manual', preset: 'base' })
      expect(await quantity(chain, 'eth_maxPriorityFeePerGas')).to.equal(1_000_000n)
      await send(chain, 0, 3n * GWEI)
      await chain.mine()
      expect(await quantity(chain, 'eth_maxPriorityFeePerGas')).to.equal(1_000_000n)
      // op-reth's eth_gasPrice (reth's LoadFee::gas_price) adds the tip to the latest block's base fee.
      const latestBaseFee = hexToBigInt((await blockOf(chain, 'latest'))!.baseFeePerGas)
      expect(await quantity(chain, 'eth_gasPrice')).to.equal(latestBaseFee + 1_000_000n)
      const hash = (await chain.request({ method: 'eth_sendTransaction', params: [{ from: chain.accounts[1].address, to: TO, value: '0x1' }] })) as Hex
      const sent = (await chain.request({ method: 'eth_getTransactionByHash', params: [hash] })) as { maxPriorityFeePerGas: Hex }
      expect(hexToBigInt(sent.maxPriorityFeePerGas)).to.equal(1_000_000n)
    })

    it("after a block at capacity (its gas used plus its largest transaction's past the limit), suggests the median tip paid plus 10 %; deposits pay none and are not counted", async () => {
      // Room for the L1-attributes deposit and eleven transactions of 100,000 gas (each spins
      // until its gas runs out: the DA footprint of plain transfers would fill the block first).
      const chain = await createChain({ clock: 'manual', preset: 'base', blockGasLimit: 1_200_000n })
      const spinner = '0x00000000000000000000000000000000000000bb'
      await chain.request({ method: 'anvil_setCode', params: [spinner, '0x5b600056'] }) // JUMPDEST PUSH1 0 JUMP
      const tips = [2n, 7n, 3n, 11n, 5n, 13n].map((gwei) => gwei * GWEI)
      for (let nonce = 0; nonce < 2; nonce++) {
        for (const [index, tip] of tips.entries()) {
          const raw = await signer(chain, index).sign({ to: spinner, nonce, gas: 100_000n, maxFeePerGas: 100n * GWEI, maxPriorityFeePerGas: tip })
          await chain.sendRawTransaction(raw)
        }
      }
      await chain.clock.advance(2000) // a whole block's pre-confirmations (each takes its share of the gas), then the seal
      const block = (await blockOf(chain, 'latest'))!
      const receipts = await Promise.all(block.transactions.map((hash) => receiptOf(chain, hash as Hex)))
      const largest = receipts.reduce((max, receipt) => (hexToBigInt(receipt!.gasUsed) > max ? hexToBigInt(receipt!.gasUsed) : max), 0n)
      expect(hexToBigInt(block.gasUsed) + largest > hexToBigInt(block.gasLimit), 'the block is at capacity').to.equal(true)
      const baseFee = hexToBigInt(block.baseFeePerGas)
      const paid = receipts
        .filter((receipt) => receipt!.type !== '0x7e')
        .map((receipt) => hexToBigInt(receipt!.effectiveGasPrice) - baseFee)
        .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
      expect(paid).to.have.length(11)
      const middle = paid.length >> 1
      const median = paid.length % 2 === 1 ? paid[middle] : (paid[middle - 1] + paid[middle]) / 2n
      expect(median > 0n).to.equal(true)
      expect(await quantity(chain, 'eth_maxPriorityFeePerGas')).to.equal(median + median / 10n)
      await chain.clock.advance(2000) // the twelfth transaction alone: room again
      expect(await quantity(chain, 'eth_maxPriorityFeePerGas')).to.equal(1_000_000n)
    })
  })
})
