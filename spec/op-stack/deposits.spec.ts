/**
 * Deposits on an OP-stack chain, by the rules of the OP specs (`deposits.md` §Execution) and
 * op-geth's state transition: the mint credited first and kept whatever happens, no fee to any
 * vault or the coinbase, the nonce bumped, a failure before the EVM reporting the whole gas
 * limit used; their three ways in (a raw 0x7e envelope, `eth_sendTransaction` with a
 * `sourceHash` as Anvil takes it, `preconf_deposit`), their place in the block (right after
 * the L1-attributes deposit), and their life through snapshots, automine and state dumps.
 */
import { expect } from 'chai'
import { concatHex, getContractAddress, hexToBigInt, toHex, toRlp, type Hex } from 'viem'
import { createChain, type Chain } from '../../lib/index.ts'
import { Reverter } from '../../fixtures/artifacts/Reverter.ts'
import { blockOf, receiptOf, rejection, type RpcReceipt } from '../support/chain-helpers.ts'

const SEQUENCER_FEE_VAULT = '0x4200000000000000000000000000000000000011'
const BASE_FEE_VAULT = '0x4200000000000000000000000000000000000019'
const L1_FEE_VAULT = '0x420000000000000000000000000000000000001a'
const ETHER = 10n ** 18n
const CAROL = '0x00000000000000000000000000000000000000ca'
const DAVE = '0x00000000000000000000000000000000000000da'
/** The OP Sepolia deposit Foundry's Anvil tests use (research opstack.md §1). */
const VECTOR: Hex =
  '0x7ef861a0dfd7ae78bf3c414cfaa77f13c0205c82eb9365e217b2daa3448c3156b69b27ac94778f2146f48179643473b82931c4cd7b8f153efd94778f2146f48179643473b82931c4cd7b8f153efd872386f26fc10000872386f26fc10000830186a08080'

const balance = async (chain: Chain, address: string) => hexToBigInt((await chain.request({ method: 'eth_getBalance', params: [address, 'latest'] })) as Hex)
const nonce = async (chain: Chain, address: string) => hexToBigInt((await chain.request({ method: 'eth_getTransactionCount', params: [address, 'latest'] })) as Hex)
type DepositReceipt = RpcReceipt & { depositNonce: Hex; depositReceiptVersion: Hex }

