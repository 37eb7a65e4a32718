/**
 * State edits for tests (Anvil's `anvil_set*` and Hardhat's `hardhat_set*`) and impersonation:
 * as in Anvil, an edit takes effect at once at `latest` AND `pending`, seals no block, and the
 * next sealed block's state root includes it. Impersonation lets `eth_sendTransaction` send from
 * an address without its key (Anvil/Hardhat `*_impersonateAccount`). viem's test client drives
 * all of it in both modes.
 */
import { expect } from 'chai'
import { createTestClient, custom, decodeFunctionResult, encodeFunctionData, parseEther, type Hex } from 'viem'
import { Counter } from '../../fixtures/artifacts/Counter.ts'
import { createChain, type Chain } from '../../lib/index.ts'
import type { Address } from '../../lib/types.ts'
import { rejection, signCall, type RpcBlock, type RpcReceipt } from '../support/chain-helpers.ts'
import { hex } from '../support/controls-world.ts'
import { GWEI, signer } from '../support/wallet.ts'

const ETHER = 10n ** 18n
const carol = `0x${'00'.repeat(18)}ca41` as Address
/** An address with no key and no code. */
const whale = `0x${'77'.repeat(20)}` as Address
/** Where Counter's runtime code is planted. */
const planted = `0x${'c0'.repeat(20)}` as Address
const COINBASE = '0xc014ba5ec014ba5ec014ba5ec014ba5ec014ba5e' as Address

async function request<T = unknown>(chain: Chain, method: string, ...params: unknown[]): Promise<T> {
  return (await chain.request({ method, params })) as T
}

async function count(chain: Chain, address: Address, tag: 'latest' | 'pending'): Promise<bigint> {
  const data = await chain.call({ to: address, data: encodeFunctionData({ abi: Counter.abi, functionName: 'count' }) }, tag)
  return decodeFunctionResult({ abi: Counter.abi, functionName: 'count', data }) as bigint
}

/** A storage word as `eth_getStorageAt` answers it. */
function hex32(value: bigint): Hex {
  return `0x${value.toString(16).padStart(64, '0')}`
}

async function latestBlock(chain: Chain): Promise<RpcBlock> {
  return request<RpcBlock>(chain, 'eth_getBlockByNumber', 'latest', false)
}

