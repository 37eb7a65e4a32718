/**
 * `eth_call`, `eth_createAccessList` and `eth_estimateGas` at a block, never changing state: each
 * on the call lane (its own EVM, time-boxed, letting ticks and other requests go on while it runs).
 */
import { AccessListTracer, excludedAddresses } from '../execution/tracers/access-list-tracer.ts'
import type { CallLane } from '../execution/call-lane.ts'
import { estimateGas } from '../execution/estimate-gas.ts'
import { runCall, type CallOutcome, type CallRequest } from '../execution/run-call.ts'
import { transactionGasCap } from '../transactions/decode.ts'
import type { AccessList } from '../transactions/transaction.ts'
import { withOverrides, type CallOverrides } from '../state/state-overrides.ts'
import { readAccount } from '../state/state-source.ts'
import { ZERO_ADDRESS } from '../types.ts'
import type { BlockResolver, BlockSelector } from './block-resolver.ts'

/**
 * geth runs until a run finds nothing new, within its RPC timeout. Each run's list holds the one
 * before, so only a contract that reads more the more it is given gets this far; its last list stands.
 */
const MAX_ACCESS_LIST_ROUNDS = 10

/** `eth_createAccessList`'s answer: the list, the gas a transaction with it uses, and how the last run ended. */
export interface AccessListResult {
  readonly accessList: AccessList
  readonly gasUsed: bigint
  readonly outcome: CallOutcome
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
   * with the list found so far, traced, until a run finds nothing new; the gas used with the
   * final list. The list leaves out the sender, the recipient, the precompiles and the
   * authorities (geth's addressesToExclude), from the request's own list too.
   */
  createAccessList(request: CallRequest, block: BlockSelector): Promise<AccessListResult> {
    return this.lane.run('call', async (run) => {
      const resolved = this.blocks.resolve(block)
      const state = run.base(resolved.state)
      const { environment } = run
      const from = request.from ?? ZERO_ADDRESS
      const excluded = excludedAddresses(environment.evm, {
        from,
        to: request.to,
        nonce: (await readAccount(state, from))?.nonce ?? 0n,
        authorizationList: request.authorizationList ?? [],
        chainId: environment.chainId.value,
      })
      let found = new AccessListTracer(request.accessList ?? [], excluded)
      for (let round = 0; ; round++) {
        const accessList = found.accessList()
        const tracer = new AccessListTracer(accessList, excluded)
        const outcome = await tracer.during(environment.evm, () => runCall({ ...request, accessList }, state, resolved.context, environment))
        if (tracer.sameAs(found) || round === MAX_ACCESS_LIST_ROUNDS) return { accessList, gasUsed: outcome.gasUsed, outcome }
        found = tracer
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
