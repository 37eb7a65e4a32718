/**
 * Anvil's `anvil_dealERC20` and `anvil_setERC20Allowance`: set an ERC-20 balance or allowance by
 * finding the storage slot the token's own getter reads (a `balanceOf` / `allowance` call with
 * its storage reads traced, then each touched slot tried until the getter returns the
 * value written there) and setting it at `latest` and `pending` at once.
 */
import { bytesToBigInt, hexToBytes } from '@ethereumjs/util'
import type { Serializer } from '../clock/serializer.ts'
import { ExecutionFailedError } from '../errors.ts'
import { AccessListTracer } from '../execution/tracers/access-list-tracer.ts'
import type { ExecutionEnvironment } from '../execution/execution-environment.ts'
import { runCall } from '../execution/run-call.ts'
import { StateLayer } from '../state/state-layer.ts'
import type { Address } from '../types.ts'
import { TAG, type BlockResolver } from './block-resolver.ts'
import type { TestControls } from './test-controls.ts'

/** `balanceOf(address)` and `allowance(address,address)` selectors. */
const BALANCE_OF = '70a08231'
const ALLOWANCE = 'dd62ed3e'

function word(address: Address): string {
  return address.slice(2).padStart(64, '0')
}

/** What the token controls use. */
export interface TokenParts {
  readonly blocks: BlockResolver
  readonly environment: ExecutionEnvironment
  readonly controls: TestControls
  readonly serialize: Serializer
}

/** Sets ERC-20 balances and allowances by storage. */
export class TokenBalances {
  constructor(private readonly parts: TokenParts) {}

  /** Gives `owner` a balance of `amount` of `token`. */
  deal(owner: Address, token: Address, amount: bigint): Promise<void> {
    return this.set(token, `0x${BALANCE_OF}${word(owner)}`, amount, 'balance')
  }

  /** Lets `spender` spend `amount` of `owner`'s `token`. */
  setAllowance(owner: Address, spender: Address, token: Address, amount: bigint): Promise<void> {
    return this.set(token, `0x${ALLOWANCE}${word(owner)}${word(spender)}`, amount, 'allowance')
  }

  private async set(token: Address, getter: `0x${string}`, amount: bigint, what: string): Promise<void> {
    const slot = await this.parts.serialize(() => this.findSlot(token, hexToBytes(getter), amount))
    if (slot === undefined) throw new ExecutionFailedError(`Unable to set ERC20 ${what}, no slot found`)
    await this.parts.controls.setStorageAt(token, slot, amount)
  }

  /** The slot of `token` whose value `getter` returns, tried with `amount` written there. */
  private async findSlot(token: Address, getter: Uint8Array, amount: bigint): Promise<bigint | undefined> {
    const { blocks, environment } = this.parts
    const { state, context } = blocks.resolve(TAG.latest)
    const request = { to: token, data: getter }
    const probe = new AccessListTracer([], new Set())
    await probe.during(environment.evm, () => runCall(request, state, context, environment))
    const touched = probe.accessList().find((entry) => entry.address === token)?.storageKeys ?? []
    for (const key of touched) {
      const slot = BigInt(key)
      const trial = new StateLayer(state)
      trial.putStorage(token, slot, amount)
      const outcome = await runCall(request, trial, context, environment)
      if (outcome.error === undefined && outcome.returnValue.length >= 32 && bytesToBigInt(outcome.returnValue.subarray(0, 32)) === amount) return slot
    }
    return undefined
  }
}
