/**
 * The pool's limits, as geth's legacypool keeps them (core/txpool/legacypool/legacypool.go:
 * `add`, `promoteExecutables`, `truncatePending`, `truncateQueue`, the eviction ticker;
 * list.go: `pricedList`), with geth's texts and code -32000. Small limits keep each case to a
 * handful of transactions. Fees: the pending block 1's base fee is 0.875 gwei, so a transaction
 * with fee cap 10 gwei and tip t pays an effective tip of t.
 */
import { expect } from 'chai'
import { keccak256, type Hex } from 'viem'
import { createChain, RPCError, type Chain } from '../../lib/index.ts'
import type { TxPoolOptions } from '../../lib/options.ts'
import { txpoolOptions } from '../../lib/txpool/pool-options.ts'
import { rejection } from '../support/chain-helpers.ts'
import { GWEI, signer } from '../support/wallet.ts'

type PoolJson = { pending: Record<string, Record<string, unknown>>; queued: Record<string, Record<string, unknown>> }

function chainWith(txpool: TxPoolOptions, mining: 'interval' | 'off' = 'interval'): Promise<Chain> {
  return createChain({ clock: 'manual', mining, txpool })
}

/** Signs a transfer from dev account `from` at `nonce`, tip `tip` (fee cap 10 gwei unless given). */
function transfer(chain: Chain, from: number, nonce: number, tip: bigint, feeCap = 10n * GWEI, data?: Hex, gas = 21000n): Promise<Hex> {
  return signer(chain, from).sign({ nonce, maxPriorityFeePerGas: tip, maxFeePerGas: feeCap, to: chain.accounts[9].address, data, gas })
}

const send = (chain: Chain, raw: Hex): Promise<Hex> => chain.sendRawTransaction(raw)

async function status(chain: Chain, raw: Hex): Promise<string> {
  return ((await chain.request({ method: 'service_transactionStatus', params: [keccak256(raw)] })) as { status: string }).status
}

const content = (chain: Chain): Promise<PoolJson> => chain.request({ method: 'txpool_content', params: [] }) as Promise<PoolJson>

/** The nonces txpool_content lists, as `account index: nonces` per section. */
async function nonces(chain: Chain): Promise<{ pending: Record<number, number[]>; queued: Record<number, number[]> }> {
  const pool = await content(chain)
  const index = (address: string) => chain.accounts.findIndex((account) => account.address.toLowerCase() === address)
  const section = (bySender: PoolJson['pending']) =>
    Object.fromEntries(Object.entries(bySender).map(([address, byNonce]) => [index(address), Object.keys(byNonce).map(Number).sort((a, b) => a - b)]))
  return { pending: section(pool.pending), queued: section(pool.queued) }
}

const pendingNonce = async (chain: Chain, from: number): Promise<number> => Number(await chain.getTransactionCount(chain.accounts[from].address, 'pending'))

/** A -32000 rejection with exactly geth's `message`. */
async function expectRejected(promise: Promise<unknown>, message: string): Promise<void> {
  const error = await rejection(promise, RPCError)
  expect({ code: error.code, message: error.message }).to.deep.equal({ code: -32000, message })
}

/** Fills a pool of three slots with account i's nonce 0 at tip `tips[i]` gwei. */
async function fillThree(chain: Chain, tips: readonly bigint[]): Promise<Hex[]> {
  const raws = await Promise.all(tips.map((tip, from) => transfer(chain, from, 0, tip * GWEI)))
  for (const raw of raws) await send(chain, raw)
  return raws
}

