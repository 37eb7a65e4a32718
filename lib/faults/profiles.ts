/**
 * Realism profiles (`--profile ideal | base`): a set of fault switches at once. `ideal` is an
 * ideal pre-confirmation node (every switch off, the default). `base` is Base's node and
 * sequencer as documented and measured; each value's source is beside it (the research note
 * `shared/research/flashblocks.md`, sections in brackets). Every switch given on its own
 * overrides its profile's value.
 */
import type { FaultSwitches, ProfileName } from './fault-options.ts'

/** The switches profile `name` sets on a chain ticking every `preconfIntervalMs` (the rest keep their defaults). */
export function profileSwitches(name: ProfileName, preconfIntervalMs: number): Partial<FaultSwitches> {
  return name === 'base' ? baseSwitches(preconfIntervalMs) : {}
}

function baseSwitches(preconfIntervalMs: number): Partial<FaultSwitches> {
  return {
    // Base's FAQ: flashblock reorgs are targeted at under 0.1 % of blocks [0.9]; what is lost is
    // the tail flashblock the sequencer streamed but did not include [1.7], and its transactions
    // stay in the mempool and land in a later block [1.7].
    dropRate: 0.001,
    dropDepth: 1,
    dropMode: 'requeue',
    // A healthy Base node without flashblocks answers `pending` from `latest` [0.2]. Stalls are
    // reported (base/base#3616, base/node#1129) but no rate is published: none are seeded.
    stallPending: 'latest',
    // eth_call at `pending` runs in the header of a block 3–5 behind the tip (base/base#1439,
    // base/docs#1234); the node's --max-pending-blocks-depth defaults to 3 [4].
    pendingContextLag: 3,
    // eth_getTransactionCount at `pending` counts the flashblocks only, not the mempool [0.4].
    pendingNonce: 'preconfirmed',
    // "Normally 11 messages per block, sometimes fewer" [0.1]: no rate is published; one block
    // in 20 starting one tick late is this profile's assumption.
    lateBlockRate: 0.05,
    lateTicks: 1,
    // Base's app-integration gas table: flashblock j may use j/10 of the block's gas [6, #11].
    tickGasBudget: true,
    // eth_getCode / eth_getStorageAt at `pending` are not served from flashblocks by Base's node [0.6].
    pendingCodeAndStorage: 'latest',
    // Tick jitter is not published; 10 % of the interval (20 ms of Base's 200) is this profile's assumption.
    tickJitterMs: Math.floor(preconfIntervalMs / 10),
  }
}
