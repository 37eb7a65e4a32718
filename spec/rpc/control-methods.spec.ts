/**
 * The block, mempool and state controls viem's test client and Hardhat's helpers send, as Anvil
 * 1.7.1 and Hardhat answer them (Anvil's names answer null, Hardhat's true), and the txpool
 * namespace as geth shapes it.
 */
import { expect } from 'chai'
import { encodeAbiParameters, encodeFunctionData, keccak256, type Hex } from 'viem'
import { Token } from '../../fixtures/artifacts/Token.ts'
import { createChain, RPCError, type Chain } from '../../lib/index.ts'
import type { Address } from '../../lib/types.ts'
import { deploy, rejection, type RpcBlock, type RpcReceipt } from '../support/chain-helpers.ts'
import { hex } from '../support/controls-world.ts'
import { GWEI, signer } from '../support/wallet.ts'

const request = <T = unknown>(chain: Chain, method: string, ...params: unknown[]) => chain.request({ method, params }) as Promise<T>
const block = (chain: Chain, tag: string) => request<RpcBlock>(chain, 'eth_getBlockByNumber', tag, false)
const FEE_RECIPIENT = `0x${'fe'.repeat(20)}` as Address
const HOLDER = `0x${'a1'.repeat(20)}` as Address

describe('rpc: block and mempool controls (Anvil / Hardhat)', () => {
  it('setCoinbase: the untouched pending block and the next blocks pay their tips there; anvil_ answers null, hardhat_ true; evm_revert restores it (Hardhat)', async () => {
    const chain = await createChain()
    const snapshot = await request<Hex>(chain, 'evm_snapshot')
    expect(await request(chain, 'anvil_setCoinbase', FEE_RECIPIENT)).to.equal(null)
    expect(await request(chain, 'hardhat_setCoinbase', FEE_RECIPIENT)).to.equal(true)
    expect((await block(chain, 'pending')).miner).to.equal(FEE_RECIPIENT)
    expect(await request(chain, 'eth_coinbase')).to.equal(FEE_RECIPIENT)
    await chain.sendRawTransaction(await signer(chain, 0).sign({ to: HOLDER, value: 1n, maxPriorityFeePerGas: 2n * GWEI, maxFeePerGas: 10n * GWEI }))
    await chain.mine()
    expect((await block(chain, 'latest')).miner).to.equal(FEE_RECIPIENT)
    expect(await chain.getBalance(FEE_RECIPIENT)).to.equal(21_000n * 2n * GWEI)
    expect(await request(chain, 'evm_revert', snapshot)).to.equal(true)
    expect((await block(chain, 'pending')).miner).to.equal('0xc014ba5ec014ba5ec014ba5ec014ba5ec014ba5e')
  })

  it('evm_setBlockGasLimit answers true and sets the gas limit of the untouched pending block and the next ones', async () => {
    const chain = await createChain()
    expect(await request(chain, 'evm_setBlockGasLimit', hex(12_000_000n))).to.equal(true)
    expect((await block(chain, 'pending')).gasLimit).to.equal(hex(12_000_000n))
    await chain.mine()
    await chain.mine()
    expect((await block(chain, 'latest')).gasLimit).to.equal(hex(12_000_000n))
  })

  it('setNextBlockBaseFeePerGas: the pending block takes it, and one that pre-confirmed something takes it too, its transactions pre-confirmed again (Anvil and Hardhat mine them under it)', async () => {
    const chain = await createChain()
    expect(await request(chain, 'anvil_setNextBlockBaseFeePerGas', hex(7n * GWEI))).to.equal(null)
    expect((await block(chain, 'pending')).baseFeePerGas).to.equal(hex(7n * GWEI))
    await chain.sendRawTransaction(await signer(chain, 0).sign({ to: HOLDER, value: 1n, maxFeePerGas: 20n * GWEI }))
    await chain.tick()
    expect(await request(chain, 'hardhat_setNextBlockBaseFeePerGas', hex(3n * GWEI))).to.equal(true)
    expect((await block(chain, 'pending')).baseFeePerGas).to.equal(hex(3n * GWEI))
    await chain.mine()
    const mined = await request<RpcBlock & { transactions: string[] }>(chain, 'eth_getBlockByNumber', 'latest', false)
    expect([mined.baseFeePerGas, mined.transactions.length]).to.deep.equal([hex(3n * GWEI), 1])
  })

  // Hardhat's helpers after a transaction sent without waiting for its block (audit K, D1): each setting reaches the block evm_mine seals.
  it('every next-block setting made after a pre-confirmation reaches the block evm_mine seals, with the pre-confirmed transaction in it', async () => {
    const chain = await createChain()
    const withdrawn: unknown[] = []
    chain.on('withdrawn', (event) => withdrawn.push(event))
    const hash = await chain.sendRawTransaction(await signer(chain, 0).sign({ to: HOLDER, value: 1n, maxFeePerGas: 20n * GWEI }))
    await chain.tick()
    const randao = `0x${'42'.repeat(32)}` as Hex
    await request(chain, 'hardhat_setCoinbase', FEE_RECIPIENT)
    await request(chain, 'evm_setBlockGasLimit', hex(12_000_000n))
    await request(chain, 'hardhat_setNextBlockBaseFeePerGas', hex(3n * GWEI))
    await request(chain, 'hardhat_setPrevRandao', randao)
    await request(chain, 'evm_setNextBlockTimestamp', hex(2_000_000_000n))
    await request(chain, 'evm_mine')
    const mined = await request<RpcBlock & { transactions: string[] }>(chain, 'eth_getBlockByNumber', 'latest', false)
    expect([mined.number, mined.miner, mined.gasLimit, mined.baseFeePerGas, mined.mixHash, mined.timestamp, mined.transactions]).to.deep.equal([
      '0x1', FEE_RECIPIENT, hex(12_000_000n), hex(3n * GWEI), randao, hex(2_000_000_000n), [hash],
    ])
    // Taken back once (by the first setting), then pre-confirmed again by evm_mine's last tick.
    expect(withdrawn).to.have.length(1)
  })

  // Anvil 1.7.1 mines these in arrival order; the requeue gave the taken-back one a new arrival, behind the other (audit M, D1).
  for (const [control, params] of [
    ['evm_setNextBlockTimestamp', [hex(2_000_000_000n)]],
    ['hardhat_setCoinbase', [FEE_RECIPIENT]],
    ['anvil_setBalance', ['SENDER', hex(10n ** 20n)]],
  ] as const) {
    it(`a transaction ${control} takes back keeps its place in arrival order: at the same tip it still goes before one that arrived after it`, async () => {
      const chain = await createChain({ clock: 'manual' })
      const first = await chain.sendRawTransaction(await signer(chain, 3).sign({ to: HOLDER, value: 1n }))
      await chain.tick()
      const second = await chain.sendRawTransaction(await signer(chain, 2).sign({ to: HOLDER, value: 2n }))
      await request(chain, control, ...params.map((param) => (param === 'SENDER' ? chain.accounts[3].address : param)))
      expect(chain.pending.transactions).to.have.length(0)
      await request(chain, 'evm_mine')
      expect((await block(chain, 'latest')).transactions).to.deep.equal([first, second])
    })
  }

  it('hardhat_setPrevRandao sets the next block mixHash (prevRandao)', async () => {
    const chain = await createChain()
    const randao = `0x${'42'.repeat(32)}` as Hex
    expect(await request(chain, 'hardhat_setPrevRandao', randao)).to.equal(true)
    await chain.mine()
    expect((await block(chain, 'latest')).mixHash).to.equal(randao)
    await chain.mine()
    expect((await block(chain, 'latest')).mixHash).to.not.equal(randao)
  })

  it("setMinGasPrice is refused under EIP-1559, each name as its node refuses it: Anvil's -32602, Hardhat's -32000 (Hardhat 2.29.1 run here)", async () => {
    const chain = await createChain()
    const anvil = await rejection(request(chain, 'anvil_setMinGasPrice', '0x1'), RPCError)
    expect(anvil.toJSON()).to.deep.equal({ code: -32602, message: 'anvil_setMinGasPrice is not supported when EIP-1559 is active' })
    const hardhat = await rejection(request(chain, 'hardhat_setMinGasPrice', '0x1'), RPCError)
    expect(hardhat.toJSON()).to.deep.equal({ code: -32000, message: 'hardhat_setMinGasPrice is not supported when EIP-1559 is active' })
  })

  it('dropTransaction: hardhat_ answers true/false, anvil_ the hash/null; the transaction is gone (no receipt, Unknown)', async () => {
    const chain = await createChain()
    const alice = signer(chain, 0)
    const first = await chain.sendRawTransaction(await alice.sign({ to: HOLDER, value: 1n }))
    const second = await chain.sendRawTransaction(await alice.sign({ to: HOLDER, value: 2n, nonce: 1 }))
    expect(await request(chain, 'hardhat_dropTransaction', first)).to.equal(true)
    expect(await request(chain, 'hardhat_dropTransaction', first)).to.equal(false)
    expect(await request(chain, 'anvil_dropTransaction', second)).to.equal(second)
    expect(await request(chain, 'anvil_dropTransaction', second)).to.equal(null)
    await chain.mine()
    expect(await request(chain, 'eth_getTransactionReceipt', first)).to.equal(null)
    expect(await request(chain, 'base_transactionStatus', second)).to.deep.equal({ status: 'Unknown' })
    expect(await chain.getBalance(HOLDER)).to.equal(0n)
  })

  // In Anvil and Hardhat an interval-mined transaction waits in the mempool for its block, so Hardhat's dropTransaction finds it there (audit K, E3).
  it('dropTransaction of a pre-confirmed transaction takes it out of the pending block: later pre-confirmations are taken back and their transactions requeued', async () => {
    const chain = await createChain()
    const [alice, bob] = [signer(chain, 0), signer(chain, 1)]
    const withdrawn: Array<{ preconfirmations: unknown[] }> = []
    chain.on('withdrawn', (event) => withdrawn.push(event as never))
    const dropped = await chain.sendRawTransaction(await alice.sign({ to: HOLDER, value: 1n }))
    await chain.tick()
    const kept = await chain.sendRawTransaction(await bob.sign({ to: HOLDER, value: 2n }))
    await chain.tick()
    expect(chain.pending.transactions.map(({ transaction }) => transaction.hash)).to.deep.equal([dropped, kept])
    expect(await request(chain, 'hardhat_dropTransaction', dropped)).to.equal(true)
    expect(withdrawn.map(({ preconfirmations }) => preconfirmations.length)).to.deep.equal([2])
    expect(chain.pending.transactions).to.have.length(0)
    expect(await request(chain, 'hardhat_dropTransaction', dropped)).to.equal(false)
    await chain.mine()
    expect(await request(chain, 'eth_getTransactionReceipt', dropped)).to.equal(null)
    expect(((await request(chain, 'eth_getTransactionReceipt', kept)) as RpcReceipt).status).to.equal('0x1')
    expect(await chain.getBalance(HOLDER)).to.equal(2n)
  })

  // Under instant mining each accepted transaction is pre-confirmed at once; so is one a control took back (audit L, D2: it waited for the next tick, and a dependent estimate missed it).
  it('under instant mining, transactions a control takes back are pre-confirmed again at once', async () => {
    const chain = await createChain({ clock: 'manual', mining: 'instant' })
    const hash = await chain.sendRawTransaction(await signer(chain, 0).sign({ to: HOLDER, value: 1n }))
    expect(chain.pending.transactions).to.have.length(1)
    await request(chain, 'evm_increaseTime', 60)
    expect(chain.pending.transactions.map(({ transaction }) => transaction.hash)).to.deep.equal([hash])
    expect(await chain.getBalance(HOLDER, 'pending')).to.equal(1n)
    await chain.setBalance(chain.accounts[0].address, 10n ** 20n)
    expect(chain.pending.transactions.map(({ transaction }) => transaction.hash)).to.deep.equal([hash])
  })

  it('dropAllTransactions and removePoolTransactions reach pre-confirmed transactions too, as dropTransaction does (audit L, D5)', async () => {
    const chain = await createChain({ clock: 'manual', mining: 'instant' })
    const [alice, bob] = [signer(chain, 0), signer(chain, 1)]
    await chain.sendRawTransaction(await alice.sign({ to: HOLDER, value: 1n }))
    const bobs = await chain.sendRawTransaction(await bob.sign({ to: HOLDER, value: 2n }))
    expect(chain.pending.transactions).to.have.length(2)
    expect(await request(chain, 'anvil_removePoolTransactions', alice.address)).to.equal(null)
    expect(chain.pending.transactions.map(({ transaction }) => transaction.hash)).to.deep.equal([bobs])
    expect(await request(chain, 'hardhat_dropAllTransactions')).to.equal(true)
    expect(chain.pending.transactions).to.have.length(0)
    await chain.mine()
    expect(chain.blockByNumber(1)!.transactions).to.have.length(0)
    expect(await chain.getBalance(HOLDER)).to.equal(0n)
  })

  it('anvil_removePoolTransactions empties one sender; anvil_dropAllTransactions everyone', async () => {
    const chain = await createChain()
    const [alice, bob] = [signer(chain, 0), signer(chain, 1)]
    await chain.sendRawTransaction(await alice.sign({ to: HOLDER, value: 1n }))
    await chain.sendRawTransaction(await bob.sign({ to: HOLDER, value: 2n }))
    expect(await request(chain, 'anvil_removePoolTransactions', alice.address)).to.equal(null)
    expect(await request(chain, 'txpool_status')).to.deep.equal({ pending: '0x1', queued: '0x0' })
    expect(await request(chain, 'anvil_dropAllTransactions')).to.equal(null)
    expect(await request(chain, 'txpool_status')).to.deep.equal({ pending: '0x0', queued: '0x0' })
  })

  it('txpool_status / content / contentFrom / inspect: gapless runs are pending, transactions behind a gap queued (geth)', async () => {
    const chain = await createChain()
    const [alice, bob] = [signer(chain, 0), signer(chain, 1)]
    const a0 = await chain.sendRawTransaction(await alice.sign({ to: HOLDER, value: 1n }))
    const a1 = await chain.sendRawTransaction(await alice.sign({ to: HOLDER, value: 2n, nonce: 1 }))
    const b3 = await chain.sendRawTransaction(await bob.sign({ to: HOLDER, value: 3n, nonce: 3 }))
    expect(await request(chain, 'txpool_status')).to.deep.equal({ pending: '0x2', queued: '0x1' })
    const content = await request<{ pending: Record<string, Record<string, { hash: Hex; blockHash: null }>>; queued: Record<string, Record<string, { hash: Hex }>> }>(chain, 'txpool_content')
    const aliceKey = alice.address.toLowerCase()
    const bobKey = bob.address.toLowerCase()
    expect(Object.keys(content.pending)).to.deep.equal([aliceKey])
    expect(content.pending[aliceKey]['0'].hash).to.equal(a0)
    expect(content.pending[aliceKey]['1'].hash).to.equal(a1)
    expect(content.pending[aliceKey]['0'].blockHash).to.equal(null)
    expect(content.queued[bobKey]['3'].hash).to.equal(b3)
    const from = await request<{ pending: Record<string, { hash: Hex }>; queued: object }>(chain, 'txpool_contentFrom', alice.address)
    expect(Object.keys(from.pending)).to.deep.equal(['0', '1'])
    expect(from.queued).to.deep.equal({})
    const inspect = await request<{ pending: Record<string, Record<string, string>> }>(chain, 'txpool_inspect')
    // 10 gwei is the fee cap spec/support/wallet.ts signs with.
    expect(inspect.pending[aliceKey]['1']).to.equal(`${HOLDER}: 2 wei + 21000 gas × 10000000000 wei`)
  })
})

