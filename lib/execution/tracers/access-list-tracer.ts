/**
 * geth's access list tracer (eth/tracers/logger/access_list_tracer.go): each SLOAD and SSTORE
 * lists its slot under the address whose storage the frame uses; BALANCE, EXTCODESIZE,
 * EXTCODECOPY, EXTCODEHASH, SELFDESTRUCT and the four calls list the address they
 * name, unless it is excluded (the sender, the recipient, the precompiles and the authorities:
 * warm anyway). A contract created in the run is listed only when an opcode names it, as in geth
 * and Anvil: the EIP-2929 warm set would list every creation. It listens by wrapping those
 * opcodes' handlers in the run's EVM, so an opcode is seen only once its gas is paid (where geth's
 * OnOpcode hook runs) and every other opcode runs as fast as untraced.
 */
import type { EVM } from '@ethereumjs/evm'
import { bigIntToUnpaddedBytes, bytesToBigInt, generateAddress, hexToBytes, MAX_UINT64 } from '@ethereumjs/util'
import { addressOfWord, toHex } from '../../bytes.ts'
import type { AccessList, Authorization } from '../../transactions/transaction.ts'
import type { Address, Hex } from '../../types.ts'
import { authorityOf } from '../authorizations.ts'
import type { DevnetEVM } from '../devnet-evm.ts'
import { BALANCE, CALL, CALLCODE, DELEGATECALL, EXTCODECOPY, EXTCODEHASH, EXTCODESIZE, SELFDESTRUCT, SLOAD, SSTORE, STATICCALL } from '../opcode-bytes.ts'

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

type OpcodeMap = EVM['_opcodeMap']
type OpHandler = OpcodeMap[number]['opHandler']
/** What the tracer reads of the library's run state. */
interface TracedRunState {
  stack: { readonly length: number; peek(count: number): bigint[] }
  interpreter: { getAddress(): { toString(): string } }
}

/** The opcodes the tracer reads, and how many stack words each needs before it reads any (geth's own checks). */
const TRACED_OPCODES: ReadonlyArray<readonly [number, number]> = [
  [SLOAD, 1],
  [SSTORE, 1],
  [EXTCODECOPY, 1],
  [EXTCODEHASH, 1],
  [EXTCODESIZE, 1],
  [BALANCE, 1],
  [SELFDESTRUCT, 1],
  [DELEGATECALL, 5],
  [CALL, 5],
  [STATICCALL, 5],
  [CALLCODE, 5],
]

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

  /** Runs `body` with the tracer reading the opcodes `evm` runs (its handlers wrapped for the run, then restored). */
  async during<T>(evm: DevnetEVM, body: () => Promise<T>): Promise<T> {
    const opcodes = (evm as unknown as { _opcodeMap: OpcodeMap })._opcodeMap
    const handlers = TRACED_OPCODES.map(([code]) => opcodes[code].opHandler)
    TRACED_OPCODES.forEach(([code, depth], i) => {
      const handler = handlers[i]!
      opcodes[code].opHandler = ((runState: TracedRunState, common: unknown) => {
        if (runState.stack.length >= depth) this.record(code, runState)
        return (handler as (runState: unknown, common: unknown) => unknown)(runState, common)
      }) as OpHandler
    })
    try {
      return await body()
    } finally {
      TRACED_OPCODES.forEach(([code], i) => (opcodes[code].opHandler = handlers[i]!))
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
    const address = addressOfWord(word)
    if (!this.excluded.has(address)) this.slotsOf(address)
  }

  /** What the opcode `code` about to run names (geth's OnOpcode of the access list tracer). */
  private record(code: number, { stack, interpreter }: TracedRunState): void {
    if (code === SLOAD || code === SSTORE) this.slotsOf(interpreter.getAddress().toString() as Address).add(slotOf(stack.peek(1)[0]!))
    else if (code === DELEGATECALL || code === CALL || code === STATICCALL || code === CALLCODE) this.addAddress(stack.peek(2)[1]!)
    else this.addAddress(stack.peek(1)[0]!)
  }
}
