/**
 * Routes the chain's subscription notifications (EIP-1193 `message` events) to the WebSocket
 * connection that subscribed. A notification may be emitted before the subscribe request it
 * belongs to has returned its id (a tick completing in between): while a subscribe is in
 * flight, notifications for ids nobody owns yet are kept and handed to the new owner.
 */
import type { Chain } from '../chain.ts'
import type { SubscriptionMessage } from '../engine/events.ts'

/** Receives each notification of a connection's subscriptions. */
export type Deliver = (subscription: string, result: unknown) => void

/** The subscriptions of one server's connections. */
export class SubscriptionRouter {
  private readonly owners = new Map<string, Deliver>()
  private inFlight = 0
  private unclaimed: SubscriptionMessage[] = []
  private readonly route = (message: SubscriptionMessage): void => {
    const owner = this.owners.get(message.data.subscription)
    if (owner !== undefined) owner(message.data.subscription, message.data.result)
    else if (this.inFlight > 0) this.unclaimed.push(message)
  }

  constructor(private readonly chain: Chain) {
    chain.on('message', this.route)
  }

  /** Runs `subscribe` (an `eth_subscribe` request) and sends its notifications to `deliver`; returns the id. */
  async claim(subscribe: () => Promise<unknown>, deliver: Deliver): Promise<unknown> {
    this.inFlight++
    try {
      const id = await subscribe()
      if (typeof id === 'string') {
        this.owners.set(id, deliver)
        for (const message of this.unclaimed) if (message.data.subscription === id) deliver(id, message.data.result)
      }
      return id
    } finally {
      if (--this.inFlight === 0) this.unclaimed = []
    }
  }

  /** Stops routing subscription `id` (after its `eth_unsubscribe`). */
  release(id: string): void {
    this.owners.delete(id)
  }

  /** Ends subscription `id` on the chain and stops routing it (its connection closed). */
  end(id: string): void {
    this.owners.delete(id)
    this.chain.request({ method: 'eth_unsubscribe', params: [id] }).catch(() => {})
  }

  /** Stops listening to the chain. */
  close(): void {
    this.chain.off('message', this.route)
  }
}
