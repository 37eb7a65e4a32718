/**
 * The realtime clock decides as the manual one: seeded jitter, late blocks and drops are keyed
 * by a tick's scheduled time and a block's number, never by when the wall clock got there, so a
 * realtime chain run for a while has made exactly the decisions a manual chain makes when
 * advanced by the same time.
 */
import { expect } from 'chai'
import { createChain, type ChainOptions } from '../../lib/index.ts'

const OPTIONS: ChainOptions = {
  genesisTimestamp: 1_800_000_000,
  preconfIntervalMs: 20,
  blockTimeMs: 100,
  seed: 9,
  faults: { tickJitterMs: 10, lateBlockRate: 0.5, lateTicks: 2, dropRate: 0.5 },
}

/** Each tick's time (ms since genesis) and index, and each withdrawal's block, as the chain ran. */
function record(chain: Awaited<ReturnType<typeof createChain>>) {
  const start = chain.clock.now()
  const events: string[] = []
  chain.on('preconfirmation', ({ blockNumber, index }) => events.push(`tick ${blockNumber}.${index} at ${chain.clock.now() - start}`))
  chain.on('withdrawn', ({ blockNumber }) => events.push(`withdrawn ${blockNumber}`))
  chain.on('block', (block) => events.push(`seal ${block.header.number} at ${chain.clock.now() - start}`))
  return { start, events }
}

describe('faults: the realtime clock makes the manual clock\'s seeded decisions', () => {
  it('jitter, late blocks and drops over ~600 ms of wall time equal a manual chain advanced by the same time', async function () {
    this.timeout(10_000)
    const realtime = await createChain({ ...OPTIONS, clock: 'realtime' })
    const live = record(realtime)
    await new Promise((resolve) => setTimeout(resolve, 600))
    realtime.close()
    const elapsed = realtime.clock.now() - live.start

    const manual = await createChain({ ...OPTIONS, clock: 'manual' })
    const replay = record(manual)
    await manual.clock.advance(elapsed)
    manual.close()
    expect(live.events.length).to.be.greaterThan(20)
    expect(live.events).to.deep.equal(replay.events)
    const tickTimes = live.events.filter((event) => event.startsWith('tick')).map((event) => Number(event.split(' at ')[1]))
    expect(tickTimes.some((at) => at % 20 !== 0)).to.equal(true) // jitter moved ticks off the 20 ms grid
    expect(live.events.some((event) => event.startsWith('withdrawn'))).to.equal(true)
  })
})