describe('rpc: mining and time controls (Anvil)', () => {
  it('evm_setIntervalMining(0) stops every block until one is asked for; (n) seals every n seconds; anvil_getIntervalMining says which', async () => {
    const chain = await createChain()
    expect(await request(chain, 'anvil_getIntervalMining')).to.equal(2)
    expect(await request(chain, 'evm_setIntervalMining', 0)).to.equal(null)
    expect(await request(chain, 'anvil_getIntervalMining')).to.equal(null)
    await chain.clock.advance(10_000)
    expect(chain.blockNumber()).to.equal(0n)
    await request(chain, 'evm_mine')
    expect(chain.blockNumber()).to.equal(1n)
    expect(await request(chain, 'anvil_setIntervalMining', 3)).to.equal(null)
    await chain.clock.advance(9000)
    expect(chain.blockNumber()).to.equal(4n)
  })

  it('evm_setTime moves block time to a timestamp and answers the seconds it moved ahead (Anvil)', async () => {
    const chain = await createChain()
    const head = BigInt((await block(chain, 'latest')).timestamp)
    expect(await request(chain, 'evm_setTime', hex(head + 3600n))).to.equal(3600)
    expect(BigInt((await block(chain, 'pending')).timestamp) >= head + 3600n).to.equal(true)
    expect(await request(chain, 'anvil_increaseTime', 60)).to.be.a('number')
  })

  it('evm_mine takes Anvil\'s { timestamp, blocks }; anvil_mine_detailed answers the mined blocks with their transactions', async () => {
    const chain = await createChain()
    const head = BigInt((await block(chain, 'latest')).timestamp)
    expect(await request(chain, 'evm_mine', { timestamp: hex(head + 100n), blocks: '0x2' })).to.equal('0x0')
    expect(chain.blockNumber()).to.equal(2n)
    expect(BigInt((await block(chain, '0x1')).timestamp)).to.equal(head + 100n)
    const hash = await chain.sendRawTransaction(await signer(chain, 0).sign({ to: HOLDER, value: 1n }))
    const [mined] = await request<Array<{ number: Hex; transactions: Array<{ hash: Hex }> }>>(chain, 'anvil_mine_detailed')
    expect(mined.number).to.equal('0x3')
    expect(mined.transactions.map((transaction) => transaction.hash)).to.deep.equal([hash])
  })
})

