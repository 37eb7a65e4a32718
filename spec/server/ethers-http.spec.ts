/**
 * ethers v6, unchanged, against the devnet as a network node: JsonRpcProvider (its default
 * options, and a static network with fast polling), WebSocketProvider, Wallet and
 * ContractFactory, over startServer on a free port with the realtime clock (100 ms ticks, 1 s
 * blocks). ethers classifies node errors from the JSON-RPC error object (code, message, data)
 * in JsonRpcApiProvider.getRpcError, so geth's texts and the revert shape decide the codes
 * checked here. The one replacement test runs on a manual-clock node, so no tick can land
 * between its two sends.
 */
import { expect } from 'chai'
import {
  Contract,
  ContractFactory,
  JsonRpcProvider,
  Network,
  WebSocketProvider,
  Wallet,
  ZeroHash,
  isError,
  parseEther,
  type BaseContract,
  type EventLog,
  type TransactionResponse,
} from 'ethers'
import { Reverter } from '../../fixtures/artifacts/Reverter.ts'
import { Token } from '../../fixtures/artifacts/Token.ts'
import { rejection } from '../support/chain-helpers.ts'
import { freshAddress, nextSeal, requestCount, startNode, until, untilBlockListeners, type HttpNode } from '../support/http-clients-node.ts'

const GWEI = 1_000_000_000n
const SUPPLY = 1_000_000n * 10n ** 18n
const DEV_BALANCE = parseEther('10000')


