/**
 * `npm run soak`: the CLI over HTTP and WebSocket under a steady load for minutes (issue 13) —
 * signed transfers at 300 tx/s from 60 senders, 2,000 reads/s at `pending`, an eth_chainId probe
 * every 50 ms and 20 subscribers (on a thread of their own, so that the load's event loop does not
 * delay their arrival times) — or, with `--overload`, 4,500 tx/s pushed by 200 senders (each
 * sender one request on the wire at most, so at most 200 in flight). Prints one JSON report on
 * stdout and a summary on stderr; exits 1 if an acknowledged transaction is missing from every
 * sealed block after the drain, or a request failed at the transport. The first `--warmup` seconds (the node's JIT and the connections
 * warming up) load the node like the rest but are left out of the latency and jitter figures.
 *
 *   node --import tsx bench/soak.ts [--seconds 180] [--rate 300] [--reads 2000] [--subscribers 20]
 *     [--senders 60] [--warmup 5] [--overload] [--cli-args "--profile base --seed 7"]
 *     [--node-flags "--cpu-prof --cpu-prof-dir /tmp/prof"]
 */
import { availableParallelism, loadavg } from 'node:os'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import { drain, sealedHashes, blockNumber } from './soak-audit.ts'
import { RpcClient } from './soak-http.ts'
import { startNode, type MemorySample } from './soak-node.ts'
import { ReadLoad, READS_IN_FLIGHT } from './soak-reads.ts'
import { buildReport, summarize, type RunResult } from './soak-report.ts'
import { presign, TxPump } from './soak-senders.ts'
import { explainLost } from './soak-lost.ts'
import { prepare } from './soak-setup.ts'
import { openSubscriberThread } from './soak-subscriber-thread.ts'
import { joinOptionValues, splitArgs, valueOf } from './soak-args.ts'

const { values } = parseArgs({
  args: joinOptionValues(process.argv.slice(2), ['--cli-args', '--node-flags']),
  options: {
    seconds: { type: 'string', default: '180' },
    rate: { type: 'string' },
    reads: { type: 'string', default: '2000' },
    subscribers: { type: 'string', default: '20' },
    senders: { type: 'string' },
    overload: { type: 'boolean', default: false },
    'cli-args': { type: 'string', default: '' },
    'node-flags': { type: 'string', default: '' },
    warmup: { type: 'string', default: '5' },
  },
})
const overload = values.overload
const seconds = Number(values.seconds)
const rate = Number(values.rate ?? (overload ? 4500 : 300))
const reads = Number(values.reads)
const warmupSeconds = Number(values.warmup)
const subscriberCount = Number(values.subscribers)
const userArgs = splitArgs(values['cli-args'])
// One account more than the senders: the last deploys the token the reads call.
const accounts = Number(valueOf(userArgs, '--accounts') ?? Number(values.senders ?? (overload ? 200 : 60)) + 1)
const cliArgs = ['--port', '0', '--silent', ...(valueOf(userArgs, '--accounts') === undefined ? ['--accounts', String(accounts)] : []), ...userArgs]
const intervalMs = Number(valueOf(userArgs, '--preconf-interval') ?? 200)
const blockMs = Number(valueOf(userArgs, '--block-time') ?? 2000)
// An OP-stack chain's blocks open with a flashblock of their own (index 0) at their first tick.
const opening = valueOf(userArgs, '--preset') !== undefined

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)))
}

function progress(text: string): void {
  process.stderr.write(`[soak] ${text}\n`)
}

