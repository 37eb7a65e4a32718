/**
 * The soak's read traffic: eth_getBalance, eth_call (an ERC-20 balanceOf) and
 * eth_getTransactionCount, all at `pending`, open-loop at a target rate with a cap on requests in
 * flight (reads that fall due while the cap is reached go out as soon as answers come back, so a
 * slow node still gets the load asked for, and the backlog is reported); and the eth_chainId probe,
 * one request every 50 ms on a socket of its own (skipped, and counted, while the last is out).
 */
import { encodeFunctionData } from 'viem'
import { Token } from '../fixtures/artifacts/Token.ts'
import type { Address } from '../lib/types.ts'
import { RpcClient, rpcBody } from './soak-http.ts'
import { Tally } from './soak-stats.ts'

/** The most reads on the wire at once. */
export const READS_IN_FLIGHT = 64
const PROBE_EVERY_MS = 50

/** What a stream of requests saw. */
export interface RequestRecord {
  /** Round trips, ms. */
  readonly latencies: number[]
  readonly errors: Tally
  readonly transport: Tally
  /** Probes due but not sent because the previous one was still out. */
  skipped: number
  /** Most requests due but not yet sent (the cap in flight reached). */
  maxBacklog: number
  /** The slowest round trip, and when it was sent (seconds into the run). */
  slowest: { ms: number; sentAtS: number }
}

function newRecord(): RequestRecord {
  return { latencies: [], errors: new Tally(), transport: new Tally(), skipped: 0, maxBacklog: 0, slowest: { ms: 0, sentAtS: 0 } }
}

/** A repeating request at a fixed rate with at most `cap` in flight; what falls due beyond waits, or with `skip` is dropped. */
class Pump {
  readonly record = newRecord()
  private inFlight = 0
  private dispatched = 0
  private start = 0
  private timer: NodeJS.Timeout | undefined
  private idle: (() => void) | undefined

  constructor(
    private readonly client: RpcClient,
    private readonly bodies: readonly Buffer[],
    private readonly rate: number,
    private readonly cap: number,
    private readonly everyMs: number,
    private readonly skip: boolean,
  ) {}

  /** Starts the timer. */
  begin(): void {
    this.start = performance.now()
    this.timer = setInterval(() => this.dispatch(), this.everyMs)
  }

  /** Stops the timer; resolves once every request out is answered. */
  async end(): Promise<void> {
    clearInterval(this.timer)
    if (this.inFlight > 0) await new Promise<void>((resolve) => (this.idle = resolve))
  }

  private dispatch(): void {
    let due = Math.floor(((performance.now() - this.start) * this.rate) / 1000) - this.dispatched
    for (; due > 0; due--) {
      const body = this.bodies[this.dispatched % this.bodies.length]
      if (this.inFlight >= this.cap) {
        if (!this.skip) break
        this.dispatched++
        this.record.skipped++
        continue
      }
      this.dispatched++
      this.inFlight++
      const sentAtS = (performance.now() - this.start) / 1000
      void this.client.post(body).then((outcome) => {
        this.inFlight--
        this.record.latencies.push(outcome.ms)
        if (outcome.ms > this.record.slowest.ms) this.record.slowest = { ms: Math.round(outcome.ms), sentAtS: Math.round(sentAtS * 10) / 10 }
        if (outcome.transport !== undefined) this.record.transport.add(outcome.transport)
        else if (outcome.error !== undefined) this.record.errors.add(outcome.error.message)
        if (this.inFlight === 0) this.idle?.()
      })
    }
    this.record.maxBacklog = Math.max(this.record.maxBacklog, due)
  }
}

/** The read bodies, cycling over `holders` and the three kinds. */
function readBodies(token: Address, holders: readonly Address[]): Buffer[] {
  return holders.flatMap((holder) => [
    rpcBody('eth_getBalance', [holder, 'pending']),
    rpcBody('eth_call', [{ to: token, data: encodeFunctionData({ abi: Token.abi, functionName: 'balanceOf', args: [holder] }) }, 'pending']),
    rpcBody('eth_getTransactionCount', [holder, 'pending']),
  ])
}

/** The read load and the probe, started and stopped together. */
export class ReadLoad {
  private readonly reads: Pump
  private readonly probe: Pump

  constructor(
    private readonly readClient: RpcClient,
    private readonly probeClient: RpcClient,
    token: Address,
    holders: readonly Address[],
    rate: number,
  ) {
    this.reads = new Pump(readClient, readBodies(token, holders), rate, READS_IN_FLIGHT, 5, false)
    this.probe = new Pump(probeClient, [rpcBody('eth_chainId', [])], 1000 / PROBE_EVERY_MS, 1, PROBE_EVERY_MS, true)
  }

  /** What the reads saw. */
  get readRecord(): RequestRecord {
    return this.reads.record
  }

  /** What the eth_chainId probe saw. */
  get probeRecord(): RequestRecord {
    return this.probe.record
  }

  /** Starts both. */
  begin(): void {
    this.reads.begin()
    this.probe.begin()
  }

  /** Stops both and waits for their answers. */
  async end(): Promise<void> {
    await Promise.all([this.reads.end(), this.probe.end()])
    this.readClient.close()
    this.probeClient.close()
  }
}