describe('ethers over HTTP and WebSocket (startServer, realtime clock: 100 ms ticks, 1 s blocks)', function () {
  let node: HttpNode
  /** JsonRpcProvider with its defaults (network detection, 4 s polling, 250 ms cache, batching). */
  let provider: JsonRpcProvider
  /** Static network, 50 ms polling, no request cache: for wait(), 'block' events and back-to-back reads. */
  let polling: JsonRpcProvider
  let token: Contract
  let reverter: Contract

  const wallet = (index: number) => new Wallet(node.chain.accounts[index].privateKey, polling)
  /** Polls eth_getTransactionReceipt until the node has one (pre-confirmed or sealed). */
  const receiptOf = (hash: string) => until(`the receipt of ${hash}`, async () => (await polling.getTransactionReceipt(hash)) ?? undefined)

  before(async () => {
    node = await startNode()
    provider = new JsonRpcProvider(node.url)
    polling = new JsonRpcProvider(node.url, Network.from(31337), { staticNetwork: true, pollingInterval: 50, cacheTimeout: -1 })
    // A Token (whole supply with dev account 0) and a Reverter, both sealed before the specs run.
    const deployer = wallet(0)
    const deployed: BaseContract[] = []
    for (const [artifact, args] of [[Token, ['Token', 'TKN', SUPPLY]], [Reverter, []]] as const) {
      deployed.push(await new ContractFactory(artifact.abi, artifact.bytecode, deployer).deploy(...args))
    }
    const receipts = await Promise.all(deployed.map((contract) => receiptOf(contract.deploymentTransaction()!.hash)))
    await until('the deployments to be sealed', () => (node.chain.blockNumber() >= BigInt(receipts[1].blockNumber) ? true : undefined))
    ;[token, reverter] = deployed as Contract[]
  })

  after(async () => {
    provider.destroy()
    polling.destroy()
    await node.close()
  })

  describe('JsonRpcProvider with default options', () => {
    it('getNetwork detects chainId 31337n (eth_chainId); getBlockNumber is the head', async () => {
      expect((await provider.getNetwork()).chainId).to.equal(31337n)
      const before = Number(node.chain.blockNumber())
      const number = await provider.getBlockNumber()
      expect(number).to.be.within(before, Number(node.chain.blockNumber()))
    })

    it("getBalance(untouched dev account, 'pending') is 10000 ETH, as at 'latest' (Anvil/Hardhat funding)", async () => {
      const address = node.chain.accounts[9].address
      expect(await provider.getBalance(address, 'pending')).to.equal(DEV_BALANCE)
      expect(await provider.getBalance(address, 'latest')).to.equal(DEV_BALANCE)
    })

    it("a block hash as the blockTag (ethers sends the bare hash, as geth's BlockNumberOrHash takes it): getBalance and call read that block (audit Q, Q1)", async () => {
      const head = (await polling.getBlock('latest'))!
      const account = node.chain.accounts[0].address
      expect(await polling.getBalance(account, head.hash!)).to.equal(await polling.getBalance(account, head.number))
      const supply = token.interface.encodeFunctionData('totalSupply')
      expect(await polling.call({ to: await token.getAddress(), data: supply, blockTag: head.hash! })).to.equal(token.interface.encodeFunctionResult('totalSupply', [SUPPLY]))
    })

    it('batches 20 concurrent getBalance calls into one JSON-RPC batch (batchStallTime 10 ms); every member answers', async () => {
      await provider.getNetwork()
      const payloads: { method: string }[][] = []
      const debug = (event: { action: string; payload?: { method: string } | { method: string }[] }) => {
        if (event.action === 'sendRpcPayload') payloads.push(([] as { method: string }[]).concat(event.payload!))
      }
      await provider.on('debug', debug)
      // Addresses this provider has not read yet (its 250 ms cache would answer a repeat).
      const untouched = [6, 7, 8].map((i) => node.chain.accounts[i].address)
      const addresses = [...untouched, ...Array.from({ length: 17 }, (_, i) => freshAddress(8000 + i))]
      const since = node.methods.length
      const balances = await Promise.all(addresses.map((address) => provider.getBalance(address, 'pending')))
      await provider.off('debug', debug)
      // One HTTP request; without a static network ethers adds its eth_chainId check to the batch.
      expect(payloads).to.have.length(1)
      expect(payloads[0].filter((call) => call.method === 'eth_getBalance')).to.have.length(20)
      expect(requestCount(node, 'eth_getBalance', since)).to.equal(20)
      expect(balances).to.deep.equal([...Array(3).fill(DEV_BALANCE), ...Array(17).fill(0n)])
    })
  })

  describe('JsonRpcProvider with a static network and 50 ms polling', () => {
    it("on('block') fires for the next sealed block (eth_blockNumber polling)", async () => {
      const head = Number(node.chain.blockNumber())
      const number = await new Promise<number>((resolve) => void polling.once('block', resolve))
      expect(number).to.be.above(head)
      const block = (await polling.getBlock(number))!
      expect(block.number).to.equal(number)
      expect(block.hash).to.not.equal(ZeroHash)
    })

    it('Wallet.sendTransaction + wait() begun while the tx is in the mempool: status 1 and the real block hash once sealed', async () => {
      const sender = wallet(1)
      const to = freshAddress(1)
      const fields = { to, gasLimit: 21000n }
      // Nonce 1 first: held behind the gap, so wait()'s first receipt fetch surely finds nothing.
      const held: TransactionResponse = await sender.sendTransaction({ ...fields, value: 2n, nonce: 1 })
      const since = node.methods.length
      const waiting = held.wait()
      await until('wait()’s first receipt fetch', () => (requestCount(node, 'eth_getTransactionReceipt', since) >= 1 ? true : undefined))
      const filler = await sender.sendTransaction({ ...fields, value: 1n, nonce: 0 })
      expect(filler.nonce).to.equal(0)

      const receipt = (await waiting)!
      const block = (await polling.getBlock(receipt.blockNumber))!
      expect(receipt.status).to.equal(1)
      expect(receipt.hash).to.equal(held.hash)
      expect(receipt.blockHash).to.not.equal(ZeroHash)
      expect(receipt.blockHash).to.equal(block.hash)
      expect(block.transactions).to.deep.equal([filler.hash, held.hash])
      expect(await polling.getBalance(to, 'latest')).to.equal(3n)
    })

    it('wait() called once the tx is pre-confirmed resolves at once with that receipt (zero block hash: one confirmation takes any receipt)', async () => {
      const sender = wallet(1)
      const sealed = await nextSeal(node.chain)
      const tx = await sender.sendTransaction({ to: freshAddress(2), value: 4n })
      await receiptOf(tx.hash)
      const receipt = (await tx.wait())!
      expect(receipt.status).to.equal(1)
      expect(receipt.blockHash).to.equal(ZeroHash)
      expect(receipt.blockNumber).to.equal(Number(sealed) + 1)
      expect(await polling.getBalance(freshAddress(2), 'pending')).to.equal(4n)
      expect(await polling.getBalance(freshAddress(2), 'latest')).to.equal(0n)
      expect(node.chain.blockNumber(), 'still before the seal').to.equal(sealed)
    })
  })

  describe('contracts', () => {
    it('ContractFactory deploy(Token) + waitForDeployment: receipt status 1 at the predicted address; code and balanceOf at pending', async () => {
      const deployer = wallet(0)
      const contract = (await new ContractFactory(Token.abi, Token.bytecode, deployer).deploy('Token', 'TKN', SUPPLY)) as Contract
      await contract.waitForDeployment()
      const address = await contract.getAddress()
      const receipt = (await polling.getTransactionReceipt(contract.deploymentTransaction()!.hash))!
      expect(receipt.status).to.equal(1)
      expect(receipt.contractAddress).to.equal(address)
      expect(await polling.getCode(address, 'pending')).to.equal(Token.deployedBytecode)
      expect(await contract.balanceOf(deployer.address, { blockTag: 'pending' })).to.equal(SUPPLY)
      expect(await contract.symbol({ blockTag: 'pending' })).to.equal('TKN')
    })

    it("transfer: balanceOf at 'pending' within a tick, at 'latest' after the seal; queryFilter to 'pending' finds the pre-confirmed Transfer, then the sealed one", async () => {
      const owner = wallet(0)
      const to = freshAddress(10)
      const mine = token.connect(owner) as Contract
      const sealed = await nextSeal(node.chain)
      const tx: TransactionResponse = await mine.transfer(to, 5n)
      const receipt = await receiptOf(tx.hash)
      expect(receipt.blockHash).to.equal(ZeroHash)
      expect(receipt.blockNumber).to.equal(Number(sealed) + 1)
      expect(await token.balanceOf(to, { blockTag: 'pending' })).to.equal(5n)
      expect(await token.balanceOf(to, { blockTag: 'latest' })).to.equal(0n)

      const filter = token.filters.Transfer(null, to)
      const pending = (await token.queryFilter(filter, Number(sealed), 'pending')) as EventLog[]
      expect(pending.map((log) => [log.transactionHash, log.blockHash, log.blockNumber])).to.deep.equal([[tx.hash, ZeroHash, Number(sealed) + 1]])
      expect(pending[0].eventName).to.equal('Transfer')
      expect(pending[0].args.toArray()).to.deep.equal([owner.address, to, 5n])
      expect(await token.queryFilter(filter, Number(sealed), 'latest')).to.deep.equal([])
      expect(node.chain.blockNumber(), 'still before the seal').to.equal(sealed)

      await nextSeal(node.chain)
      expect(await token.balanceOf(to, { blockTag: 'latest' })).to.equal(5n)
      const block = (await polling.getBlock(Number(sealed) + 1))!
      const sealedLogs = (await token.queryFilter(filter, Number(sealed) + 1, Number(sealed) + 1)) as EventLog[]
      expect(sealedLogs.map((log) => [log.transactionHash, log.blockHash])).to.deep.equal([[tx.hash, block.hash]])
      expect((await token.queryFilter(filter, Number(sealed), 'pending')).length, 'the sealed log once, not again as pending').to.equal(1)
    })
  })

  describe('reverts over HTTP (-32000 "execution reverted" + data → CALL_EXCEPTION)', () => {
    it("revertWithReason('boom') → CALL_EXCEPTION, reason 'boom', revert Error(string); node error -32000 'execution reverted'", async () => {
      const error = await rejection((reverter.connect(wallet(0)) as Contract).revertWithReason('boom'))
      expect(isError(error, 'CALL_EXCEPTION')).to.equal(true)
      expect(error.reason).to.equal('boom')
      expect(error.revert.signature).to.equal('Error(string)')
      expect(error.revert.args).to.deep.equal(['boom'])
      expect(error.data).to.equal(reverter.interface.encodeErrorResult('Error', ['boom']))
      expect(error.shortMessage).to.equal('execution reverted: "boom"')
      // The provider-level eth_call shows the node's error object as ethers received it.
      const data = reverter.interface.encodeFunctionData('revertWithReason', ['boom'])
      const raw = await rejection(polling.call({ to: await reverter.getAddress(), data }))
      expect(raw.code).to.equal('CALL_EXCEPTION')
      expect(raw.reason).to.equal('boom')
      expect(raw.info.error.code).to.equal(-32000)
      expect(raw.info.error.message).to.equal('execution reverted')
      expect(raw.info.error.data).to.equal(error.data)
    })

    it('revertWithCustomError(7) → CALL_EXCEPTION whose data parses to Unauthorized(caller, 7n)', async () => {
      const caller = wallet(0)
      const error = await rejection((reverter.connect(caller) as Contract).revertWithCustomError(7n))
      expect(error.code).to.equal('CALL_EXCEPTION')
      const parsed = reverter.interface.parseError(error.data)!
      expect(parsed.name).to.equal('Unauthorized')
      expect(parsed.args.toArray()).to.deep.equal([caller.address, 7n])
      expect(error.revert.name).to.equal('Unauthorized')
    })

    it("requireTrue(false) → CALL_EXCEPTION, reason 'requirement failed'; requireTrue(true) → true", async () => {
      const error = await rejection(reverter.requireTrue(false))
      expect(error.code).to.equal('CALL_EXCEPTION')
      expect(error.reason).to.equal('requirement failed')
      expect(await reverter.requireTrue(true)).to.equal(true)
    })

    it('a token transfer beyond balance fails in estimateGas with CALL_EXCEPTION; data parses to InsufficientBalance(sender, 0, 5)', async () => {
      const poor = wallet(5)
      const error = await rejection((token.connect(poor) as Contract).transfer(freshAddress(20), 5n))
      expect(error.code).to.equal('CALL_EXCEPTION')
      const parsed = token.interface.parseError(error.data)!
      expect(parsed.name).to.equal('InsufficientBalance')
      expect(parsed.args.toArray()).to.deep.equal([poor.address, 0n, 5n])
    })
  })

  describe('pool rejections (geth texts → ethers codes)', () => {
    it("a reused nonce → NONCE_EXPIRED (geth 'nonce too low: next nonce 1, tx nonce 0')", async () => {
      const sender = wallet(2)
      const first = await sender.sendTransaction({ to: freshAddress(30), value: 1n })
      await receiptOf(first.hash)
      const error = await rejection(sender.sendTransaction({ to: freshAddress(30), value: 2n, nonce: 0 }))
      expect(isError(error, 'NONCE_EXPIRED')).to.equal(true)
      expect(error.info.error.code).to.equal(-32000)
      expect(error.info.error.message).to.equal('nonce too low: next nonce 1, tx nonce 0')
    })

    it("value beyond the balance → INSUFFICIENT_FUNDS (geth 'insufficient funds for gas * price + value: balance …, tx cost …, overshot …')", async () => {
      const sender = wallet(3)
      const maxFeePerGas = 2n * GWEI
      const error = await rejection(
        sender.sendTransaction({ to: freshAddress(31), value: DEV_BALANCE + 1n, gasLimit: 21000n, maxFeePerGas, maxPriorityFeePerGas: GWEI }),
      )
      expect(isError(error, 'INSUFFICIENT_FUNDS')).to.equal(true)
      expect(error.info.error.code).to.equal(-32000)
      const cost = DEV_BALANCE + 1n + 21000n * maxFeePerGas
      expect(error.info.error.message).to.equal(`insufficient funds for gas * price + value: balance ${DEV_BALANCE}, tx cost ${cost}, overshot ${cost - DEV_BALANCE}`)
    })
  })

  describe('WebSocketProvider', () => {
    let ws: WebSocketProvider

    beforeEach(() => {
      ws = new WebSocketProvider(node.wsUrl)
    })

    afterEach(async () => {
      await ws.destroy()
    })

    it("on('block') fires for each sealed block (newHeads); the hash matches the HTTP node's", async () => {
      expect((await ws.getNetwork()).chainId).to.equal(31337n)
      const numbers: number[] = []
      const baseline = node.chain.listenerCount('block')
      await ws.on('block', (number: number) => void numbers.push(number))
      await untilBlockListeners(node, baseline)
      const sealed = Number(await nextSeal(node.chain))
      await until(`block ${sealed} over the socket`, () => (numbers.includes(sealed) ? true : undefined))
      const [viaSocket, viaHttp] = await Promise.all([ws.getBlock(sealed), polling.getBlock(sealed)])
      expect(viaSocket!.hash).to.equal(viaHttp!.hash)
      expect(viaSocket!.hash).to.not.equal(ZeroHash)
    })

    it("contract.on('Transfer') over the socket (logs subscription) delivers the sealed transfer", async () => {
      const watched = token.connect(ws) as Contract
      const to = freshAddress(40)
      const events: { args: unknown[]; hash: string; blockHash: string }[] = []
      const baseline = node.chain.listenerCount('block')
      // With a topic filter (not a bare event name) ethers passes only the payload; its log is decoded.
      await watched.on(watched.filters.Transfer(null, to), (...args: unknown[]) => {
        const { log } = args[args.length - 1] as { log: EventLog }
        events.push({ args: log.args.toArray(), hash: log.transactionHash, blockHash: log.blockHash })
      })
      await untilBlockListeners(node, baseline)
      const since = node.methods.length
      const tx: TransactionResponse = await (token.connect(wallet(0)) as Contract).transfer(to, 6n)
      expect(requestCount(node, 'eth_sendRawTransaction', since)).to.equal(1)
      await until('the Transfer event over the socket', () => (events.length > 0 ? true : undefined))
      const receipt = (await polling.getTransactionReceipt(tx.hash))!
      expect(events).to.deep.equal([{ args: [node.chain.accounts[0].address, to, 6n], hash: tx.hash, blockHash: receipt.blockHash }])
      expect(receipt.blockHash).to.not.equal(ZeroHash)
      await watched.removeAllListeners()
    })
  })
})