describe('op-stack: deposits (OP specs deposits.md, op-geth)', () => {
  it('preconf_deposit mints to an address in the next block, right after the L1-attributes deposit, and pays no fee', async () => {
    const chain = await createChain({ preset: 'base' })
    const vaults = await Promise.all([SEQUENCER_FEE_VAULT, BASE_FEE_VAULT, L1_FEE_VAULT].map((vault) => balance(chain, vault)))
    const hash = (await chain.request({ method: 'preconf_deposit', params: [{ to: CAROL, mint: toHex(ETHER) }] })) as Hex
    expect(await chain.request({ method: 'eth_getTransactionByHash', params: [hash] })).to.include({ blockNumber: null, type: '0x7e', mint: toHex(ETHER) })
    await chain.mine()
    const block = (await chain.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as { transactions: Hex[] }
    expect(block.transactions[1]).to.equal(hash)
    expect(await balance(chain, CAROL)).to.equal(ETHER)
    const receipt = (await receiptOf(chain, hash)) as DepositReceipt
    expect(receipt.status).to.equal('0x1')
    expect(receipt.gasUsed).to.equal(toHex(21_000))
    expect(receipt.effectiveGasPrice).to.equal('0x0')
    expect(receipt.depositNonce).to.equal('0x0')
    expect(receipt.depositReceiptVersion).to.equal('0x1')
    expect((receipt as unknown as Record<string, unknown>).l1Fee).to.equal(undefined)
    expect(await nonce(chain, CAROL)).to.equal(1n)
    // Only the L1-attributes deposit and this one ran: no vault moved.
    expect(await Promise.all([SEQUENCER_FEE_VAULT, BASE_FEE_VAULT, L1_FEE_VAULT].map((vault) => balance(chain, vault)))).to.deep.equal(vaults)
    // The transaction's nonce is the receipt's deposit nonce once included (op-geth).
    expect(await chain.request({ method: 'eth_getTransactionByHash', params: [hash] })).to.include({ nonce: '0x0', transactionIndex: '0x1' })
  })

  it("base_transactionStatus answers Unknown for a deposit, queued or pre-confirmed (Base's pool never holds one: they come from L1), and for the L1-attributes deposit", async () => {
    const chain = await createChain({ clock: 'manual', preset: 'base' })
    const status = async (hash: Hex) => ((await chain.request({ method: 'base_transactionStatus', params: [hash] })) as { status: string }).status
    const hash = await chain.deposit({ to: CAROL, mint: ETHER })
    expect(await status(hash)).to.equal('Unknown')
    await chain.clock.advance(200)
    const pending = (await chain.request({ method: 'eth_getBlockByNumber', params: ['pending', false] })) as { transactions: Hex[] }
    expect(pending.transactions).to.include(hash)
    expect([await status(pending.transactions[0]), await status(hash)]).to.deep.equal(['Unknown', 'Unknown'])
  })

  it('a deposit whose value exceeds the balance after the mint fails before the EVM: status 0, the whole gas limit used, the mint kept, the nonce bumped', async () => {
    const chain = await createChain({ preset: 'base' })
    const hash = await chain.deposit({ from: CAROL, to: DAVE, mint: 5n, value: 6n, gas: 50_000n })
    await chain.mine()
    const receipt = (await receiptOf(chain, hash)) as DepositReceipt
    expect(receipt.status).to.equal('0x0')
    expect(receipt.gasUsed).to.equal(toHex(50_000))
    expect(await balance(chain, CAROL)).to.equal(5n)
    expect(await balance(chain, DAVE)).to.equal(0n)
    expect(await nonce(chain, CAROL)).to.equal(1n)
    expect(receipt.depositNonce).to.equal('0x0')
  })

  it('a deposit with too little gas for its intrinsic cost is included all the same, failed, with the mint kept', async () => {
    const chain = await createChain({ preset: 'base' })
    const hash = await chain.deposit({ to: CAROL, mint: 9n, gas: 20_000n })
    await chain.mine()
    const receipt = (await receiptOf(chain, hash)) as DepositReceipt
    expect([receipt.status, receipt.gasUsed]).to.deep.equal(['0x0', toHex(20_000)])
    expect(await balance(chain, CAROL)).to.equal(9n)
  })

  it('a deposit that reverts in the EVM is an ordinary failed receipt (gas used as spent), the mint kept and the nonce bumped', async () => {
    const chain = await createChain({ preset: 'base' })
    const alice = chain.accounts[0].address
    // preconf_deposit always calls an address: a deposit that creates is sent by eth_sendTransaction.
    expect((await rejection(chain.deposit({ from: alice, to: undefined as never, gas: 1_000_000n, data: Reverter.bytecode }))).message).to.equal('invalid argument 0 (deposit).to: missing')
    await chain.sendTransaction({ from: alice, data: Reverter.bytecode, gas: 1_000_000n })
    await chain.mine()
    const reverter = getContractAddress({ from: alice, nonce: 0n })
    // Calling with no selector hits no function: the contract reverts.
    const hash = await chain.deposit({ from: CAROL, to: reverter, mint: ETHER, value: 1n, gas: 100_000n, data: '0xdeadbeef' })
    await chain.mine()
    const receipt = (await receiptOf(chain, hash)) as DepositReceipt
    expect(receipt.status).to.equal('0x0')
    expect(Number(receipt.gasUsed)).to.be.lessThan(100_000)
    expect(await balance(chain, CAROL)).to.equal(ETHER)
    expect(await balance(chain, reverter)).to.equal(0n)
    expect(await nonce(chain, CAROL)).to.equal(1n)
  })

  it('takes the OP Sepolia envelope by eth_sendRawTransaction and includes it under its own hash (0xbf8b5f08…)', async () => {
    const chain = await createChain({ preset: 'base' })
    const hash = await chain.sendRawTransaction(VECTOR)
    expect(hash).to.equal('0xbf8b5f08c43e4b860715cd64fc0849bbce0d0ea20a76b269e7bc8886d112fca7')
    const duplicate = await rejection(chain.sendRawTransaction(VECTOR))
    expect(duplicate.message).to.equal('already known')
    await chain.mine()
    const from = '0x778f2146f48179643473b82931c4cd7b8f153efd'
    expect((await receiptOf(chain, hash))!.status).to.equal('0x1')
    // 0.01 ether minted, the same sent to itself.
    expect(await balance(chain, from)).to.equal(10n ** 16n)
    expect(await chain.request({ method: 'eth_getRawTransactionByHash', params: [hash] })).to.equal(VECTOR)
  })

  it('builds a deposit from eth_sendTransaction with sourceHash and mint, from any address and without a key (Anvil\'s optimism mode)', async () => {
    const chain = await createChain({ preset: 'base' })
    const sourceHash = `0x${'11'.repeat(32)}`
    const hash = (await chain.request({
      method: 'eth_sendTransaction',
      params: [{ from: CAROL, to: DAVE, value: '0x3', gas: '0x186a0', sourceHash, mint: '0x10', isSystemTx: false }],
    })) as Hex
    await chain.mine()
    const transaction = (await chain.request({ method: 'eth_getTransactionByHash', params: [hash] })) as Record<string, unknown>
    expect(transaction).to.include({ type: '0x7e', from: CAROL, to: DAVE, sourceHash, mint: '0x10', value: '0x3', gas: '0x186a0', v: '0x0', r: '0x0', s: '0x0', gasPrice: '0x0' })
    expect(await balance(chain, CAROL)).to.equal(13n)
    expect(await balance(chain, DAVE)).to.equal(3n)
  })

  it("a mint is a u128, as Base's node (op-reth) holds it: 2^128 is refused by preconf_deposit and eth_sendTransaction (-32602) and in an envelope (-32000), 2^128 - 1 mints (audit S, S7)", async () => {
    const chain = await createChain({ preset: 'base' })
    const sourceHash = `0x${'12'.repeat(32)}`
    const tooMuch = toHex(1n << 128n)
    const refused = await rejection(chain.request({ method: 'preconf_deposit', params: [{ to: DAVE, mint: tooMuch }] }))
    expect([refused.code, refused.message]).to.deep.equal([-32602, `invalid argument 0 (deposit).mint: "${tooMuch}" exceeds u128, the most a deposit can mint`])
    const sent = await rejection(chain.request({ method: 'eth_sendTransaction', params: [{ from: CAROL, to: DAVE, gas: '0x186a0', sourceHash, mint: tooMuch }] }))
    expect(sent.code).to.equal(-32602)
    // 0x7e ‖ rlp([sourceHash, from, to, mint (17 bytes), value, gas, isSystemTx, data]).
    const envelope = concatHex(['0x7e', toRlp([sourceHash as Hex, CAROL, DAVE, `0x01${'00'.repeat(16)}`, '0x', '0x0186a0', '0x', '0x'])])
    const decoded = await rejection(chain.request({ method: 'eth_sendRawTransaction', params: [envelope] }))
    expect([decoded.code, decoded.message]).to.deep.equal([-32000, 'invalid transaction: deposit: mint has 17 bytes'])
    await chain.request({ method: 'preconf_deposit', params: [{ to: DAVE, mint: toHex((1n << 128n) - 1n) }] })
    await chain.mine()
    expect(await balance(chain, DAVE)).to.equal((1n << 128n) - 1n)
  })

  it("a deposit flagged isSystemTx fails before the EVM, as op-geth's 'system tx not supported' since Regolith (and Anvil's optimism mode): the whole gas limit used, the mint kept, the value not moved", async () => {
    const chain = await createChain({ preset: 'base' })
    const sourceHash = `0x${'22'.repeat(32)}`
    const hash = (await chain.request({
      method: 'eth_sendTransaction',
      params: [{ from: CAROL, to: DAVE, value: '0x1', gas: '0x186a0', sourceHash, mint: '0x10', isSystemTx: true }],
    })) as Hex
    await chain.mine()
    const receipt = (await receiptOf(chain, hash)) as DepositReceipt
    expect([receipt.status, receipt.gasUsed]).to.deep.equal(['0x0', '0x186a0'])
    expect([await balance(chain, CAROL), await balance(chain, DAVE), await nonce(chain, CAROL)]).to.deep.equal([16n, 0n, 1n])
  })

  it('a deposit creating a contract reports the address its deposit nonce gives', async () => {
    const chain = await createChain({ preset: 'base' })
    await chain.deposit({ to: CAROL, mint: 1n })
    await chain.mine()
    const hash = (await chain.request({ method: 'eth_sendTransaction', params: [{ from: CAROL, data: '0x600160005360016000f3', gas: '0x30d40', sourceHash: `0x${'22'.repeat(32)}`, mint: '0x0' }] })) as Hex
    await chain.mine()
    const receipt = (await receiptOf(chain, hash)) as DepositReceipt
    expect(receipt.depositNonce).to.equal('0x1')
    expect(receipt.contractAddress).to.equal(getContractAddress({ from: CAROL, nonce: 1n }).toLowerCase())
    expect(await chain.request({ method: 'eth_getCode', params: [receipt.contractAddress, 'latest'] })).to.equal('0x01')
  })

  it('under automine a deposit is mined at once, in a block of its own', async () => {
    const chain = await createChain({ preset: 'base', mining: 'auto' })
    const hash = await chain.deposit({ to: CAROL, mint: 4n })
    expect(chain.blockNumber()).to.equal(1n)
    expect((await blockOf(chain, 'latest'))!.transactions).to.deep.equal([(await blockOf(chain, 'latest'))!.transactions[0], hash])
    expect(await balance(chain, CAROL)).to.equal(4n)
  })

  it('a snapshot taken before a deposit was queued takes it back', async () => {
    const chain = await createChain({ preset: 'base' })
    const id = await chain.snapshot()
    const hash = await chain.deposit({ to: CAROL, mint: 4n })
    expect(await chain.revert(id)).to.equal(true)
    expect(await chain.request({ method: 'eth_getTransactionByHash', params: [hash] })).to.equal(null)
    await chain.mine()
    expect(await balance(chain, CAROL)).to.equal(0n)
    expect((await blockOf(chain, 'latest'))!.transactions).to.have.length(1)
  })

  // Anvil's optimism mode mines the deposit after the same control (audit L, D1: it was lost with the block's opening pre-confirmation).
  it('a deposit pre-confirmed in index 0 survives a next-block control that opens the block anew: it runs again after the new L1-attributes deposit and is sealed', async () => {
    for (const control of [
      (chain: Chain) => chain.request({ method: 'evm_setNextBlockTimestamp', params: [1_735_689_702] }),
      (chain: Chain) => chain.request({ method: 'evm_increaseTime', params: [100] }),
      (chain: Chain) => chain.request({ method: 'hardhat_setCoinbase', params: [DAVE] }),
    ]) {
      const chain = await createChain({ preset: 'base', clock: 'manual' })
      const hash = await chain.deposit({ to: CAROL, mint: ETHER })
      await chain.clock.advance(200)
      expect((await receiptOf(chain, hash))?.status).to.equal('0x1')
      await control(chain)
      await chain.clock.advance(200)
      expect((await receiptOf(chain, hash))?.transactionIndex).to.equal('0x1')
      await chain.mine()
      const block = (await blockOf(chain, 'latest'))!
      expect(block.transactions).to.have.length(2)
      expect(block.transactions[1]).to.equal(hash)
      expect(await balance(chain, CAROL)).to.equal(ETHER)
      chain.close()
    }
  })

  it('simulated deposits get distinct source hashes, the same on every run', async () => {
    const hashes: Hex[][] = []
    for (let run = 0; run < 2; run++) {
      const chain = await createChain({ preset: 'base' })
      hashes.push([await chain.deposit({ to: CAROL, mint: 1n }), await chain.deposit({ to: CAROL, mint: 1n })])
      await chain.mine()
      hashes[run].push(await chain.deposit({ to: CAROL, mint: 1n }))
    }
    expect(new Set(hashes[0]).size).to.equal(3)
    expect(hashes[1]).to.deep.equal(hashes[0])
  })

  it('a state dump keeps the deposits (their nonces) and the L1 fee fields of the receipts', async () => {
    const chain = await createChain({ preset: 'base' })
    const deposit = await chain.deposit({ to: CAROL, mint: ETHER })
    const user = await chain.sendTransaction({ from: chain.accounts[0].address, to: CAROL, value: 1n })
    await chain.mine()
    const reloaded = await createChain({ preset: 'base', state: await chain.dumpState() })
    for (const hash of [deposit, user]) {
      expect(await reloaded.request({ method: 'eth_getTransactionReceipt', params: [hash] })).to.deep.equal(await chain.request({ method: 'eth_getTransactionReceipt', params: [hash] }))
    }
    await reloaded.mine()
    expect(reloaded.blockNumber()).to.equal(2n)
  })
})