describe('cheats', () => {
  describe('setBalance (anvil_setBalance answers null, hardhat_setBalance true)', () => {
    for (const [method, answer] of [
      ['anvil_setBalance', null],
      ['hardhat_setBalance', true],
    ] as const) {
      it(`${method}: latest and pending change at once and no block is sealed`, async () => {
        const chain = await createChain({ clock: 'manual' })
        const sealed: unknown[] = []
        chain.on('block', (block) => sealed.push(block))
        const head = await latestBlock(chain)
        const pendingBefore = await request<RpcBlock>(chain, 'eth_getBlockByNumber', 'pending', false)

        expect(await request(chain, method, carol, hex(5n * ETHER))).to.equal(answer)

        expect(await chain.getBalance(carol, 'latest')).to.equal(5n * ETHER)
        expect(await chain.getBalance(carol, 'pending')).to.equal(5n * ETHER)
        expect(await request(chain, 'eth_getBalance', carol, 'latest')).to.equal(hex(5n * ETHER))
        expect(await request(chain, 'eth_getBalance', carol, 'pending')).to.equal(hex(5n * ETHER))
        expect(chain.blockNumber()).to.equal(0n)
        expect(await request(chain, 'eth_blockNumber')).to.equal('0x0')
        expect(await latestBlock(chain)).to.deep.equal(head)
        expect(await request(chain, 'eth_getBlockByNumber', 'pending', false)).to.deep.equal(pendingBefore)
        expect(sealed).to.have.length(0)

        // A dev account too: lowering it below a transfer's cost makes the pool refuse it (geth's text).
        const alice = signer(chain, 0)
        expect(await request(chain, method, alice.address, '0x0')).to.equal(answer)
        const error = await rejection(chain.sendRawTransaction(await alice.sign({ to: carol, value: 1n })))
        expect(error.code).to.equal(-32000)
        expect(error.message).to.equal('insufficient funds for gas * price + value: balance 0, tx cost 210000000000001, overshot 210000000000001')
      })
    }

    it("the next sealed block's stateRoot includes it: unlike an empty block's, and the same as when the same state came from a real transfer", async () => {
      // Chain A: alice sends carol 1 ETH (tip to the coinbase, base fee burnt).
      const transfer = await createChain({ clock: 'manual' })
      const alice = signer(transfer, 0)
      await transfer.sendRawTransaction(await alice.sign({ to: carol, value: ETHER }))
      await transfer.clock.advance(2000)
      const transferBlock = await latestBlock(transfer)
      expect(transferBlock.transactions).to.have.length(1)

      // Chain B: the same resulting state, written by cheats; block 1 is empty.
      const cheated = await createChain({ clock: 'manual' })
      await cheated.setBalance(carol, ETHER)
      await cheated.setBalance(alice.address, await transfer.getBalance(alice.address))
      await cheated.setNonce(alice.address, 1n)
      await cheated.setBalance(COINBASE, await transfer.getBalance(COINBASE))
      await cheated.clock.advance(2000)
      const cheatedBlock = await latestBlock(cheated)
      expect(cheatedBlock.transactions).to.have.length(0)

      // Chain C: nothing happened; block 1 is empty and keeps genesis' root.
      const empty = await createChain({ clock: 'manual' })
      await empty.clock.advance(2000)
      const emptyBlock = await latestBlock(empty)

      expect(cheatedBlock.stateRoot).to.not.equal(emptyBlock.stateRoot)
      expect(cheatedBlock.stateRoot).to.equal(transferBlock.stateRoot)
    })

    // Anvil runs its pending transactions on the edited state when it mines them; a block holding the transaction pre-confirmed before the edit would not replay (audit L, D3; audit N, N1).
    it("while a pre-confirmed transaction sent from or to the edited account, it is taken back and pre-confirmed again on the cheat value; the seal builds on it", async () => {
      const chain = await createChain({ clock: 'manual' })
      const alice = signer(chain, 0)
      const withdrawn: unknown[] = []
      chain.on('withdrawn', (event) => withdrawn.push(event))
      await chain.sendRawTransaction(await alice.sign({ to: carol, value: ETHER }))
      await chain.tick()
      expect(await chain.getBalance(carol, 'pending')).to.equal(ETHER)

      // An account no pre-confirmed transaction read or wrote: nothing is taken back.
      await chain.setBalance(whale, 7n * ETHER)
      expect([withdrawn.length, chain.pending.transactions.length]).to.deep.equal([0, 1])
      // The recipient's: its pre-confirmation goes back to the mempool (the sender's pending nonce still counts it).
      await chain.setBalance(carol, 7n * ETHER)
      expect([withdrawn.length, chain.pending.transactions.length]).to.deep.equal([1, 0])
      expect(await chain.getBalance(carol, 'pending')).to.equal(7n * ETHER)
      expect(await chain.getTransactionCount(alice.address, 'pending')).to.equal(1)
      // The sender's, with nothing pre-confirmed: nothing more to take back.
      await chain.setBalance(alice.address, 5n * ETHER)
      expect(withdrawn.length).to.equal(1)
      expect(await chain.getBalance(alice.address, 'latest')).to.equal(5n * ETHER)
      expect(await chain.getBalance(alice.address, 'pending')).to.equal(5n * ETHER)

      // The next tick runs both on the cheat values: 5 ETH - 3 ETH - 2 · 21000 · (875000000 + 1 gwei tip).
      await chain.sendRawTransaction(await alice.sign({ to: carol, value: 2n * ETHER, nonce: 1 }))
      await chain.tick()
      const price = 875_000_000n + GWEI
      expect(await chain.getBalance(alice.address, 'pending')).to.equal(5n * ETHER - 3n * ETHER - 2n * 21_000n * price)
      expect(await chain.getBalance(carol, 'pending')).to.equal(10n * ETHER)
      // An edit of the sender now takes back the pre-confirmation holding both.
      await chain.setBalance(alice.address, 6n * ETHER)
      expect([withdrawn.length, chain.pending.transactions.length]).to.deep.equal([2, 0])
      await chain.clock.advance(2000)
      expect(chain.blockByNumber(1)!.transactions).to.have.length(2)
      expect(await chain.getBalance(alice.address, 'latest')).to.equal(6n * ETHER - 3n * ETHER - 2n * 21_000n * price)
      expect(await chain.getBalance(carol, 'latest')).to.equal(10n * ETHER)
      expect(await chain.getTransactionCount(alice.address, 'latest')).to.equal(2)
      // The sealed block replays to the state it sealed.
      const [first] = chain.blockByNumber(1)!.transactions
      const diff = (await chain.request({ method: 'debug_traceTransaction', params: [first.transaction.hash, { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }] })) as Record<'pre' | 'post', Record<string, { balance?: Hex }>>
      expect([BigInt(diff.pre[carol].balance!), BigInt(diff.post[carol].balance!)]).to.deep.equal([7n * ETHER, 8n * ETHER])
    })

    it("an account a pre-confirmed transaction only read (BALANCE), or a slot it wrote: an edit takes the pre-confirmation back, and it runs again on the new value", async () => {
      const chain = await createChain({ clock: 'manual' })
      const alice = signer(chain, 0)
      // SSTORE(0, BALANCE(whale)); STOP
      const probe = `0x${'0b'.repeat(20)}` as Address
      await chain.setCode(probe, `0x73${whale.slice(2)}3160005500`)
      const withdrawn: unknown[] = []
      chain.on('withdrawn', (event) => withdrawn.push(event))
      await chain.sendRawTransaction(await alice.sign({ to: probe, gas: 100_000n }))
      await chain.tick()
      expect(await chain.getStorageAt(probe, 0n, 'pending')).to.equal(hex32(0n))
      await chain.setBalance(whale, 9n)
      expect(withdrawn.length).to.equal(1)
      await chain.tick()
      expect(await chain.getStorageAt(probe, 0n, 'pending')).to.equal(hex32(9n))
      // The slot it wrote: set under it, the transaction writes it again on the next tick.
      await chain.setStorageAt(probe, 0n, hex32(5n))
      expect(withdrawn.length).to.equal(2)
      expect(await chain.getStorageAt(probe, 0n, 'pending')).to.equal(hex32(5n))
      await chain.clock.advance(2000)
      expect(await chain.getStorageAt(probe, 0n, 'latest')).to.equal(hex32(9n))
      expect(chain.blockByNumber(1)!.transactions).to.have.length(1)
    })

    it("a nonce set past the sender's pre-confirmed transaction takes it out of the block: the block seals without it (Anvil drops it)", async () => {
      const chain = await createChain({ clock: 'manual' })
      const alice = signer(chain, 0)
      const hash = await chain.sendRawTransaction(await alice.sign({ to: carol, value: ETHER }))
      await chain.tick()
      await chain.setNonce(alice.address, 5n)
      await chain.clock.advance(2000)
      expect(chain.blockByNumber(1)!.transactions).to.have.length(0)
      expect(await chain.request({ method: 'eth_getTransactionReceipt', params: [hash] })).to.equal(null)
      expect(await chain.getBalance(carol, 'latest')).to.equal(0n)
    })
  })

  it('the plain functions refuse what their RPC methods refuse, -32602 naming the argument, and change nothing (audit R, R3)', async () => {
    const chain = await createChain({ clock: 'manual' })
    const before = await chain.getBalance(carol)
    const refusals: Array<[Promise<unknown>, string]> = [
      [chain.setBalance(carol, -5n), 'invalid argument 1 (balance)'],
      [chain.setBalance(carol, 2n ** 256n), 'invalid argument 1 (balance)'],
      [chain.setNonce(carol, -1n), 'invalid argument 1 (nonce)'],
      [chain.increaseTime(-100), 'invalid argument 0 (seconds)'],
      [chain.increaseTime(1.5), 'invalid argument 0 (seconds)'],
      [chain.increaseTime(Number.NaN), 'invalid argument 0 (seconds)'],
      [chain.mineBlocks(-1), 'invalid argument 0 (blocks)'],
      [chain.mineBlocks(2, 1.5), 'invalid argument 1 (interval seconds)'],
      [chain.setStorageAt(carol, 0n, '0x1'), 'invalid argument 2 (value)'], // a word as hex is a whole one, as anvil_setStorageAt takes it (review N)
    ]
    for (const [refused, argument] of refusals) {
      const error = await rejection(refused)
      expect([error.code, error.message.startsWith(argument)], error.message).to.deep.equal([-32602, true])
    }
    expect([await chain.getBalance(carol), await chain.getTransactionCount(carol), chain.blockNumber()]).to.deep.equal([before, 0, 0n])
  })

  describe('setCode (anvil_setCode null, hardhat_setCode true)', () => {
    it("planting Counter's runtime code: calls run it at latest and pending, and a transaction to it executes it", async () => {
      const chain = await createChain({ clock: 'manual' })
      expect(await request(chain, 'anvil_setCode', planted, Counter.deployedBytecode)).to.equal(null)
      expect(await chain.getCode(planted, 'latest')).to.equal(Counter.deployedBytecode)
      expect(await chain.getCode(planted, 'pending')).to.equal(Counter.deployedBytecode)
      expect(chain.blockNumber()).to.equal(0n)
      expect(await count(chain, planted, 'latest')).to.equal(0n)
      expect(await count(chain, planted, 'pending')).to.equal(0n)

      const alice = signer(chain, 0)
      const hash = await chain.sendRawTransaction(await signCall(alice, planted, Counter.abi, 'increment', []))
      await chain.tick()
      expect(await count(chain, planted, 'pending')).to.equal(1n)
      expect(await count(chain, planted, 'latest')).to.equal(0n)
      await chain.clock.advance(2000)
      expect(await count(chain, planted, 'latest')).to.equal(1n)
      const receipt = await request<RpcReceipt>(chain, 'eth_getTransactionReceipt', hash)
      expect(receipt.status).to.equal('0x1')
      expect(receipt.logs).to.have.length(1)
      expect(receipt.logs[0].address).to.equal(planted)
      expect(BigInt(receipt.logs[0].data)).to.equal(1n)
    })

    it('hardhat_setCode answers true; empty code removes it (calls then return nothing)', async () => {
      const chain = await createChain({ clock: 'manual' })
      expect(await request(chain, 'hardhat_setCode', planted, Counter.deployedBytecode)).to.equal(true)
      expect(await request(chain, 'eth_getCode', planted, 'pending')).to.equal(Counter.deployedBytecode)
      expect(await request(chain, 'hardhat_setCode', planted, '0x')).to.equal(true)
      expect(await request(chain, 'eth_getCode', planted, 'latest')).to.equal('0x')
      expect(await request(chain, 'eth_getCode', planted, 'pending')).to.equal('0x')
      expect(await chain.call({ to: planted, data: encodeFunctionData({ abi: Counter.abi, functionName: 'count' }) }, 'pending')).to.equal('0x')
    })
  })

  describe('setStorageAt (both names answer true: Anvil 1.7.1 returns a bool here, unlike its other setters)', () => {
    it('getStorageAt reads the word at latest and pending, and Counter.count (slot 0) returns it', async () => {
      const chain = await createChain({ clock: 'manual' })
      await chain.setCode(planted, Counter.deployedBytecode)
      // viem and ethers send the value as a full 32-byte word.
      const word = `0x${'00'.repeat(31)}2a` as Hex
      expect(await request(chain, 'anvil_setStorageAt', planted, '0x0', word)).to.equal(true)
      expect(await request(chain, 'eth_getStorageAt', planted, '0x0', 'latest')).to.equal(word)
      expect(await request(chain, 'eth_getStorageAt', planted, '0x0', 'pending')).to.equal(word)
      expect(await count(chain, planted, 'latest')).to.equal(42n)
      expect(await count(chain, planted, 'pending')).to.equal(42n)
      expect(chain.blockNumber()).to.equal(0n)

      expect(await request(chain, 'hardhat_setStorageAt', planted, '0x0', `0x${'00'.repeat(31)}64`)).to.equal(true)
      expect(await count(chain, planted, 'pending')).to.equal(100n)
      const alice = signer(chain, 0)
      await chain.sendRawTransaction(await signCall(alice, planted, Counter.abi, 'increment', []))
      await chain.clock.advance(2000)
      expect(await count(chain, planted, 'latest')).to.equal(101n)
      expect(await chain.getStorageAt(planted, 0n, 'latest')).to.equal(`0x${'00'.repeat(31)}65`)
    })

    it('a value that is not a whole 32-byte word is refused with -32602 and the slot is untouched (Anvil: `invalid string length`; Hardhat: `Storage value must be exactly 32 bytes long`) (audit Q, Q2)', async () => {
      const chain = await createChain({ clock: 'manual' })
      const word = `0x${'00'.repeat(31)}2a` as Hex
      await request(chain, 'anvil_setStorageAt', planted, '0x0', word)
      for (const method of ['anvil_setStorageAt', 'hardhat_setStorageAt']) {
        for (const value of ['0x01', '0x0', `0x${'11'.repeat(21)}`, `0x${'00'.repeat(33)}`, 7]) {
          const refused = await rejection(request(chain, method, planted, '0x0', value))
          expect([refused.code, refused.message], `${method} ${value}`).to.deep.equal([-32602, `invalid argument 2 (value): expected a 32-byte hex word, got ${JSON.stringify(value)}`])
        }
      }
      expect(await request(chain, 'eth_getStorageAt', planted, '0x0', 'pending')).to.equal(word)
    })

    it('on an account that so far exists only at pending (it just received ETH), the pending balance is kept (Anvil edits the storage only)', async () => {
      const chain = await createChain({ clock: 'manual' })
      const alice = signer(chain, 0)
      await chain.sendRawTransaction(await alice.sign({ to: carol, value: ETHER }))
      await chain.tick()
      expect(await chain.getBalance(carol, 'pending')).to.equal(ETHER)

      await chain.setStorageAt(carol, 0n, 5n)

      expect(await chain.getStorageAt(carol, 0n, 'pending')).to.equal(`0x${'00'.repeat(31)}05`)
      expect(await chain.getBalance(carol, 'pending')).to.equal(ETHER)
      await chain.clock.advance(2000)
      expect(await chain.getBalance(carol, 'latest')).to.equal(ETHER)
    })
  })

  describe('setNonce (anvil_setNonce null, hardhat_setNonce true)', () => {
    it("the old nonce is then 'nonce too low' (geth's text) and pending eth_getTransactionCount reflects it", async () => {
      const chain = await createChain({ clock: 'manual' })
      const alice = signer(chain, 0)
      expect(await request(chain, 'anvil_setNonce', alice.address, '0x5')).to.equal(null)
      expect(await request(chain, 'eth_getTransactionCount', alice.address, 'latest')).to.equal('0x5')
      expect(await request(chain, 'eth_getTransactionCount', alice.address, 'pending')).to.equal('0x5')
      expect(chain.blockNumber()).to.equal(0n)

      const error = await rejection(chain.sendRawTransaction(await alice.sign({ to: carol, value: 1n, nonce: 0 })))
      expect(error.code).to.equal(-32000)
      expect(error.message).to.equal('nonce too low: next nonce 5, tx nonce 0')

      const hash = await chain.sendRawTransaction(await alice.sign({ to: carol, value: 1n, nonce: 5 }))
      expect(await chain.getTransactionCount(alice.address, 'pending')).to.equal(6)
      await chain.clock.advance(2000)
      expect((await request<RpcReceipt>(chain, 'eth_getTransactionReceipt', hash)).status).to.equal('0x1')
      expect(await chain.getTransactionCount(alice.address, 'latest')).to.equal(6)

      expect(await request(chain, 'hardhat_setNonce', alice.address, '0x10')).to.equal(true)
      expect(await chain.getTransactionCount(alice.address, 'pending')).to.equal(16)
    })

    it('a nonce past uint64 is held at 2^64 - 1, as Anvil 1.7.1 holds it', async () => {
      const chain = await createChain({ clock: 'manual' })
      const alice = signer(chain, 0)
      expect(await request(chain, 'anvil_setNonce', alice.address, '0x10000000000000000')).to.equal(null)
      expect(await request(chain, 'eth_getTransactionCount', alice.address, 'latest')).to.equal('0xffffffffffffffff')
    })

    it("pooled transactions whose nonce the edit passed leave the pool at once (geth's pool drops stale nonces; Anvil lists them until it mines); the later ones are pending", async () => {
      const chain = await createChain({ clock: 'manual' })
      const alice = signer(chain, 0)
      const [stale, next, last] = await Promise.all([0, 1, 2].map(async (nonce) => chain.sendRawTransaction(await alice.sign({ to: carol, value: BigInt(nonce + 1), nonce }))))
      await chain.setNonce(alice.address, 1n)
      expect(await request(chain, 'txpool_status')).to.deep.equal({ pending: '0x2', queued: '0x0' })
      expect(await request(chain, 'eth_getTransactionByHash', stale)).to.equal(null)
      const tick = await chain.tick()
      expect(tick.dropped).to.deep.equal([])
      expect(tick.transactions.map(({ transaction }) => transaction.hash)).to.deep.equal([next, last])
      expect(await chain.getBalance(carol, 'pending')).to.equal(5n)
    })

    it('a snapshot taken before the edit brings the dropped transaction back', async () => {
      const chain = await createChain({ clock: 'manual' })
      const alice = signer(chain, 0)
      const stale = await chain.sendRawTransaction(await alice.sign({ to: carol, value: 1n, nonce: 0 }))
      const id = await request(chain, 'evm_snapshot')
      await chain.setNonce(alice.address, 3n)
      expect(await request(chain, 'txpool_status')).to.deep.equal({ pending: '0x0', queued: '0x0' })
      await request(chain, 'evm_revert', id)
      expect(await request(chain, 'txpool_status')).to.deep.equal({ pending: '0x1', queued: '0x0' })
      expect(((await chain.tick()).transactions).map(({ transaction }) => transaction.hash)).to.deep.equal([stale])
    })
  })

  describe('impersonation (anvil_/hardhat_impersonateAccount)', () => {
    it('eth_sendTransaction from an arbitrary funded address is accepted, pre-confirmed and sealed with status 1, from = that address', async () => {
      const chain = await createChain({ clock: 'manual' })
      await chain.setBalance(whale, 10n * ETHER)
      expect(await request(chain, 'anvil_impersonateAccount', whale)).to.equal(null)

      const hash = await request<Hex>(chain, 'eth_sendTransaction', { from: whale, to: carol, value: hex(ETHER) })
      expect(await request(chain, 'service_transactionStatus', hash)).to.deep.equal({ status: 'Known' })
      expect(await chain.getTransactionCount(whale, 'pending')).to.equal(1)
      // Back to back: the second one takes the pending nonce.
      const second = await request<Hex>(chain, 'eth_sendTransaction', { from: whale, to: carol, value: '0x1' })
      await chain.tick()
      expect(chain.pending.transactions.map((t) => t.transaction.hash)).to.deep.equal([hash, second])
      expect(await chain.getBalance(carol, 'pending')).to.equal(ETHER + 1n)
      const preconfirmed = await request<RpcReceipt>(chain, 'eth_getTransactionReceipt', hash)
      expect(preconfirmed.blockHash).to.equal(`0x${'00'.repeat(32)}`)

      await chain.clock.advance(2000)
      const receipt = await request<RpcReceipt>(chain, 'eth_getTransactionReceipt', hash)
      expect(receipt.status).to.equal('0x1')
      expect(receipt.from).to.equal(whale)
      expect(receipt.blockHash).to.equal((await latestBlock(chain)).hash)
      const tx = await request<{ from: Hex; nonce: Hex }>(chain, 'eth_getTransactionByHash', second)
      expect(tx.from).to.equal(whale)
      expect(tx.nonce).to.equal('0x1')
      expect(await chain.getBalance(carol, 'latest')).to.equal(ETHER + 1n)
      expect(await chain.getTransactionCount(whale, 'latest')).to.equal(2)
    })

    it("stopImpersonatingAccount → eth_sendTransaction from it is -32000 'unknown account'; hardhat_ names answer true", async () => {
      const chain = await createChain({ clock: 'manual' })
      await chain.setBalance(whale, ETHER)
      const before = await rejection(request(chain, 'eth_sendTransaction', { from: whale, to: carol, value: '0x1' }))
      expect(before.code).to.equal(-32000)
      expect(before.message).to.equal('unknown account')

      expect(await request(chain, 'hardhat_impersonateAccount', whale)).to.equal(true)
      await request(chain, 'eth_sendTransaction', { from: whale, to: carol, value: '0x1' })
      expect(await request(chain, 'hardhat_stopImpersonatingAccount', whale)).to.equal(true)
      const after = await rejection(request(chain, 'eth_sendTransaction', { from: whale, to: carol, value: '0x1' }))
      expect(after.code).to.equal(-32000)
      expect(after.message).to.equal('unknown account')

      await request(chain, 'anvil_impersonateAccount', whale)
      expect(await request(chain, 'anvil_stopImpersonatingAccount', whale)).to.equal(null)
      expect((await rejection(request(chain, 'eth_sendTransaction', { from: whale, to: carol, value: '0x1' }))).message).to.equal('unknown account')
    })

    it("a dev account given code still sends, signed and through eth_sendTransaction, as in Anvil (config.rs: disable_eip3607); it was accepted and then silently dropped (audit M, D5)", async () => {
      const chain = await createChain({ clock: 'manual' })
      const alice = signer(chain, 0)
      const bob = chain.accounts[1].address
      await chain.setCode(alice.address, Counter.deployedBytecode)
      await chain.setCode(bob, Counter.deployedBytecode)
      const signed = await chain.sendRawTransaction(await alice.sign({ to: carol, value: 3n }))
      const sent = await request<Hex>(chain, 'eth_sendTransaction', { from: bob, to: carol, value: '0x4' })
      const tick = await chain.tick()
      expect(tick.dropped).to.deep.equal([])
      expect(tick.transactions.map((t) => t.transaction.hash)).to.have.members([signed, sent])
      await chain.mine()
      expect(await chain.getBalance(carol, 'latest')).to.equal(7n)
    })

    it('an impersonated contract can send (Anvil and Hardhat skip the EIP-3607 sender-has-code check for impersonated accounts)', async () => {
      const chain = await createChain({ clock: 'manual' })
      await chain.setCode(planted, Counter.deployedBytecode)
      await chain.setBalance(planted, ETHER)
      await chain.impersonateAccount(planted)
      const hash = await request<Hex>(chain, 'eth_sendTransaction', { from: planted, to: carol, value: '0x7' })
      const tick = await chain.tick()
      expect(tick.dropped.map(({ transaction }) => transaction.hash)).to.deep.equal([])
      expect(tick.transactions.map((t) => t.transaction.hash)).to.deep.equal([hash])
      expect(await chain.getBalance(carol, 'pending')).to.equal(7n)
    })
  })

  describe("viem's test client (transport custom(chain))", () => {
    for (const mode of ['anvil', 'hardhat'] as const) {
      it(`mode ${mode}: setBalance, setCode, setStorageAt, setNonce, impersonateAccount, snapshot, revert, mine, increaseTime`, async () => {
        const chain = await createChain({ clock: 'manual' })
        const client = createTestClient({ mode, transport: custom(chain) })
        const alice = signer(chain, 0)

        const id = await client.snapshot()
        expect(id).to.equal('0x0') // Anvil's first id

        await client.setBalance({ address: whale, value: parseEther('3') })
        expect(await chain.getBalance(whale, 'latest')).to.equal(3n * ETHER)
        expect(await chain.getBalance(whale, 'pending')).to.equal(3n * ETHER)

        await client.setCode({ address: planted, bytecode: Counter.deployedBytecode })
        expect(await chain.getCode(planted, 'pending')).to.equal(Counter.deployedBytecode)

        await client.setStorageAt({ address: planted, index: 0, value: `0x${'00'.repeat(31)}07` })
        expect(await count(chain, planted, 'latest')).to.equal(7n)
        expect(await count(chain, planted, 'pending')).to.equal(7n)

        await client.setNonce({ address: alice.address, nonce: 9 })
        expect(await chain.getTransactionCount(alice.address, 'pending')).to.equal(9)

        await client.impersonateAccount({ address: whale })
        const hash = await request<Hex>(chain, 'eth_sendTransaction', { from: whale, to: carol, value: '0x2' })
        await client.stopImpersonatingAccount({ address: whale })
        expect((await rejection(request(chain, 'eth_sendTransaction', { from: whale, to: carol, value: '0x2' }))).message).to.equal('unknown account')

        const offset = await client.increaseTime({ seconds: 3600 })
        expect(offset).to.equal(3600)
        const pending = await request<RpcBlock>(chain, 'eth_getBlockByNumber', 'pending', false)
        expect(BigInt(pending.timestamp)).to.equal(1_735_689_602n + 3600n)

        // Anvil's anvil_mine moves time `interval` seconds forward before each block, the first
        // included; Hardhat's hardhat_mine mines the first as usual, then steps by `interval`. A
        // mined block that pre-confirmed nothing is stamped with the clock's time (genesis + 3600).
        await client.mine({ blocks: 2, interval: 1 })
        expect(chain.blockNumber()).to.equal(2n)
        expect((await request<RpcReceipt>(chain, 'eth_getTransactionReceipt', hash)).status).to.equal('0x1')
        const first = mode === 'anvil' ? 1_735_689_600n + 3601n : 1_735_689_600n + 3600n
        expect(chain.blockByNumber(1)!.header.timestamp).to.equal(first)
        expect(chain.blockByNumber(2)!.header.timestamp).to.equal(first + 1n)

        await client.revert({ id })
        expect(chain.blockNumber()).to.equal(0n)
        expect(await chain.getBalance(whale, 'pending')).to.equal(0n)
        expect(await chain.getCode(planted, 'latest')).to.equal('0x')
        expect(await chain.getTransactionCount(alice.address, 'pending')).to.equal(0)
        expect(await request(chain, 'eth_getTransactionByHash', hash)).to.equal(null)
        expect(BigInt((await request<RpcBlock>(chain, 'eth_getBlockByNumber', 'pending', false)).timestamp)).to.equal(1_735_689_602n)
        expect(await client.snapshot()).to.equal('0x1')
      })
    }
  })
})
