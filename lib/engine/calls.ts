/** `eth_call` and `eth_estimateGas` at a block: one EVM run at a time, never changing state. */
import type { Serializer } from '../clock/serializer.ts'
import { estimateGas } from '../execution/estimate-gas.ts'
import type { ExecutionEnvironment } from '../execution/execution-environment.ts'
import { runCall, type CallOutcome, type CallRequest } from '../execution/run-call.ts'
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
  constructor(
    private readonly blocks: BlockResolver,
    private readonly environment: ExecutionEnvironment,
    private readonly serialize: Serializer,
  ) {}

  /** Runs `request` on a throwaway copy of the state at `block`, with geth's state and block overrides. */
  call(request: CallRequest, block: BlockSelector, overrides: CallOverrides = {}): Promise<CallOutcome> {
    return this.serialize(async () => {
      const { state, context } = this.blocks.resolve(block)
      return withOverrides(this.environment, state, context, overrides, (view, at) => runCall(request, view, at, this.environment))
    })
  }

  /**
   * The access list `request` needs at `block`, found as geth's eth_createAccessList does: run
   * with the list found so far until it stops changing; the gas used with the final list.
   */
  createAccessList(request: CallRequest, block: BlockSelector): Promise<AccessListResult> {
    return this.serialize(async () => {
      const { state, context } = this.blocks.resolve(block)
      let accessList: AccessList = request.accessList ?? []
      for (let round = 0; ; round++) {
        const outcome = await runCall({ ...request, accessList }, state, context, this.environment, { recordAccess: true })
        const found = outcome.accessed ?? []
        if (sameAccessList(found, accessList) || round === MAX_ACCESS_LIST_ROUNDS) return { accessList: found, gasUsed: outcome.gasUsed, outcome }
        accessList = found
      }
    })
  }

  /** The least gas `request` needs at `block`, found as geth's eth_estimateGas does. */
  estimateGas(request: CallRequest, block: BlockSelector, overrides: CallOverrides = {}): Promise<bigint> {
    return this.serialize(async () => {
      const resolved = this.blocks.resolve(block)
      return withOverrides(this.environment, resolved.state, resolved.context, overrides, async (state, context) => {
        const sender = await readAccount(state, request.from ?? ZERO_ADDRESS)
        const recipient = request.to === undefined ? undefined : await readAccount(state, request.to)
        return estimateGas(
          { request, blockGasLimit: context.gasLimit, balance: sender?.balance ?? 0n, recipientHasCode: (recipient?.code.length ?? 0) > 0 },
          (gas) => runCall({ ...request, gas }, state, context, this.environment),
        )
      })
    })
  }
}
