/**
 * The chain id a running chain answers and signs with. `anvil_setChainId` changes it, as Anvil
 * changes its EVM environment's: from then on the CHAINID opcode, the chain id new transactions
 * must be signed for, the dev accounts' signatures and `eth_chainId` all follow it. The chain's
 * Commons read it live: ethereumjs asks a Common for its chain id through `chainId()` only, and
 * a Common's copies (the call lane's EVMs) keep the override. Everything else holds this object,
 * never its value (the call lane copies its environment).
 */
import type { Common } from '@ethereumjs/common'

/** One chain's chain id, changeable while it runs. */
export class LiveChainId {
  constructor(private current: bigint) {}

  /** The chain id in effect. */
  get value(): bigint {
    return this.current
  }

  /** Makes `value` the chain id from now on. */
  set(value: bigint): void {
    this.current = value
  }

  /** `common`, answering this chain id from now on (and its copies with it). */
  bind(common: Common): Common {
    common.chainId = () => this.current
    return common
  }
}
