/**
 * A chain's whole state as a dump holds it (`anvil_dumpState`, `--dump-state`): every sealed
 * block with its transactions and receipts, every key's versions block by block (so a read at
 * any sealed block answers as before, and one before where `--prune-history` stopped is refused
 * as before), what a fork's source fetched of the fork block's state, the clock with its block
 * schedule, and the settings test controls made for the blocks to come (as Anvil's dump keeps
 * its block environment). The mempool and what is pre-confirmed but not sealed are not part of
 * it, as Anvil's dump holds no pending transactions.
 */
import type { SealedBlock } from '../blocks/block.ts'
import type { BlockStore } from '../blocks/block-store.ts'
import type { BlockSettingsState } from '../builder/block-settings.ts'
import type { ScheduleState } from '../clock/block-schedule.ts'
import type { StateCommitment } from '../state/state-commitment.ts'
import type { HistoryEntry, KeyVersions, StateHistory } from '../state/state-history.ts'
import type { PresetName } from '../op-stack/presets.ts'
import type { StateSource } from '../state/state-view.ts'

/** A chain's state, as dumped and loaded. */
export interface ChainState {
  /** The chain id it was dumped from. */
  readonly chainId: number
  /** The preset of the chain it was dumped from (an OP-stack chain's), which a load continues with unless told otherwise. */
  readonly preset?: PresetName
  /** The clock's time (ms) when it was dumped. */
  readonly clockMs: number
  /** The block schedule when it was dumped. */
  readonly schedule: ScheduleState
  /** The coinbase, gas limit and one-block base fee and prevRandao set for the blocks to come; absent in a dump made before they were kept. */
  readonly settings?: BlockSettingsState
  /** The sealed blocks, from the first (genesis, or a fork's block) to the head. */
  readonly blocks: readonly SealedBlock[]
  /** Every address's versions: the chain's own writes, and before them what a fork's source held at the first block. */
  readonly history: readonly HistoryEntry[]
  /** The oldest block whose state the history holds, if `--prune-history` dropped the ones before (reads before it are refused after a load too). */
  readonly historyFrom?: number
}

/** What a dump reads and a load writes. */
export interface ChainStateParts {
  readonly blocks: BlockStore
  readonly history: StateHistory
  readonly commitment: StateCommitment
}

/** The state of a chain made of `parts`, its source's held keys counted as of the first block. */
export function captureChainState(
  parts: ChainStateParts,
  source: StateSource,
  chain: { readonly chainId: number; readonly preset: PresetName | undefined },
  clockMs: number,
  schedule: ScheduleState,
  settings: BlockSettingsState,
): ChainState {
  const { chainId, preset } = chain
  const { blocks, history } = parts
  const first = Number(blocks.first.header.number)
  const entries = new Map<string, HistoryEntry>()
  for (const entry of history.entries()) entries.set(entry.address, entry)
  for (const [address, account, words] of source.held?.() ?? []) {
    const entry = entries.get(address)
    const accountVersions = entry?.account === undefined ? { blocks: [first], values: [account] } : before(entry.account, first, account)
    let storage = entry?.storage
    if (words !== undefined && words.size > 0) {
      const slots = new Map(storage?.slots)
      for (const [slot, value] of words) {
        const versions = slots.get(slot)
        slots.set(slot, versions === undefined ? { blocks: [first], values: [value] } : before(versions, first, value))
      }
      storage = { wipes: storage?.wipes, slots }
    }
    entries.set(address, { address, account: accountVersions, storage })
  }
  const keptFrom = history.keptFrom
  const historyFrom = keptFrom !== undefined && keptFrom > first ? keptFrom : undefined
  return {
    chainId,
    ...(preset === undefined ? {} : { preset }),
    clockMs,
    schedule,
    settings,
    blocks: [...blocks.all()],
    history: [...entries.values()],
    ...(historyFrom === undefined ? {} : { historyFrom }),
  }
}

/** `versions` with `value` as of `block` in front, unless they already hold a value at or before it. */
function before<T>(versions: KeyVersions<T>, block: number, value: T): KeyVersions<T> {
  return versions.blocks[0] <= block ? versions : { blocks: [block, ...versions.blocks], values: [value, ...versions.values] }
}

/** Writes `state`'s blocks and versions into the empty parts of a new chain; its tries are built over every key when first needed. */
export function restoreChainState(state: ChainState, parts: ChainStateParts): void {
  const { blocks, history, commitment } = parts
  for (const block of state.blocks) blocks.append(block)
  for (const entry of state.history) history.restore(entry)
  if (state.historyFrom !== undefined) history.keepFrom(state.historyFrom, Number(blocks.head.header.number))
  commitment.rebuild(() => history.keys())
}
