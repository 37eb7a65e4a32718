/**
 * chain.request (EIP-1193) over the method table: parameter handling and errors as geth sends
 * them (-32601 `the method X does not exist/is not available`, -32602 `too many arguments, want
 * at most N`, `missing value for required argument N`, `invalid argument N (...)`), the identity
 * methods, the pending block, and Base's transaction status across mempool, pre-confirmed and sealed.
 */
import { expect } from 'chai'
import { parseEther, type Hex } from 'viem'
import { createChain, RPCError, type Chain } from '../../lib/index.ts'
import { signer } from '../support/wallet.ts'
import { rejection, ZERO_HASH, type RpcBlock } from '../support/chain-helpers.ts'

async function expectRPCError(chain: Chain, args: unknown, code: number, message: string | RegExp): Promise<void> {
  const error = await rejection(chain.request(args as { method: string; params?: unknown }))
  const label = JSON.stringify(args)
  expect(error, label).to.be.instanceOf(RPCError)
  expect(error.code, label).to.equal(code)
  if (typeof message === 'string') expect(error.message, label).to.equal(message)
  else expect(error.message, label).to.match(message)
}

describe('request: parameters', () => {
  let chain: Chain
  let alice: Hex
  beforeEach(async () => {
    chain = await createChain({ clock: 'manual' })
    alice = chain.accounts[0].address
  })

  it('missing params is [] (and null params too)', async () => {
    expect(await chain.request({ method: 'eth_chainId' })).to.equal('0x7a69')
    expect(await chain.request({ method: 'eth_blockNumber', params: undefined })).to.equal('0x0')
    expect(await chain.request({ method: 'eth_blockNumber', params: null })).to.equal('0x0')
  })

  it('eth_accounts answers lowercase addresses, as geth, Anvil 1.7.1 and Hardhat do; chain.accounts keeps EIP-55', async () => {
    expect(await chain.request({ method: 'eth_accounts', params: [] })).to.deep.equal(chain.accounts.map((a) => a.address.toLowerCase()))
    expect(chain.accounts[0].address).to.equal('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266')
  })

  it('an omitted optional parameter takes its default: the block of eth_getBalance is latest', async () => {
    const hash = await chain.sendRawTransaction(await signer(chain, 0).sign({ to: chain.accounts[1].address, value: parseEther('1') }))
    await chain.tick()
    expect(hash).to.match(/^0x[0-9a-f]{64}$/)
    const latest = await chain.request({ method: 'eth_getBalance', params: [chain.accounts[1].address, 'latest'] })
    expect(await chain.request({ method: 'eth_getBalance', params: [chain.accounts[1].address] })).to.equal(latest)
    expect(await chain.request({ method: 'eth_getBalance', params: [chain.accounts[1].address, null] })).to.equal(latest)
    expect(await chain.request({ method: 'eth_getBalance', params: [chain.accounts[1].address, 'pending'] })).to.not.equal(latest)
  })

  it("too many params → -32602 with geth's 'too many arguments, want at most N'", async () => {
    await expectRPCError(chain, { method: 'eth_chainId', params: [1] }, -32602, 'too many arguments, want at most 0')
    await expectRPCError(chain, { method: 'eth_getBalance', params: [alice, 'latest', 'extra'] }, -32602, 'too many arguments, want at most 2')
    await expectRPCError(chain, { method: 'eth_getStorageAt', params: [alice, '0x0', 'latest', 1] }, -32602, 'too many arguments, want at most 3')
  })

  it("a missing required param → -32602 'missing value for required argument N' (geth)", async () => {
    await expectRPCError(chain, { method: 'eth_getBalance', params: [] }, -32602, 'missing value for required argument 0')
    await expectRPCError(chain, { method: 'eth_getStorageAt', params: [alice] }, -32602, 'missing value for required argument 1')
    await expectRPCError(chain, { method: 'eth_call' }, -32602, 'missing value for required argument 0')
  })

  it('a bad address → -32602 naming the argument index', async () => {
    for (const bad of ['0x1234', 'not an address', 42, `0x${'g'.repeat(40)}`, `${'0'.repeat(40)}`]) {
      await expectRPCError(chain, { method: 'eth_getBalance', params: [bad] }, -32602, /^invalid argument 0 \(address\): /)
      await expectRPCError(chain, { method: 'eth_getCode', params: [bad, 'latest'] }, -32602, /^invalid argument 0 \(address\): /)
    }
    await expectRPCError(chain, { method: 'eth_getBalance', params: ['0x1234'] }, -32602, 'invalid argument 0 (address): expected a 20-byte hex address, got "0x1234"')
  })

  it('other malformed arguments are -32602 naming their index: block tag, slot, call object fields, hash', async () => {
    await expectRPCError(chain, { method: 'eth_getBalance', params: [alice, 'newest'] }, -32602, /^invalid argument 1 \(block\): /)
    await expectRPCError(chain, { method: 'eth_getBalance', params: [alice, '0xzz'] }, -32602, /^invalid argument 1 \(block\): /)
    await expectRPCError(chain, { method: 'eth_getStorageAt', params: [alice, 'slot', 'latest'] }, -32602, /^invalid argument 1 \(slot\): /)
    await expectRPCError(chain, { method: 'eth_getStorageAt', params: [alice, '0x0', true] }, -32602, /^invalid argument 2 \(block\): /)
    await expectRPCError(chain, { method: 'eth_call', params: ['0x'] }, -32602, /^invalid argument 0 \(call\): /)
    await expectRPCError(chain, { method: 'eth_call', params: [{ to: '0x12' }] }, -32602, /^invalid argument 0 \(call\)\.to: /)
    await expectRPCError(chain, { method: 'eth_call', params: [{ to: alice, data: '0x123' }] }, -32602, /^invalid argument 0 \(call\)\.data: /)
    await expectRPCError(chain, { method: 'eth_getTransactionReceipt', params: ['0x12'] }, -32602, /^invalid argument 0 \(hash\): /)
    await expectRPCError(chain, { method: 'eth_sendRawTransaction', params: ['0xabc'] }, -32602, /^invalid argument 0 \(transaction\): /)
    await expectRPCError(chain, { method: 'eth_getBlockByNumber', params: ['latest', 'yes'] }, -32602, /^invalid argument 1 \(full transactions\): /)
  })

  it('params that are not an array → -32602', async () => {
    for (const params of [{}, { address: alice }, 'latest', 1, true]) {
      await expectRPCError(chain, { method: 'eth_blockNumber', params }, -32602, /params/)
      await expectRPCError(chain, { method: 'eth_getBalance', params }, -32602, /params/)
    }
  })

  it("an unknown method → -32601 with geth's text 'the method X does not exist/is not available'", async () => {
    await expectRPCError(chain, { method: 'eth_foo', params: [] }, -32601, 'the method eth_foo does not exist/is not available')
    await expectRPCError(chain, { method: 'debug_storageRangeAt' }, -32601, 'the method debug_storageRangeAt does not exist/is not available')
    // Object.prototype names are not methods.
    await expectRPCError(chain, { method: 'toString' }, -32601, 'the method toString does not exist/is not available')
    await expectRPCError(chain, { method: '__proto__' }, -32601, 'the method __proto__ does not exist/is not available')
  })

  it('a request that is not { method: string } → -32600', async () => {
    for (const args of [null, 'eth_chainId', { params: [] }, { method: 42 }]) await expectRPCError(chain, args, -32600, /^invalid request/)
  })

  it('every thrown error is an RPCError with a numeric code, a string message and details = message', async () => {
    const requests: unknown[] = [
      null,
      { method: 'nope' },
      { method: 'eth_chainId', params: [1] },
      { method: 'eth_getBalance', params: {} },
      { method: 'eth_getBalance', params: ['0x1'] },
      { method: 'eth_getBalance', params: [alice, '0x99'] },
      { method: 'eth_call', params: [{ to: alice, gasPrice: '0x1', maxFeePerGas: '0x1' }] },
      { method: 'eth_sendRawTransaction', params: ['0x1234'] },
      { method: 'eth_getBalance', params: [alice, { blockHash: ZERO_HASH }] },
    ]
    for (const args of requests) {
      const error = (await rejection(chain.request(args as { method: string }))) as RPCError
      const label = JSON.stringify(args)
      expect(error, label).to.be.instanceOf(RPCError)
      expect(error.code, label).to.be.a('number')
      expect(Number.isInteger(error.code), label).to.equal(true)
      expect(error.message, label).to.be.a('string').and.not.equal('')
      expect(error.details, label).to.equal(error.message)
      expect(error.toJSON().code, label).to.equal(error.code)
      // Nothing here is a devnet bug: none is -32603.
      expect(error.code, label).to.not.equal(-32603)
    }
  })
})