describe('ethers over HTTP against a manual-clock node (time moved by preconf_advanceClock)', function () {
  let node: HttpNode
  let provider: JsonRpcProvider

  before(async () => {
    node = await startNode({ clock: 'manual' })
    provider = new JsonRpcProvider(node.url, Network.from(31337), { staticNetwork: true, pollingInterval: 50, cacheTimeout: -1 })
  })

  after(async () => {
    provider.destroy()
    await node.close()
  })

  it('same nonce and fees while the first tx waits in the mempool → REPLACEMENT_UNDERPRICED; a 10% bump on both fees replaces it (geth)', async () => {
    const sender = new Wallet(node.chain.accounts[0].privateKey, provider)
    const to = freshAddress(1)
    const fees = { nonce: 0, gasLimit: 21000n, maxFeePerGas: 2n * GWEI, maxPriorityFeePerGas: GWEI }
    const first = await sender.sendTransaction({ to, value: 1n, ...fees })

    const error = await rejection(sender.sendTransaction({ to, value: 2n, ...fees }))
    expect(isError(error, 'REPLACEMENT_UNDERPRICED')).to.equal(true)
    expect(error.info.error.code).to.equal(-32000)
    expect(error.info.error.message).to.equal('replacement transaction underpriced')

    const bumped = await sender.sendTransaction({ to, value: 2n, ...fees, maxFeePerGas: 2_200_000_000n, maxPriorityFeePerGas: 1_100_000_000n })
    expect(await provider.getTransaction(first.hash)).to.equal(null)
    // The manual clock starts at the genesis timestamp, 2025-01-01T00:00:00Z; the answer is the clock in ms.
    expect(await provider.send('preconf_advanceClock', [100])).to.equal(1_735_689_600_000 + 100)
    const receipt = (await provider.getTransactionReceipt(bumped.hash))!
    expect(receipt.status).to.equal(1)
    expect(receipt.blockHash).to.equal(ZeroHash)
    expect(await provider.getBalance(to, 'pending')).to.equal(2n)

    await provider.send('preconf_advanceClock', [900])
    const sealed = (await provider.getTransactionReceipt(bumped.hash))!
    const block = (await provider.getBlock(1))!
    expect(sealed.blockNumber).to.equal(1)
    expect(sealed.blockHash).to.equal(block.hash)
    expect(block.transactions).to.deep.equal([bumped.hash])
  })
})
