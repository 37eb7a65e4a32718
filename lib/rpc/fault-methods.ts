/**
 * The failure modes of real pre-confirmation nodes, on demand: drop pre-confirmations now,
 * stall them for a while, skip ticks, change any fault switch, and read what is in force.
 */
import type { Engine } from '../engine/engine.ts'
import type { DroppedPreconfirmations } from '../faults/drop-preconfirmations.ts'
import { faultOptions, maxTickJitterMs, type DropMode, type FaultSwitches, type StallPending } from '../faults/fault-options.ts'
import { invalidArgument, parseHash, parseSmallQuantity, toQuantity } from './hex.ts'
import { method, optional, required, type MethodDefinition } from './method-definition.ts'

/** `preconf_dropPreconfirmations`' object: `{ count?, transactions?, mode? }`. */
interface DropParameters {
  readonly count?: number
  readonly transactions?: readonly `0x${string}`[]
  readonly mode?: DropMode
}

function parseObject(value: unknown, name: string, known: readonly string[]): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalidArgument(name, `expected an object { ${known.join('?, ')}? }`)
  const unknown = Object.keys(value).find((key) => !known.includes(key))
  if (unknown !== undefined) throw invalidArgument(name, `unknown field "${unknown.slice(0, 40)}" (expected ${known.join(', ')})`)
  return value as Record<string, unknown>
}

/** A number or a hex quantity, at most `max`. */
function parseCount(value: unknown, name: string, max: number, min = 0): number {
  const count = parseSmallQuantity(value, name)
  if (count > max) throw invalidArgument(name, `at most ${max}`)
  if (count < min) throw invalidArgument(name, `at least ${min}`)
  return count
}

function parseDrop(value: unknown, name: string): DropParameters {
  const object = parseObject(value, name, ['count', 'transactions', 'mode'])
  if (object.count !== undefined && object.transactions !== undefined) throw invalidArgument(name, 'give count or transactions, not both')
  const { transactions, mode } = object
  if (transactions !== undefined && (!Array.isArray(transactions) || transactions.length === 0)) throw invalidArgument(`${name}.transactions`, 'expected a non-empty array of transaction hashes')
  if (mode !== undefined && mode !== 'requeue' && mode !== 'discard') throw invalidArgument(`${name}.mode`, 'expected "requeue" or "discard"')
  return {
    count: object.count === undefined ? undefined : parseCount(object.count, `${name}.count`, 1000, 1),
    transactions: transactions?.map((hash: unknown, i: number) => parseHash(hash, `${name}.transactions[${i}]`)),
    mode,
  }
}

function parseStallPending(value: unknown, name: string): StallPending {
  if (value !== 'latest' && value !== 'frozen') throw invalidArgument(name, 'expected "latest" or "frozen"')
  return value
}

/** Each switch given, parsed by its option's definition (`invalid argument 0 (faults): …` for a bad one). */
function parseSwitches(value: unknown, name: string): Partial<FaultSwitches> {
  const object = parseObject(value, name, Object.keys(faultOptions))
  const switches: Record<string, unknown> = {}
  for (const [key, given] of Object.entries(object)) {
    try {
      switches[key] = faultOptions[key as keyof typeof faultOptions].parse(given as never, key)
    } catch (error) {
      throw invalidArgument(name, (error as Error).message)
    }
  }
  return switches as Partial<FaultSwitches>
}

/** What the faults in force are: the profile, the seed, every switch, the stall under way and the ticks still to skip. */
function faultsInForce(engine: Engine) {
  const { faults, clock } = engine
  const stall = faults.stalledAt(clock.now()) ? faults.stall! : undefined
  return {
    profile: faults.profile,
    seed: faults.seed,
    ...faults.switches,
    stall: stall === undefined ? null : { untilMs: stall.untilMs, pending: stall.pending },
    ticksToSkip: faults.ticksToSkip,
  }
}

function formatDropped(dropped: DroppedPreconfirmations) {
  return {
    blockNumber: toQuantity(dropped.blockNumber),
    preconfirmations: dropped.preconfirmations.map(({ index }) => index),
    discarded: dropped.discarded.map(({ hash }) => hash),
    requeued: dropped.requeued.map(({ hash }) => hash),
  }
}

/** The fault controls, by RPC name. */
export const faultMethods: Readonly<Record<string, MethodDefinition>> = {
  preconf_dropPreconfirmations: method([optional('0 (drop)', parseDrop, (): DropParameters => ({}))], async ({ engine }, drop) =>
    formatDropped(await engine.faultControls.dropPreconfirmations({ ...drop, mode: drop.mode ?? engine.faults.switches.dropMode })),
  ),
  preconf_stall: method(
    [required('0 (milliseconds)', (value, name) => parseCount(value, name, 86_400_000)), optional('1 (pending)', parseStallPending, () => undefined)],
    async ({ engine }, ms, pending) => {
      await engine.faultControls.stall(ms, pending ?? engine.faults.switches.stallPending)
      return faultsInForce(engine).stall
    },
  ),
  preconf_skipTicks: method([required('0 (ticks)', (value, name) => parseCount(value, name, 100_000))], ({ engine }, count) => {
    engine.faults.skipTicks(count)
    return engine.faults.ticksToSkip
  }),
  preconf_setFaults: method([required('0 (faults)', parseSwitches)], ({ engine }, switches) => {
    const jitter = switches.tickJitterMs ?? engine.faults.switches.tickJitterMs
    if (jitter > maxTickJitterMs(engine.options.preconfIntervalMs)) throw invalidArgument('0 (faults)', `tickJitterMs ${jitter} exceeds half the tick interval (${engine.options.preconfIntervalMs} ms)`)
    Object.assign(engine.faults.switches, switches)
    return faultsInForce(engine)
  }),
  preconf_getFaults: method([], ({ engine }) => faultsInForce(engine)),
}
