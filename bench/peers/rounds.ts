/**
 * Interleaved rounds: each round starts a fresh node of every contender, then runs the workload
 * phase by phase, each phase on every node in turn (ours, peer, ours, peer…), so that whatever
 * else the machine is doing weighs on both sides of a ratio alike. A peer that fails is dropped
 * with a notice; our own failure stops the bench.
 */
import { notice } from './report.ts'
import type { RpcNode } from './rpc-node.ts'

/** A step of the workload; it returns the figures it measured. */
export interface Phase<T> {
  readonly name: string
  run(node: RpcNode): Promise<Partial<T>>
}

/** A node maker measured in the rounds, and its figures, one set a completed round. */
export interface Contender<T> {
  /** How the table names it. */
  readonly short: string
  /** Makes a fresh node; unset once the contender was dropped or was never available. */
  make?: () => Promise<RpcNode>
  /** Ours: a failure is thrown, not skipped. */
  readonly required?: boolean
  /** The phases it takes part in (all when unset). */
  readonly phases?: ReadonlySet<string>
  readonly runs: T[]
}

/**
 * Runs `rounds` rounds of `phases` over the contenders still available, after `warmUps` rounds
 * run alike but not recorded (the first run of every code path pays for its JIT compilation).
 */
export async function runRounds<T>(rounds: number, contenders: Array<Contender<T>>, phases: ReadonlyArray<Phase<T>>, warmUps = 0): Promise<void> {
  for (let round = 0; round < warmUps + rounds; round++) {
    const live: Array<{ contender: Contender<T>; node: RpcNode; figures: Partial<T> }> = []
    for (const contender of contenders) {
      if (contender.make === undefined) continue
      const node = await attempt(contender, () => contender.make!())
      if (node !== undefined) live.push({ contender, node, figures: {} })
    }
    for (const phase of phases) {
      for (const entry of live) {
        const { contender, node } = entry
        if (contender.make === undefined || (contender.phases !== undefined && !contender.phases.has(phase.name))) continue
        const figures = await attempt(contender, () => phase.run(node))
        if (figures !== undefined) Object.assign(entry.figures, figures)
      }
    }
    for (const { contender, node, figures } of live) {
      await node.close()
      if (contender.make !== undefined && round >= warmUps) contender.runs.push(figures as T)
    }
  }
}

async function attempt<R>(contender: Contender<unknown>, task: () => Promise<R>): Promise<R | undefined> {
  try {
    return await task()
  } catch (error) {
    if (contender.required) throw error
    notice(`${contender.short} skipped: ${(error as Error).message}`)
    contender.make = undefined
    contender.runs.length = 0
    return undefined
  }
}