const node = await startNode(cliArgs, splitArgs(values['node-flags']))
progress(`node ${node.pid} at ${node.url}: node ${node.nodeFlags.join(' ')} dist/cli.js ${cliArgs.join(' ')}`)
const setupClient = new RpcClient(node.url, 4)
let exitCode = 1
try {
  const setup = await prepare(setupClient, accounts, valueOf(userArgs, '--mnemonic'))
  const perLane = Math.ceil(((rate * seconds) / setup.senders.length) * 1.1) + 5
  const signStart = performance.now()
  const lanes = presign(setup.senders, setup.chainId, perLane, setup.recipients)
  const presignMs = performance.now() - signStart
  progress(`presigned ${perLane * lanes.length} transfers for ${lanes.length} senders in ${(presignMs / 1000).toFixed(1)} s`)
  const subscriberThread = await openSubscriberThread(node.wsUrl, subscriberCount)
  // A connection per sender and per read in flight, all opened before the run: none opens during it.
  const sendClient = new RpcClient(node.url, lanes.length)
  const readClient = new RpcClient(node.url, READS_IN_FLIGHT)
  const probeClient = new RpcClient(node.url, 1)
  await sendClient.warm(lanes.length)
  await readClient.warm(READS_IN_FLIGHT)
  await probeClient.warm(1)
  const pump = new TxPump(sendClient, lanes, rate)
  const load = new ReadLoad(readClient, probeClient, setup.token, setup.holders, reads)

  const firstBlock = (await blockNumber(setupClient)) + 1
  const memoryStart: MemorySample = await node.memory()
  node.resetLoopDelay()
  const loopDelay = monitorEventLoopDelay({ resolution: 10 })
  loopDelay.enable()
  const clientCpu = process.cpuUsage()
  const nodeCpuStart = node.cpuMs()
  const rssSeries: number[] = [memoryStart.rss]
  const loadStart = loadavg()[0]
  const runStart = performance.now()
  pump.begin()
  load.begin()
  const sampler = setInterval(() => {
    rssSeries.push(node.rss())
    const elapsed = Math.round((performance.now() - runStart) / 1000)
    if (elapsed % 10 === 0) progress(`${elapsed} s: ${pump.record.acknowledged.length} acknowledged, ${load.readRecord.latencies.length} reads, RSS ${(node.rss() / 2 ** 20).toFixed(0)} MB`)
  }, 1000)
  await sleep(warmupSeconds * 1000)
  const warmup = { seconds: warmupSeconds, at: performance.now(), sends: pump.record.latencies.length, reads: load.readRecord.latencies.length, probe: load.probeRecord.latencies.length }
  await sleep((seconds - warmupSeconds) * 1000)
  await Promise.all([pump.end(), load.end()])
  const loadEndedAt = performance.now()
  const runMs = loadEndedAt - runStart
  const clientCpuMs = (({ user, system }) => (user + system) / 1000)(process.cpuUsage(clientCpu))
  const nodeCpuMs = node.cpuMs() - nodeCpuStart
  loopDelay.disable()
  clearInterval(sampler)
  sendClient.close()
  const memoryAtRunEnd = await node.memory()

  progress('draining')
  const drained = await drain(setupClient, 120_000)
  const lastBlock = await blockNumber(setupClient)
  const sealed = await sealedHashes(setupClient, firstBlock, lastBlock)
  const lost = pump.record.acknowledged.filter((hash) => !sealed.has(hash))
  const lostDetail = lost.length === 0 ? undefined : await explainLost(setupClient, lanes, lost)
  const memoryEnd = await node.memory()
  const subscribers = await subscriberThread.close()
  const result: RunResult = {
    mode: overload ? 'overload' : 'steady',
    config: { seconds, rate, reads, subscribers: subscriberCount, senders: lanes.length, presigned: perLane * lanes.length, presignMs, intervalMs, blockMs, opening },
    command: { nodeFlags: node.nodeFlags, cliArgs },
    runMs,
    loadEndedAt,
    warmup,
    blocks: { first: firstBlock, last: lastBlock },
    sends: pump.record,
    connects: { sends: sendClient.connects, reads: readClient.connects },
    reads: load.readRecord,
    probe: load.probeRecord,
    subscribers,
    sealed,
    lost,
    lostDetail,
    nodeStderr: node.stderr(),
    drain: drained,
    memory: { start: memoryStart, runEnd: memoryAtRunEnd, end: memoryEnd, rssSeries },
    machine: { cpus: availableParallelism(), loadAverage1m: { start: loadStart, end: loadavg()[0] } },
    cpu: { clientMs: clientCpuMs, nodeMs: nodeCpuMs, clientLoopDelayMs: { p50: loopDelay.percentile(50) / 1e6, p99: loopDelay.percentile(99) / 1e6, max: loopDelay.max / 1e6 } },
  }
  const report = buildReport(result)
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`)
  process.stderr.write(summarize(report))
  exitCode = report.verdict.pass ? 0 : 1
} finally {
  setupClient.close()
  progress(`node stopped (${await node.stop()})`)
}
process.exit(exitCode)
