/**
 * How a paced EVM (the ones calls at the RPC edge run on; never the builder's) lets its run be
 * paused or stopped: it counts jumps, frames and precompile runs, and at every
 * {@link JUMPS_PER_PACE}th asks its {@link Pacer}. Every loop goes through JUMP or JUMPI and every
 * call tree through frames, so no run escapes it; between two questions a run does at most a few
 * hundred microseconds of work.
 */
import type { EVM } from '@ethereumjs/evm'
import { JUMP, JUMPI } from './opcode-bytes.ts'

/** What a paced EVM asks during a run: go on (undefined), pause (a promise to wait on), or stop (it throws). */
export interface Pacer {
  pace(): Promise<void> | undefined
}

/** Jumps, frames and precompile runs between two questions to the pacer. */
const JUMPS_PER_PACE = 256

type OpcodeMap = EVM['_opcodeMap']
type OpcodeInfo = OpcodeMap[number]['opcodeInfo']
type OpcodeConstructor = new (fields: Pick<OpcodeInfo, 'code' | 'name' | 'fullName' | 'fee' | 'isAsync' | 'dynamicGas'>) => OpcodeInfo

/** A countdown of jumps, frames and precompile runs. */
export class PaceCount {
  private left = JUMPS_PER_PACE

  /** Counts one; true at every {@link JUMPS_PER_PACE}th (the count starts over). */
  due(): boolean {
    if (--this.left !== 0) return false
    this.left = JUMPS_PER_PACE
    return true
  }
}

/**
 * Makes JUMP and JUMPI of `opcodes` (one EVM's own table) count on `count` and, when due, ask
 * `pacer()`. The interpreter awaits only asynchronous opcodes, and an await per jump would cost a
 * tenth of a tight loop: so they stay synchronous, and when one is due they switch to asynchronous
 * copies of themselves for the next jump, which asks the pacer and switches them back. (The
 * library's Opcode is frozen and not exported: the copies are made with its constructor.)
 */
export function paceJumps(opcodes: OpcodeMap, count: PaceCount, pacer: () => Pacer | undefined): void {
  const jumps = [JUMP, JUMPI].map((code) => {
    const entry = opcodes[code]
    const info = entry.opcodeInfo
    const Opcode = info.constructor as OpcodeConstructor
    const awaited = new Opcode({ code: info.code, name: info.name, fullName: info.fullName, fee: info.fee, isAsync: true, dynamicGas: info.dynamicGas })
    return { entry, info, awaited, handler: entry.opHandler }
  })
  const switchTo = (awaited: boolean) => {
    for (const jump of jumps) jump.entry.opcodeInfo = awaited ? jump.awaited : jump.info
  }
  for (const { entry, awaited, handler } of jumps) {
    entry.opHandler = (runState, common) => {
      handler(runState, common)
      if (entry.opcodeInfo === awaited) {
        switchTo(false)
        return pacer()?.pace()
      }
      if (count.due()) switchTo(true)
    }
  }
}
