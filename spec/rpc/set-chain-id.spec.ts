/**
 * `anvil_setChainId`: the chain id changes while the chain runs — `eth_chainId`, `net_version`,
 * the node info, CHAINID, the chain id new transactions must be signed for and the one the dev
 * accounts sign with — checked against Anvil 1.7.1 taking the same steps. A dump taken after the
 * change, whose blocks hold transactions signed for both ids, loads again.
 */
import { expect } from 'chai'
import { parseGwei, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { createChain, type Chain } from '../../lib/index.ts'
import { anvilOrSkip, type AnvilNode } from '../support/anvil-node.ts'

/** The first dev account of the default mnemonic (Anvil's and ours). */
const alice = privateKeyToAccount('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80')
const BOB = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
const CAROL: Hex = `0x${'00'.repeat(19)}ca`
/** CHAINID PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN: returns the chain id. */
const CHAIN_ID_PROBE: Hex = `0x${'00'.repeat(19)}c1`
const CHAIN_ID_CODE = '0x4660005260206000f3'

type Request = (method: string, params?: unknown[]) => Promise<unknown>

/** Alice's EIP-1559 transfer to Carol, signed for `chainId`. */
function transfer(chainId: number, nonce: number): Promise<Hex> {
  return alice.signTransaction({ type: 'eip1559', chainId, nonce, to: CAROL, value: 1n, gas: 21000n, maxFeePerGas: parseGwei('10'), maxPriorityFeePerGas: 1n })
}

/** What a node answers about its chain id. */
async function identity(request: Request): Promise<unknown[]> {
  const info = (await request('anvil_nodeInfo')) as { environment: { chainId: number } }
  return [await request('eth_chainId'), await request('net_version'), info.environment.chainId, await request('eth_call', [{ to: CHAIN_ID_PROBE }, 'latest'])]
}

/** Whether `request` fails; its error message if so. */
async function failure(request: Promise<unknown>): Promise<string | undefined> {
  return request.then(
    () => undefined,
    (error: { message: string }) => error.message,
  )
}

/** The steps both nodes take: the probe deployed, a transfer for 31337, the id set to 7 (inside a snapshot that is reverted). */
async function steps(request: Request, mined: (hash: string) => Promise<void>): Promise<{ answer: unknown; before: unknown[]; after: unknown[]; reverted: unknown[] }> {
  await request('anvil_setCode', [CHAIN_ID_PROBE, CHAIN_ID_CODE])
  await mined((await request('eth_sendRawTransaction', [await transfer(31337, 0)])) as string)
  const before = await identity(request)
  const snapshot = await request('evm_snapshot')
  const answer = await request('anvil_setChainId', [7])
  const after = await identity(request)
  await request('evm_revert', [snapshot])
  return { answer, before, after, reverted: await identity(request) }
}

const word = (value: number): string => `0x${value.toString(16).padStart(64, '0')}`

describe('anvil_setChainId', () => {
  let chain: Chain
  let ours: Awaited<ReturnType<typeof steps>>
  const request: Request = (method, params = []) => chain.request({ method, params })
  before(async () => {
    chain = await createChain({ mining: 'auto' })
    ours = await steps(request, async () => {})
  })

  it('answers null, and from then on eth_chainId, net_version, anvil_nodeInfo and CHAINID give the new id; a revert keeps it, as in Anvil', () => {
    expect(ours.answer).to.equal(null)
    expect(ours.before).to.deep.equal(['0x7a69', '31337', 31337, word(31337)])
    expect(ours.after).to.deep.equal(['0x7', '7', 7, word(7)])
    expect(ours.reverted).to.deep.equal(ours.after)
  })

  it("*_metadata's chainId follows it (Hardhat's helpers read it)", async () => {
    expect(((await request('hardhat_metadata')) as { chainId: number }).chainId).to.equal(7)
    expect(((await request('anvil_metadata')) as { chainId: number }).chainId).to.equal(7)
  })

  it('new transactions must be signed for the new id (geth\'s text for another chain\'s), and the dev accounts sign for it', async () => {
    expect(await failure(request('eth_sendRawTransaction', [await transfer(31337, 1)]))).to.equal('invalid sender: invalid chain id for signer: have 31337 want 7')
    const taken = (await request('eth_sendRawTransaction', [await transfer(7, 1)])) as Hex
    expect(((await request('eth_getTransactionByHash', [taken])) as { chainId: Hex }).chainId).to.equal('0x7')
    // Anvil 1.7.1's dev signers keep the id they started with and refuse ("transaction-provided
    // chain ID (7) does not match the signer's chain ID (31337)"); ours sign for the chain's id.
    const sent = (await request('eth_sendTransaction', [{ from: BOB, to: CAROL, value: '0x1' }])) as Hex
    expect(((await request('eth_getTransactionByHash', [sent])) as { chainId: Hex }).chainId).to.equal('0x7')
  })

  it('calls run before the change keep no old id: eth_simulateV1 lists for the new id, and an EIP-7702 authorization for it applies in eth_call', async () => {
    const other = await createChain()
    const ask: Request = (method, params = []) => other.request({ method, params })
    const simulate = () => ask('eth_simulateV1', [{ blockStateCalls: [{ calls: [{ from: alice.address, to: CAROL, value: '0x1' }] }], returnFullTransactions: true }, 'latest'])
    await ask('anvil_setCode', [CHAIN_ID_PROBE, CHAIN_ID_CODE])
    await simulate()
    await ask('eth_call', [{ to: CHAIN_ID_PROBE }, 'latest'])
    await ask('anvil_setChainId', [7])
    const [block] = (await simulate()) as { transactions: { chainId: Hex }[] }[]
    expect(block.transactions[0].chainId).to.equal('0x7')
    const bob = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d')
    const { r, s, yParity } = await bob.signAuthorization({ contractAddress: CHAIN_ID_PROBE, chainId: 7, nonce: 0 })
    const authorizationList = [{ chainId: '0x7', address: CHAIN_ID_PROBE, nonce: '0x0', yParity: `0x${yParity}`, r, s }]
    expect(await ask('eth_call', [{ from: alice.address, to: bob.address, authorizationList }, 'latest'])).to.equal(word(7))
  })

  it('takes a JSON number (Anvil) or a hex quantity; zero (which Anvil takes, though its chain cannot then sign), a negative, fractional or missing id is -32602 naming the argument, and changes nothing', async () => {
    const other = await createChain()
    const ask: Request = (method, params = []) => other.request({ method, params })
    for (const bad of [[0], ['0x0'], [-1], [1.5], ['seven'], ['0x1' + '0'.repeat(16)]]) {
      const error = await ask('anvil_setChainId', bad).catch((caught: { code: number; message: string }) => caught)
      expect(error).to.include({ code: -32602 })
      expect((error as { message: string }).message).to.match(/^invalid argument 0 \(chain id\)/)
    }
    expect(await failure(ask('anvil_setChainId', []))).to.equal('missing value for required argument 0')
    expect(await ask('eth_chainId')).to.equal('0x7a69')
    await ask('anvil_setChainId', ['0x2105'])
    expect(await ask('eth_chainId')).to.equal('0x2105')
  })

  it('a dump taken after the change, with transactions signed for both ids, loads again with the new id', async () => {
    const dump = await chain.dumpState()
    const reloaded = await createChain({ state: dump })
    expect(await reloaded.request({ method: 'eth_chainId' })).to.equal('0x7')
    expect(await reloaded.request({ method: 'eth_blockNumber' })).to.equal(await request('eth_blockNumber'))
    const chainIds = []
    for (let number = 1n; number <= (await chain.blockNumber()); number++) {
      const block = (await reloaded.request({ method: 'eth_getBlockByNumber', params: [`0x${number.toString(16)}`, true] })) as { transactions: { chainId: Hex }[] }
      chainIds.push(...block.transactions.map((transaction) => transaction.chainId))
    }
    expect(chainIds).to.deep.equal(['0x7a69', '0x7', '0x7'])
  })

  describe('against Anvil 1.7.1 taking the same steps', () => {
    let anvil: AnvilNode | undefined
    let theirs: Awaited<ReturnType<typeof steps>>
    before(async function () {
      anvil = await anvilOrSkip(this, [])
      theirs = await steps((method, params = []) => anvil!.request(method, params), (hash) => anvil!.mined(hash))
    })
    after(() => anvil?.stop())

    it('gives the same answers before, after and across a revert', () => {
      expect(ours).to.deep.equal(theirs)
    })

    it('both refuse a transaction signed for the old id and take one for the new', async () => {
      expect(await failure(anvil!.request('eth_sendRawTransaction', [await transfer(31337, 1)]))).to.match(/invalid chain id for signer/)
      expect(await anvil!.request('eth_sendRawTransaction', [await transfer(7, 1)])).to.match(/^0x[0-9a-f]{64}$/)
    })
  })
})
