/**
 * `npm run bench`: measures the engine's hot paths on this machine and prints one JSON document,
 * each figure beside its target. Run it on an idle machine; figures vary by a few percent.
 */
import { spawn } from 'node:child_process'
import { bytesToHex, hexToBytes } from '@ethereumjs/util'
import { encodeDeployData, encodeFunctionData, getContractAddress } from 'viem'
import { Token } from '../fixtures/artifacts/Token.ts'
import { nativeSecp256k1 } from '../lib/crypto/secp256k1.ts'
import { createChain, startServer, type Chain } from 'preconf-devnet'
import type { Address, Hex } from '../lib/types.ts'
import { cliReadyTime, echoServer, loadTest } from './http.ts'
import { figures, median, rate, record, timed } from './measure.ts'
import { benchFork } from './fork.ts'
import { benchPersistence } from './persistence.ts'
import { signEIP1559, syntheticAddress, transfers } from './signing.ts'
import { benchOpStack } from './op-stack.ts'
import { benchPeers } from './peers/compare.ts'

const GWEI = 1_000_000_000n

async function deployToken(chain: Chain): Promise<Address> {
  const deployer = chain.accounts[0]
  const nonce = await chain.getTransactionCount(deployer.address, 'pending')
  const { privateKeyToAccount } = await import('viem/accounts')
  const account = privateKeyToAccount(deployer.privateKey)
  const signed = await account.signTransaction({
    type: 'eip1559',
    chainId: chain.options.chainId,
    nonce,
    gas: 2_000_000n,
    maxFeePerGas: 100n * GWEI,
    maxPriorityFeePerGas: GWEI,
    data: encodeDeployData({ abi: Token.abi, bytecode: Token.bytecode, args: ['Token', 'TKN', 10n ** 30n] }),
  })
  await chain.sendRawTransaction(signed)
  await chain.tick()
  return getContractAddress({ from: deployer.address, nonce: BigInt(nonce) }).toLowerCase() as Address
}

async function benchCreateChain(): Promise<void> {
  await createChain()
  const times: number[] = []
  for (let i = 0; i < 30; i++) times.push(await timed(() => createChain()))
  record('createChain', median(times), 'ms', { atMost: 10 }, 'median of 30, after one warm-up')
}

async function benchAdmission(): Promise<void> {
  // 8000 executable transactions stay pooled (no tick runs): above geth's default limits (5120 + 1024 slots).
  const chain = await createChain({ accounts: 20, txpool: { globalSlots: 8000 } })
  const raws = transfers(chain, 8000, () => 0n, syntheticAddress)
  const elapsed = await timed(async () => {
    for (const raw of raws) await chain.sendRawTransaction(raw)
  })
  record('sendRawTransaction admission', (raws.length / elapsed) * 1000, 'tx/s', { atLeast: 14000 }, `8000 transfers from 20 senders; sender recovery ${nativeSecp256k1 ? 'native libsecp256k1' : '@noble/curves'}`)
}

/** The read operations measured, by name, on a chain holding a token at `token`. */
function readOperations(chain: Chain, token: Address): Record<string, () => unknown> {
  const holder = chain.accounts[0].address
  const slot = '0x2' as Hex
  const operations: Record<string, () => unknown> = {}
  for (const tag of ['latest', 'pending'] as const) {
    operations[`getBalance ${tag}`] = () => chain.getBalance(holder, tag)
    operations[`getStorageAt ${tag}`] = () => chain.getStorageAt(token, slot, tag)
    operations[`getCode ${tag}`] = () => chain.getCode(token, tag)
    operations[`request eth_getBalance ${tag}`] = () => chain.request({ method: 'eth_getBalance', params: [holder, tag] })
    operations[`request eth_getStorageAt ${tag}`] = () => chain.request({ method: 'eth_getStorageAt', params: [token, slot, tag] })
    operations[`request eth_getCode ${tag}`] = () => chain.request({ method: 'eth_getCode', params: [token, tag] })
  }
  return operations
}