describe('request: identity and blocks', () => {
  it("eth_chainId '0x7a69' and net_version '31337' by default; both follow the chainId option", async () => {
    const chain = await createChain({ clock: 'manual' })
    expect(await chain.request({ method: 'eth_chainId', params: [] })).to.equal('0x7a69')
    expect(await chain.request({ method: 'net_version', params: [] })).to.equal('31337')
    const other = await createChain({ clock: 'manual', chainId: 8453 })
    expect(await other.request({ method: 'eth_chainId' })).to.equal('0x2105')
    expect(await other.request({ method: 'net_version' })).to.equal('8453')
  })

  it('eth_protocolVersion answers 1, a JSON number, as Anvil 1.7.1 does (geth no longer serves it)', async () => {
    const chain = await createChain({ clock: 'manual' })
    expect(await chain.request({ method: 'eth_protocolVersion' })).to.equal(1)
  })

  it("eth_getBlockByNumber('pending') is never null: number head + 1 and a hash of 32 zero bytes", async () => {
    const chain = await createChain({ clock: 'manual' })
    const genesis = (await chain.request({ method: 'eth_getBlockByNumber', params: ['latest', false] })) as RpcBlock
    let pending = (await chain.request({ method: 'eth_getBlockByNumber', params: ['pending', false] })) as RpcBlock
    expect(pending).to.not.equal(null)
    expect(pending.number).to.equal('0x1')
    expect(pending.hash).to.equal(ZERO_HASH)
    expect(pending.parentHash).to.equal(genesis.hash)
    expect(pending.transactions).to.deep.equal([])

    const hash = await chain.sendRawTransaction(await signer(chain, 0).sign({ to: chain.accounts[1].address, value: 1n }))
    await chain.tick()
    pending = (await chain.request({ method: 'eth_getBlockByNumber', params: ['pending', false] })) as RpcBlock
    expect(pending.transactions).to.deep.equal([hash])
    expect(pending.gasUsed).to.equal('0x5208')
    await chain.clock.advance(2000)
    pending = (await chain.request({ method: 'eth_getBlockByNumber', params: ['pending'] })) as RpcBlock
    expect(pending.number).to.equal('0x2')
    expect(pending.hash).to.equal(ZERO_HASH)
    expect(pending.transactions).to.deep.equal([])
    const full = (await chain.request({ method: 'eth_getBlockByNumber', params: ['0x1', true] })) as { transactions: Array<{ hash: Hex; blockNumber: Hex }> }
    expect(full.transactions.map((t) => [t.hash, t.blockNumber])).to.deep.equal([[hash, '0x1']])
  })

  it('eth_getBlockByNumber beyond the head → null (geth), eth_getBlockByHash of an unknown hash → null', async () => {
    const chain = await createChain({ clock: 'manual' })
    expect(await chain.request({ method: 'eth_getBlockByNumber', params: ['0x1', false] })).to.equal(null)
    expect(await chain.request({ method: 'eth_getBlockByNumber', params: ['0xffffffff'] })).to.equal(null)
    expect(await chain.request({ method: 'eth_getBlockByHash', params: [`0x${'12'.repeat(32)}`, false] })).to.equal(null)
    await chain.mine()
    expect(((await chain.request({ method: 'eth_getBlockByNumber', params: ['0x1', false] })) as RpcBlock).number).to.equal('0x1')
    expect(await chain.request({ method: 'eth_getBlockByNumber', params: ['0x2', false] })).to.equal(null)
  })

  it('eth_blockNumber follows the seals', async () => {
    const chain = await createChain({ clock: 'manual' })
    expect(await chain.request({ method: 'eth_blockNumber' })).to.equal('0x0')
    await chain.clock.advance(1999)
    expect(await chain.request({ method: 'eth_blockNumber' })).to.equal('0x0')
    await chain.clock.advance(1)
    expect(await chain.request({ method: 'eth_blockNumber' })).to.equal('0x1')
    await chain.clock.advance(20_000)
    expect(await chain.request({ method: 'eth_blockNumber' })).to.equal('0xb')
  })
})

