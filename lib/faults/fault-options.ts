/**
 * The switches of the failure modes of real pre-confirmation nodes, defined once like every
 * option (`createChain({ profile: 'base', faults: { dropRate, … } })`, the CLI's `--drop-rate`
 * and friends). Every switch is off by default: an ideal pre-confirmation node. A profile
 * (`lib/faults/profiles.ts`) sets several at once; each one given overrides its profile's.
 * Seeded decisions (which block drops, stalls or starts late, each tick's jitter) depend only on
 * `--seed`, the block number or the tick's scheduled time: the same seed, options and calls
 * make the same chain.
 */
import { boolean, define, fraction, integer, oneOf } from '../option-definition.ts'

/** The realism profiles (`lib/faults/profiles.ts`). */
export type ProfileName = 'ideal' | 'base'

/** What becomes of the transactions of a dropped pre-confirmation. */
export type DropMode = 'requeue' | 'discard'

/** What `pending` reads during a stall: the newest sealed block, or the pending block as it was when the stall began. */
export type StallPending = 'latest' | 'frozen'

/** What the pending nonce counts beyond the pre-confirmed block: the sender's mempool run (geth), or nothing (Base's node). */
export type PendingNonceMode = 'mempool' | 'preconfirmed'

/** Where `eth_getCode` and `eth_getStorageAt` at `pending` read: the pre-confirmed block, or `latest` (Base's node). */
export type PendingCodeAndStorage = 'preconfirmed' | 'latest'

/** The chain options that pick the failure modes as a whole: the profile and the seed. */
export const profileOptions = {
  profile: define<ProfileName, ProfileName>({
    flag: 'profile',
    description: "ideal: a perfect pre-confirmation node; base: Base's documented failure modes and rates (see the README's guide); each fault option overrides its profile's value",
    defaultText: 'ideal',
    parse: oneOf<ProfileName>('ideal', 'base'),
    default: () => 'ideal',
  }),
  seed: define<number, number>({
    flag: 'seed',
    description: 'seed of the seeded fault decisions (which blocks drop, stall or start late; tick jitter)',
    defaultText: '0',
    parse: integer(0),
    default: () => 0,
  }),
}

/** The fault switches. */
export const faultOptions = {
  dropRate: define<number, number>({
    flag: 'drop-rate',
    description: 'chance per sealed block that its last pre-confirmations are dropped at the seal (a flashblock reorg)',
    defaultText: '0',
    parse: fraction,
    default: () => 0,
  }),
  dropDepth: define<number, number>({
    flag: 'drop-depth',
    description: 'how many of the last pre-confirmations a drop takes back',
    defaultText: '1',
    parse: integer(1, 1000),
    default: () => 1,
  }),
  dropMode: define<DropMode, DropMode>({
    flag: 'drop-mode',
    description: 'requeue: dropped transactions go back to the mempool; discard: they are gone',
    defaultText: 'requeue',
    parse: oneOf<DropMode>('requeue', 'discard'),
    default: () => 'requeue',
  }),
  stallRate: define<number, number>({
    flag: 'stall-rate',
    description: 'chance per block that pre-confirmations stall as it opens (blocks keep sealing)',
    defaultText: '0',
    parse: fraction,
    default: () => 0,
  }),
  stallMs: define<number, number>({
    flag: 'stall-ms',
    description: 'how long a seeded stall lasts (ms)',
    defaultText: '4000',
    parse: integer(0),
    default: () => 4000,
  }),
  stallPending: define<StallPending, StallPending>({
    flag: 'stall-pending',
    description: "what 'pending' reads during a stall: latest (a healthy node without flashblocks) | frozen (the stale-node bug: the last pre-confirmed state)",
    defaultText: 'latest',
    parse: oneOf<StallPending>('latest', 'frozen'),
    default: () => 'latest',
  }),
  pendingContextLag: define<number, number>({
    flag: 'pending-context-lag',
    description: "calls and estimates at 'pending' see its state but the number, timestamp, base fee, coinbase and prevRandao of the sealed block this many blocks behind the head (Base: 3 to 5)",
    defaultText: '0',
    parse: integer(0, 1_000_000),
    default: () => 0,
  }),
  pendingNonce: define<PendingNonceMode, PendingNonceMode>({
    flag: 'pending-nonce',
    description: "what eth_getTransactionCount at 'pending' counts: mempool (geth: the sender's executable run in the mempool too) | preconfirmed (Base: pre-confirmed transactions only)",
    defaultText: 'mempool',
    parse: oneOf<PendingNonceMode>('mempool', 'preconfirmed'),
    default: () => 'mempool',
  }),
  lateBlockRate: define<number, number>({
    flag: 'late-block-rate',
    description: 'chance per block that its first ticks are skipped (the block start arrives late)',
    defaultText: '0',
    parse: fraction,
    default: () => 0,
  }),
  lateTicks: define<number, number>({
    flag: 'late-ticks',
    description: 'the most ticks a late block skips (seeded, from 1)',
    defaultText: '1',
    parse: integer(1, 1000),
    default: () => 1,
  }),
  tickGasBudget: define<boolean, boolean>({
    flag: 'tick-gas-budget',
    description: "pre-confirmation j of a block's n may have used j/n of the block gas limit (Base), so a large transaction misses the early ticks",
    defaultText: 'false',
    parse: boolean,
    default: () => false,
  }),
  pendingCodeAndStorage: define<PendingCodeAndStorage, PendingCodeAndStorage>({
    flag: 'pending-code-storage',
    description: "where eth_getCode and eth_getStorageAt at 'pending' read: preconfirmed | latest (Base's node as shipped)",
    defaultText: 'preconfirmed',
    parse: oneOf<PendingCodeAndStorage>('preconfirmed', 'latest'),
    default: () => 'preconfirmed',
  }),
  tickJitterMs: define<number, number>({
    flag: 'tick-jitter',
    description: 'each tick falls up to this many ms before or after its time (seeded; at most half the tick interval)',
    defaultText: '0',
    parse: integer(0),
    default: () => 0,
  }),
}

type Definitions = typeof faultOptions
type ValueOf<D> = D extends { parse: (value: never, name: string) => infer Value } ? Value : never

/** The fault switches with every default applied: what a chain runs with. */
export type FaultSwitches = { -readonly [K in keyof Definitions]: ValueOf<Definitions[K]> }

/** The most a tick may move by jitter with ticks `intervalMs` apart: half the interval, so that ticks never change order. */
export function maxTickJitterMs(intervalMs: number): number {
  return Math.floor(intervalMs / 2)
}