async function benchReads(chain: Chain, token: Address): Promise<void> {
  for (const [name, operation] of Object.entries(readOperations(chain, token))) {
    record(`${name} (fresh chain)`, await rate(operation), 'ops/s', { atLeast: name.startsWith('request') ? 500_000 : 1_000_000 })
  }
}

async function benchCall(chain: Chain, token: Address): Promise<void> {
  const data = encodeFunctionData({ abi: Token.abi, functionName: 'balanceOf', args: [chain.accounts[0].address] })
  record('eth_call balanceOf (plain)', await rate(() => chain.call({ to: token, data }), 1500), 'calls/s', { atLeast: 14000 })
  record('eth_call balanceOf (request)', await rate(() => chain.request({ method: 'eth_call', params: [{ to: token, data }, 'latest'] }), 1500), 'calls/s', { atLeast: 14000 })
}

async function benchTicks(): Promise<void> {
  const ethTicks: number[] = []
  const sealTimes: number[] = []
  for (let run = 0; run < 5; run++) {
    const chain = await createChain({ accounts: 20 })
    for (const raw of transfers(chain, 1000, () => 0n, syntheticAddress)) await chain.sendRawTransaction(raw)
    ethTicks.push(await timed(() => chain.tick()))
    sealTimes.push(await timed(() => chain.mine()))
  }
  record('tick executing 1000 ETH transfers', median(ethTicks), 'ms', { atMost: 50 }, 'median of 5')
  record('seal of a block with 1000 ETH transfers', median(sealTimes), 'ms', undefined, 'state root, tries, header; median of 5')

  const erc20Ticks: number[] = []
  for (let run = 0; run < 3; run++) {
    // 1000 token transfers need ~40M gas: more than a default block holds.
    const chain = await createChain({ accounts: 20, blockGasLimit: 100_000_000n })
    const token = await deployToken(chain)
    const funding = chain.accounts.slice(1).map((account) => ({ to: token, gas: 100_000n, data: hexToBytes(encodeFunctionData({ abi: Token.abi, functionName: 'transfer', args: [account.address, 10n ** 24n] })) }))
    const fundingRaws = funding.map((call, i) =>
      signEIP1559(chain.accounts[0].privateKey, { chainId: 31337, nonce: BigInt(i + 1), to: call.to, data: call.data, gas: call.gas, maxFeePerGas: 100n * GWEI, maxPriorityFeePerGas: GWEI }),
    )
    for (const raw of fundingRaws) await chain.sendRawTransaction(raw)
    await chain.tick()
    await chain.mine()
    const transferCall = (i: number) => ({ to: token, gas: 100_000n, data: hexToBytes(encodeFunctionData({ abi: Token.abi, functionName: 'transfer', args: [syntheticAddress(i), 1n] })) })
    const raws = transfers(chain, 1000, (sender) => (sender === 0 ? BigInt(fundingRaws.length + 1) : 0n), syntheticAddress, transferCall)
    for (const raw of raws) await chain.sendRawTransaction(raw)
    erc20Ticks.push(await timed(() => chain.tick()))
  }
  record('tick executing 1000 ERC-20 transfers', median(erc20Ticks), 'ms', { atMost: 250 }, 'median of 3')
}

async function benchPendingUnderLoad(): Promise<void> {
  const chain = await createChain({ accounts: 20 })
  await deployToken(chain)
  const holder = chain.accounts[3].address
  const idle = await rate(() => chain.getBalance(holder, 'pending'))
  for (const raw of transfers(chain, 2000, (sender) => (sender === 0 ? 1n : 0n), syntheticAddress)) await chain.sendRawTransaction(raw)
  await chain.tick()
  const loaded = await rate(() => chain.getBalance(holder, 'pending'))
  record('getBalance pending with 2000 txs pre-confirmed / with none', loaded / idle, 'ratio', { atLeast: 0.8 }, `${Math.round(loaded)} vs ${Math.round(idle)} ops/s`)
}

