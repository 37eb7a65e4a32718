/**
 * Drafted ticks (BlockBuilder.prepareTick): the realtime clock works out the next tick while it
 * waits for it, and the tick takes the draft up only where nothing it rests on changed. The
 * judge is a twin chain that never drafts: every tick and seal must come out the same, whatever
 * happened between the draft and the tick (arrivals behind or ahead of the draft's choices, a
 * replacement, a state edit, a snapshot reverted).
 */
import { expect } from 'chai'
import { privateKeyToAccount } from 'viem/accounts'
import { keccak256, type TransactionSerializable } from 'viem'
import { createChain, type Chain } from '../../lib/index.ts'
import { ENGINE } from '../../lib/engine-host.ts'
import type { Engine } from '../../lib/engine/engine.ts'
import type { FeeRules } from '../../lib/execution/fee-rules.ts'
import type { StateView } from '../../lib/state/state-view.ts'
import type { UserTransaction } from '../../lib/transactions/transaction.ts'
import type { Hex } from '../../lib/types.ts'
import { startUpstream } from '../support/persistence-fork.ts'
import { GWEI } from '../support/wallet.ts'

const RECIPIENT = '0x000000000000000000000000000000000000beef'

/** A transfer from dev account `sender` at `nonce`, with tip `tip` gwei and fee cap `cap` gwei (100 unless given). */
interface Transfer {
  readonly sender: number
  readonly nonce: number
  readonly tip: bigint
  readonly cap?: bigint
}

/** Two chains alike but for drafting: `drafted` drafts before each tick, `plain` never does. */
class Twins {
  readonly drafted: Chain
  readonly plain: Chain
  /** The transactions the drafted chain has run. */
  runs = 0

  static async create(): Promise<Twins> {
    return new Twins(await createChain({ clock: 'manual', accounts: 6 }), await createChain({ clock: 'manual', accounts: 6 }))
  }

  private constructor(drafted: Chain, plain: Chain) {
    this.drafted = drafted
    this.plain = plain
    // Every transaction a tick runs asks the fee rules what it owes besides gas: count them on
    // the drafted chain's own environment (the rules object itself is shared by chains).
    const environment = engineOf(this.drafted).simulation.parts.environment as { fees: FeeRules }
    const fees = environment.fees
    environment.fees = Object.assign(Object.create(fees) as FeeRules, {
      extraCharges: (transaction: UserTransaction, state: StateView) => {
        this.runs++
        return fees.extraCharges(transaction, state)
      },
    })
  }

  async send(...transfers: Transfer[]): Promise<void> {
    for (const transfer of transfers) {
      const raw = await sign(this.drafted, transfer)
      await this.drafted.sendRawTransaction(raw)
      await this.plain.sendRawTransaction(raw)
    }
  }

  /** Drafts the drafted chain's next tick (as the realtime clock does between events); returns the runs it took. */
  async draft(): Promise<number> {
    const before = this.runs
    await engineOf(this.drafted).mining.timeline.prepareNext()
    return this.runs - before
  }

  /** Ticks both; expects the same pre-confirmation; returns its hashes and the runs the drafted tick took. */
  async tick(): Promise<{ hashes: Hex[]; runs: number }> {
    const before = this.runs
    const [drafted, plain] = [await this.drafted.tick(), await this.plain.tick()]
    const hashes = drafted.transactions.map(({ transaction }) => transaction.hash)
    expect(hashes).to.deep.equal(plain.transactions.map(({ transaction }) => transaction.hash))
    expect(drafted.dropped.map(({ transaction, reason }) => [transaction.hash, reason])).to.deep.equal(plain.dropped.map(({ transaction, reason }) => [transaction.hash, reason]))
    expect(drafted.transactions.map(({ receipt }) => receipt.cumulativeGasUsed)).to.deep.equal(plain.transactions.map(({ receipt }) => receipt.cumulativeGasUsed))
    return { hashes, runs: this.runs - before }
  }

  /** Seals both; expects the same block hash. */
  async seal(): Promise<void> {
    const [drafted, plain] = [await this.drafted.mine(), await this.plain.mine()]
    expect(drafted.hash).to.equal(plain.hash)
  }

  async both(request: { method: string; params: unknown[] }): Promise<void> {
    await this.drafted.request(request)
    await this.plain.request(request)
  }
}

function engineOf(chain: Chain): Engine {
  return (chain as unknown as { [ENGINE]: Engine })[ENGINE]
}

function sign(chain: Chain, { sender, nonce, tip, cap = 100n }: Transfer): Promise<Hex> {
  const account = privateKeyToAccount(chain.accounts[sender].privateKey)
  return account.signTransaction({
    type: 'eip1559',
    chainId: chain.options.chainId,
    nonce,
    to: RECIPIENT,
    value: 1n,
    gas: 21000n,
    maxFeePerGas: cap * GWEI,
    maxPriorityFeePerGas: tip * GWEI,
  } as TransactionSerializable) as Promise<Hex>
}

