/**
 * viem 2.x, unchanged, against the devnet as a network node: `http()` and `webSocket()`
 * transports to startServer on a free port, the realtime clock running (100 ms ticks, 1 s
 * blocks). Nothing here advances time by hand: specs wait on the chain's seal/tick events or
 * poll briefly. What is checked is that viem's own machinery works over the wire: fee and nonce
 * filling, receipt polling, error classification from geth's codes/texts, JSON-RPC
 * batching, EIP-7966 sync sends and eth_subscribe streams.
 */
import { expect } from 'chai'
import {
  BaseError,
  ContractFunctionExecutionError,
  ContractFunctionRevertedError,
  InsufficientFundsError,
  NonceTooLowError,
  TransactionExecutionError,
  createPublicClient,
  createTestClient,
  createWalletClient,
  getContractAddress,
  http,
  keccak256,
  parseAbiItem,
  parseEther,
  webSocket,
  zeroHash,
  type Address,
  type Hash,
  type Log,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { Reverter } from '../../fixtures/artifacts/Reverter.ts'
import { Token } from '../../fixtures/artifacts/Token.ts'
import { rejection } from '../support/chain-helpers.ts'
import { devnetChain } from '../support/clients-viem.ts'
import { BLOCK_TIME_MS, freshAddress, nextSeal, requestCount, startNode, until, type HttpNode } from '../support/http-clients-node.ts'

const SUPPLY = 1_000_000n * 10n ** 18n
/** eth_maxPriorityFeePerGas: Anvil's 1 gwei suggestion, which viem adds to the base fee. */
const TIP = 1_000_000_000n
const DEV_BALANCE = parseEther('10000')

/** The viem error a promise rejects with (fails the test if it resolves). */
const viemRejection = (promise: Promise<unknown>) => rejection(promise, BaseError)

/** The node's JSON-RPC error inside a viem error chain (the one carrying a numeric `code`). */
function nodeError(error: BaseError): { code: number; details: string; data?: unknown } {
  const found = error.walk((e) => typeof (e as { code?: unknown }).code === 'number')
  expect(found, 'an error with the node’s code in the chain').to.not.equal(null)
  return found as unknown as { code: number; details: string; data?: unknown }
}

/** The ContractFunctionRevertedError inside a ContractFunctionExecutionError. */
function revertedCause(error: BaseError): ContractFunctionRevertedError {
  expect(error).to.be.instanceOf(ContractFunctionExecutionError)
  expect(error.cause).to.be.instanceOf(ContractFunctionRevertedError)
  return error.cause as ContractFunctionRevertedError
}

describe('viem over HTTP and WebSocket (startServer, realtime clock: 100 ms ticks, 1 s blocks)', function () {
  let node: HttpNode
  let viemChain: ReturnType<typeof devnetChain>
  let preconfChain: ReturnType<typeof devnetChain>

  const publicClient = () => createPublicClient({ chain: viemChain, transport: http(node.url), pollingInterval: 50 })
  const preconfClient = () => createPublicClient({ chain: preconfChain, transport: http(node.url) })
  /** A wallet client signing locally with dev account `index`'s key. */
  const localWallet = (index: number, chain = viemChain) =>
    createWalletClient({ account: privateKeyToAccount(node.chain.accounts[index].privateKey), chain, transport: http(node.url), pollingInterval: 50 })
  /** A wallet client for the node's dev account `index`: a json-rpc account (address only), signing by eth_sendTransaction. */
  const nodeWallet = (index: number) =>
    createWalletClient({ account: node.chain.accounts[index].address, chain: viemChain, transport: http(node.url), pollingInterval: 50 })

  /** Polls eth_getTransactionReceipt until the node has one (pre-confirmed or sealed). */
  const receiptOf = (hash: Hash) => until(`the receipt of ${hash}`, () => publicClient().getTransactionReceipt({ hash }).catch(() => undefined))

  /** Deploys each artifact from dev account 0 and waits until all are sealed (code readable at 'latest'). */
  async function deploySealed(...deployments: [typeof Token | typeof Reverter, readonly unknown[]][]): Promise<Address[]> {
    const wallet = localWallet(0)
    const hashes: Hash[] = []
    for (const [artifact, args] of deployments) hashes.push(await wallet.deployContract({ abi: artifact.abi, bytecode: artifact.bytecode, args } as never))
    const receipts = await Promise.all(hashes.map((hash) => receiptOf(hash)))
    for (const receipt of receipts) expect(receipt.status).to.equal('success')
    const last = receipts[receipts.length - 1].blockNumber
    await until('the deployments to be sealed', () => (node.chain.blockNumber() >= last ? true : undefined))
    return receipts.map((receipt) => receipt.contractAddress!)
  }

  /** A Token (whole supply with dev account 0) and a Reverter, both sealed before the specs run. */
  let token: Address
  let reverter: Address

  before(async () => {
    node = await startNode()
    const rpcUrls = { default: { http: [node.url], webSocket: [node.wsUrl] } }
    viemChain = devnetChain({ rpcUrls, blockTime: BLOCK_TIME_MS })
    preconfChain = devnetChain({ rpcUrls, blockTime: BLOCK_TIME_MS, experimental_preconfirmationTime: 200 })
    ;[token, reverter] = await deploySealed([Token, ['Token', 'TKN', SUPPLY]], [Reverter, []])
  })

  after(async () => {
    await node.close()
  })

  describe('public client (http transport)', () => {
    it("getChainId → 31337 (eth_chainId); web3_clientVersion → 'anvil-compatible/preconf-devnet/v0.1.0' (Hardhat's helpers accept an anvil prefix)", async () => {
      const client = publicClient()
      expect(await client.getChainId()).to.equal(31337)
      expect(await client.request({ method: 'web3_clientVersion' })).to.equal('anvil-compatible/preconf-devnet/v0.1.0')
    })

    it('getBlockNumber advances by one per block time on its own; consecutive timestamps differ by 1 s', async () => {
      const client = publicClient()
      const before = await client.getBlockNumber({ cacheTime: 0 })
      const started = performance.now()
      const after = await until('the block number to advance', async () => {
        const number = await client.getBlockNumber({ cacheTime: 0 })
        return number > before ? number : undefined
      })
      const waited = performance.now() - started
      expect(after).to.equal(before + 1n)
      expect(waited).to.be.below(BLOCK_TIME_MS + 300)
      const [block, parent] = await Promise.all([client.getBlock({ blockNumber: after }), client.getBlock({ blockNumber: after - 1n })])
      expect(block.parentHash).to.equal(parent.hash)
      expect(block.timestamp - parent.timestamp).to.equal(1n)
    })

    it("getBalance of an untouched dev account is 10000 ETH at 'latest' and 'pending' (Anvil/Hardhat funding)", async () => {
      const client = publicClient()
      const address = node.chain.accounts[9].address
      expect(await client.getBalance({ address })).to.equal(DEV_BALANCE)
      expect(await client.getBalance({ address, blockTag: 'pending' })).to.equal(DEV_BALANCE)
    })

    it('a batching http transport (batch: true) sends 20 concurrent eth_getBalance calls as one JSON-RPC batch; every member answers', async () => {
      const bodies: unknown[] = []
      const transport = http(node.url, { batch: true, onFetchRequest: async (request) => void bodies.push(await request.clone().json()) })
      const client = createPublicClient({ chain: viemChain, transport })
      const addresses = Array.from({ length: 20 }, (_, i) => (i < 10 ? node.chain.accounts[i].address : freshAddress(9000 + i)))
      const balances = await Promise.all(addresses.map((address) => client.getBalance({ address: address as Address, blockTag: 'pending' })))
      expect(bodies).to.have.length(1)
      expect(bodies[0]).to.be.an('array').with.length(20)
      for (let i = 10; i < 20; i++) expect(balances[i]).to.equal(0n)
      expect(balances[9]).to.equal(DEV_BALANCE)
    })
  })

  describe('wallet clients', () => {
    it('local account: sendTransaction fills nonce and EIP-1559 fees; the receipt has 21000 gas and the pending balances move exactly', async () => {
      const client = publicClient()
      const wallet = localWallet(0)
      const to = freshAddress(1)
      const from = wallet.account.address
      const before = await client.getBalance({ address: from, blockTag: 'pending' })
      const nonce = await client.getTransactionCount({ address: from, blockTag: 'pending' })

      const hash = await wallet.sendTransaction({ to, value: parseEther('1.5') })
      const receipt = await client.waitForTransactionReceipt({ hash })
      const transaction = await client.getTransaction({ hash })
      expect(receipt.status).to.equal('success')
      expect(receipt.gasUsed).to.equal(21000n)
      expect(receipt.from).to.equal(from.toLowerCase())
      expect(transaction.nonce).to.equal(nonce)
      expect(transaction.type).to.equal('eip1559')
      expect(transaction.maxPriorityFeePerGas).to.equal(TIP)
      // The block's base fee plus viem's tip (its fee cap, 1.2 × base fee + tip, is not reached).
      await until('the transfer to be sealed', () => (node.chain.blockNumber() >= receipt.blockNumber ? true : undefined))
      const block = await client.getBlock({ blockNumber: receipt.blockNumber })
      expect(receipt.effectiveGasPrice).to.equal(block.baseFeePerGas! + TIP)
      expect(await client.getBalance({ address: to, blockTag: 'pending' })).to.equal(parseEther('1.5'))
      expect(await client.getBalance({ address: from, blockTag: 'pending' })).to.equal(before - parseEther('1.5') - receipt.gasUsed * receipt.effectiveGasPrice)
    })

    it('json-rpc account (address only): eth_sendTransaction signs with the node’s dev key; back-to-back sends get nonces 0 and 1', async () => {
      const client = publicClient()
      const wallet = nodeWallet(2)
      const from = node.chain.accounts[2].address
      const to = freshAddress(2)
      expect(wallet.account.type).to.equal('json-rpc')

      const first = await wallet.sendTransaction({ to, value: 5n })
      const second = await wallet.sendTransaction({ to, value: 6n })
      const [r1, r2] = [await receiptOf(first), await receiptOf(second)]
      expect([r1.status, r2.status]).to.deep.equal(['success', 'success'])
      expect(r1.from).to.equal(from.toLowerCase())
      expect((await client.getTransaction({ hash: first })).nonce).to.equal(0)
      expect((await client.getTransaction({ hash: second })).nonce).to.equal(1)
      expect(await client.getBalance({ address: to, blockTag: 'pending' })).to.equal(11n)
    })
  })

  describe('contracts', () => {
    it('deployContract(Token) + waitForTransactionReceipt: contractAddress from (sender, nonce); code and balanceOf at pending', async () => {
      const client = publicClient()
      const wallet = localWallet(0)
      const nonce = await client.getTransactionCount({ address: wallet.account.address, blockTag: 'pending' })
      const hash = await wallet.deployContract({ abi: Token.abi, bytecode: Token.bytecode, args: ['Token', 'TKN', SUPPLY] })
      const receipt = await client.waitForTransactionReceipt({ hash })
      expect(receipt.status).to.equal('success')
      expect(receipt.to).to.equal(null)
      expect(receipt.contractAddress).to.equal(getContractAddress({ from: wallet.account.address, nonce: BigInt(nonce) }).toLowerCase())
      const token = receipt.contractAddress!
      expect(await client.getCode({ address: token, blockTag: 'pending' })).to.equal(Token.deployedBytecode)
      expect(
        await client.readContract({ address: token, abi: Token.abi, functionName: 'balanceOf', args: [wallet.account.address], blockTag: 'pending' }),
      ).to.equal(SUPPLY)
      expect(await client.readContract({ address: token, abi: Token.abi, functionName: 'symbol', blockTag: 'pending' })).to.equal('TKN')
    })

    it('writeContract (local account) transfer + readContract: balances at pending, one Transfer log in the receipt', async () => {
      const client = publicClient()
      const wallet = localWallet(0)
      const to = freshAddress(3)
      const hash = await wallet.writeContract({ address: token, abi: Token.abi, functionName: 'transfer', args: [to, 42n] })
      const receipt = await receiptOf(hash)
      expect(receipt.status).to.equal('success')
      expect(receipt.logs).to.have.length(1)
      expect(receipt.logs[0].address).to.equal(token)
      expect(await client.readContract({ address: token, abi: Token.abi, functionName: 'balanceOf', args: [to], blockTag: 'pending' })).to.equal(42n)
      expect(
        await client.readContract({ address: token, abi: Token.abi, functionName: 'balanceOf', args: [wallet.account.address], blockTag: 'pending' }),
      ).to.equal(SUPPLY - 42n)
    })

    it('writeContract from the node’s dev account (json-rpc account → eth_sendTransaction): approve shows in allowance at pending', async () => {
      const client = publicClient()
      const owner = node.chain.accounts[1].address
      const spender = freshAddress(4)
      const hash = await nodeWallet(1).writeContract({ address: token, abi: Token.abi, functionName: 'approve', args: [spender, 77n] })
      const receipt = await receiptOf(hash)
      expect(receipt.status).to.equal('success')
      expect(receipt.from).to.equal(owner.toLowerCase())
      expect(await client.readContract({ address: token, abi: Token.abi, functionName: 'allowance', args: [owner, spender], blockTag: 'pending' })).to.equal(77n)
    })
  })

  describe('pre-confirmations (a chain with experimental_preconfirmationTime: 200, like viem’s base)', () => {
    it("the client reads 'pending' by default: a transfer shows within a tick, while 'latest' shows it only after the seal", async () => {
      const client = preconfClient()
      expect(client.experimental_blockTag).to.equal('pending')
      expect(publicClient().experimental_blockTag).to.equal(undefined)
      const wallet = localWallet(3, preconfChain)
      const to = freshAddress(10)

      const sealed = await nextSeal(node.chain) // a whole block time ahead before the next seal
      const hash = await wallet.sendTransaction({ to, value: 1000n })
      const sent = performance.now()
      await until('the pre-confirmed transfer at the default tag', async () => ((await client.getBalance({ address: to })) === 1000n ? true : undefined))
      expect(performance.now() - sent).to.be.below(BLOCK_TIME_MS / 2)
      expect(await client.getBalance({ address: to, blockTag: 'latest' })).to.equal(0n)
      const receipt = await client.getTransactionReceipt({ hash })
      expect(receipt.blockHash).to.equal(zeroHash)
      expect(receipt.blockNumber).to.equal(sealed + 1n)
      expect(node.chain.blockNumber()).to.equal(sealed)

      expect(await nextSeal(node.chain)).to.equal(sealed + 1n)
      expect(await client.getBalance({ address: to, blockTag: 'latest' })).to.equal(1000n)
      const block = await client.getBlock({ blockNumber: sealed + 1n })
      const final = await client.getTransactionReceipt({ hash })
      expect(final.blockHash).to.equal(block.hash)
      expect(final.blockHash).to.not.equal(zeroHash)
    })

    it('sendTransactionSync and sendRawTransactionSync (eth_sendRawTransactionSync, EIP-7966) return the pre-confirmed receipt within about a tick; waitForTransactionReceipt then resolves at once', async () => {
      const client = preconfClient()
      const wallet = localWallet(3, preconfChain)
      const account = privateKeyToAccount(node.chain.accounts[3].privateKey)
      const since = node.methods.length
      const sealed = await nextSeal(node.chain)

      let started = performance.now()
      const viaWallet = await wallet.sendTransactionSync({ to: freshAddress(11), value: 7n })
      const walletElapsed = performance.now() - started
      expect(viaWallet.status).to.equal('success')
      expect(viaWallet.blockHash).to.equal(zeroHash)
      expect(viaWallet.blockNumber).to.equal(sealed + 1n)
      expect(walletElapsed, 'ms from sendTransactionSync to its receipt').to.be.below(BLOCK_TIME_MS / 2)

      const nonce = await client.getTransactionCount({ address: account.address, blockTag: 'pending' })
      const serializedTransaction = await account.signTransaction({
        chainId: 31337,
        type: 'eip1559',
        to: freshAddress(12),
        value: 9n,
        nonce,
        gas: 21000n,
        maxFeePerGas: 10n * TIP,
        maxPriorityFeePerGas: TIP,
      })
      started = performance.now()
      const receipt = await client.sendRawTransactionSync({ serializedTransaction })
      const waited = await client.waitForTransactionReceipt({ hash: receipt.transactionHash })
      const rawElapsed = performance.now() - started
      expect(receipt.transactionHash).to.equal(keccak256(serializedTransaction))
      expect(receipt.status).to.equal('success')
      expect(receipt.blockHash).to.equal(zeroHash)
      expect(receipt.blockNumber).to.equal(sealed + 1n)
      expect(receipt.gasUsed).to.equal(21000n)
      expect(waited.transactionHash).to.equal(receipt.transactionHash)
      expect(waited.blockHash).to.equal(zeroHash)
      expect(rawElapsed, 'ms from sendRawTransactionSync to waitForTransactionReceipt resolving').to.be.below(BLOCK_TIME_MS / 2)
      expect(await client.getBalance({ address: freshAddress(12) })).to.equal(9n)
      expect(requestCount(node, 'eth_sendRawTransactionSync', since)).to.equal(2)
      expect(node.chain.blockNumber(), 'all within one block').to.equal(sealed)
    })

    it('sendRawTransactionSync of a tx held behind a nonce gap fails after its timeout: code 4, the message Base nodes (reth) send, data = the tx hash', async () => {
      const client = preconfClient()
      const account = privateKeyToAccount(node.chain.accounts[6].privateKey)
      const serializedTransaction = await account.signTransaction({
        chainId: 31337,
        type: 'eip1559',
        to: freshAddress(13),
        value: 1n,
        nonce: 5, // account 6 has sent nothing: nonces 0..4 are missing
        gas: 21000n,
        maxFeePerGas: 10n * TIP,
        maxPriorityFeePerGas: TIP,
      })
      const error = await viemRejection(client.sendRawTransactionSync({ serializedTransaction, timeout: 300 }))
      const rpc = nodeError(error)
      expect(rpc.code).to.equal(4)
      expect(rpc.details).to.equal(`Transaction ${keccak256(serializedTransaction)} was added to the mempool but wasn't confirmed within 300ms.`)
      expect(rpc.data).to.equal(keccak256(serializedTransaction))
    })

    it('waitForTransactionReceipt begun while the tx is still in the mempool resolves only at the seal, with the real block hash — with or without experimental_preconfirmationTime (viem re-polls receipts per new eth_blockNumber, which moves only on seals, as on Base)', async () => {
      const preconf = preconfClient()
      const plain = publicClient()
      const wallet = localWallet(8, preconfChain)
      const to = freshAddress(14)
      await nextSeal(node.chain)
      // Nonce 1 first: held behind the gap, so the first receipt polls of both clients surely find nothing.
      const held = await wallet.sendTransaction({ to, value: 2n, nonce: 1, gas: 21000n })
      const since = node.methods.length
      const waits = [preconf.waitForTransactionReceipt({ hash: held }), plain.waitForTransactionReceipt({ hash: held })]
      let settled = 0
      for (const wait of waits) wait.then(() => settled++, () => settled++)
      // Each client polls the receipt once, then once more on its first block number.
      await until('both clients’ first receipt polls', () => (requestCount(node, 'eth_getTransactionReceipt', since) >= 4 ? true : undefined))
      const filler = await wallet.sendTransaction({ to, value: 1n, nonce: 0, gas: 21000n })
      const head = node.chain.blockNumber()
      await until('the held tx to be pre-confirmed', async () => ((await preconf.getBalance({ address: to })) === 3n ? true : undefined))
      const preconfirmed = await preconf.getTransactionReceipt({ hash: held })
      expect(preconfirmed.blockHash).to.equal(zeroHash)
      expect(settled, 'neither wait has resolved on the pre-confirmed receipt').to.equal(0)
      expect(node.chain.blockNumber(), 'still before the seal').to.equal(head)

      const [viaPreconf, viaPlain] = await Promise.all(waits)
      const block = await plain.getBlock({ blockNumber: head + 1n })
      expect(block.transactions).to.deep.equal([filler, held])
      for (const receipt of [viaPreconf, viaPlain]) {
        expect(receipt.status).to.equal('success')
        expect(receipt.blockNumber).to.equal(head + 1n)
        expect(receipt.blockHash).to.equal(block.hash)
      }
    })
  })

  describe("test client (mode 'anvil')", () => {
    it('request evm_mine seals a block at once, holding a tx sent just before it (Anvil/Hardhat mine pending txs)', async () => {
      const client = publicClient()
      const test = createTestClient({ chain: viemChain, mode: 'anvil', transport: http(node.url) })
      const wallet = localWallet(7)
      const sealed = await nextSeal(node.chain)
      const hash = await wallet.sendTransaction({ to: freshAddress(20), value: 3n })
      expect(await test.request({ method: 'evm_mine' } as never)).to.equal('0x0')
      expect(await client.getBlockNumber({ cacheTime: 0 })).to.equal(sealed + 1n)
      const receipt = await client.getTransactionReceipt({ hash })
      const block = await client.getBlock({ blockNumber: sealed + 1n })
      expect(receipt.blockNumber).to.equal(sealed + 1n)
      expect(receipt.blockHash).to.equal(block.hash)
      expect(block.transactions).to.deep.equal([hash])
      expect(await client.getBalance({ address: freshAddress(20) })).to.equal(3n)
    })
  })

  describe('reverts decoded over HTTP (-32000 "execution reverted" + data)', () => {
    it("readContract revertWithReason('boom') → ContractFunctionRevertedError, reason 'boom'; node error -32000 'execution reverted'", async () => {
      const error = await viemRejection(publicClient().readContract({ address: reverter, abi: Reverter.abi, functionName: 'revertWithReason', args: ['boom'] }))
      const cause = revertedCause(error)
      expect(cause.reason).to.equal('boom')
      expect(cause.data?.errorName).to.equal('Error')
      expect(cause.data?.args).to.deep.equal(['boom'])
      const rpc = nodeError(error)
      expect(rpc.code).to.equal(-32000)
      expect(rpc.details).to.equal('execution reverted')
    })

    it('readContract revertWithCustomError(7) decodes Unauthorized(caller, 7n)', async () => {
      const caller = node.chain.accounts[0].address
      const error = await viemRejection(
        publicClient().readContract({ address: reverter, abi: Reverter.abi, functionName: 'revertWithCustomError', args: [7n], account: caller }),
      )
      const cause = revertedCause(error)
      expect(cause.data?.errorName).to.equal('Unauthorized')
      expect(cause.data?.args).to.deep.equal([caller, 7n])
    })

    it("readContract requireTrue(false) → reason 'requirement failed'; requireTrue(true) → true", async () => {
      const client = publicClient()
      const error = await viemRejection(client.readContract({ address: reverter, abi: Reverter.abi, functionName: 'requireTrue', args: [false] }))
      expect(revertedCause(error).reason).to.equal('requirement failed')
      expect(await client.readContract({ address: reverter, abi: Reverter.abi, functionName: 'requireTrue', args: [true] })).to.equal(true)
    })

    it("simulateContract: revertWithCustomError(9) decodes Unauthorized(account, 9n); revertWithReason('nope') and touchThenRevert() give their reasons", async () => {
      const client = publicClient()
      const account = privateKeyToAccount(node.chain.accounts[0].privateKey)
      // viem's types offer only state-changing functions to simulateContract; at runtime it simulates view functions alike.
      const simulate = client.simulateContract as unknown as (args: Record<string, unknown>) => Promise<unknown>
      const custom = revertedCause(await viemRejection(simulate({ address: reverter, abi: Reverter.abi, functionName: 'revertWithCustomError', args: [9n], account })))
      expect(custom.data?.errorName).to.equal('Unauthorized')
      expect(custom.data?.args).to.deep.equal([account.address, 9n])
      const reason = revertedCause(await viemRejection(simulate({ address: reverter, abi: Reverter.abi, functionName: 'revertWithReason', args: ['nope'], account })))
      expect(reason.reason).to.equal('nope')
      const touched = revertedCause(await viemRejection(client.simulateContract({ address: reverter, abi: Reverter.abi, functionName: 'touchThenRevert', account })))
      expect(touched.reason).to.equal('touched then reverted')
      expect(await client.readContract({ address: reverter, abi: Reverter.abi, functionName: 'touched', blockTag: 'pending' })).to.equal(0n)
    })

    it('simulateContract of a token transfer beyond balance decodes InsufficientBalance(account, 0n, 5n)', async () => {
      const poor = privateKeyToAccount(node.chain.accounts[9].privateKey)
      const error = await viemRejection(
        publicClient().simulateContract({ address: token, abi: Token.abi, functionName: 'transfer', args: [freshAddress(32), 5n], account: poor }),
      )
      const cause = revertedCause(error)
      expect(cause.data?.errorName).to.equal('InsufficientBalance')
      expect(cause.data?.args).to.deep.equal([poor.address, 0n, 5n])
    })
  })

  describe('pool rejections classified by viem (geth texts over HTTP)', () => {
    it("a reused nonce → NonceTooLowError (geth 'nonce too low: next nonce 1, tx nonce 0')", async () => {
      const wallet = localWallet(4)
      const hash = await wallet.sendTransaction({ to: freshAddress(30), value: 1n })
      await receiptOf(hash)
      const error = await viemRejection(wallet.sendTransaction({ to: freshAddress(30), value: 2n, nonce: 0 }))
      expect(error).to.be.instanceOf(TransactionExecutionError)
      expect(error.walk((e) => e instanceof NonceTooLowError)).to.be.instanceOf(NonceTooLowError)
      const rpc = nodeError(error)
      expect(rpc.code).to.equal(-32000)
      expect(rpc.details).to.equal('nonce too low: next nonce 1, tx nonce 0')
    })

    it("value beyond the balance → InsufficientFundsError (geth 'insufficient funds for gas * price + value: balance …, tx cost …, overshot …')", async () => {
      const wallet = localWallet(5)
      const maxFeePerGas = 2n * TIP
      const error = await viemRejection(
        wallet.sendTransaction({ to: freshAddress(31), value: DEV_BALANCE + 1n, gas: 21000n, maxFeePerGas, maxPriorityFeePerGas: TIP }),
      )
      expect(error).to.be.instanceOf(TransactionExecutionError)
      expect(error.walk((e) => e instanceof InsufficientFundsError)).to.be.instanceOf(InsufficientFundsError)
      const rpc = nodeError(error)
      expect(rpc.code).to.equal(-32000)
      const cost = DEV_BALANCE + 1n + 21000n * maxFeePerGas
      expect(rpc.details).to.equal(`insufficient funds for gas * price + value: balance ${DEV_BALANCE}, tx cost ${cost}, overshot ${cost - DEV_BALANCE}`)
    })
  })

  describe('logs (eth_getLogs)', () => {
    it("getContractEvents / getLogs to 'pending' return a pre-confirmed Transfer (zero block hash); after the seal it carries the block's hash, once", async () => {
      const client = publicClient()
      const wallet = localWallet(0)
      const to = freshAddress(40)
      const sealed = await nextSeal(node.chain)
      const hash = await wallet.writeContract({ address: token, abi: Token.abi, functionName: 'transfer', args: [to, 5n] })
      const receipt = await until('the pre-confirmed receipt', () => client.getTransactionReceipt({ hash }).catch(() => undefined))
      expect(receipt.blockHash).to.equal(zeroHash)
      expect(receipt.blockNumber).to.equal(sealed + 1n)

      const pending = await client.getContractEvents({ address: token, abi: Token.abi, eventName: 'Transfer', args: { to }, fromBlock: sealed, toBlock: 'pending' })
      expect(pending).to.have.length(1)
      expect(pending[0].args).to.deep.equal({ from: wallet.account.address, to: to, value: 5n })
      expect(pending[0].blockHash).to.equal(zeroHash)
      expect(pending[0].blockNumber).to.equal(sealed + 1n)
      expect(pending[0].transactionHash).to.equal(hash)
      const transfer = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)')
      const viaGetLogs = await client.getLogs({ address: token, event: transfer, args: { to }, fromBlock: 'pending', toBlock: 'pending' })
      expect(viaGetLogs.map((log) => [log.transactionHash, log.blockHash, log.args.value])).to.deep.equal([[hash, zeroHash, 5n]])
      expect(await client.getLogs({ address: token, event: transfer, args: { to }, fromBlock: sealed, toBlock: 'latest' })).to.deep.equal([])
      expect(node.chain.blockNumber(), 'still before the seal').to.equal(sealed)

      await nextSeal(node.chain)
      const block = await client.getBlock({ blockNumber: sealed + 1n })
      const after = await client.getContractEvents({ address: token, abi: Token.abi, eventName: 'Transfer', args: { to }, fromBlock: sealed, toBlock: 'pending' })
      expect(after.map((log) => [log.transactionHash, log.blockHash])).to.deep.equal([[hash, block.hash]])
      const byHash = await client.getContractEvents({ address: token, abi: Token.abi, eventName: 'Transfer', blockHash: block.hash })
      expect(byHash.map((log) => log.args.to)).to.include(to)
    })
  })

  describe('webSocket transport (eth_subscribe)', () => {
    const wsClient = () => createPublicClient({ chain: viemChain, transport: webSocket(node.wsUrl, { reconnect: false, keepAlive: false }) })
    let client: ReturnType<typeof wsClient>

    beforeEach(() => {
      client = wsClient()
    })

    afterEach(async () => {
      const rpc = await client.transport.getRpcClient()
      rpc.close()
    })

    it('plain requests work over the socket (eth_chainId, eth_getBalance)', async () => {
      expect(await client.getChainId()).to.equal(31337)
      expect(await client.getBalance({ address: node.chain.accounts[9].address })).to.equal(DEV_BALANCE)
    })

    it('watchBlocks (newHeads) delivers each sealed block with its real hash, chained to its parent', async () => {
      const seen: { number: bigint; hash: Hash; parentHash: Hash }[] = []
      const errors: Error[] = []
      const unwatch = client.watchBlocks({
        onBlock: (block) => void seen.push({ number: block.number!, hash: block.hash!, parentHash: block.parentHash }),
        onError: (error) => void errors.push(error),
      })
      const socket = await client.transport.getRpcClient()
      await until('the newHeads subscription', () => (socket.subscriptions.size > 0 ? true : undefined))
      const number = await nextSeal(node.chain)
      const block = await until(`block ${number} from the subscription`, () => seen.find((block) => block.number === number))
      unwatch()
      expect(errors).to.deep.equal([])
      const [sealed, parent] = await Promise.all([
        publicClient().getBlock({ blockNumber: number }),
        publicClient().getBlock({ blockNumber: number - 1n }),
      ])
      expect(block.hash).to.equal(sealed.hash)
      expect(block.hash).to.not.equal(zeroHash)
      expect(block.parentHash).to.equal(parent.hash)
    })

    it('watchContractEvent (logs subscription) delivers a Transfer once it is sealed, with the block hash', async () => {
      const to = freshAddress(50)
      const received = new Promise<Log[]>((resolve, reject) => {
        const unwatch = client.watchContractEvent({
          address: token,
          abi: Token.abi,
          eventName: 'Transfer',
          args: { to },
          onLogs: (logs) => {
            unwatch()
            resolve(logs as Log[])
          },
          onError: reject,
        })
      })
      // eth_subscribe's answer registers the subscription id in viem's socket client.
      const socket = await client.transport.getRpcClient()
      await until('the logs subscription', () => (socket.subscriptions.size > 0 ? true : undefined))
      const hash = await localWallet(0).writeContract({ address: token, abi: Token.abi, functionName: 'transfer', args: [to, 8n] })
      const logs = await received
      expect(logs).to.have.length(1)
      const [log] = logs as (Log & { args: { from: Address; to: Address; value: bigint } })[]
      expect(log.transactionHash).to.equal(hash)
      expect(log.args).to.deep.equal({ from: node.chain.accounts[0].address, to, value: 8n })
      const block = await publicClient().getBlock({ blockNumber: log.blockNumber! })
      expect(log.blockHash).to.equal(block.hash)
    })
  })
})