describe('request: service_transactionStatus (Base)', () => {
  it('Known in the mempool → Known pre-confirmed → Unknown once sealed; base_transactionStatus answers the same', async () => {
    const chain = await createChain({ clock: 'manual' })
    const status = async (hash: Hex) => {
      const answer = await chain.request({ method: 'service_transactionStatus', params: [hash] })
      expect(await chain.request({ method: 'base_transactionStatus', params: [hash] })).to.deep.equal(answer)
      return answer
    }
    const hash = await chain.sendRawTransaction(await signer(chain, 0).sign({ to: chain.accounts[1].address, value: 1n }))
    expect(await status(hash)).to.deep.equal({ status: 'Known' })
    await chain.clock.advance(200)
    expect(((await chain.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as { blockHash: Hex }).blockHash).to.equal(ZERO_HASH)
    expect(await status(hash)).to.deep.equal({ status: 'Known' })
    await chain.clock.advance(1800)
    expect(chain.blockNumber()).to.equal(1n)
    expect(await status(hash)).to.deep.equal({ status: 'Unknown' })
  })

  it('a hash never seen is Unknown; a malformed hash is -32602', async () => {
    const chain = await createChain({ clock: 'manual' })
    expect(await chain.request({ method: 'service_transactionStatus', params: [`0x${'ab'.repeat(32)}`] })).to.deep.equal({ status: 'Unknown' })
    await expectRPCError(chain, { method: 'service_transactionStatus', params: ['0xab'] }, -32602, /^invalid argument 0 \(hash\): /)
    await expectRPCError(chain, { method: 'service_transactionStatus', params: [] }, -32602, 'missing value for required argument 0')
  })
})
