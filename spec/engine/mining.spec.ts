/**
 * Mining modes (option `mining`, CLI `--mining` / `--instant`): `interval` (default) — ticks and
 * seals follow the clock; `instant` — each accepted transaction is pre-confirmed before
 * sendRawTransaction returns, seals still follow the clock; `auto` — Hardhat's automine: each
 * transaction is pre-confirmed and sealed in its own block at once and the clock seals nothing.
 * `evm_setAutomine` switches between `auto` and `interval`; `anvil_getAutomine` /
 * `hardhat_getAutomine` tell whether automine is on.
 */
import { expect } from 'chai'
import { execFileSync } from 'node:child_process'
import { createTestClient, custom, keccak256, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { createChain, type Chain } from '../../lib/index.ts'
import type { Address } from '../../lib/types.ts'
import { rejection, ZERO_HASH, type RpcBlock, type RpcReceipt } from '../support/chain-helpers.ts'
import { recordEvents, strictlyIncreasing, timestamps } from '../support/controls-world.ts'
import { killAll, ROOT, spawnCli, startCli } from '../support/server-cli.ts'
import { GWEI, signer } from '../support/wallet.ts'

const ETHER = 10n ** 18n
const carol = `0x${'00'.repeat(18)}ca41` as Address
const GENESIS_MS = 1_735_689_600_000
/** What a 21000-gas transfer costs in block 1 (base fee 875000000, tip 1 gwei). */
const TRANSFER_FEE = 21_000n * (875_000_000n + GWEI)

async function request<T = unknown>(chain: Chain, method: string, ...params: unknown[]): Promise<T> {
  return (await chain.request({ method, params })) as T
}

describe('mining modes', () => {
  describe("mining: 'instant'", () => {
    it('sendRawTransaction resolves with the transaction already pre-confirmed, without moving the clock', async () => {
      const chain = await createChain({ clock: 'manual', mining: 'instant' })
      const events = recordEvents(chain)
      const alice = signer(chain, 0)
      const before = await chain.getBalance(alice.address, 'pending')

      const hash = await chain.sendRawTransaction(await alice.sign({ to: carol, value: ETHER }))

      expect(chain.clock.now()).to.equal(GENESIS_MS)
      expect(events).to.deep.equal([`tick 1.0 [${hash}] @${GENESIS_MS}`])
      expect(await chain.getBalance(carol, 'pending')).to.equal(ETHER)
      expect(await chain.getBalance(alice.address, 'pending')).to.equal(before - ETHER - TRANSFER_FEE)
      expect(await chain.getBalance(carol, 'latest')).to.equal(0n)
      const receipt = await request<RpcReceipt>(chain, 'eth_getTransactionReceipt', hash)
      expect(receipt.status).to.equal('0x1')
      expect(receipt.blockHash).to.equal(ZERO_HASH)
      expect(receipt.blockNumber).to.equal('0x1')
      expect(await request(chain, 'service_transactionStatus', hash)).to.deep.equal({ status: 'Known' })
      expect(chain.blockNumber()).to.equal(0n)
    })

    it('over RPC too: eth_sendRawTransaction answers with the transaction in the pending block', async () => {
      const chain = await createChain({ clock: 'manual', mining: 'instant' })
      const alice = signer(chain, 0)
      const hash = await request<Hex>(chain, 'eth_sendRawTransaction', await alice.sign({ to: carol, value: 5n }))
      const pending = await request<RpcBlock>(chain, 'eth_getBlockByNumber', 'pending', false)
      expect(pending.transactions).to.deep.equal([hash])
      expect(await request(chain, 'eth_getBalance', carol, 'pending')).to.equal('0x5')
    })

    it('back to back: each transaction is its own flashblock, in order', async () => {
      const chain = await createChain({ clock: 'manual', mining: 'instant' })
      const events = recordEvents(chain)
      const alice = signer(chain, 0)
      const hashes: Hex[] = []
      for (const nonce of [0, 1, 2]) hashes.push(await chain.sendRawTransaction(await alice.sign({ to: carol, value: 1n, nonce })))
      expect(events).to.deep.equal(hashes.map((hash, i) => `tick 1.${i} [${hash}] @${GENESIS_MS}`))
      expect(chain.pending.transactions.map((t) => t.transaction.hash)).to.deep.equal(hashes)
      expect(await chain.getTransactionCount(alice.address, 'pending')).to.equal(3)
    })

    it('seals still follow the clock: advance(2000) seals the pre-confirmed block, and empty blocks after it', async () => {
      const chain = await createChain({ clock: 'manual', mining: 'instant' })
      const alice = signer(chain, 0)
      const hash = await chain.sendRawTransaction(await alice.sign({ to: carol, value: ETHER }))
      await chain.clock.advance(1999)
      expect(chain.blockNumber()).to.equal(0n)
      await chain.clock.advance(1)
      expect(chain.blockNumber()).to.equal(1n)
      const block = await request<RpcBlock>(chain, 'eth_getBlockByNumber', 'latest', false)
      expect(block.transactions).to.deep.equal([hash])
      expect(BigInt(block.timestamp)).to.equal(1_735_689_602n)
      const receipt = await request<RpcReceipt>(chain, 'eth_getTransactionReceipt', hash)
      expect(receipt.blockHash).to.equal(block.hash)
      expect(await chain.getBalance(carol, 'latest')).to.equal(ETHER)
      await chain.clock.advance(2000)
      expect(chain.blockNumber()).to.equal(2n)
    })

    it('a transaction behind a nonce gap waits in the mempool; the one that fills the gap brings both in at once', async () => {
      const chain = await createChain({ clock: 'manual', mining: 'instant' })
      const alice = signer(chain, 0)
      const held = await chain.sendRawTransaction(await alice.sign({ to: carol, value: 2n, nonce: 1 }))
      expect(chain.pending.transactions).to.have.length(0)
      expect(await request(chain, 'eth_getTransactionReceipt', held)).to.equal(null)
      expect(await request(chain, 'service_transactionStatus', held)).to.deep.equal({ status: 'Known' })
      const filler = await chain.sendRawTransaction(await alice.sign({ to: carol, value: 1n, nonce: 0 }))
      expect(chain.pending.transactions.map((t) => t.transaction.hash)).to.deep.equal([filler, held])
      expect(await chain.getBalance(carol, 'pending')).to.equal(3n)
    })
  })

  describe("mining: 'auto' (Hardhat's automine)", () => {
    it('each transaction is sealed in its own block at once: the block number steps per transaction, receipts carry the real block hash', async () => {
      const chain = await createChain({ clock: 'manual', mining: 'auto' })
      const alice = signer(chain, 0)
      const hashes: Hex[] = []
      for (const nonce of [0, 1, 2]) {
        const hash = await chain.sendRawTransaction(await alice.sign({ to: carol, value: 1n, nonce }))
        hashes.push(hash)
        expect(chain.blockNumber()).to.equal(BigInt(nonce + 1))
        const block = await request<RpcBlock>(chain, 'eth_getBlockByNumber', 'latest', false)
        expect(block.transactions).to.deep.equal([hash])
        const receipt = await request<RpcReceipt>(chain, 'eth_getTransactionReceipt', hash)
        expect(receipt.status).to.equal('0x1')
        expect(receipt.blockHash).to.equal(block.hash)
        expect(receipt.blockNumber).to.equal(block.number)
        expect(await request(chain, 'service_transactionStatus', hash)).to.deep.equal({ status: 'Unknown' })
      }
      expect(chain.clock.now()).to.equal(GENESIS_MS)
      expect(await chain.getBalance(carol, 'latest')).to.equal(3n)
      expect(chain.pending.transactions).to.have.length(0)
      expect(strictlyIncreasing(await timestamps(chain))).to.equal(true)
    })

    it('the clock seals nothing and ticks nothing: advance(10_000) leaves the chain as it was', async () => {
      const chain = await createChain({ clock: 'manual', mining: 'auto' })
      const events = recordEvents(chain)
      await chain.clock.advance(10_000)
      expect(events).to.deep.equal([])
      expect(chain.blockNumber()).to.equal(0n)
      expect(chain.clock.now()).to.equal(GENESIS_MS + 10_000)
    })

    it('a transaction behind a nonce gap seals no block (Anvil mines only when a transaction is ready; Hardhat refuses to queue under automine)', async () => {
      const chain = await createChain({ clock: 'manual', mining: 'auto' })
      const alice = signer(chain, 0)
      const held = await chain.sendRawTransaction(await alice.sign({ to: carol, value: 2n, nonce: 1 }))
      expect(await request(chain, 'service_transactionStatus', held)).to.deep.equal({ status: 'Known' })
      expect(chain.blockNumber()).to.equal(0n)
    })

    it("a fee cap below the next block's base fee is refused, -32000 with geth's text (Anvil and Hardhat refuse it too: no block could take it); under interval mining it waits, as in geth's pool", async () => {
      const chain = await createChain({ clock: 'manual', mining: 'auto' })
      const alice = signer(chain, 0)
      const baseFee = chain.pending.context.baseFeePerGas
      const low = await alice.sign({ to: carol, value: 1n, nonce: 0, maxFeePerGas: baseFee - 1n, maxPriorityFeePerGas: 1n })
      const error = await rejection(chain.sendRawTransaction(low))
      expect([error.code, error.message]).to.deep.equal([-32000, `max fee per gas less than block base fee: address ${alice.address.toLowerCase()}, maxFeePerGas: ${baseFee - 1n}, baseFee: ${baseFee}`])
      expect(await request(chain, 'txpool_status')).to.deep.equal({ pending: '0x0', queued: '0x0' })
      // Checked before the sender's funds, as Anvil checks it: an unfunded sender gets the same refusal.
      const broke = privateKeyToAccount(`0x${'11'.repeat(32)}`)
      const unfunded = await broke.signTransaction({ type: 'eip1559', chainId: 31337, nonce: 0, to: carol, gas: 21_000n, maxFeePerGas: baseFee - 1n, maxPriorityFeePerGas: 1n })
      expect((await rejection(chain.sendRawTransaction(unfunded))).message).to.match(/^max fee per gas less than block base fee: /)
      // The sender's next transaction is not stuck behind it.
      await chain.sendRawTransaction(await alice.sign({ to: carol, value: 1n, nonce: 0 }))
      expect(chain.blockNumber()).to.equal(1n)

      const waiting = await createChain({ clock: 'manual', mining: 'interval' })
      const hash = await waiting.sendRawTransaction(await signer(waiting, 0).sign({ to: carol, value: 1n, nonce: 0, maxFeePerGas: baseFee - 1n, maxPriorityFeePerGas: 1n }))
      expect(await request(waiting, 'service_transactionStatus', hash)).to.deep.equal({ status: 'Known' })
    })

    it('eth_sendRawTransactionSync: a ready transaction answers its sealed receipt at once; one behind a gap times out on the chain clock with code 4', async () => {
      const chain = await createChain({ clock: 'manual', mining: 'auto' })
      const alice = signer(chain, 0)
      const ready = await alice.sign({ to: carol, value: 1n, nonce: 0 })
      const sealed = await request<RpcReceipt>(chain, 'eth_sendRawTransactionSync', ready)
      expect(sealed.blockHash).to.equal(chain.blockByNumber(1)!.hash)
      expect(chain.clock.now()).to.equal(GENESIS_MS)

      const gapped = await alice.sign({ to: carol, value: 1n, nonce: 2 })
      let settled = false
      const answer = request(chain, 'eth_sendRawTransactionSync', gapped, 1000).then(
        () => expect.fail('a gapped transaction cannot be sealed'),
        (error: { code: number; message: string }) => {
          settled = true
          return error
        },
      )
      await chain.clock.advance(999)
      expect(settled, 'still waiting at 999 ms').to.equal(false)
      await chain.clock.advance(1)
      const error = await answer
      expect(error.code).to.equal(4)
      expect(error.message).to.match(/^Transaction 0x[0-9a-f]{64} was added to the mempool but wasn't confirmed within 1s\.$/)
      expect(chain.blockNumber()).to.equal(1n)
    })

    it('a wait in flight ends with code 4 when the chain starts over (anvil_reset, anvil_loadState) or closes, as evm_revert ends it: the transaction will never run (audit R, R7)', async () => {
      const chain = await createChain({ clock: 'manual', mining: 'off' })
      const dump = await chain.dumpState()
      const alice = signer(chain, 0)
      for (const [nonce, startOver] of [
        [0, () => chain.request({ method: 'anvil_reset', params: [] })],
        [0, () => chain.loadState(dump)],
        [0, async () => chain.close()],
      ] as const) {
        const raw = await alice.sign({ to: carol, value: 1n, nonce })
        const answer = request(chain, 'eth_sendRawTransactionSync', raw, 6000).then(
          () => expect.fail('the chain started over'),
          (error: { code: number }) => error,
        )
        while (chain.findTransaction(keccak256(raw)) === undefined) await new Promise((admitted) => setImmediate(admitted))
        const waiting = chain.waitForPreconfirmation(keccak256(raw), 60_000).catch((error: { code: number }) => error)
        await startOver()
        expect([(await answer).code, ((await waiting) as { code: number }).code]).to.deep.equal([4, 4])
      }
      // Issued in the same turn as a reset, a sync send waits on the retired engine: it ends too (review N).
      const fresh = await createChain({ clock: 'manual', mining: 'off' })
      const raw = await signer(fresh, 0).sign({ to: carol, value: 1n, nonce: 0 })
      const answer = request(fresh, 'eth_sendRawTransactionSync', raw, 6000).catch((error: { code: number }) => error)
      await fresh.request({ method: 'anvil_reset', params: [] })
      expect(((await answer) as { code: number }).code).to.equal(4)
    })
  })

  describe('evm_setAutomine, anvil_getAutomine, hardhat_getAutomine', () => {
    it('evm_setAutomine(true) switches to auto, evm_setAutomine(false) back to the clock (interval)', async () => {
      const chain = await createChain({ clock: 'manual' })
      const alice = signer(chain, 0)
      expect(await request(chain, 'anvil_getAutomine')).to.equal(false)
      expect(await request(chain, 'hardhat_getAutomine')).to.equal(false)

      expect(await request(chain, 'evm_setAutomine', true)).to.equal(null)
      expect(chain.mining).to.equal('auto')
      expect(await request(chain, 'anvil_getAutomine')).to.equal(true)
      expect(await request(chain, 'hardhat_getAutomine')).to.equal(true)
      const sealed = await chain.sendRawTransaction(await alice.sign({ to: carol, value: 1n, nonce: 0 }))
      expect(chain.blockNumber()).to.equal(1n)
      expect((await request<RpcReceipt>(chain, 'eth_getTransactionReceipt', sealed)).blockHash).to.equal(chain.blockByNumber(1)!.hash)

      expect(await request(chain, 'evm_setAutomine', false)).to.equal(null)
      expect(chain.mining).to.equal('interval')
      expect(await request(chain, 'anvil_getAutomine')).to.equal(false)
      const waiting = await chain.sendRawTransaction(await alice.sign({ to: carol, value: 1n, nonce: 1 }))
      expect(chain.blockNumber()).to.equal(1n)
      expect(await request(chain, 'eth_getTransactionReceipt', waiting)).to.equal(null)
      await chain.clock.advance(200)
      expect((await request<RpcReceipt>(chain, 'eth_getTransactionReceipt', waiting)).blockHash).to.equal(ZERO_HASH)
      await chain.clock.advance(1800)
      expect(chain.blockNumber()).to.equal(2n)
    })

    it("'instant' is not automine: getAutomine answers false", async () => {
      const chain = await createChain({ clock: 'manual', mining: 'instant' })
      expect(await request(chain, 'anvil_getAutomine')).to.equal(false)
      await chain.setMining('auto')
      expect(await request(chain, 'hardhat_getAutomine')).to.equal(true)
    })

    it('evm_setAutomine takes a boolean only (-32602)', async () => {
      const chain = await createChain({ clock: 'manual' })
      const error = (await chain.request({ method: 'evm_setAutomine', params: ['true'] }).catch((e: unknown) => e)) as { code: number; message: string }
      expect(error.code).to.equal(-32602)
      expect(error.message).to.equal('invalid argument 0 (enabled): expected a boolean, got "true"')
    })

    it('back from automine, the clock picks up from now: no burst of the blocks skipped while automine was on', async () => {
      const chain = await createChain({ clock: 'manual' })
      await request(chain, 'evm_setAutomine', true)
      await chain.clock.advance(10_000)
      await request(chain, 'evm_setAutomine', false)
      const events = recordEvents(chain)
      await chain.clock.advance(1)
      expect(chain.blockNumber(), 'blocks sealed by advance(1)').to.equal(0n)
      await chain.clock.advance(2000)
      expect(chain.blockNumber()).to.equal(1n)
      expect(events.filter((line) => line.startsWith('block'))).to.have.length(1)
    })

    it("viem's test client: setAutomine / getAutomine in modes anvil and hardhat", async () => {
      for (const mode of ['anvil', 'hardhat'] as const) {
        const chain = await createChain({ clock: 'manual' })
        const client = createTestClient({ mode, transport: custom(chain) })
        expect(await client.getAutomine()).to.equal(false)
        await client.setAutomine(true)
        expect(await client.getAutomine()).to.equal(true)
        expect(chain.mining).to.equal('auto')
        await client.setAutomine(false)
        expect(chain.mining).to.equal('interval')
      }
    })
  })

  describe('the CLI: --instant and --mining <mode>', () => {
    let raw: { first: Hex; second: Hex }
    before(async function () {
      this.timeout(180_000)
      execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'ignore' })
      const chain = await createChain({ clock: 'manual' })
      const alice = signer(chain, 0)
      raw = { first: await alice.sign({ to: carol, value: ETHER }), second: await alice.sign({ to: carol, value: ETHER, nonce: 1 }) }
    })
    afterEach(killAll)

    async function rpc<T = unknown>(url: string, method: string, ...params: unknown[]): Promise<T> {
      const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
      const body = (await response.json()) as { result?: T; error?: unknown }
      if (body.error !== undefined) throw new Error(JSON.stringify(body.error))
      return body.result as T
    }

    it('--instant: a transaction sent over HTTP is pre-confirmed when the answer arrives (manual clock: nothing else moves)', async () => {
      const cli = await startCli(['--port', '0', '--clock', 'manual', '--instant', '--silent'])
      const hash = await rpc<Hex>(cli.url, 'eth_sendRawTransaction', raw.first)
      expect(await rpc(cli.url, 'eth_getBalance', carol, 'pending')).to.equal('0xde0b6b3a7640000')
      expect(await rpc(cli.url, 'eth_getBalance', carol, 'latest')).to.equal('0x0')
      const receipt = await rpc<RpcReceipt>(cli.url, 'eth_getTransactionReceipt', hash)
      expect(receipt.blockHash).to.equal(ZERO_HASH)
      expect(receipt.status).to.equal('0x1')
      expect(await rpc(cli.url, 'eth_blockNumber')).to.equal('0x0')
      expect(await rpc(cli.url, 'anvil_getAutomine')).to.equal(false)
    })

    it('--mining instant does the same; --mining auto seals each transaction in its own block at once', async () => {
      const instant = await startCli(['--port', '0', '--clock', 'manual', '--mining', 'instant', '--silent'])
      await rpc(instant.url, 'eth_sendRawTransaction', raw.first)
      expect(await rpc(instant.url, 'eth_getBalance', carol, 'pending')).to.equal('0xde0b6b3a7640000')

      const auto = await startCli(['--port', '0', '--clock', 'manual', '--mining', 'auto', '--silent'])
      const first = await rpc<Hex>(auto.url, 'eth_sendRawTransaction', raw.first)
      expect(await rpc(auto.url, 'eth_blockNumber')).to.equal('0x1')
      const second = await rpc<Hex>(auto.url, 'eth_sendRawTransaction', raw.second)
      expect(await rpc(auto.url, 'eth_blockNumber')).to.equal('0x2')
      expect(await rpc(auto.url, 'eth_getBalance', carol, 'latest')).to.equal('0x1bc16d674ec80000')
      const receipts = [await rpc<RpcReceipt>(auto.url, 'eth_getTransactionReceipt', first), await rpc<RpcReceipt>(auto.url, 'eth_getTransactionReceipt', second)]
      expect(receipts.map((receipt) => receipt.blockNumber)).to.deep.equal(['0x1', '0x2'])
      expect(receipts.map((receipt) => receipt.status)).to.deep.equal(['0x1', '0x1'])
      expect(await rpc(auto.url, 'anvil_getAutomine')).to.equal(true)
    })

    it('--mining with an unknown mode exits with code 2 naming the choices; --help lists --mining and --instant', async () => {
      const bad = spawnCli(['--port', '0', '--mining', 'sometimes'])
      const exit = await bad.exited
      expect(exit.code).to.equal(2)
      expect(bad.stderr()).to.contain('error: invalid option --mining: expected interval | instant | auto | off, got "sometimes"')
      const help = spawnCli(['--help'])
      expect((await help.exited).code).to.equal(0)
      expect(help.stdout()).to.match(/--mining <value>\s+interval: ticks and seals follow the clock/)
      expect(help.stdout()).to.match(/--instant\s+same as --mining instant/)
    })
  })
})
