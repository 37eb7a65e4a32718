/**
 * The test controls over RPC: the pre-confirmation clock (`preconf_*`), Hardhat's and Anvil's
 * `evm_*` methods, and the state edits and mining controls under both `anvil_` and `hardhat_`
 * names (viem's test client sends either). Hardhat's names answer `true`, Anvil's `null`, as
 * each does.
 */
import { invalidArgument, parseAddress, parseData, parseSmallQuantity, toQuantity } from './hex.ts'
import { method, optional, required, type MethodDefinition } from './method-definition.ts'
import { parseBoolean, parseQuantityLike } from './params.ts'

const address = required('0 (address)', parseAddress)

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

/** The same control under `anvil_` (answering null) and `hardhat_` (answering true). */
function both(name: string, definition: (answer: null | true) => MethodDefinition): Record<string, MethodDefinition> {
  return { [`anvil_${name}`]: definition(null), [`hardhat_${name}`]: definition(true) }
}

/** Every test control, by RPC name. */
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
  evm_mine: method([optional('0 (timestamp)', parseQuantityLike, () => undefined)], async ({ engine }, timestamp) => {
    if (timestamp !== undefined) await engine.controls.setNextBlockTimestamp(timestamp)
    await engine.mining.mine()
    return '0x0'
  }),
  evm_snapshot: method([], async ({ engine }) => toQuantity(await engine.snapshot())),
  evm_revert: method([required('0 (snapshot id)', parseSmallQuantity)], ({ engine }, id) => engine.revert(id)),
  evm_increaseTime: method([required('0 (seconds)', parseSmallQuantity)], ({ engine }, seconds) => engine.controls.increaseTime(seconds)),
  evm_setNextBlockTimestamp: method([required('0 (timestamp)', parseQuantityLike)], async ({ engine }, timestamp) => {
    await engine.controls.setNextBlockTimestamp(timestamp)
    return null
  }),
  evm_setAutomine: method([required('0 (enabled)', parseBoolean)], async ({ engine }, enabled) => {
    await engine.mining.setMode(enabled ? 'auto' : 'interval')
    return null
  }),
  ...both('getAutomine', () => method([], ({ engine }) => engine.mining.mode === 'auto')),
  ...both('mine', (answer) =>
    method(
      [optional('0 (blocks)', parseBlockCount, () => 1), optional('1 (interval seconds)', parseQuantityLike, () => 1n)],
      async ({ engine }, blocks, interval) => {
        await engine.mining.mineBlocks(blocks, interval)
        return answer
      },
    ),
  ),
  ...both('setBalance', (answer) =>
    method([address, required('1 (balance)', parseQuantityLike)], async ({ engine }, account, balance) => {
      await engine.controls.setBalance(account, balance)
      return answer
    }),
  ),
  ...both('setNonce', (answer) =>
    method([address, required('1 (nonce)', parseQuantityLike)], async ({ engine }, account, nonce) => {
      await engine.controls.setNonce(account, nonce)
      return answer
    }),
  ),
  ...both('setCode', (answer) =>
    method([address, required('1 (code)', parseData)], async ({ engine }, account, code) => {
      await engine.controls.setCode(account, code)
      return answer
    }),
  ),
  ...both('setStorageAt', (answer) =>
    method([address, required('1 (slot)', parseQuantityLike), required('2 (value)', parseQuantityLike)], async ({ engine }, account, slot, value) => {
      await engine.controls.setStorageAt(account, slot, value)
      return answer
    }),
  ),
  ...both('impersonateAccount', (answer) =>
    method([address], ({ engine }, account) => {
      engine.controls.impersonate(account)
      return answer
    }),
  ),
  ...both('stopImpersonatingAccount', (answer) =>
    method([address], ({ engine }, account) => {
      engine.controls.stopImpersonating(account)
      return answer
    }),
  ),
  anvil_setBlockTimestampInterval: method([required('0 (seconds)', parseQuantityLike)], async ({ engine }, seconds) => {
    await engine.controls.setBlockTimestampInterval(seconds)
    return null
  }),
  anvil_removeBlockTimestampInterval: method([], ({ engine }) => engine.controls.setBlockTimestampInterval(undefined)),
}
