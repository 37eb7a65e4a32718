/**
 * Ticks first (lib/server/turn-budget.ts): requests that become ready together are handled at
 * once only while their turn of the event loop has budget; the rest wait for later turns, in
 * arrival order, so a timer (the realtime clock's tick) fires between them.
 */
import { expect } from 'chai'
import { requestKind } from '../../lib/server/json-rpc.ts'
import { TURN_BUDGET_MS, turn } from '../../lib/server/turn-budget.ts'

/** Holds the thread for `ms`, as a request's handling would. */
function busy(ms: number): void {
  const until = performance.now() + ms
  while (performance.now() < until);
}

describe('server: the turn budget', function () {
  it('handles a burst at once only while the turn has budget; the rest run in later turns, in arrival order, and a timer due meanwhile fires between them', async function () {
    const handled: number[] = []
    let handledWhenTimerFired: number | undefined
    setTimeout(() => (handledWhenTimerFired = handled.length), 0)
    // A clock ticking every millisecond: how often it gets a turn while the burst is handled.
    const ticksAt: number[] = []
    const clock = setInterval(() => ticksAt.push(handled.length), 1)
    // As sockets ready in one poll phase: each request asks in turn, and is handled now or later.
    const later: Promise<void>[] = []
    for (let i = 0; i < 40; i++) {
      const handle = (): void => {
        handled.push(i)
        busy(1)
      }
      const wait = turn('other')
      if (wait === undefined) handle()
      else later.push(wait.then(handle))
    }
    expect(handled.length, 'handled in the first turn').to.be.within(1, TURN_BUDGET_MS + 1)
    await Promise.all(later)
    clearInterval(clock)
    expect(handled).to.deep.equal(Array.from({ length: 40 }, (_, i) => i))
    // 40 ms of work in turns of about TURN_BUDGET_MS: the clock ran between them (in one go, it could not).
    expect(ticksAt.filter((count) => count > 0 && count < 40).length).to.be.at.least(3)
    // The first turn spends its budget on about TURN_BUDGET_MS requests of 1 ms; the timer, due
    // at once, fires in the next turn, long before the burst is through.
    expect(handledWhenTimerFired).to.be.within(1, 2 * TURN_BUDGET_MS + 2)
  })

  it('once requests wait, every other request resumes before the transaction submissions, even those that came first (back-pressure on admission)', async function () {
    await new Promise((resolve) => setImmediate(resolve))
    const order: string[] = []
    busy(TURN_BUDGET_MS + 1) // this turn's budget is spent: everything below waits
    expect(turn('other')).to.equal(undefined, 'the first ask of a turn starts its clock')
    busy(TURN_BUDGET_MS + 1)
    const waits = [
      turn('submission')!.then(() => order.push('submission 1')),
      turn('other')!.then(() => order.push('read 1')),
      turn('submission')!.then(() => order.push('submission 2')),
      turn('other')!.then(() => order.push('read 2')),
    ]
    await Promise.all(waits)
    expect(order).to.deep.equal(['read 1', 'read 2', 'submission 1', 'submission 2'])
    expect(requestKind([{ method: 'eth_call' }, { method: 'eth_sendRawTransaction' }])).to.equal('submission')
    expect(requestKind({ method: 'eth_chainId' })).to.equal('other')
  })

  it('a lone request is handled at once, without waiting for a turn', async function () {
    // Let any earlier turn end first.
    await new Promise((resolve) => setImmediate(resolve))
    expect(turn('other')).to.equal(undefined)
  })
})
