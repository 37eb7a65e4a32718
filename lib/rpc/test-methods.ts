/**
 * The clock, mining and snapshot controls over RPC: the pre-confirmation clock (`preconf_*`),
 * Hardhat's and Anvil's `evm_*` methods, mining modes and block-time controls, under the names
 * viem's test client and Hardhat's helpers send. Hardhat's names answer `true`, Anvil's `null`,
 * as each does.
 */
import type { Engine } from '../engine/engine.ts'
import type { ReorgPlacement } from '../engine/reorg.ts'
import { formatBlock } from './format-block.ts'
import { invalidArgument, parseData, parseSmallQuantity, toQuantity } from './hex.ts'
import { anvilAndHardhat, method, optional, required, type MethodDefinition } from './method-definition.ts'
import { parseBoolean, parseCallRequest, parseTimestamp, parseUint64 } from './params.ts'

/** The most one `preconf_advanceClock` may move time: a day (every tick and seal in it runs). */
const MAX_ADVANCE_MS = 86_400_000
/** The most blocks one `anvil_mine` / `hardhat_mine` seals. */
const MAX_MINED_BLOCKS = 10_000

function parseAdvance(value: unknown, name: string): number {
  const ms = parseSmallQuantity(value, name)
  if (ms > MAX_ADVANCE_MS) throw invalidArgument(name, `at most ${MAX_ADVANCE_MS} ms (a day) per call`)
  return ms
}

function parseBlockCount(value: unknown, name: string): number {
  const count = parseSmallQuantity(value, name)
  if (count > MAX_MINED_BLOCKS) throw invalidArgument(name, `at most ${MAX_MINED_BLOCKS} blocks per call`)
  return count
}

/** `anvil_reorg`'s second parameter: `[[transaction, blockOffset], …]`, each transaction signed bytes or a request. */
function parsePlacements(value: unknown, name: string): ReorgPlacement[] {
  if (!Array.isArray(value)) throw invalidArgument(name, 'expected an array of [transaction, block] pairs')
  return value.map((pair, i): ReorgPlacement => {
    const at = `${name}[${i}]`
    if (!Array.isArray(pair) || pair.length !== 2) throw invalidArgument(at, 'expected a [transaction, block] pair')
    const [transaction, block] = pair as unknown[]
    return [typeof transaction === 'string' ? { raw: parseData(transaction, `${at}[0]`) } : { request: parseCallRequest(transaction, `${at}[0]`) }, parseSmallQuantity(block, `${at}[1]`)]
  })
}

/** `evm_mine`'s parameter: a timestamp, or Anvil's `{ timestamp?, blocks? }`. */
function parseMineOptions(value: unknown, name: string): { timestamp?: bigint; blocks: number } {
  if (typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype) {
    const unknown = Object.keys(value).find((key) => key !== 'timestamp' && key !== 'blocks')
    if (unknown !== undefined) throw invalidArgument(name, `expected a timestamp or { timestamp, blocks }, got a "${unknown.slice(0, 40)}" field`)
    const { timestamp, blocks } = value as Record<string, unknown>
    return {
      timestamp: timestamp === undefined || timestamp === null ? undefined : parseTimestamp(timestamp, `${name}.timestamp`),
      blocks: blocks === undefined || blocks === null ? 1 : parseBlockCount(blocks, `${name}.blocks`),
    }
  }
  return { timestamp: parseTimestamp(value, name), blocks: 1 }
}

/** Mines as `evm_mine` does: the first block stamped `timestamp` if given, the others one second apart. */
async function mine(engine: Engine, options: { timestamp?: bigint; blocks: number }) {
  if (options.timestamp !== undefined) await engine.controls.setNextBlockTimestamp(options.timestamp)
  const first = Number(engine.blocks.headNumber) + 1
  await engine.mining.mineBlocks(options.blocks)
  return Array.from({ length: options.blocks }, (_, i) => engine.blocks.byNumber(BigInt(first + i))!)
}

const mineOptions = optional('0 (timestamp)', parseMineOptions, () => ({ blocks: 1 }))