describe('txpool limits (geth legacypool, code -32000)', () => {
  it('a full pool refuses a transaction no better than its cheapest with `transaction underpriced`, leaving no trace (geth add, pricedList.Underpriced)', async () => {
    const chain = await chainWith({ globalSlots: 2, globalQueue: 1 })
    await fillThree(chain, [1n, 2n, 3n])
    const before = await content(chain)
    // Same fee cap and tip as the cheapest (account 0's): as cheap is underpriced.
    const raw = await transfer(chain, 3, 0, GWEI)
    await expectRejected(send(chain, raw), 'transaction underpriced')
    expect(await status(chain, raw)).to.equal('Unknown')
    expect(await pendingNonce(chain, 3)).to.equal(0)
    expect(await content(chain)).to.deep.equal(before)
    expect(await chain.request({ method: 'txpool_status', params: [] })).to.deep.equal({ pending: '0x3', queued: '0x0' })
  })

  it('a better-paying transaction evicts the cheapest by effective tip at the pending base fee, not by fee cap or tip; the evicted one is Unknown everywhere (geth pricedList.Discard)', async () => {
    // Capacity 5 slots; floor(4 / 4) + 1 = 2 evictions before the next tick.
    const chain = await chainWith({ globalSlots: 4, globalQueue: 1 })
    // Effective tips at 0.875 gwei: account 0 pays 0.6 gwei (fee cap 100), account 1 min(1.5, 1.5 − 0.875) = 0.625
    // gwei (the lowest fee cap), accounts 2–4 pay 2, 3 and 4 gwei.
    const zero = await transfer(chain, 0, 0, 600_000_000n, 100n * GWEI)
    const one = await transfer(chain, 1, 0, 1_500_000_000n, 1_500_000_000n)
    const rest = await Promise.all([2n, 3n, 4n].map((tip, i) => transfer(chain, 2 + i, 0, tip * GWEI)))
    for (const raw of [zero, one, ...rest]) await send(chain, raw)
    // 0.7 gwei beats 0.6: account 0's goes (by fee cap, account 1's would).
    const better = await transfer(chain, 5, 0, 700_000_000n)
    expect(await send(chain, better)).to.equal(keccak256(better))
    expect(await status(chain, zero)).to.equal('Unknown')
    expect(await chain.request({ method: 'eth_getTransactionByHash', params: [keccak256(zero)] })).to.equal(null)
    expect(await pendingNonce(chain, 0)).to.equal(0)
    // 0.65 gwei beats account 1's 0.625 (by tip, 1.5 gwei, account 5's 0.7 would be the cheapest and 0.65 refused).
    await send(chain, await transfer(chain, 6, 0, 650_000_000n))
    expect(await status(chain, one)).to.equal('Unknown')
    expect(await nonces(chain)).to.deep.equal({ pending: { 2: [0], 3: [0], 4: [0], 5: [0], 6: [0] }, queued: {} })
    // An evicted transaction is new again: sent anew, it competes on price (0.625 < 0.65 gwei, the cheapest now).
    await expectRejected(send(chain, one), 'transaction underpriced')
  })

  it('a transaction over 32 KiB takes two slots and evicts as many as it needs (geth numSlots)', async () => {
    // Capacity 5 slots; one eviction round may evict up to floor(4 / 4) + 1 = 2 executable transactions.
    const chain = await chainWith({ globalSlots: 4, globalQueue: 1 })
    const raws = await Promise.all([1n, 2n, 3n, 4n, 5n].map((tip, from) => transfer(chain, from, 0, tip * GWEI)))
    for (const raw of raws) await send(chain, raw)
    // 40,000 zero bytes: 40,000 + ~120 bytes of envelope, two slots; 5 + 2 > 5, so two go (accounts 0 and 1, the cheapest).
    const large = await transfer(chain, 5, 0, 6n * GWEI, 10n * GWEI, `0x${'00'.repeat(40_000)}`, 500_000n)
    await send(chain, large)
    expect([await status(chain, raws[0]), await status(chain, raws[1]), await status(chain, large)]).to.deep.equal(['Unknown', 'Unknown', 'Known'])
    expect(await nonces(chain)).to.deep.equal({ pending: { 2: [0], 3: [0], 4: [0], 5: [0] }, queued: {} })
  })

  it('`txpool is full` once more than GlobalSlots / 4 executable transactions were evicted since the last tick (geth changesSinceReorg)', async () => {
    // Capacity 5 slots; at most floor(4 / 4) = 1 eviction before the budget is spent (geth: changes > 1 refuses).
    const chain = await chainWith({ globalSlots: 4, globalQueue: 1 })
    // Fee caps below the 0.875 gwei base fee: ticks cannot take them, so the pool stays full across a tick.
    for (let from = 0; from < 5; from++) await send(chain, await transfer(chain, from, 0, 500_000_000n, 500_000_000n))
    const better = (from: number) => transfer(chain, from, 0, 600_000_000n, 600_000_000n)
    await send(chain, await better(5))
    await send(chain, await better(6))
    const third = await better(7)
    await expectRejected(send(chain, third), 'txpool is full')
    expect(await status(chain, third)).to.equal('Unknown')
    expect(Object.keys((await content(chain)).pending)).to.have.length(5)
    await chain.tick()
    expect(await send(chain, third)).to.equal(keccak256(third))
    expect(Object.keys((await content(chain)).pending)).to.have.length(5)
  })

  it('a gapped transaction never evicts an executable one: `future transaction tries to replace pending` (geth ErrFutureReplacePending)', async () => {
    const chain = await chainWith({ globalSlots: 2, globalQueue: 1 })
    await fillThree(chain, [1n, 2n, 3n])
    const before = await content(chain)
    const gapped = await transfer(chain, 3, 1, 5n * GWEI)
    await expectRejected(send(chain, gapped), 'future transaction tries to replace pending')
    expect(await status(chain, gapped)).to.equal('Unknown')
    expect(await content(chain)).to.deep.equal(before)
  })

  it('a gapped transaction may evict a cheaper queued one', async () => {
    const chain = await chainWith({ globalSlots: 2, globalQueue: 1 })
    const queued = await transfer(chain, 0, 5, GWEI)
    await send(chain, queued)
    for (const from of [1, 2]) await send(chain, await transfer(chain, from, 0, BigInt(from + 1) * GWEI))
    await send(chain, await transfer(chain, 3, 1, 5n * GWEI))
    expect(await status(chain, queued)).to.equal('Unknown')
    expect(await nonces(chain)).to.deep.equal({ pending: { 1: [0], 2: [0] }, queued: { 3: [1] } })
  })

  it('a replacement in a full pool must still outbid the one it replaces, and evicts nothing when it does not (geth list.Add)', async () => {
    const chain = await chainWith({ globalSlots: 2, globalQueue: 1 })
    await fillThree(chain, [1n, 2n, 3n])
    const before = await content(chain)
    // Account 2 re-sends nonce 0 at 3.2 gwei: better than the cheapest (1 gwei) but under the 10% bump (3.3 gwei).
    await expectRejected(send(chain, await transfer(chain, 2, 0, 3_200_000_000n, 10_000_000_000n)), 'replacement transaction underpriced')
    expect(await content(chain)).to.deep.equal(before)
  })

  it("an account's queue beyond AccountQueue loses its highest nonces, the accepted one included (geth promoteExecutables, list.Cap)", async () => {
    const chain = await chainWith({ accountQueue: 2 })
    const [one, two, three] = await Promise.all([1, 2, 3].map((nonce) => transfer(chain, 0, nonce, GWEI)))
    await send(chain, one)
    await send(chain, two)
    // Accepted (geth answers the hash, its reorg drops it after): three queued, nonce 3 the highest.
    expect(await send(chain, three)).to.equal(keccak256(three))
    expect(await status(chain, three)).to.equal('Unknown')
    expect(await nonces(chain)).to.deep.equal({ pending: {}, queued: { 0: [1, 2] } })
  })

  it("an account's queue is capped by nonce, not by arrival: a lower nonce pushes out the highest", async () => {
    const chain = await chainWith({ accountQueue: 2 })
    const [one, two, three] = await Promise.all([1, 2, 3].map((nonce) => transfer(chain, 0, nonce, GWEI)))
    await send(chain, three)
    await send(chain, two)
    await send(chain, one)
    expect(await status(chain, three)).to.equal('Unknown')
    expect(await status(chain, one)).to.equal('Known')
    expect(await nonces(chain)).to.deep.equal({ pending: {}, queued: { 0: [1, 2] } })
  })

  it('queued transactions beyond GlobalQueue go from the account idle longest (geth truncateQueue)', async () => {
    const chain = await chainWith({ globalQueue: 2 }, 'off')
    await send(chain, await transfer(chain, 0, 1, GWEI))
    await chain.clock.advance(1000)
    await send(chain, await transfer(chain, 1, 1, GWEI))
    await send(chain, await transfer(chain, 1, 2, GWEI))
    // Three queued: account 0's heartbeat is a second older, so its queue goes.
    expect(await nonces(chain)).to.deep.equal({ pending: {}, queued: { 1: [1, 2] } })
  })

  it('executable transactions beyond GlobalSlots are trimmed from the accounts over AccountSlots, the largest first (geth truncatePending)', async () => {
    const chain = await chainWith({ globalSlots: 6, accountSlots: 2, globalQueue: 10 })
    for (let nonce = 0; nonce < 5; nonce++) await send(chain, await transfer(chain, 0, nonce, GWEI))
    await send(chain, await transfer(chain, 1, 0, GWEI))
    // 7 executable > 6: account 0 (5 > 2) loses nonce 4.
    await send(chain, await transfer(chain, 1, 1, GWEI))
    expect(await nonces(chain)).to.deep.equal({ pending: { 0: [0, 1, 2, 3], 1: [0, 1] }, queued: {} })
    // 7 again: accounts 0 (4) and 1 (3) both over 2; account 0 comes down to account 1's 3.
    await send(chain, await transfer(chain, 1, 2, GWEI))
    expect(await nonces(chain)).to.deep.equal({ pending: { 0: [0, 1, 2], 1: [0, 1, 2] }, queued: {} })
    expect(await pendingNonce(chain, 0)).to.equal(3)
  })

  it("an account's queued transactions expire once it has been idle longer than the lifetime on the chain's clock (geth Lifetime)", async () => {
    const chain = await chainWith({ lifetimeMs: 60_000 }, 'off')
    const executable = await transfer(chain, 0, 0, GWEI)
    const gapped = await transfer(chain, 0, 2, GWEI)
    await send(chain, executable)
    await send(chain, gapped)
    await chain.clock.advance(60_000)
    expect(await status(chain, gapped)).to.equal('Known')
    await chain.clock.advance(1)
    expect(await status(chain, gapped)).to.equal('Unknown')
    expect(await status(chain, executable)).to.equal('Known')
    expect(await nonces(chain)).to.deep.equal({ pending: { 0: [0] }, queued: {} })
  })

  it('an executable transaction renews its account’s heartbeat (geth promoteTx)', async () => {
    const chain = await chainWith({ lifetimeMs: 60_000 }, 'off')
    const gapped = await transfer(chain, 1, 5, GWEI)
    await send(chain, gapped)
    await chain.clock.advance(40_000)
    await send(chain, await transfer(chain, 1, 0, GWEI))
    await chain.clock.advance(21_000)
    // 61 s since it was queued, 21 s since the account was last active.
    expect(await status(chain, gapped)).to.equal('Known')
    await chain.clock.advance(39_001)
    expect(await status(chain, gapped)).to.equal('Unknown')
  })

  it('evm_revert brings evicted transactions back, and the eviction budget with them', async () => {
    const chain = await chainWith({ globalSlots: 2, globalQueue: 1 })
    const [cheapest] = await fillThree(chain, [1n, 2n, 3n])
    const id = await chain.snapshot()
    await send(chain, await transfer(chain, 3, 0, 5n * GWEI))
    expect(await status(chain, cheapest)).to.equal('Unknown')
    await chain.revert(id)
    expect(await status(chain, cheapest)).to.equal('Known')
    await expectRejected(send(chain, await transfer(chain, 4, 0, GWEI)), 'transaction underpriced')
    // floor(2 / 4) = 0 evictions per tick: the reverted one is not counted.
    await send(chain, await transfer(chain, 4, 0, 4n * GWEI))
    expect(await nonces(chain)).to.deep.equal({ pending: { 1: [0], 2: [0], 4: [0] }, queued: {} })
  })

  describe('options', () => {
    it("default to geth's DefaultConfig (AccountSlots 16, GlobalSlots 4096 + 1024, AccountQueue 64, GlobalQueue 1024, Lifetime 3 h)", async () => {
      const chain = await createChain()
      expect(chain.options.txpool).to.deep.equal({ accountSlots: 16, globalSlots: 5120, accountQueue: 64, globalQueue: 1024, lifetimeMs: 10_800_000 })
    })

    it('take numbers or CLI strings, and refuse what is not a positive integer', async () => {
      expect((await chainWith({ globalSlots: '8' as unknown as number })).options.txpool.globalSlots).to.equal(8)
      expect(txpoolOptions.lifetimeMs.parse('60000', '--txpool-lifetime')).to.equal(60_000)
      expect(() => txpoolOptions.accountQueue.parse(0, '--txpool-account-queue')).to.throw(TypeError, 'invalid option --txpool-account-queue: expected an integer from 1, got 0')
      await rejection(chainWith({ globalQueue: -1 }), TypeError)
      await rejection(createChain({ txpool: { slots: 1 } as TxPoolOptions }), TypeError)
    })
  })
})