describe('rpc: state controls (Anvil)', () => {
  it('anvil_addBalance adds to a balance at latest and pending', async () => {
    const chain = await createChain()
    await request(chain, 'anvil_setBalance', HOLDER, hex(5n))
    expect(await request(chain, 'anvil_addBalance', HOLDER, hex(7n))).to.equal(null)
    expect(await chain.getBalance(HOLDER, 'latest')).to.equal(12n)
    expect(await chain.getBalance(HOLDER, 'pending')).to.equal(12n)
  })

  it('anvil_dealERC20 and anvil_setERC20Allowance find the mapping slots (balanceOf at slot 3, allowance at slot 4 of Token) and set them', async () => {
    const chain = await createChain()
    const alice = signer(chain, 0)
    const token = await deploy(chain, alice, Token, ['Token', 'TKN', 1000n])
    const balanceSlot = BigInt(keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [HOLDER, 3n])))
    expect(await request(chain, 'anvil_dealERC20', HOLDER, token, hex(123n))).to.equal(null)
    expect(BigInt(await chain.getStorageAt(token, balanceSlot))).to.equal(123n)
    const balanceOf = encodeFunctionData({ abi: Token.abi, functionName: 'balanceOf', args: [HOLDER] })
    expect(BigInt(await chain.call({ to: token, data: balanceOf }, 'pending'))).to.equal(123n)
    expect(await request(chain, 'anvil_setERC20Allowance', HOLDER, alice.address, token, hex(9n))).to.equal(null)
    const allowance = encodeFunctionData({ abi: Token.abi, functionName: 'allowance', args: [HOLDER, alice.address] })
    expect(BigInt(await chain.call({ to: token, data: allowance }))).to.equal(9n)
    const error = await rejection(request(chain, 'anvil_dealERC20', HOLDER, HOLDER, hex(1n)), RPCError)
    expect(error.toJSON()).to.deep.equal({ code: -32000, message: 'Unable to set ERC20 balance, no slot found' })
  })
})