/** Senders 0–3, three nonces each, tips 4, 3, 2, 2 gwei: twelve transfers a draft takes. */
const BACKLOG: Transfer[] = [0, 1, 2, 3].flatMap((sender) => [0, 1, 2].map((nonce) => ({ sender, nonce, tip: [4n, 3n, 2n, 2n][sender] })))

describe('builder/draft: a tick worked out ahead gives the block a tick without a draft gives', () => {
  it('arrivals after the draft that rank behind its choices: the tick runs only them, and both chains seal the same block', async () => {
    const twins = await Twins.create()
    await twins.send(...BACKLOG)
    expect(await twins.draft()).to.equal(12)
    // Tip 2 ties the lowest the draft tried (the earlier arrival goes first); tip 1 is below it.
    await twins.send({ sender: 4, nonce: 0, tip: 2n }, { sender: 5, nonce: 0, tip: 1n }, { sender: 0, nonce: 3, tip: 2n })
    const { hashes, runs } = await twins.tick()
    expect(hashes).to.have.length(15)
    expect(runs, 'transactions run again at the tick').to.equal(3)
    await twins.seal()
  })

  it('an arrival with a higher tip than the draft tried: the draft is put aside and the arrival goes first (geth’s price order)', async () => {
    const twins = await Twins.create()
    await twins.send(...BACKLOG)
    await twins.draft()
    const rich = await sign(twins.drafted, { sender: 5, nonce: 0, tip: 9n })
    await twins.both({ method: 'eth_sendRawTransaction', params: [rich] })
    const { hashes, runs } = await twins.tick()
    expect(hashes[0]).to.equal(keccak256(rich))
    expect(runs).to.equal(13)
    await twins.seal()
  })

  it('a drafted transaction replaced in the pool: the tick includes the replacement, not the drafted one', async () => {
    const twins = await Twins.create()
    await twins.send(...BACKLOG)
    await twins.draft()
    await twins.send({ sender: 3, nonce: 0, tip: 3n, cap: 200n })
    const { hashes } = await twins.tick()
    const replacement = keccak256(await sign(twins.drafted, { sender: 3, nonce: 0, tip: 3n, cap: 200n }))
    const original = keccak256(await sign(twins.drafted, { sender: 3, nonce: 0, tip: 2n }))
    expect(hashes).to.have.length(12).and.include(replacement).and.not.include(original)
    await twins.seal()
  })

  it('a state edit after the draft (anvil_setBalance to zero): the tick drops what the sender can no longer pay, as without a draft', async () => {
    const twins = await Twins.create()
    await twins.send(...BACKLOG)
    await twins.draft()
    await twins.both({ method: 'anvil_setBalance', params: [twins.drafted.accounts[1].address, '0x0'] })
    const { hashes } = await twins.tick()
    expect(hashes).to.have.length(9)
    await twins.seal()
  })

  it('a snapshot reverted after the draft took a transaction sent inside it: the tick leaves that transaction out', async () => {
    const twins = await Twins.create()
    await twins.send(...BACKLOG)
    const ids = [await twins.drafted.request({ method: 'evm_snapshot', params: [] }), await twins.plain.request({ method: 'evm_snapshot', params: [] })]
    await twins.send({ sender: 5, nonce: 0, tip: 9n })
    await twins.draft()
    await twins.drafted.request({ method: 'evm_revert', params: [ids[0]] })
    await twins.plain.request({ method: 'evm_revert', params: [ids[1]] })
    const { hashes } = await twins.tick()
    expect(hashes).to.have.length(12)
    await twins.seal()
  })

  it('later ticks of a block are drafted too, and evm_mine takes a draft up as a tick does', async () => {
    const twins = await Twins.create()
    await twins.send(...BACKLOG.slice(0, 6))
    await twins.draft()
    expect((await twins.tick()).hashes).to.have.length(6)
    await twins.send(...BACKLOG.slice(6))
    expect(await twins.draft()).to.equal(6)
    expect((await twins.tick()).runs).to.equal(0)
    await twins.send({ sender: 4, nonce: 0, tip: 1n })
    expect(await twins.draft()).to.equal(1)
    const before = twins.runs
    await twins.seal()
    expect(twins.runs - before, 'runs at the seal').to.equal(0)
    expect((await twins.tick()).hashes).to.have.length(0)
  })

  it('a forked chain drafts nothing (a draft could wait on the upstream while holding every other request); a fresh one does', async () => {
    const upstream = await startUpstream()
    const forked = await upstream.fork()
    const fresh = await createChain({ clock: 'manual', accounts: 6 })
    try {
      const drafted = new Map<Chain, number>()
      for (const chain of [forked, fresh]) {
        chain.on('drafted', (transactions) => drafted.set(chain, (drafted.get(chain) ?? 0) + transactions.length))
        await chain.sendRawTransaction(await sign(chain, { sender: 0, nonce: Number(await chain.getTransactionCount(chain.accounts[0].address, 'pending')), tip: 1n }))
        await engineOf(chain).mining.timeline.prepareNext()
      }
      expect(drafted.get(forked) ?? 0).to.equal(0)
      expect(drafted.get(fresh)).to.equal(1)
    } finally {
      forked.close()
      fresh.close()
      await upstream.close()
    }
  })
})
