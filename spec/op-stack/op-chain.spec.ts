/**
 * A chain with an OP-stack preset, block by block, against the OP specs and op-geth (research
 * opstack.md): the presets, the L1-attributes deposit opening every block in flashblock index 0,
 * user transactions from index 1, fees paid to the vaults with the L1 data fee worked from the
 * Fjord formula over an independent FastLZ, the operator fee, Jovian's base fee rules and
 * extraData, and the GasPriceOracle answering from what the deposits wrote.
 */
import { expect } from 'chai'
import { concat, decodeFunctionResult, encodeFunctionData, hexToBigInt, keccak256, pad, parseAbi, toHex, type Hex } from 'viem'
import { createChain, type Chain } from '../../lib/index.ts'
import type { Address } from '../../lib/types.ts'
import { blockOf, receiptOf, rejection, type RpcReceipt } from '../support/chain-helpers.ts'
import { flzCompressLength } from '../support/flz-reference.ts'
import { GWEI, signer } from '../support/wallet.ts'

const L1_BLOCK = '0x4200000000000000000000000000000000000015'
const GAS_PRICE_ORACLE = '0x420000000000000000000000000000000000000f'
const SEQUENCER_FEE_VAULT = '0x4200000000000000000000000000000000000011'
const BASE_FEE_VAULT = '0x4200000000000000000000000000000000000019'
const L1_FEE_VAULT = '0x420000000000000000000000000000000000001a'
const OPERATOR_FEE_VAULT = '0x420000000000000000000000000000000000001b'
const DEPOSITOR = '0xdeaddeaddeaddeaddeaddeaddeaddeaddead0001'

const oracle = parseAbi([
  'function l1BaseFee() view returns (uint256)',
  'function blobBaseFee() view returns (uint256)',
  'function baseFeeScalar() view returns (uint32)',
  'function blobBaseFeeScalar() view returns (uint32)',
  'function isFjord() view returns (bool)',
  'function isIsthmus() view returns (bool)',
  'function isJovian() view returns (bool)',
  'function getL1Fee(bytes) view returns (uint256)',
  'function getL1GasUsed(bytes) view returns (uint256)',
  'function getOperatorFee(uint256) view returns (uint256)',
])
const l1Block = parseAbi([
  'function number() view returns (uint64)',
  'function timestamp() view returns (uint64)',
  'function sequenceNumber() view returns (uint64)',
  'function hash() view returns (bytes32)',
  'function batcherHash() view returns (bytes32)',
])

type Call = { abi: typeof oracle | typeof l1Block; functionName: string; args?: readonly unknown[] }

async function read(chain: Chain, to: Address, call: Call, tag = 'latest'): Promise<unknown> {
  const data = encodeFunctionData(call as never)
  const result = (await chain.request({ method: 'eth_call', params: [{ to, data }, tag] })) as Hex
  return decodeFunctionResult({ ...call, data: result } as never)
}

const balance = async (chain: Chain, address: string, tag = 'latest') => hexToBigInt((await chain.request({ method: 'eth_getBalance', params: [address, tag] })) as Hex)

/** The Fjord L1 fee, written out from the spec: size = max(100e6, -42.5856e6 + 836500·flzLen), fee = size·(16·scalar·l1BaseFee + blobScalar·blobBaseFee)/1e12. */
function fjordL1Fee(raw: Hex, l1BaseFee: bigint, blobBaseFee = 1n, scalar = 5227n, blobScalar = 1_014_213n): { fee: bigint; gasUsed: bigint } {
  const flz = BigInt(flzCompressLength(Buffer.from(raw.slice(2), 'hex')))
  let size = -42_585_600n + 836_500n * flz
  if (size < 100_000_000n) size = 100_000_000n
  return { fee: (size * (16n * scalar * l1BaseFee + blobScalar * blobBaseFee)) / 1_000_000_000_000n, gasUsed: (size * 16n) / 1_000_000n }
}