async function benchScale(): Promise<void> {
  const fresh = await createChain({ accounts: 20 })
  const freshToken = await deployToken(fresh)
  await fresh.mine()
  const chain = await createChain({ accounts: 20 })
  const token = await deployToken(chain)
  await chain.mine()
  const start = performance.now()
  for (let batch = 0; batch < 100; batch++) {
    const raws = transfers(chain, 1000, (sender) => BigInt(batch * 50 + (sender === 0 ? 1 : 0)), (i) => syntheticAddress(batch * 1000 + i))
    for (const raw of raws) await chain.sendRawTransaction(raw)
    await chain.tick()
    await chain.mine()
  }
  while (chain.blockNumber() < 10_000n) await chain.mine()
  record('scale setup: 100k transfers in 100 blocks, then 9.9k empty blocks', (performance.now() - start) / 1000, 's')
  // Fresh and grown chains measured in turn, five times each, so JIT and GC state weigh on both alike
  // (with three, a single pause on this 2-core VM could decide a median).
  const freshOperations = readOperations(fresh, freshToken)
  const grownOperations = readOperations(chain, token)
  for (const name of Object.keys(freshOperations)) {
    const ratios: number[] = []
    for (let round = 0; round < 5; round++) {
      const freshRate = await rate(freshOperations[name], 300)
      ratios.push((await rate(grownOperations[name], 300)) / freshRate)
    }
    record(`${name}: 100k accounts + 10k blocks vs fresh`, median(ratios), 'ratio', { atLeast: 0.8 }, 'median of 5 alternating runs')
  }
}

/** Anvil over HTTP on this machine (the figures), for the targets. */
const ANVIL = { getBalance: 23_000, getStorageAt: 33_000, call: 19_000, sendRawTransaction: 5_200 }

/** A note's suffix naming failed requests and the first failure, or nothing when all succeeded. */
function failures(errors: number, firstError: string | undefined): string {
  return errors > 0 ? `; ${errors} errors, the first: ${firstError?.slice(0, 200)}` : ''
}

async function benchHttp(): Promise<void> {
  const echo = await echoServer()
  const floor = (await loadTest(echo.url, [JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] })])).rate
  await echo.close()
  record('HTTP: bare node:http JSON echo (floor)', floor, 'req/s', undefined, '32 in flight, keep-alive, load from a child process')

  // The load pools tens of thousands of transfers between seals: above geth's default pool limits, whose refusals would count as throughput.
  const chain = await createChain({ accounts: 20, txpool: { globalSlots: 100_000, globalQueue: 100_000 } })
  const token = await deployToken(chain)
  await chain.mine()
  const server = await startServer(chain, { port: 0 })
  const holder = chain.accounts[0].address
  const request = (method: string, params: unknown[]) => JSON.stringify({ jsonrpc: '2.0', id: 1, method, params })
  const reads: Array<[string, string, number]> = [
    ['eth_getBalance', request('eth_getBalance', [holder, 'latest']), ANVIL.getBalance],
    ['eth_getStorageAt', request('eth_getStorageAt', [token, '0x2', 'latest']), ANVIL.getStorageAt],
    ['eth_call balanceOf', request('eth_call', [{ to: token, data: encodeFunctionData({ abi: Token.abi, functionName: 'balanceOf', args: [holder] }) }, 'latest']), ANVIL.call],
  ]
  for (const [name, body, anvil] of reads) {
    const { rate, errors, firstError } = await loadTest(server.url, [body])
    const target = name.startsWith('eth_call') ? anvil : Math.max(0.9 * floor, anvil)
    record(`HTTP ${name}`, rate, 'req/s', { atLeast: Math.round(target) }, `${(rate / floor).toFixed(2)} of the echo floor; Anvil ${anvil}/s${failures(errors, firstError)}`)
  }
  // Account 0 spent nonce 0 deploying the token.
  const raws = transfers(chain, 40_000, (sender) => (sender === 0 ? 1n : 0n), syntheticAddress)
  const { rate, errors, firstError } = await loadTest(server.url, raws.map((raw) => request('eth_sendRawTransaction', [bytesToHex(raw)])), 3000)
  record('HTTP eth_sendRawTransaction', rate, 'tx/s', { atLeast: 2 * ANVIL.sendRawTransaction }, `Anvil ${ANVIL.sendRawTransaction}/s${failures(errors, firstError)}`)
  await server.close()

  const ready: number[] = []
  for (let i = 0; i < 5; i++) ready.push(await cliReadyTime())
  record('CLI start to ready line (node dist/cli.js --port 0)', median(ready), 'ms', { atMost: 300 }, 'median of 5; Anvil 81 ms, Hardhat 263 ms')
}

