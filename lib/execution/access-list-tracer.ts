/**
 * geth's access list tracer (eth/tracers/logger/access_list_tracer.go), on the EVM's step event:
 * each SLOAD and SSTORE lists its slot under the address whose storage the frame uses; BALANCE,
 * EXTCODESIZE, EXTCODECOPY, EXTCODEHASH, SELFDESTRUCT and the four calls list the address they
 * name, unless it is excluded (the sender, the recipient, the precompiles and the authorities:
 * warm anyway). A contract created in the run is listed only when an opcode names it, as in geth
 * and Anvil: the EIP-2929 warm set would list every creation.
 */
import type { InterpreterStep } from '@ethereumjs/evm'
import { bigIntToUnpaddedBytes, bytesToBigInt, generateAddress, hexToBytes, MAX_UINT64 } from '@ethereumjs/util'
import { toHex } from '../bytes.ts'
import type { AccessList, Authorization } from '../transactions/transaction.ts'
import type { Address, Hex } from '../types.ts'
import { authorityOf } from './authorizations.ts'
import type { DevnetEVM } from './devnet-evm.ts'
import { BALANCE, CALL, CALLCODE, DELEGATECALL, EXTCODECOPY, EXTCODEHASH, EXTCODESIZE, SELFDESTRUCT, SLOAD, SSTORE, STATICCALL } from './opcode-bytes.ts'

/** What geth leaves out of the list a run from `from` finds. */
export interface AccessListExclusions {
  readonly from: Address
  /** The recipient; undefined for a creation. */
  readonly to: Address | undefined
  /** The sender's nonce, which names a creation's address. */
  readonly nonce: bigint
  readonly authorizationList: readonly Authorization[]
  /** The chain's id, which valid authorizations name (or 0). */
  readonly chainId: bigint
}

/** geth's addressesToExclude: sender, recipient (or the address a creation deploys to), the active precompiles and each valid authorization's authority. */
export function excludedAddresses(evm: DevnetEVM, { from, to, nonce, authorizationList, chainId }: AccessListExclusions): ReadonlySet<Address> {
  const recipient = to ?? (toHex(generateAddress(hexToBytes(from), bigIntToUnpaddedBytes(nonce))) as Address)
  const excluded = new Set<Address>([from, recipient])
  for (const address of evm.precompiles.keys()) excluded.add(`0x${address.startsWith('0x') ? address.slice(2) : address}`.toLowerCase() as Address)
  for (const authorization of authorizationList) {
    const authorizedChain = bytesToBigInt(authorization[0])
    if ((authorizedChain !== 0n && authorizedChain !== chainId) || bytesToBigInt(authorization[2]) >= MAX_UINT64) continue
    const authority = authorityOf(authorization)
    if (authority !== undefined) excluded.add(authority)
  }
  return excluded
}

function addressOf(word: bigint): Address {
  return `0x${BigInt.asUintN(160, word).toString(16).padStart(40, '0')}` as Address
}

function slotOf(word: bigint): Hex {
  return `0x${word.toString(16).padStart(64, '0')}` as Hex
}

/** The addresses and slots one run touched, over the list it started from. */
export class AccessListTracer {
  /** Address to its slots (0x-prefixed, 32 bytes, lowercase). */
  private readonly touched = new Map<Address, Set<Hex>>()

  /** @param initial the list the run starts with (excluded addresses left out, as geth's NewAccessListTracer does) */
  constructor(
    initial: AccessList,
    private readonly excluded: ReadonlySet<Address>,
  ) {
    for (const { address, storageKeys } of initial) {
      if (excluded.has(address)) continue
      const slots = this.slotsOf(address)
      for (const key of storageKeys) slots.add(key)
    }
  }

  /** Runs `body` with the tracer listening to `evm`'s steps. */
  async during<T>(evm: DevnetEVM, body: () => Promise<T>): Promise<T> {
    evm.events.on('step', this.onStep)
    try {
      return await body()
    } finally {
      evm.events.off('step', this.onStep)
    }
  }

  /** The list, sorted by address and each address's slots (geth sorts both). */
  accessList(): AccessList {
    return [...this.touched]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([address, slots]) => ({ address, storageKeys: [...slots].sort() }))
  }

  /** Whether `other` found the same addresses and slots (geth's AccessListTracer.Equal). */
  sameAs(other: AccessListTracer): boolean {
    if (this.touched.size !== other.touched.size) return false
    for (const [address, slots] of this.touched) {
      const others = other.touched.get(address)
      if (others === undefined || others.size !== slots.size) return false
      for (const slot of slots) if (!others.has(slot)) return false
    }
    return true
  }

  private slotsOf(address: Address): Set<Hex> {
    let slots = this.touched.get(address)
    if (slots === undefined) {
      slots = new Set()
      this.touched.set(address, slots)
    }
    return slots
  }

  private addAddress(word: bigint): void {
    const address = addressOf(word)
    if (!this.excluded.has(address)) this.slotsOf(address)
  }

  private readonly onStep = (step: InterpreterStep): void => {
    const { stack } = step
    const length = stack.length
    switch (step.opcode.code) {
      case SLOAD:
      case SSTORE:
        if (length >= 1) this.slotsOf(step.address.toString() as Address).add(slotOf(stack[length - 1]!))
        return
      case EXTCODECOPY:
      case EXTCODEHASH:
      case EXTCODESIZE:
      case BALANCE:
      case SELFDESTRUCT:
        if (length >= 1) this.addAddress(stack[length - 1]!)
        return
      case DELEGATECALL:
      case CALL:
      case STATICCALL:
      case CALLCODE:
        // geth asks for five words before it reads the second.
        if (length >= 5) this.addAddress(stack[length - 2]!)
    }
  }
}