describe('op-stack: a chain with a preset (OP specs, op-geth)', () => {
  describe('presets', () => {
    it('base, base-sepolia and op set the chain id, 2 s blocks with 200 ms pre-confirmations and the SequencerFeeVault as coinbase', async () => {
      for (const [preset, chainId] of [['base', 8453], ['base-sepolia', 84532], ['op', 10]] as const) {
        const chain = await createChain({ preset })
        expect(chain.options.chainId, preset).to.equal(chainId)
        expect(chain.options.blockTimeMs).to.equal(2000)
        expect(chain.options.preconfIntervalMs).to.equal(200)
        expect((await blockOf(chain, '0x0'))!.miner).to.equal(SEQUENCER_FEE_VAULT)
      }
    })

    it('an option given beside a preset overrides the preset, and nothing else changes', async () => {
      const chain = await createChain({ preset: 'base', chainId: 31337, opStack: { minBaseFee: 7n } })
      expect(chain.options.chainId).to.equal(31337)
      expect(chain.options.opStack!.eip1559Elasticity).to.equal(6)
      expect(chain.options.opStack!.minBaseFee).to.equal(7n)
      expect(await chain.request({ method: 'eth_getCode', params: [L1_BLOCK, 'latest'] })).to.not.equal('0x')
    })

    it('the scalars take a bigint as the fees beside them do (audit U: 7n was a TypeError), within their u32', async () => {
      const chain = await createChain({ preset: 'base', opStack: { operatorFeeScalar: 7n, baseFeeScalar: 5227n, eip1559Denominator: 250n } })
      expect([chain.options.opStack!.operatorFeeScalar, chain.options.opStack!.baseFeeScalar, chain.options.opStack!.eip1559Denominator]).to.deep.equal([7, 5227, 250])
      const refused = await createChain({ preset: 'base', opStack: { operatorFeeScalar: 2n ** 32n } }).catch((error: Error) => error.message)
      expect(refused).to.equal('invalid option opStack.operatorFeeScalar: expected an integer from 0 to 4294967295, got 4294967296')
    })

    it("the Base presets cap a transaction's gas at 2^24 under Prague too (EIP-7825, geth's pool text); OP's and transactionGasCap: false do not; deposits are exempt", async () => {
      const over = 2n ** 24n + 1n
      const CAROL = '0x000000000000000000000000000000000000ca41'
      const attempt = async (chain: Chain) => chain.sendRawTransaction(await signer(chain, 0).sign({ to: CAROL, value: 1n, gas: over, maxFeePerGas: GWEI, maxPriorityFeePerGas: 1n }))
      for (const preset of ['base', 'base-sepolia'] as const) {
        const chain = await createChain({ preset, clock: 'manual' })
        expect(chain.options.hardfork).to.equal('prague')
        const refused = await rejection(attempt(chain))
        expect([refused.code, refused.message]).to.deep.equal([-32000, 'transaction gas limit too high (cap: 16777216, tx: 16777217)'])
        const estimate = await chain.request({ method: 'eth_estimateGas', params: [{ from: chain.accounts[0].address, to: CAROL, gas: toHex(2n ** 25n) }] })
        expect(estimate).to.equal('0x5208')
        const deposit = await chain.deposit({ to: CAROL, mint: 1n, gas: 2n ** 25n })
        await chain.mine()
        expect((await receiptOf(chain, deposit))?.status).to.equal('0x1')
        chain.close()
      }
      for (const options of [{ preset: 'op' as const }, { preset: 'base' as const, opStack: { transactionGasCap: false } }]) {
        const chain = await createChain({ ...options, clock: 'manual' })
        expect(await attempt(chain)).to.match(/^0x[0-9a-f]{64}$/)
        chain.close()
      }
    })

    it("each preset reports its chain's batch sender as L1Block's batcherHash, at genesis and in every L1-attributes deposit (op-node rollup configs, base/docs base-contracts); `batcher` overrides it", async () => {
      const batchers = { base: '0x5050f69a9786f081509234f1a7f4684b5e5b76c9', 'base-sepolia': '0x6cdebe940bc0f26850285caca097c11c33103e47', op: '0x6887246668a3b87f54deb3b94ba47a6f63f32985' } as const
      for (const [preset, batcher] of Object.entries(batchers)) {
        const chain = await createChain({ preset: preset as keyof typeof batchers })
        expect(await read(chain, L1_BLOCK, { abi: l1Block, functionName: 'batcherHash' }, 'earliest')).to.equal(pad(batcher))
        await chain.mine()
        const block = (await chain.request({ method: 'eth_getBlockByNumber', params: ['0x1', true] })) as { transactions: Array<{ input: Hex }> }
        expect(`0x${block.transactions[0].input.slice(2 + 2 * 132, 2 + 2 * 164)}`).to.equal(pad(batcher))
        expect(await read(chain, L1_BLOCK, { abi: l1Block, functionName: 'batcherHash' })).to.equal(pad(batcher))
      }
      const chain = await createChain({ preset: 'op', opStack: { batcher: '0x00000000000000000000000000000000000000Ba' } })
      await chain.mine()
      expect(await read(chain, L1_BLOCK, { abi: l1Block, functionName: 'batcherHash' })).to.equal(pad('0x00000000000000000000000000000000000000ba'))
      expect(await createChain({ preset: 'op', opStack: { batcher: '0xba' } }).catch((error: Error) => error.message)).to.match(/batcher/)
    })

    it('without a preset the chain is plain: no predeploys, empty extraData, deposits refused as geth refuses an unknown type', async () => {
      const chain = await createChain()
      expect(chain.options.opStack).to.equal(undefined)
      expect(await chain.request({ method: 'eth_getCode', params: [L1_BLOCK, 'latest'] })).to.equal('0x')
      expect((await blockOf(chain, 'latest'))!.extraData).to.equal('0x')
      const error = await rejection(chain.request({ method: 'preconf_deposit', params: [{ to: '0x00000000000000000000000000000000000000aa', mint: '0x1' }] }))
      expect(error.code).to.equal(-32000)
      expect(error.message).to.match(/^transaction type not supported/)
    })

    it('opStack parameters without a preset are refused', async () => {
      const error = await rejection(createChain({ opStack: { l1BaseFee: 1n } }))
      expect(error.message).to.match(/need a preset/)
    })
  })

  describe('genesis', () => {
    it('holds L1Block, the GasPriceOracle with Ecotone, Fjord, Isthmus and Jovian on, and L1Block already holds the genesis L1 attributes', async () => {
      const chain = await createChain({ preset: 'base', opStack: { l1BaseFee: 2n * GWEI, l1BlobBaseFee: 3n, baseFeeScalar: 1000, blobBaseFeeScalar: 2000 } })
      expect(await read(chain, GAS_PRICE_ORACLE, { abi: oracle, functionName: 'isFjord' })).to.equal(true)
      expect(await read(chain, GAS_PRICE_ORACLE, { abi: oracle, functionName: 'isIsthmus' })).to.equal(true)
      expect(await read(chain, GAS_PRICE_ORACLE, { abi: oracle, functionName: 'isJovian' })).to.equal(true)
      expect(await read(chain, GAS_PRICE_ORACLE, { abi: oracle, functionName: 'l1BaseFee' })).to.equal(2n * GWEI)
      expect(await read(chain, GAS_PRICE_ORACLE, { abi: oracle, functionName: 'blobBaseFee' })).to.equal(3n)
      expect(await read(chain, GAS_PRICE_ORACLE, { abi: oracle, functionName: 'baseFeeScalar' })).to.equal(1000)
      expect(await read(chain, GAS_PRICE_ORACLE, { abi: oracle, functionName: 'blobBaseFeeScalar' })).to.equal(2000)
      expect(await read(chain, L1_BLOCK, { abi: l1Block, functionName: 'number' })).to.equal(1n)
      expect(await read(chain, L1_BLOCK, { abi: l1Block, functionName: 'timestamp' })).to.equal(BigInt(chain.options.genesisTimestamp))
    })

    it('every header carries the Jovian extraData: 0x01 ‖ denominator u32 ‖ elasticity u32 ‖ minimum base fee u64', async () => {
      const chain = await createChain({ preset: 'base' })
      // Base: denominator 125, elasticity 6, minimum 5,000,000 wei.
      const expected = concat(['0x01', pad(toHex(125), { size: 4 }), pad(toHex(6), { size: 4 }), pad(toHex(5_000_000), { size: 8 })])
      expect((await blockOf(chain, '0x0'))!.extraData).to.equal(expected)
      await chain.mine()
      expect((await blockOf(chain, '0x1'))!.extraData).to.equal(expected)
    })
  })

  describe('the L1-attributes deposit', () => {
    it('is transaction 0 of every block: from the depositor to L1Block, 1,000,000 gas, setL1BlockValuesJovian with 178 bytes, a domain-1 source hash', async () => {
      const chain = await createChain({ preset: 'base' })
      await chain.mineBlocks(3)
      for (const number of [1n, 2n, 3n]) {
        const block = (await chain.request({ method: 'eth_getBlockByNumber', params: [toHex(number), true] })) as { transactions: Array<Record<string, Hex>> }
        const [info] = block.transactions
        expect(info.type).to.equal('0x7e')
        expect(info.from).to.equal(DEPOSITOR)
        expect(info.to).to.equal(L1_BLOCK)
        expect(info.gas).to.equal(toHex(1_000_000))
        expect(info.mint).to.equal('0x0')
        expect(info.input.slice(0, 10)).to.equal('0x3db6be2b')
        expect((info.input.length - 2) / 2).to.equal(178)
        // Sequence number n within L1 origin 1, whose hash the deposit also carries (bytes 100..132 of the calldata).
        const l1Hash = `0x${info.input.slice(2 + 2 * 100, 2 + 2 * 132)}` as Hex
        const sourceHash = keccak256(concat([pad(toHex(1)), keccak256(concat([l1Hash, pad(toHex(number))]))]))
        expect(info.sourceHash).to.equal(sourceHash)
        expect(await read(chain, L1_BLOCK, { abi: l1Block, functionName: 'sequenceNumber' }, toHex(number))).to.equal(number)
      }
    })

    it('follows an L1 origin that advances every 12 s of the clock: sequence numbers 1…5, then 0 at the next L1 block', async () => {
      const chain = await createChain({ preset: 'base' })
      const genesisTime = BigInt(chain.options.genesisTimestamp)
      await chain.clock.advance(12_000) // six 2 s blocks
      expect(chain.blockNumber()).to.equal(6n)
      const seen: Array<[bigint, bigint, bigint]> = []
      for (let n = 1n; n <= 6n; n++) {
        seen.push([
          (await read(chain, L1_BLOCK, { abi: l1Block, functionName: 'number' }, toHex(n))) as bigint,
          (await read(chain, L1_BLOCK, { abi: l1Block, functionName: 'timestamp' }, toHex(n))) as bigint,
          (await read(chain, L1_BLOCK, { abi: l1Block, functionName: 'sequenceNumber' }, toHex(n))) as bigint,
        ])
      }
      expect(seen).to.deep.equal([
        [1n, genesisTime, 1n],
        [1n, genesisTime, 2n],
        [1n, genesisTime, 3n],
        [1n, genesisTime, 4n],
        [1n, genesisTime, 5n],
        [2n, genesisTime + 12n, 0n],
      ])
    })

    it('opens the block in pre-confirmation index 0 alone; user transactions start at index 1 (Base flashblocks)', async () => {
      const chain = await createChain({ preset: 'base' })
      const alice = signer(chain, 0)
      const indexes: Array<[number, number]> = []
      chain.on('preconfirmation', (p) => indexes.push([p.index, p.transactions.length]))
      const hash = await chain.sendRawTransaction(await alice.sign({ to: chain.accounts[1].address, value: 1n }))
      const tick = await chain.tick()
      expect(indexes).to.deep.equal([[0, 1], [1, 1]])
      expect(tick.index).to.equal(1)
      expect(tick.transactions.map(({ transaction }) => transaction.hash)).to.deep.equal([hash])
      expect(chain.pending.transactions.map(({ transaction }) => transaction.type)).to.deep.equal([0x7e, 2])
    })

    it("before the block's index 0, `pending` reads `latest` (Base's RPC node falls back until index 0 arrives): no block N+1 without its deposit", async () => {
      const chain = await createChain({ preset: 'base' })
      await chain.clock.advance(2000) // block 1 seals; block 2 opens at its first tick, 200 ms on
      const sequenceAt = async (tag: 'latest' | 'pending') =>
        decodeFunctionResult({ abi: l1Block, functionName: 'sequenceNumber', data: await chain.call({ to: L1_BLOCK, data: encodeFunctionData({ abi: l1Block, functionName: 'sequenceNumber' }) }, tag) })
      const latest = await blockOf(chain, 'latest')
      expect(await blockOf(chain, 'pending')).to.deep.equal(latest)
      expect(await sequenceAt('pending')).to.equal(await sequenceAt('latest'))
      await chain.clock.advance(200)
      const pending = await blockOf(chain, 'pending')
      expect([pending!.number, pending!.transactions.length]).to.deep.equal(['0x2', 1])
      expect(await sequenceAt('pending')).to.equal((await sequenceAt('latest')) + 1n)
    })

    // An estimate made then is for the block the transaction goes into, as on a plain chain and in Anvil's optimism mode (audit L, D4: timestamp-dependent calls ran out of gas).
    it("before the block's index 0, calls at `pending` read `latest`'s state in the pending block's context: its number, timestamp and base fee", async () => {
      const chain = await createChain({ preset: 'base' })
      await chain.clock.advance(2000)
      // NUMBER, TIMESTAMP and BASEFEE, returned as three words.
      const code = '0x43600052426020524860405260606000f3'
      const probe = '0x00000000000000000000000000000000000c0de0' as Address
      await chain.setCode(probe, code)
      const words = async (tag: 'latest' | 'pending') => {
        const data = await chain.call({ to: probe }, tag)
        return [0, 1, 2].map((i) => BigInt(`0x${data.slice(2 + 64 * i, 66 + 64 * i)}`))
      }
      const head = await blockOf(chain, 'latest')
      expect(await words('latest')).to.deep.equal([BigInt(head!.number), BigInt(head!.timestamp), BigInt(head!.baseFeePerGas!)])
      const { number, timestamp, baseFeePerGas } = chain.pending.context
      expect(await words('pending')).to.deep.equal([number, timestamp, baseFeePerGas])
      expect(number).to.equal(BigInt(head!.number) + 1n)
    })

    it('a block with no user transactions still opens with it, and the clock makes eleven pre-confirmations per 2 s block (index 0, then 1–10)', async () => {
      const chain = await createChain({ preset: 'base' })
      const indexes: number[] = []
      chain.on('preconfirmation', (p) => indexes.push(p.index))
      await chain.clock.advance(2000)
      expect(indexes).to.deep.equal([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
      const block = await blockOf(chain, 'latest')
      expect(block!.transactions).to.have.length(1)
      expect(Number(block!.gasUsed)).to.be.greaterThan(21_000)
    })
  })

  describe('fees', () => {
    it('charges the L1 data fee (Fjord, over the signed envelope) to the L1FeeVault, the base fee to the BaseFeeVault and the tip to the SequencerFeeVault; none is burnt', async () => {
      const chain = await createChain({ preset: 'base' })
      const alice = signer(chain, 0)
      const bob = chain.accounts[1].address
      const raw = await alice.sign({ to: bob, value: 1000n, data: '0x1234567890', gas: 30_000n, maxFeePerGas: 10n * GWEI, maxPriorityFeePerGas: 2n })
      const before = { alice: await balance(chain, alice.address), vaults: await Promise.all([SEQUENCER_FEE_VAULT, BASE_FEE_VAULT, L1_FEE_VAULT].map((v) => balance(chain, v))) }
      const hash = await chain.sendRawTransaction(raw)
      await chain.mine()
      const receipt = (await receiptOf(chain, hash)) as RpcReceipt & Record<string, Hex>
      const block = await blockOf(chain, 'latest')
      const baseFee = hexToBigInt(block!.baseFeePerGas)
      const gasUsed = hexToBigInt(receipt.gasUsed)
      // EIP-7623: 5 non-zero bytes cost 80 as calldata but 21,000 + 10 × 20 tokens as the floor, which wins.
      expect(gasUsed).to.equal(21_000n + 10n * 4n * 5n)
      const { fee, gasUsed: l1GasUsed } = fjordL1Fee(raw, GWEI)
      expect(hexToBigInt(receipt.l1Fee)).to.equal(fee)
      expect(hexToBigInt(receipt.l1GasUsed)).to.equal(l1GasUsed)
      expect(receipt.l1GasPrice).to.equal(toHex(GWEI))
      expect(receipt.l1BaseFeeScalar).to.equal(toHex(5227))
      expect(receipt.l1BlobBaseFee).to.equal('0x1')
      expect(receipt.l1BlobBaseFeeScalar).to.equal(toHex(1_014_213))
      expect(receipt.operatorFeeScalar).to.equal(undefined) // reported only when non-zero (op-geth)
      const after = await Promise.all([SEQUENCER_FEE_VAULT, BASE_FEE_VAULT, L1_FEE_VAULT].map((v) => balance(chain, v)))
      expect(after[0] - before.vaults[0]).to.equal(gasUsed * 2n)
      expect(after[1] - before.vaults[1]).to.equal(gasUsed * baseFee)
      expect(after[2] - before.vaults[2]).to.equal(fee)
      expect(before.alice - (await balance(chain, alice.address))).to.equal(gasUsed * (baseFee + 2n) + 1000n + fee)
    })

    it('GasPriceOracle.getL1Fee of the unsigned transaction and the receipt agree with the formula', async () => {
      const chain = await createChain({ preset: 'base' })
      const raw = await signer(chain, 0).sign({ to: chain.accounts[1].address, data: `0x${'ab'.repeat(300)}`, gas: 100_000n })
      // The GasPriceOracle adds 68 bytes for the signature it does not see: its answer for the signed envelope is an upper bound; for an envelope of 300 random-ish bytes both sit on the same formula.
      const l1GasUsed = (await read(chain, GAS_PRICE_ORACLE, { abi: oracle, functionName: 'getL1GasUsed', args: [raw] })) as bigint
      const l1Fee = (await read(chain, GAS_PRICE_ORACLE, { abi: oracle, functionName: 'getL1Fee', args: [raw] })) as bigint
      const flz = BigInt(flzCompressLength(Buffer.from(raw.slice(2), 'hex'))) + 68n
      let size = -42_585_600n + 836_500n * flz
      if (size < 100_000_000n) size = 100_000_000n
      expect(l1Fee).to.equal((size * (16n * 5227n * GWEI + 1_014_213n)) / 1_000_000_000_000n)
      expect(l1GasUsed).to.equal((size * 16n) / 1_000_000n)
    })

    it('charges the Jovian operator fee (gas × scalar × 100 + constant) to the OperatorFeeVault, on the gas used, and reports it in the receipt', async () => {
      const chain = await createChain({ preset: 'base', opStack: { operatorFeeScalar: 7, operatorFeeConstant: 11n } })
      const alice = signer(chain, 0)
      expect(await read(chain, GAS_PRICE_ORACLE, { abi: oracle, functionName: 'getOperatorFee', args: [21_000n] })).to.equal(21_000n * 7n * 100n + 11n)
      const raw = await alice.sign({ to: chain.accounts[1].address, gas: 50_000n })
      const before = await balance(chain, alice.address)
      const hash = await chain.sendRawTransaction(raw)
      await chain.mine()
      const receipt = (await receiptOf(chain, hash)) as RpcReceipt & Record<string, Hex>
      expect(receipt.operatorFeeScalar).to.equal('0x7')
      expect(receipt.operatorFeeConstant).to.equal('0xb')
      const operatorFee = 21_000n * 7n * 100n + 11n
      expect(await balance(chain, OPERATOR_FEE_VAULT)).to.equal(operatorFee)
      const price = hexToBigInt(receipt.effectiveGasPrice)
      expect(before - (await balance(chain, alice.address))).to.equal(21_000n * price + hexToBigInt(receipt.l1Fee) + operatorFee)
    })

    it('admission counts the L1 fee in the cost (op-geth: insufficient funds with the rollup cost added)', async () => {
      const chain = await createChain({ preset: 'base' })
      const alice = signer(chain, 0)
      const bob = chain.accounts[1].address
      const gasCost = 21_000n * 10n * GWEI
      const raw = await alice.sign({ to: bob, value: 5n })
      const { fee } = fjordL1Fee(raw, GWEI)
      await chain.setBalance(alice.address, gasCost + 5n + fee - 1n)
      const error = await rejection(chain.sendRawTransaction(raw))
      expect(error.message).to.equal(`insufficient funds for gas * price + value: balance ${gasCost + 5n + fee - 1n}, tx cost ${gasCost + 5n + fee}, overshot 1`)
      await chain.setBalance(alice.address, gasCost + 5n + fee)
      expect(await chain.sendRawTransaction(raw)).to.equal(keccak256(raw))
    })

    it('eth_call and eth_estimateGas leave the L1 fee out (op-geth): a transfer estimates 21,000 from an account that could not pay it', async () => {
      const chain = await createChain({ preset: 'base' })
      const poor = '0x00000000000000000000000000000000000000cc'
      await chain.setBalance(poor, 21_000n * 10_000_000n)
      const estimate = await chain.request({ method: 'eth_estimateGas', params: [{ from: poor, to: chain.accounts[1].address, maxFeePerGas: toHex(10_000_000n) }] })
      expect(estimate).to.equal(toHex(21_000))
    })
  })

  describe('blocks', () => {
    it('the base fee follows Base\'s EIP-1559 parameters (denominator 125, elasticity 6) down to the minimum base fee, never below', async () => {
      const chain = await createChain({ preset: 'base', initialBaseFee: 5_100_000n })
      await chain.mineBlocks(3)
      const fees: bigint[] = []
      for (const n of [0, 1, 2, 3]) fees.push(hexToBigInt((await blockOf(chain, toHex(n)))!.baseFeePerGas))
      // Each block's gas used (the L1-attributes deposit, ~41k) is far below the target of 400M/6: the fee falls by about 1/125.
      const target = 400_000_000n / 6n
      const next = (fee: bigint, used: bigint) => {
        const computed = fee - (fee * (target - used)) / target / 125n
        return computed > 5_000_000n ? computed : 5_000_000n
      }
      for (const n of [1, 2, 3]) {
        const used = hexToBigInt((await blockOf(chain, toHex(n - 1)))!.gasUsed)
        expect(fees[n], `block ${n}`).to.equal(next(fees[n - 1], used))
      }
      expect(Number(fees[1])).to.be.lessThan(5_100_000)
      expect(fees[3]).to.equal(5_000_000n)
    })

    it('a block\'s blobGasUsed is its DA footprint: 400 × the estimated size of each user transaction (Jovian)', async () => {
      const chain = await createChain({ preset: 'base' })
      const raw = await signer(chain, 0).sign({ to: chain.accounts[1].address })
      await chain.sendRawTransaction(raw)
      await chain.mine()
      // A small transfer estimates at the 100-byte minimum: 100 × 400.
      expect((await blockOf(chain, 'latest'))!.blobGasUsed).to.equal(toHex(40_000))
    })

    it("a block's DA footprint stays within its gas limit (Jovian exec-engine.md, DA Footprint Block Limit): a transaction past it waits for the next block, as one past the gas does (audit S, S2)", async () => {
      const chain = await createChain({ preset: 'base', blockGasLimit: 30_000_000n })
      // 50 KB that FastLZ cannot shrink: ~41.8k estimated bytes, a footprint of ~16.7M each, where the gas (~2M) fits many.
      const noise = (seed: number): Hex => {
        let chunk = keccak256(toHex(seed))
        const parts: Hex[] = []
        for (let i = 0; i < 1563; i++) parts.push((chunk = keccak256(chunk)))
        return concat(parts)
      }
      const alice = signer(chain, 0)
      const hashes: Hex[] = []
      for (const nonce of [0, 1]) hashes.push(await chain.sendRawTransaction(await alice.sign({ to: chain.accounts[1].address, data: noise(nonce), gas: 3_000_000n, nonce })))
      await chain.mine()
      const first = (await blockOf(chain, 'latest'))!
      expect(first.transactions).to.have.length(2) // the L1-attributes deposit and the first transfer
      expect(hexToBigInt(first.blobGasUsed) > 15_000_000n && hexToBigInt(first.blobGasUsed) <= 30_000_000n, first.blobGasUsed).to.equal(true)
      expect(await chain.request({ method: 'eth_getTransactionReceipt', params: [hashes[1]] })).to.equal(null)
      await chain.mine()
      expect((await receiptOf(chain, hashes[1]))!.blockNumber).to.equal(toHex(hexToBigInt(first.number) + 1n))
      // One whose footprint alone is past the limit (100 KB: ~33.4M) can never be included: dropped, not retried at every tick (review N).
      const huge = await chain.sendRawTransaction(await alice.sign({ to: chain.accounts[1].address, data: concat([noise(7), noise(8)].map((part) => part.slice(0, 2 + 50_000 * 2) as Hex)), gas: 8_000_000n, nonce: 2 }))
      await chain.tick()
      expect(chain.findTransaction(huge)).to.equal(undefined)
    })
  })

  describe('a Base chain and a plain one fed the same transactions', () => {
    it('differ only where the OP stack says: the deposit first, the L1 fee, the vaults instead of the burn', async () => {
      const plain = await createChain({ initialBaseFee: 5_000_000n })
      const base = await createChain({ preset: 'base', chainId: 31337 })
      const receipts: Array<Array<RpcReceipt & Record<string, unknown>>> = []
      for (const chain of [plain, base]) {
        // The same base fee on both (their EIP-1559 parameters differ, as the OP stack says they may).
        await chain.request({ method: 'anvil_setNextBlockBaseFeePerGas', params: ['0x989680'] })
        const alice = signer(chain, 0)
        const hashes = [
          await chain.sendRawTransaction(await alice.sign({ to: chain.accounts[1].address, value: 7n, nonce: 0 })),
          await chain.sendRawTransaction(await alice.sign({ to: null, data: '0x600160005500', gas: 100_000n, nonce: 1 })),
        ]
        await chain.mine()
        receipts.push(await Promise.all(hashes.map(async (hash) => (await receiptOf(chain, hash)) as RpcReceipt & Record<string, unknown>)))
      }
      const [plainReceipts, baseReceipts] = receipts
      for (let i = 0; i < 2; i++) {
        const p = plainReceipts[i]
        const b = baseReceipts[i]
        expect(b.status).to.equal(p.status)
        expect(b.gasUsed).to.equal(p.gasUsed)
        expect(b.contractAddress).to.equal(p.contractAddress)
        expect(b.effectiveGasPrice).to.equal(p.effectiveGasPrice)
        expect(hexToBigInt(b.transactionIndex)).to.equal(hexToBigInt(p.transactionIndex) + 1n) // the L1-attributes deposit is index 0
        expect(p.l1Fee).to.equal(undefined)
        expect(Number(b.l1Fee)).to.be.greaterThan(0)
      }
      // The recipient's state is the same on both.
      expect(await balance(base, base.accounts[1].address)).to.equal(await balance(plain, plain.accounts[1].address))
      const created = plainReceipts[1].contractAddress!
      expect(await base.request({ method: 'eth_getStorageAt', params: [created, '0x0', 'latest'] })).to.equal(await plain.request({ method: 'eth_getStorageAt', params: [created, '0x0', 'latest'] }))
      // The sender paid the same gas on both, plus the L1 fees on Base.
      const l1Fees = baseReceipts.reduce((sum, r) => sum + hexToBigInt(r.l1Fee as Hex), 0n)
      const alice = plain.accounts[0].address
      expect((await balance(plain, alice)) - (await balance(base, alice))).to.equal(l1Fees)
    })
  })
})
