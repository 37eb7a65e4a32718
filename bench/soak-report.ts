/** The soak's report: the run's raw records turned into figures (JSON), and a summary for people. */
import type { Drain } from './soak-audit.ts'
import type { explainLost } from './soak-lost.ts'
import type { MemorySample } from './soak-node.ts'
import type { RequestRecord } from './soak-reads.ts'
import type { SendRecord } from './soak-senders.ts'
import { spread, type Spread } from './soak-stats.ts'
import { SUBSCRIPTION_KINDS, type Arrival, type SubscriptionRecord } from './soak-subscribers.ts'
import { measureTicks, type TickReport } from './soak-ticks.ts'

/** Everything a run recorded. */
export interface RunResult {
  mode: 'steady' | 'overload'
  config: { seconds: number; rate: number; reads: number; subscribers: number; senders: number; presigned: number; presignMs: number; intervalMs: number; blockMs: number; opening: boolean }
  command: { nodeFlags: string[]; cliArgs: string[] }
  runMs: number
  /** When the load stopped (performance.now()): ticks after it (the drain, the memory probe's forced collections) are not the run's. */
  loadEndedAt: number
  /** When the warm-up ended (performance.now()) and how many samples each record held then. */
  warmup: { seconds: number; at: number; sends: number; reads: number; probe: number }
  blocks: { first: number; last: number }
  sends: SendRecord
  /** Connections opened during the run (beyond the warmed ones), and the slowest request that opened one. */
  connects: { sends: { count: number; slowestMs: number }; reads: { count: number; slowestMs: number } }
  reads: RequestRecord
  probe: RequestRecord
  subscribers: SubscriptionRecord
  /** Hashes of every transaction sealed from the run's first block to the last after the drain. */
  sealed: Set<string>
  /** Acknowledged transactions in none of those blocks. */
  lost: string[]
  /** What the node said about the lost transactions' senders, when some were lost. */
  lostDetail?: Awaited<ReturnType<typeof explainLost>>
  /** The node's stderr during the soak (its warnings). */
  nodeStderr: string
  drain: Drain
  memory: { start: MemorySample; runEnd: MemorySample; end: MemorySample; rssSeries: number[] }
  /** Other work on the machine moves every figure: the load average when the run began and ended. */
  machine: { cpus: number; loadAverage1m: { start: number; end: number } }
  cpu: { clientMs: number; nodeMs: number; clientLoopDelayMs: { p50: number; p99: number; max: number } }
}

const MB = 2 ** 20

function mb(bytes: number): number {
  return Math.round((bytes / MB) * 10) / 10
}

function perSecond(count: number, ms: number): number {
  return Math.round((count / ms) * 1000)
}

/** The report's JSON. */
export function buildReport(run: RunResult) {
  const { sends, sealed, lost, subscribers, runMs, warmup } = run
  const acknowledged = sends.acknowledged
  const ourSealed = acknowledged.length - lost.length
  const transportFailures = sends.transport.total + run.reads.transport.total + run.probe.transport.total + subscribers.transport.total
  const preconfirmation: number[] = []
  let notSeen = 0
  for (const hash of acknowledged) {
    const seen = subscribers.preconfirmedAt.get(hash)
    const sentAt = sends.sentAt.get(hash)!
    if (seen === undefined) notSeen++
    else if (sentAt >= warmup.at) preconfirmation.push(seen - sentAt)
  }
  // Ticks and seals from the warm-up's end to the load's.
  const duringLoad = (arrivals: readonly Arrival[]): Arrival[] => arrivals.filter(({ at }) => at >= warmup.at && at < run.loadEndedAt)
  const subscriptions = Object.fromEntries(
    SUBSCRIPTION_KINDS.map((kind) => {
      const list = subscribers.of(kind)
      // Each pre-confirmed stream must carry every sealed transaction; the pending stream every acknowledged one.
      const expected = kind === 'newPreconfBlockTransactions' ? acknowledged.filter((hash) => sealed.has(hash)) : kind === 'newPendingTransactions' ? acknowledged : undefined
      const missing = expected === undefined ? undefined : list.reduce((sum, { hashes }) => sum + expected.filter((hash) => !hashes.has(hash)).length, 0)
      return [kind, { subscribers: list.length, notifications: list.reduce((sum, s) => sum + s.notifications, 0), MB: mb(list.reduce((sum, s) => sum + s.bytes, 0)), duplicates: list.reduce((sum, s) => sum + s.duplicates, 0), ...(missing === undefined ? {} : { missing }) }]
    }),
  )
  const { start, end } = run.memory
  const ticks: TickReport = measureTicks(subscribers.of('newFlashblocks').map((s) => duringLoad(s.arrivals)), run.config.blockMs / run.config.intervalMs, run.config.intervalMs, run.config.blockMs, run.config.opening)
  const seals: TickReport = measureTicks(subscribers.of('newHeads').map((s) => duringLoad(s.arrivals)), 1, run.config.blockMs, run.config.blockMs)
  return {
    mode: run.mode,
    config: { ...run.config, presignMs: Math.round(run.config.presignMs), runMs: Math.round(runMs) },
    command: `node ${run.command.nodeFlags.join(' ')} dist/cli.js ${run.command.cliArgs.join(' ')}`,
    verdict: { lost: lost.length, transportFailures, pass: lost.length === 0 && transportFailures === 0 },
    transactions: {
      sent: sends.sentAt.size,
      acknowledged: acknowledged.length,
      acknowledgedPerSecond: perSecond(acknowledged.length, runMs),
      sealed: ourSealed,
      lost: lost.length,
      lostDetail: run.lostDetail ?? null,
      rejected: sends.rejections.toJSON(),
      retries: sends.retries,
      lanesStopped: sends.lanesStopped,
      wrongHash: sends.wrongHash,
      maxBacklog: sends.maxBacklog,
      slowest: sends.slowest,
      connectionsOpened: run.connects.sends,
      transport: sends.transport.toJSON(),
      blocks: run.blocks,
    },
    latencyMs: {
      afterWarmupS: warmup.seconds,
      submit: spread(sends.latencies.slice(warmup.sends)),
      read: spread(run.reads.latencies.slice(warmup.reads)),
      chainId: spread(run.probe.latencies.slice(warmup.probe)),
      preconfirmation: { ...spread(preconfirmation), notSeen },
    },
    reads: { done: run.reads.latencies.length, perSecond: perSecond(run.reads.latencies.length, runMs), maxBacklog: run.reads.maxBacklog, slowest: run.reads.slowest, connectionsOpened: run.connects.reads, errors: run.reads.errors.toJSON(), transport: run.reads.transport.toJSON() },
    probe: { done: run.probe.latencies.length, skipped: run.probe.skipped, slowest: run.probe.slowest, errors: run.probe.errors.toJSON(), transport: run.probe.transport.toJSON() },
    subscriptions: { ...subscriptions, transport: subscribers.transport.toJSON() },
    ticks,
    seals,
    drain: run.drain,
    node: {
      rssMB: { start: mb(start.rss), end: mb(end.rss), peak: mb(Math.max(...run.memory.rssSeries, end.rss)), every10s: run.memory.rssSeries.filter((_, i) => i % 10 === 0).map(mb) },
      heapMB: { start: mb(start.heapUsed), end: mb(end.heapUsed), externalStart: mb(start.external + start.arrayBuffers), externalEnd: mb(end.external + end.arrayBuffers) },
      bytesPerTransaction: { rss: Math.round((end.rss - start.rss) / ourSealed), heap: Math.round((end.heapUsed - start.heapUsed) / ourSealed) },
      cpuPercentOfOneCore: Math.round((run.cpu.nodeMs / runMs) * 100),
      eventLoopDelayMs: roundAll(run.memory.runEnd.loop),
      stderr: run.nodeStderr.slice(0, 4000),
    },
    machine: { cpus: run.machine.cpus, loadAverage1m: { start: round(run.machine.loadAverage1m.start), end: round(run.machine.loadAverage1m.end) } },
    client: {
      cpuPercentOfOneCore: Math.round((run.cpu.clientMs / runMs) * 100),
      eventLoopDelayMs: roundAll(run.cpu.clientLoopDelayMs),
    },
  }
}

