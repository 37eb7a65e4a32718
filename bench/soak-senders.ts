/**
 * The soak's transactions: presigned before the timed run (one lane per sender, its nonces in
 * order), then pushed at a target rate over keep-alive HTTP, the senders taken in turn, each
 * sender with one request on the wire at most, as a wallet sends back to back: a sender's next
 * nonce leaves once the last is answered, so the node never sees a sender's nonces out of order
 * (sent together over several connections they would arrive in any order, and the pool's queue
 * limits would drop the early arrivals). The load is open-loop across senders: what falls due
 * while every sender waits goes out as soon as one is answered, and the backlog is reported. A
 * pool-full answer is retried after a pause (a wallet would); any other rejection stops the
 * sender, since its later nonces would only queue behind the gap.
 */
import { bytesToHex } from '@ethereumjs/util'
import { keccak256 } from '../lib/crypto/keccak.ts'
import type { Address, Hex } from '../lib/types.ts'
import { RpcClient, rpcBody } from './soak-http.ts'
import { Tally } from './soak-stats.ts'
import { signEIP1559 } from './signing.ts'

const GWEI = 1_000_000_000n
/** Texts of a rejection that a later retry of the same transaction may get past. */
const TRANSIENT = ['txpool is full', 'transaction underpriced']
const RETRY_AFTER_MS = 100

/** One presigned transaction: the request body and the hash the node should answer with. */
interface Presigned {
  readonly body: Buffer
  readonly hash: string
  readonly nonce: bigint
}

/** One sender's transactions, sent in nonce order. */
export interface Lane {
  readonly sender: Address
  readonly txs: Presigned[]
  next: number
  /** A request of the lane is on the wire, or waits to be retried. */
  busy: boolean
  stopped: boolean
}

/** A sender: its address, its key and its first nonce. */
export interface Sender {
  address: Address
  privateKey: Hex
  nonce: bigint
}

/** Signs `perLane` transfers of 1 wei for each sender (to `recipients`, cycled). */
export function presign(senders: readonly Sender[], chainId: number, perLane: number, recipients: readonly Address[]): Lane[] {
  let counter = 0
  return senders.map(({ address, privateKey, nonce }) => {
    const txs: Presigned[] = []
    for (let i = 0; i < perLane; i++) {
      const raw = signEIP1559(privateKey, { chainId, nonce: nonce + BigInt(i), to: recipients[counter++ % recipients.length], value: 1n, gas: 21000n, maxFeePerGas: 100n * GWEI, maxPriorityFeePerGas: GWEI })
      txs.push({ body: rpcBody('eth_sendRawTransaction', [bytesToHex(raw)]), hash: bytesToHex(keccak256(raw)), nonce: nonce + BigInt(i) })
    }
    return { sender: address, txs, next: 0, busy: false, stopped: false }
  })
}

/** What the pump saw. */
export interface SendRecord {
  /** performance.now() at the first attempt of each hash sent. */
  readonly sentAt: Map<string, number>
  /** Hashes the node acknowledged (answered with the same hash). */
  readonly acknowledged: string[]
  /** Round trips of every eth_sendRawTransaction (accepted or not), ms. */
  readonly latencies: number[]
  readonly rejections: Tally
  readonly transport: Tally
  /** Answers that were a result other than the transaction's hash. */
  wrongHash: number
  retries: number
  lanesStopped: number
  /** Most sends due but not yet sent (every sender waiting for an answer). */
  maxBacklog: number
  /** The slowest round trip, and when it was sent (seconds into the run). */
  slowest: { ms: number; sentAtS: number }
}

/** Pushes the lanes' transactions at `rate` per second, one per lane on the wire at most, until stopped. */
export class TxPump {
  readonly record: SendRecord = { sentAt: new Map(), acknowledged: [], latencies: [], rejections: new Tally(), transport: new Tally(), wrongHash: 0, retries: 0, lanesStopped: 0, maxBacklog: 0, slowest: { ms: 0, sentAtS: 0 } }
  private dispatched = 0
  private cursor = 0
  private inFlight = 0
  private start = 0
  private timer: NodeJS.Timeout | undefined
  private running = false
  private readonly retryTimers = new Set<NodeJS.Timeout>()
  private idle: (() => void) | undefined

  constructor(
    private readonly client: RpcClient,
    private readonly lanes: Lane[],
    private readonly rate: number,
  ) {}

  /** Starts pushing. */
  begin(): void {
    this.start = performance.now()
    this.running = true
    this.timer = setInterval(() => this.dispatch(), 5)
  }

  /** Stops sending (pending retries are dropped); resolves once every request on the wire is answered. */
  async end(): Promise<void> {
    this.running = false
    clearInterval(this.timer)
    for (const timer of this.retryTimers) clearTimeout(timer)
    this.retryTimers.clear()
    if (this.inFlight > 0) await new Promise<void>((resolve) => (this.idle = resolve))
  }

  private dispatch(): void {
    const due = Math.floor(((performance.now() - this.start) * this.rate) / 1000) - this.dispatched
    let sent = 0
    while (sent < due) {
      const lane = this.nextReadyLane()
      if (lane === undefined) break
      this.send(lane, lane.txs[lane.next++])
      sent++
    }
    this.dispatched += sent
    this.record.maxBacklog = Math.max(this.record.maxBacklog, due - sent)
  }

  private nextReadyLane(): Lane | undefined {
    for (let i = 0; i < this.lanes.length; i++) {
      const lane = this.lanes[(this.cursor + i) % this.lanes.length]
      if (!lane.busy && !lane.stopped && lane.next < lane.txs.length) {
        this.cursor = (this.cursor + i + 1) % this.lanes.length
        return lane
      }
    }
    return undefined
  }

  private send(lane: Lane, tx: Presigned): void {
    lane.busy = true
    this.inFlight++
    const now = performance.now()
    if (!this.record.sentAt.has(tx.hash)) this.record.sentAt.set(tx.hash, now)
    void this.client.post(tx.body).then((outcome) => {
      this.inFlight--
      this.record.latencies.push(outcome.ms)
      if (outcome.ms > this.record.slowest.ms) this.record.slowest = { ms: Math.round(outcome.ms), sentAtS: Math.round((now - this.start) / 100) / 10 }
      if (outcome.transport !== undefined) this.record.transport.add(outcome.transport)
      else if (outcome.error !== undefined) return this.rejected(lane, tx, outcome.error.message)
      else if (outcome.result === tx.hash) this.record.acknowledged.push(tx.hash)
      else this.record.wrongHash++
      this.settled(lane)
    })
  }

  private rejected(lane: Lane, tx: Presigned, message: string): void {
    this.record.rejections.add(message)
    if (this.running && TRANSIENT.some((text) => message.startsWith(text))) {
      this.record.retries++
      const timer = setTimeout(() => {
        this.retryTimers.delete(timer)
        this.send(lane, tx)
      }, RETRY_AFTER_MS)
      this.retryTimers.add(timer)
      // The lane stays busy until its retry is answered.
      return this.settled(undefined)
    }
    if (!lane.stopped) {
      lane.stopped = true
      this.record.lanesStopped++
    }
    this.settled(lane)
  }

  private settled(lane: Lane | undefined): void {
    if (lane !== undefined) lane.busy = false
    if (this.inFlight === 0) this.idle?.()
  }
}