/** Every clock, mining and snapshot control, by RPC name. */
export const testMethods: Readonly<Record<string, MethodDefinition>> = {
  preconf_advanceClock: method([required('0 (milliseconds)', parseAdvance)], async ({ engine }, ms) => {
    await engine.clock.advance(ms)
    return engine.clock.now()
  }),
  preconf_tick: method([], async ({ engine }) => {
    const preconfirmation = await engine.mining.tick()
    return {
      blockNumber: toQuantity(preconfirmation.blockNumber),
      index: preconfirmation.index,
      transactions: preconfirmation.transactions.map(({ transaction }) => transaction.hash),
    }
  }),
  evm_mine: method([mineOptions], async ({ engine }, options) => {
    await mine(engine, options)
    return '0x0'
  }),
  // Anvil's: the mined blocks with their transactions.
  evm_mine_detailed: method([mineOptions], async ({ engine }, options) => (await mine(engine, options)).map((block) => formatBlock(block, true))),
  anvil_mine_detailed: method([mineOptions], async ({ engine }, options) => (await mine(engine, options)).map((block) => formatBlock(block, true))),
  // Anvil moves time `interval` seconds forward before each block, the first included.
  anvil_mine: method(
    [optional('0 (blocks)', parseBlockCount, () => 1), optional('1 (interval seconds)', parseSmallQuantity, () => undefined)],
    async ({ engine }, blocks, interval) => {
      for (let i = 0; i < blocks; i++) {
        if (interval !== undefined) await engine.controls.increaseTime(interval)
        await engine.mining.mine()
      }
      return null
    },
  ),
  // Hardhat mines the first block as it would anyway, then each `interval` seconds after its parent.
  hardhat_mine: method(
    [optional('0 (blocks)', parseBlockCount, () => 1), optional('1 (interval seconds)', parseUint64, () => 1n)],
    async ({ engine }, blocks, interval) => {
      await engine.mining.mineBlocks(blocks, interval)
      return true
    },
  ),
  evm_snapshot: method([], async ({ engine }) => toQuantity(await engine.snapshot())),
  anvil_snapshot: method([], async ({ engine }) => toQuantity(await engine.snapshot())),
  evm_revert: method([required('0 (snapshot id)', parseSmallQuantity)], ({ engine }, id) => engine.revert(id)),
  anvil_revert: method([required('0 (snapshot id)', parseSmallQuantity)], ({ engine }, id) => engine.revert(id)),
  // Anvil's: the last `depth` blocks replaced by new ones holding the given transactions; answers null.
  anvil_reorg: method([required('0 (depth)', parseBlockCount), optional('1 (transactions)', parsePlacements, () => [])], async ({ engine }, depth, placements) => {
    await engine.reorg(depth, placements)
    return null
  }),
  // Anvil's: the last `depth` blocks (null or none: 1) taken away; answers null.
  anvil_rollback: method([optional('0 (depth)', parseSmallQuantity, () => 1)], async ({ engine }, depth) => {
    await engine.rollback(depth)
    return null
  }),

  evm_increaseTime: method([required('0 (seconds)', parseSmallQuantity)], ({ engine }, seconds) => engine.controls.increaseTime(seconds)),
  anvil_increaseTime: method([required('0 (seconds)', parseSmallQuantity)], ({ engine }, seconds) => engine.controls.increaseTime(seconds)),
  evm_setTime: method([required('0 (timestamp)', parseTimestamp)], ({ engine }, timestamp) => engine.controls.setTime(timestamp)),
  anvil_setTime: method([required('0 (timestamp)', parseTimestamp)], ({ engine }, timestamp) => engine.controls.setTime(timestamp)),
  evm_setNextBlockTimestamp: method([required('0 (timestamp)', parseTimestamp)], async ({ engine }, timestamp) => {
    await engine.controls.setNextBlockTimestamp(timestamp)
    return null
  }),
  anvil_setNextBlockTimestamp: method([required('0 (timestamp)', parseTimestamp)], async ({ engine }, timestamp) => {
    await engine.controls.setNextBlockTimestamp(timestamp)
    return null
  }),
  anvil_setBlockTimestampInterval: method([required('0 (seconds)', parseUint64)], async ({ engine }, seconds) => {
    await engine.controls.setBlockTimestampInterval(seconds)
    return null
  }),
  // Hardhat has no such method; viem's testClient sends it in milliseconds (interval * 1000).
  hardhat_setBlockTimestampInterval: method([required('0 (milliseconds)', parseUint64)], async ({ engine }, ms) => {
    await engine.controls.setBlockTimestampInterval(ms / 1000n)
    return true
  }),
  ...anvilAndHardhat('removeBlockTimestampInterval', () => method([], ({ engine }) => engine.controls.setBlockTimestampInterval(undefined))),

  evm_setAutomine: method([required('0 (enabled)', parseBoolean)], async ({ engine }, enabled) => {
    await engine.mining.setAutomine(enabled)
    return null
  }),
  anvil_setAutomine: method([required('0 (enabled)', parseBoolean)], async ({ engine }, enabled) => {
    await engine.mining.setAutomine(enabled)
    return null
  }),
  ...anvilAndHardhat('getAutomine', () => method([], ({ engine }) => engine.mining.mode === 'auto')),
  // Anvil's unit (viem's test client sends seconds to Anvil, milliseconds only to Hardhat).
  evm_setIntervalMining: method([required('0 (seconds)', parseSmallQuantity)], async ({ engine }, seconds) => {
    await engine.mining.setInterval(seconds)
    return null
  }),
  anvil_setIntervalMining: method([required('0 (seconds)', parseSmallQuantity)], async ({ engine }, seconds) => {
    await engine.mining.setInterval(seconds)
    return null
  }),
  anvil_getIntervalMining: method([], ({ engine }) => engine.mining.intervalSeconds ?? null),
}