/** The report, as JSON. */
export type SoakReport = ReturnType<typeof buildReport>

function round(value: number): number {
  return Math.round(value * 10) / 10
}

function roundAll(figures: { p50: number; p99: number; max: number }): { p50: number; p99: number; max: number } {
  return { p50: round(figures.p50), p99: round(figures.p99), max: round(figures.max) }
}

function ms(figure: Spread): string {
  return `p50 ${figure.p50} / p99 ${figure.p99} / max ${figure.max} ms`
}

/** A few lines for people. */
export function summarize(report: SoakReport): string {
  const { transactions: tx, latencyMs: latency, node } = report
  return [
    `soak (${report.mode}): ${report.config.seconds} s, ${report.config.rate} tx/s asked from ${report.config.senders} senders, ${report.config.reads} reads/s, ${report.config.subscribers} subscribers`,
    `  ${report.command}`,
    `  ${report.verdict.pass ? 'PASS' : 'FAIL'}: ${report.verdict.lost} lost, ${report.verdict.transportFailures} transport failures`,
    `  transactions: ${tx.sent} sent, ${tx.acknowledged} acknowledged (${tx.acknowledgedPerSecond}/s), ${tx.sealed} sealed in blocks ${tx.blocks.first}-${tx.blocks.last}; rejections ${JSON.stringify(tx.rejected)}, ${tx.retries} retries`,
    `  after the first ${latency.afterWarmupS} s: submit ${ms(latency.submit)}; reads ${ms(latency.read)} (${report.reads.perSecond}/s, backlog up to ${report.reads.maxBacklog}); eth_chainId ${ms(latency.chainId)}`,
    `  pre-confirmation (send to first notification): ${ms(latency.preconfirmation)}, ${latency.preconfirmation.notSeen} never seen`,
    `  tick jitter ${ms(report.ticks.jitter)} over ${report.ticks.blocksMeasured} block streams; ${report.ticks.missed} missed, ${report.ticks.bunched} bunched; seal lateness ${ms(report.seals.jitter)}`,
    `  node RSS ${node.rssMB.start} -> ${node.rssMB.end} MB (peak ${node.rssMB.peak}), heap ${node.heapMB.start} -> ${node.heapMB.end} MB after GC: ${node.bytesPerTransaction.rss} B (RSS) / ${node.bytesPerTransaction.heap} B (heap) per transaction; node CPU ${node.cpuPercentOfOneCore}% of a core, event-loop delay p99 ${node.eventLoopDelayMs.p99} / max ${node.eventLoopDelayMs.max} ms`,
    `  client CPU ${report.client.cpuPercentOfOneCore}% of a core (client and node share the machine's ${report.machine.cpus} cores; load average ${report.machine.loadAverage1m.start} -> ${report.machine.loadAverage1m.end}); client event-loop delay p99 ${report.client.eventLoopDelayMs.p99} ms, max ${report.client.eventLoopDelayMs.max} ms`,
    '',
  ].join('\n')
}
