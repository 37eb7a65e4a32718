/**
 * prestateTracer's diffMode as geth answers it (eth/tracers/native/prestate.go): { post, pre } of
 * what a transaction or a call changed. Checked against Anvil 1.7.1 on the same signed
 * transactions, then geth's rules on hand-written code: a slot written to zero, a slot read but
 * not changed, a contract created and destroyed in one transaction (EIP-6780), a traced call's
 * gas settled as a transaction's, and the includeEmpty refusal.
 */
import { expect } from 'chai'
import { getContractAddress, keccak256, toHex, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { createChain, type Chain } from '../../lib/index.ts'
import type { Address } from '../../lib/types.ts'
import { anvilOrSkip, type AnvilNode } from '../support/anvil-node.ts'
import { sendTraceWorkload, traceeCall } from '../support/trace-workload.ts'
import { signer } from '../support/wallet.ts'

type Account = { balance?: Hex; nonce?: number; code?: Hex; codeHash?: Hex; storage?: Record<Hex, Hex> }
type Diff = { post: Record<Hex, Account>; pre: Record<Hex, Account> }

const ZERO = `0x${'00'.repeat(20)}` as Address
const DIFF = { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }
const word = (value: bigint) => toHex(value, { size: 32 })

function diffOf(chain: Chain, method: string, params: unknown[]): Promise<Diff> {
  return chain.request({ method, params }) as Promise<Diff>
}

/**
 * A diff as both nodes can agree on it: without geth's `codeHash` (Anvil lists none), without
 * accounts empty before the run in `pre` (geth leaves them out, Anvil lists them), and without
 * `sender`'s balance (the base fees of the two nodes differ, so what the sender pays does).
 */
function comparable(diff: Diff, sender: string): Record<'pre' | 'post', Record<string, unknown>> {
  const strip = (accounts: Record<Hex, Account>, section: 'pre' | 'post'): Record<string, unknown> =>
    Object.fromEntries(
      Object.entries(accounts)
        .filter(([, account]) => section === 'post' || account.balance !== '0x0' || account.nonce !== undefined || account.code !== undefined)
        .map(([address, { codeHash: _, ...account }]) => [address, address === sender ? { ...account, balance: 'paid' } : account]),
    )
  return { post: strip(diff.post, 'post'), pre: strip(diff.pre, 'pre') }
}

describe('prestateTracer diffMode', () => {
  describe('against Anvil 1.7.1 (--hardfork prague, coinbase zero on both), the same signed transactions', function () {
    this.timeout(60_000)
    let anvil: AnvilNode | undefined
    let chain: Chain
    let tracee: Address
    const hashes: Hex[] = []

    before(async function () {
      anvil = await anvilOrSkip(this, ['--hardfork', 'prague'])
      chain = await createChain({ clock: 'manual', mining: 'auto', coinbase: ZERO })
      const workload = await sendTraceWorkload(chain, anvil)
      tracee = workload.tracee
      hashes.push(...workload.sent.map(({ hash }) => hash))
    })
    after(() => anvil?.stop())

    it('a deployment, nested calls with value, a revert and CREATE/CREATE2: the same accounts, balances, nonces, code and slots, before and after', async () => {
      const sender = signer(chain, 0).address.toLowerCase()
      for (const tracerConfig of [{ diffMode: true }, { diffMode: true, disableCode: true, disableStorage: true }]) {
        for (const hash of hashes) {
          const options = { tracer: 'prestateTracer', tracerConfig }
          const ours = await diffOf(chain, 'debug_traceTransaction', [hash, options])
          const theirs = await anvil!.request<Diff>('debug_traceTransaction', [hash, options])
          expect(comparable(ours, sender), `${hash} ${JSON.stringify(tracerConfig)}`).to.deep.equal(comparable(theirs, sender))
        }
      }
    })

    it("geth's codeHash beside the code of an account whose code changed (Anvil lists none)", async () => {
      const deployed = await diffOf(chain, 'debug_traceTransaction', [hashes[0], DIFF])
      const { code, codeHash } = deployed.post[tracee]
      expect(code).to.equal(await chain.request({ method: 'eth_getCode', params: [tracee, 'latest'] }))
      expect(codeHash).to.match(/^0x[0-9a-f]{64}$/)
      const bare = await diffOf(chain, 'debug_traceTransaction', [hashes[0], { tracer: 'prestateTracer', tracerConfig: { diffMode: true, disableCode: true } }])
      expect(bare.post[tracee]).to.deep.include({ codeHash }).and.not.have.property('code')
    })

    it('debug_traceCall with fees: the unused gas goes back to the sender and the tip to the coinbase, as in Anvil', async () => {
      const alice = signer(chain, 0).address.toLowerCase() as Hex
      const request = { from: alice, to: tracee, data: traceeCall('nested', [5n]), value: '0x7', gas: '0x50000', maxFeePerGas: '0x3b9aca00', maxPriorityFeePerGas: '0x1' }
      const ours = await diffOf(chain, 'debug_traceCall', [request, 'latest', DIFF])
      const theirs = await anvil!.request<Diff>('debug_traceCall', [request, 'latest', DIFF])
      expect(comparable(ours, alice)).to.deep.equal(comparable(theirs, alice))
      const { gasUsed } = (await chain.request({ method: 'debug_traceCall', params: [request, 'latest', { tracer: 'callTracer' }] })) as { gasUsed: Hex }
      const block = (await chain.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as { baseFeePerGas: Hex }
      const price = BigInt(block.baseFeePerGas) + 1n
      expect(BigInt(ours.pre[alice].balance!) - BigInt(ours.post[alice].balance!)).to.equal(BigInt(gasUsed) * price + 7n)
    })
  })

  describe("geth's rules on hand-written code", () => {
    let chain: Chain
    let alice: Address
    const request = (method: string, params: unknown[]) => chain.request({ method, params })
    beforeEach(async () => {
      chain = await createChain({ mining: 'auto' })
      alice = ((await request('eth_accounts', [])) as Address[])[0]
    })

    it('a slot written to zero is in pre with its old value and left out of post; a slot only read is in neither', async () => {
      const contract = `0x${'00'.repeat(19)}c0` as Address
      // PUSH1 1 SLOAD POP PUSH1 0 PUSH1 0 SSTORE STOP: slot 1 read, slot 0 cleared.
      await request('anvil_setCode', [contract, '0x60015450600060005500'])
      await request('anvil_setStorageAt', [contract, word(0n), word(5n)])
      await request('anvil_setStorageAt', [contract, word(1n), word(9n)])
      const hash = await request('eth_sendTransaction', [{ from: alice, to: contract }])
      const diff = await diffOf(chain, 'debug_traceTransaction', [hash, DIFF])
      expect(diff.pre[contract].storage).to.deep.equal({ [word(0n)]: word(5n) })
      expect(diff.post[contract]).to.deep.equal({})
      expect(await chain.getStorageAt(contract, 1n)).to.equal(word(9n))
    })

    it('a contract created and destroyed in one transaction (EIP-6780): its state before is in pre, and it is not in post', async () => {
      const heir = `0x${'00'.repeat(19)}ee` as Address
      const created = getContractAddress({ from: alice, nonce: 0n }).toLowerCase() as Address
      await request('anvil_setBalance', [created, '0x64'])
      // Init code: SELFDESTRUCT to heir.
      const hash = await request('eth_sendTransaction', [{ from: alice, data: `0x73${heir.slice(2)}ff` }])
      const diff = await diffOf(chain, 'debug_traceTransaction', [hash, DIFF])
      expect(diff.pre[created]).to.deep.equal({ balance: '0x64' })
      expect(diff.post).to.not.have.property(created)
      expect(diff.post[heir]).to.deep.equal({ balance: '0x64' })
      expect(diff.pre).to.not.have.property(heir)
    })

    it("a type-4 transaction's authority is touched (geth looks each up): before, as it was; after, its nonce and the delegation", async () => {
      const probe = `0x${'00'.repeat(19)}c1` as Address
      const sender = privateKeyToAccount('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80')
      const authority = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d')
      const authorization = await authority.signAuthorization({ contractAddress: probe, chainId: 31337, nonce: 0 })
      const raw = await sender.signTransaction({ type: 'eip7702', chainId: 31337, nonce: 0, to: ZERO, gas: 100_000n, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 1n, authorizationList: [authorization] })
      const hash = await request('eth_sendRawTransaction', [raw])
      const diff = await diffOf(chain, 'debug_traceTransaction', [hash, DIFF])
      const delegated = `0xef0100${probe.slice(2)}` as Hex
      const key = authority.address.toLowerCase() as Hex
      expect(diff.post[key]).to.deep.equal({ code: delegated, codeHash: keccak256(delegated), nonce: 1 })
      expect(diff.pre[key]).to.deep.equal({ balance: await request('eth_getBalance', [key, 'latest']) })
      const prestate = (await request('debug_traceTransaction', [hash, { tracer: 'prestateTracer' }])) as Record<Hex, Account>
      expect(prestate).to.have.property(key)
    })

    it('diffMode with includeEmpty is refused with geth\'s -32000 "cannot use diffMode with includeEmpty"', async () => {
      const hash = await request('eth_sendTransaction', [{ from: alice, to: ZERO }])
      const error = await request('debug_traceTransaction', [hash, { tracer: 'prestateTracer', tracerConfig: { diffMode: true, includeEmpty: true } }]).catch((caught: { code: number; message: string }) => caught)
      expect(error).to.deep.include({ code: -32000, message: 'cannot use diffMode with includeEmpty' })
    })
  })
})
