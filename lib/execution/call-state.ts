/**
 * The state a run at the RPC edge reads: a base over the block's state (the head, a sealed
 * block, the pre-confirmed block) that can be frozen, so a long run can let ticks, seals and
 * edits go on while it still reads the state it started on. Freezing copies only what later
 * writes could change: the pre-confirmed block's overlay (into a layer of its own) and the head
 * (as the view at its block number, which later seals do not move).
 */
import type { StateHistory } from '../state/state-history.ts'
import { StateLayer } from '../state/state-layer.ts'
import type { StateView } from '../state/state-view.ts'
import type { Address } from '../types.ts'

/** Makes a view later writes cannot change, reading what `view` reads now. */
export type ViewFreezer = (view: StateView) => StateView

/** A view that reads through to the chain's state until frozen, then from a frozen copy of it. */
export class CallBase implements StateView {
  constructor(private view: StateView) {}

  get source() {
    return this.view.source
  }

  getAccount(address: Address) {
    return this.view.getAccount(address)
  }

  getStorage(address: Address, slot: bigint) {
    return this.view.getStorage(address, slot)
  }

  /** From now on, reads what the view reads now, whatever is written to the chain later. */
  freeze(freezer: ViewFreezer): void {
    this.view = freezer(this.view)
  }
}

/**
 * A freezer for the views of a chain with sealed `history` whose head is `headNumber()`: the
 * head's live view becomes the view at the head's number, a layer (the pre-confirmed block's
 * overlay, which ticks write into) a copy of its writes over its frozen parent; views at earlier
 * blocks do not change and stay as they are.
 */
export function historyFreezer(history: StateHistory, headNumber: () => bigint): ViewFreezer {
  const freeze = (view: StateView): StateView => {
    if (view === history.latest) return history.at(Number(headNumber()))
    if (!(view instanceof StateLayer)) return view
    const copy = new StateLayer(freeze(view.parent))
    copy.apply(view)
    return copy
  }
  return freeze
}
