/**
 * The soak's WebSocket subscribers (the `ws` package, as the server and its specs use): one
 * connection per subscription, the kinds dealt in turn — `newFlashblocks` (the pending block after
 * every tick: the tick clock), `newPreconfBlockTransactions` (each pre-confirmed hash: the
 * pre-confirmation latency), `newPendingTransactions` and `newHeads`. Every notification's arrival
 * time is taken as its frame arrives, before any parsing; the pending blocks are not parsed at
 * all (only their number is read), so a large block costs the client little.
 */
import WebSocket from 'ws'
import { Tally } from './soak-stats.ts'

/** The kinds dealt to the subscribers, in turn. */
export const SUBSCRIPTION_KINDS = ['newFlashblocks', 'newPreconfBlockTransactions', 'newPendingTransactions', 'newHeads'] as const
export type Kind = (typeof SUBSCRIPTION_KINDS)[number]

const NUMBER = /"number":"(0x[0-9a-f]+)"/
const HEAD_BYTES = 4096

/** A notification that carries a block number, and when it arrived (performance.now()). */
export interface Arrival {
  at: number
  number: number
}

/** What one subscriber received. */
export interface SubscriberRecord {
  readonly kind: Kind
  /** Pending blocks (`newFlashblocks`) or headers (`newHeads`), in arrival order. */
  readonly arrivals: Arrival[]
  /** Hashes received (`newPreconfBlockTransactions`, `newPendingTransactions`). */
  readonly hashes: Set<string>
  notifications: number
  duplicates: number
  bytes: number
}

/** One subscriber's connection and what it received. */
export interface Subscriber extends SubscriberRecord {
  readonly socket: WebSocket
}

/** What the subscribers received, as the report reads it. */
export interface SubscriptionRecord {
  readonly list: readonly SubscriberRecord[]
  /** performance.now() (the soak's clock) of each hash's first `newPreconfBlockTransactions` notification. */
  readonly preconfirmedAt: ReadonlyMap<string, number>
  /** Socket errors and closes the soak did not ask for. */
  readonly transport: Tally
  /** The subscribers of `kind`. */
  of(kind: Kind): SubscriberRecord[]
}

/** Every subscriber, and the first time any of them saw each hash pre-confirmed. */
export class Subscribers implements SubscriptionRecord {
  readonly list: Subscriber[] = []
  /** performance.now() of each hash's first `newPreconfBlockTransactions` notification. */
  readonly preconfirmedAt = new Map<string, number>()
  /** Socket errors and closes the soak did not ask for. */
  readonly transport = new Tally()
  private closing = false

  /** Opens `count` subscribers on `wsUrl`, the kinds in turn. */
  static async open(wsUrl: string, count: number): Promise<Subscribers> {
    const subscribers = new Subscribers()
    for (let i = 0; i < count; i++) subscribers.list.push(await subscribers.connect(wsUrl, SUBSCRIPTION_KINDS[i % SUBSCRIPTION_KINDS.length]))
    return subscribers
  }

  /** The subscribers of `kind`. */
  of(kind: Kind): Subscriber[] {
    return this.list.filter((subscriber) => subscriber.kind === kind)
  }

  /** Closes every connection. */
  async close(): Promise<void> {
    this.closing = true
    const open = this.list.map(({ socket }) => socket).filter((socket) => socket.readyState !== WebSocket.CLOSED)
    await Promise.all(
      open.map(
        (socket) =>
          new Promise((resolve) => {
            socket.once('close', resolve)
            socket.close()
          }),
      ),
    )
  }

  private connect(wsUrl: string, kind: Kind): Promise<Subscriber> {
    const socket = new WebSocket(wsUrl)
    const subscriber: Subscriber = { kind, arrivals: [], hashes: new Set(), notifications: 0, duplicates: 0, bytes: 0, socket }
    let subscribed = false
    return new Promise((resolve, reject) => {
      socket.once('open', () => socket.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: [kind] })))
      socket.on('message', (data: Buffer) => {
        const at = performance.now()
        if (!subscribed) {
          const { result, error } = JSON.parse(data.toString()) as { result?: string; error?: { message: string } }
          if (result === undefined) return reject(new Error(`eth_subscribe ${kind}: ${error?.message}`))
          subscribed = true
          return resolve(subscriber)
        }
        subscriber.notifications++
        subscriber.bytes += data.length
        this.notified(subscriber, data, at)
      })
      socket.on('error', (error: NodeJS.ErrnoException) => {
        this.transport.add(`${kind}: ${error.code ?? error.message}`)
        if (!subscribed) reject(error)
      })
      socket.on('close', (code) => {
        if (!this.closing) this.transport.add(`${kind}: closed by the node (${code})`)
      })
    })
  }

  private notified(subscriber: Subscriber, data: Buffer, at: number): void {
    if (subscriber.kind === 'newFlashblocks' || subscriber.kind === 'newHeads') {
      // The number comes before the transactions: the head of the frame is enough.
      const match = NUMBER.exec(data.subarray(0, HEAD_BYTES).toString())
      subscriber.arrivals.push({ at, number: match === null ? NaN : Number.parseInt(match[1], 16) })
      return
    }
    const hash = (JSON.parse(data.toString()) as { params: { result: string } }).params.result
    if (subscriber.hashes.has(hash)) subscriber.duplicates++
    else subscriber.hashes.add(hash)
    if (subscriber.kind === 'newPreconfBlockTransactions' && !this.preconfirmedAt.has(hash)) this.preconfirmedAt.set(hash, at)
  }
}
