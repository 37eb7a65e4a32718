/**
 * The soak's subscribers on a thread of their own: a notification's arrival is timed by an event
 * loop that does nothing else, not by the one pushing thousands of requests a second (whose own
 * delay, 30–55 ms at p99 under the overload, would otherwise be counted as the node's tick
 * jitter). The thread runs `Subscribers` (soak-subscribers.ts) and hands back what they received
 * when closed, its times moved onto the soak's clock.
 */
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads'
import { Tally } from './soak-stats.ts'
import { Subscribers, type Kind, type SubscriberRecord, type SubscriptionRecord } from './soak-subscribers.ts'

/** What the thread sends back once its subscribers are closed. */
interface Received {
  readonly list: SubscriberRecord[]
  readonly preconfirmedAt: Map<string, number>
  readonly transport: Record<string, number>
  /** The thread's `performance.timeOrigin`: its times are performance.now() from there. */
  readonly timeOrigin: number
}

/** Subscribers running on their own thread: `close` ends them and gives what they received. */
export interface SubscriberThread {
  close(): Promise<SubscriptionRecord>
}

/** Opens `count` subscribers on `wsUrl` (the kinds in turn) on a thread of their own. */
export async function openSubscriberThread(wsUrl: string, count: number): Promise<SubscriberThread> {
  // The soak runs under tsx; a worker does not inherit its loader (Node 20), so the thread registers it before loading this file.
  const boot = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(import.meta.url)}) })`
  const worker = new Worker(boot, { eval: true, workerData: { wsUrl, count } })
  const opened = new Promise<void>((resolve, reject) => {
    worker.once('message', (message: { opened?: true; error?: string }) => (message.error === undefined ? resolve() : reject(new Error(message.error))))
    worker.once('error', reject)
  })
  await opened
  return {
    async close() {
      const received = new Promise<Received>((resolve, reject) => {
        worker.once('message', resolve)
        worker.once('error', reject)
      })
      worker.postMessage('close')
      const { list, preconfirmedAt, transport, timeOrigin } = await received
      await worker.terminate()
      return onThisClock(list, preconfirmedAt, transport, timeOrigin - performance.timeOrigin)
    },
  }
}

/** The thread's record with its times shifted by `shift` ms onto this thread's performance.now(). */
function onThisClock(list: SubscriberRecord[], preconfirmedAt: Map<string, number>, transport: Record<string, number>, shift: number): SubscriptionRecord {
  for (const subscriber of list) for (const arrival of subscriber.arrivals) arrival.at += shift
  for (const [hash, at] of preconfirmedAt) preconfirmedAt.set(hash, at + shift)
  const tally = new Tally()
  for (const [text, times] of Object.entries(transport)) for (let i = 0; i < times; i++) tally.add(text)
  return { list, preconfirmedAt, transport: tally, of: (kind: Kind) => list.filter((subscriber) => subscriber.kind === kind) }
}

/** The thread: opens the subscribers, reports that they are open, and on `close` sends what they received. */
async function runThread(port: NonNullable<typeof parentPort>): Promise<void> {
  const { wsUrl, count } = workerData as { wsUrl: string; count: number }
  let subscribers: Subscribers
  try {
    subscribers = await Subscribers.open(wsUrl, count)
  } catch (error) {
    port.postMessage({ error: (error as Error).message })
    return
  }
  port.postMessage({ opened: true })
  port.once('message', async () => {
    await subscribers.close()
    const list = subscribers.list.map(({ kind, arrivals, hashes, notifications, duplicates, bytes }) => ({ kind, arrivals, hashes, notifications, duplicates, bytes }))
    port.postMessage({ list, preconfirmedAt: subscribers.preconfirmedAt, transport: subscribers.transport.toJSON(), timeOrigin: performance.timeOrigin } satisfies Received)
  })
}

if (!isMainThread && parentPort !== null) void runThread(parentPort)