async function benchSnapshots(): Promise<void> {
  const chain = await createChain({ accounts: 20 })
  const token = await deployToken(chain)
  await chain.mine()
  const { createHarness } = await import('preconf-devnet/harness')
  const harness = createHarness(chain)
  const rounds: number[] = []
  const reuses: number[] = []
  let nonce = 1n
  const fixture = async function tokenDeployed() {
    return token
  }
  await harness.loadFixture(fixture)
  for (let round = 0; round < 20; round++) {
    const id = await chain.snapshot()
    const raws = transfers(chain, 100, (sender) => (sender === 0 ? nonce : 0n), syntheticAddress)
    for (const raw of raws) await chain.sendRawTransaction(raw)
    await chain.tick()
    await chain.mine()
    const start = performance.now()
    await chain.request({ method: 'evm_revert', params: [`0x${id.toString(16)}`] })
    await chain.request({ method: 'evm_snapshot', params: [] })
    rounds.push(performance.now() - start)
    const reuse = performance.now()
    await harness.loadFixture(fixture)
    reuses.push(performance.now() - reuse)
  }
  record('evm_revert + evm_snapshot after 100 txs and a seal', median(rounds), 'ms', { atMost: 1 }, 'median of 20')
  record('loadFixture reuse', median(reuses), 'ms', { atMost: 1 }, 'median of 20')

  const mocha = spawn(process.execPath, ['node_modules/mocha/bin/mocha.js', '--reporter', 'json', 'bench/fixture-suite.ts'], { stdio: ['ignore', 'pipe', 'inherit'] })
  let report = ''
  mocha.stdout.on('data', (chunk) => (report += chunk))
  await new Promise((resolve) => mocha.on('exit', resolve))
  const { stats } = JSON.parse(report) as { stats: { duration: number; passes: number; failures: number } }
  record('mocha file: 100 tests, loadFixture(ERC-20 deploy) + 10 transfers each', stats.duration, 'ms', { atMost: 2000 }, `${stats.passes} passed, ${stats.failures} failed (mocha's own duration)`)
}

/** The sections of the benchmark (startup admission reads call pending ticks snapshots http scale fork persistence opstack peers); `npm run bench -- http scale` runs only those named. */
async function main(): Promise<void> {
  const only = new Set(process.argv.slice(2))
  const wanted = (section: string) => only.size === 0 || only.has(section)
  if (wanted('startup')) await benchCreateChain()
  if (wanted('admission')) await benchAdmission()
  if (wanted('reads') || wanted('call')) {
    const chain = await createChain()
    const token = await deployToken(chain)
    await chain.mine()
    if (wanted('reads')) await benchReads(chain, token)
    if (wanted('call')) await benchCall(chain, token)
  }
  if (wanted('pending')) await benchPendingUnderLoad()
  if (wanted('ticks')) await benchTicks()
  if (wanted('snapshots')) await benchSnapshots()
  if (wanted('http')) await benchHttp()
  if (wanted('scale')) await benchScale()
  if (wanted('fork')) await benchFork()
  if (wanted('persistence')) await benchPersistence()
  if (wanted('opstack')) await benchOpStack()
  if (wanted('peers')) await benchPeers()
  const summary = { machine: { node: process.version, senderRecovery: nativeSecp256k1 ? 'native libsecp256k1' : '@noble/curves' }, figures }
  process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`)
}

await main()
