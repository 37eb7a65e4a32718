/** `eth_call` and `eth_estimateGas` at a block: one EVM run at a time, never changing state. */
import type { Serializer } from '../clock/serializer.ts'
import { estimateGas } from '../execution/estimate-gas.ts'
import type { ExecutionEnvironment } from '../execution/execution-environment.ts'
import { runCall, type CallOutcome, type CallRequest } from '../execution/run-call.ts'
import { readAccount } from '../state/state-source.ts'
import { ZERO_ADDRESS } from '../types.ts'
import type { BlockResolver, BlockSelector } from './block-resolver.ts'

/** Calls and gas estimates. */
export class Calls {
  constructor(
    private readonly blocks: BlockResolver,
    private readonly environment: ExecutionEnvironment,
    private readonly serialize: Serializer,
  ) {}

  /** Runs `request` on a throwaway copy of the state at `block`. */
  call(request: CallRequest, block: BlockSelector): Promise<CallOutcome> {
    return this.serialize(async () => {
      const { state, context } = this.blocks.resolve(block)
      return runCall(request, state, context, this.environment)
    })
  }

  /** The least gas `request` needs at `block`, found as geth's eth_estimateGas does. */
  estimateGas(request: CallRequest, block: BlockSelector): Promise<bigint> {
    return this.serialize(async () => {
      const { state, context } = this.blocks.resolve(block)
      const sender = await readAccount(state, request.from ?? ZERO_ADDRESS)
      const recipient = request.to === undefined ? undefined : await readAccount(state, request.to)
      return estimateGas(
        { request, blockGasLimit: context.gasLimit, balance: sender?.balance ?? 0n, recipientHasCode: (recipient?.code.length ?? 0) > 0 },
        (gas) => runCall({ ...request, gas }, state, context, this.environment),
      )
    })
  }
}