describe('rpc: eth_createAccessList (geth)', () => {
  it('lists the slots a token transfer touches; a transaction with that list uses the gas it reports', async () => {
    const chain = await createChain()
    const alice = signer(chain, 0)
    const token = await deploy(chain, alice, Token, ['Token', 'TKN', 1000n])
    const data = encodeFunctionData({ abi: Token.abi, functionName: 'transfer', args: [HOLDER, 5n] })
    const { accessList, gasUsed } = await request<{ accessList: Array<{ address: Address; storageKeys: Hex[] }>; gasUsed: Hex }>(chain, 'eth_createAccessList', { from: alice.address, to: token, data })
    const slot = (owner: Address) => keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [owner, 3n]))
    expect(accessList).to.deep.equal([{ address: token.toLowerCase(), storageKeys: [slot(alice.address), slot(HOLDER)].sort() }])
    const hash = await chain.sendRawTransaction(await alice.sign({ nonce: 1, to: token, data, gas: 100_000n, accessList }))
    await chain.mine()
    const receipt = await request<RpcReceipt>(chain, 'eth_getTransactionReceipt', hash)
    expect(receipt.gasUsed).to.equal(gasUsed)
  })

  it('reports a failed run beside the list (geth), not as an error', async () => {
    const chain = await createChain()
    const alice = signer(chain, 0)
    const token = await deploy(chain, alice, Token, ['Token', 'TKN', 1000n])
    const data = encodeFunctionData({ abi: Token.abi, functionName: 'transfer', args: [HOLDER, 5000n] })
    const result = await request<{ error?: string }>(chain, 'eth_createAccessList', { from: alice.address, to: token, data })
    expect(result.error).to.equal('execution reverted')
  })
})

