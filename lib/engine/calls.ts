/**
 * `eth_call`, `eth_createAccessList` and `eth_estimateGas` at a block, never changing state: each
 * on the call lane (its own EVM, time-boxed, letting ticks and other requests go on while it runs).
 */
import type { CallLane } from '../execution/call-lane.ts'
import { estimateGas } from '../execution/estimate-gas.ts'
import { runCall, type CallOutcome, type CallRequest } from '../execution/run-call.ts'
import { transactionGasCap } from '../transactions/decode.ts'
import type { AccessList } from '../transactions/transaction.ts'
import { withOverrides, type CallOverrides } from '../state/state-overrides.ts'
import { readAccount } from '../state/state-source.ts'
import { ZERO_ADDRESS } from '../types.ts'
import type { BlockResolver, BlockSelector } from './block-resolver.ts'

/** geth stops looking for a fixed point after this many runs. */
const MAX_ACCESS_LIST_ROUNDS = 10

/** `eth_createAccessList`'s answer: the list, the gas a transaction with it uses, and how the last run ended. */
export interface AccessListResult {
  readonly accessList: AccessList
  readonly gasUsed: bigint
  readonly outcome: CallOutcome
}

function sameAccessList(a: AccessList, b: AccessList): boolean {
  return JSON.stringify(a) === JSON.stringify(b)
}

/** Calls and gas estimates. */
export class Calls {
  /** @param lane where the runs execute (the engine's, shared by its calls, traces and simulations) */
  constructor(
    private readonly blocks: BlockResolver,
    private readonly lane: CallLane,
  ) {}

  /** Runs `request` on a throwaway copy of the state at `block`, with geth's state and block overrides. */
  call(request: CallRequest, block: BlockSelector, overrides: CallOverrides = {}): Promise<CallOutcome> {
    return this.lane.run('call', async (run) => {
      const { state, context } = this.blocks.resolve(block)
      const { environment } = run
      return withOverrides(environment, run.base(state), context, overrides, (view, at) => runCall(request, view, at, environment))
    })
  }

  /**
   * The access list `request` needs at `block`, found as geth's eth_createAccessList does: run
   * with the list found so far until it stops changing; the gas used with the final list.
   */
  createAccessList(request: CallRequest, block: BlockSelector): Promise<AccessListResult> {
    return this.lane.run('call', async (run) => {
      const resolved = this.blocks.resolve(block)
      const state = run.base(resolved.state)
      let accessList: AccessList = request.accessList ?? []
      for (let round = 0; ; round++) {
        const outcome = await runCall({ ...request, accessList }, state, resolved.context, run.environment, { recordAccess: true })
        const found = outcome.accessed ?? []
        if (sameAccessList(found, accessList) || round === MAX_ACCESS_LIST_ROUNDS) return { accessList: found, gasUsed: outcome.gasUsed, outcome }
        accessList = found
      }
    })
  }

  /** The least gas `request` needs at `block`, found as geth's eth_estimateGas does; all its runs share one time box. */
  estimateGas(request: CallRequest, block: BlockSelector, overrides: CallOverrides = {}): Promise<bigint> {
    return this.lane.run('call', async (run) => {
      const resolved = this.blocks.resolve(block)
      const { environment } = run
      return withOverrides(environment, run.base(resolved.state), resolved.context, overrides, async (state, context) => {
        const sender = await readAccount(state, request.from ?? ZERO_ADDRESS)
        const recipient = request.to === undefined ? undefined : await readAccount(state, request.to)
        return estimateGas(
          { request, blockGasLimit: context.gasLimit, balance: sender?.balance ?? 0n, recipientHasCode: (recipient?.code.length ?? 0) > 0, transactionGasCap: transactionGasCap(environment.transactionCommon) },
          (gas) => runCall({ ...request, gas }, state, context, environment),
        )
      })
    })
  }
}