describe('rpc: the revert code option', () => {
  it('revertCode 3: a revert answers code 3 and geth\'s "execution reverted: <reason>" (cast decodes it); the default stays -32000', async () => {
    for (const [options, code, message] of [
      [{}, -32000, 'execution reverted'],
      [{ revertCode: 3 as const }, 3, 'execution reverted: nope'],
    ] as const) {
      const chain = await createChain(options)
      // A contract whose code reverts with Error("nope").
      const reason = encodeAbiParameters([{ type: 'string' }], ['nope']).slice(2)
      const revertData = `0x08c379a0${reason}`
      const code_ = `0x${mstoreAll(revertData)}60${(revertData.length / 2 - 1).toString(16).padStart(2, '0')}6000fd`
      await chain.setCode(HOLDER, code_ as Hex)
      const error = await rejection(chain.request({ method: 'eth_call', params: [{ to: HOLDER }] }), RPCError)
      expect(error.code).to.equal(code)
      expect(error.message).to.equal(message)
      expect(error.data).to.equal(revertData)
    }
  })
})

describe('rpc: eth_estimateGas with an authorizationList (EIP-7702)', () => {
  it('applies the delegation: calling an EOA delegated to a contract costs the contract call plus 25000 per authorization', async () => {
    const chain = await createChain()
    const alice = signer(chain, 0)
    const token = await deploy(chain, alice, Token, ['Token', 'TKN', 1000n])
    const { privateKeyToAccount } = await import('viem/accounts')
    const bob = privateKeyToAccount(chain.accounts[1].privateKey)
    const authorization = await bob.signAuthorization({ chainId: 31337, contractAddress: token, nonce: 0 })
    const data = encodeFunctionData({ abi: Token.abi, functionName: 'balanceOf', args: [HOLDER] })
    const without = BigInt(await request<Hex>(chain, 'eth_estimateGas', { from: alice.address, to: bob.address, data }))
    const entry = { chainId: hex(31337n), address: token, nonce: '0x0', yParity: hex(BigInt(authorization.yParity!)), r: authorization.r, s: authorization.s }
    const withList = BigInt(await request<Hex>(chain, 'eth_estimateGas', { from: alice.address, to: bob.address, data, authorizationList: [entry] }))
    // 36 bytes of calldata, 12 of them zero: the EIP-7623 floor 21000 + (12 + 24 × 4) × 10 = 22080 beats
    // 21000 + 24 × 16 + 12 × 4 = 21432; geth's search stops once (estimate − failing gas) / estimate < 1.5 %.
    expect(without >= 22_080n && without * 985n <= 22_080n * 1000n, `estimate ${without}`).to.equal(true)
    expect(withList > without + 25_000n, `estimate with the authorization ${withList}`).to.equal(true)
    const hash = await chain.sendRawTransaction(
      await alice.signAny({ type: 'eip7702', chainId: 31337, nonce: 1, to: bob.address, data, gas: withList, maxFeePerGas: 10n * GWEI, maxPriorityFeePerGas: GWEI, authorizationList: [authorization] }),
    )
    await chain.mine()
    expect((await request<RpcReceipt>(chain, 'eth_getTransactionReceipt', hash)).status).to.equal('0x1')
    expect(await chain.getCode(bob.address)).to.equal(`0xef0100${token.slice(2).toLowerCase()}`)
  })
})

/** EVM code that stores `data` in memory from offset 0 (32-byte words). */
function mstoreAll(data: string): string {
  const bytes = data.slice(2).padEnd(Math.ceil((data.length - 2) / 64) * 64, '0')
  let code = ''
  for (let i = 0; i < bytes.length; i += 64) code += `7f${bytes.slice(i, i + 64)}60${(i / 2).toString(16).padStart(2, '0')}52`
  return code
}
