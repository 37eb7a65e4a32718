/**
 * geth's prestateTracer (without diffMode): every account and storage slot a run touched —
 * sender, recipient, coinbase, call and creation targets, BALANCE / EXTCODE* / SELFDESTRUCT
 * operands, SLOAD / SSTORE slots — with its value before the run. Values are read from the state
 * the run started on, once it is over (so a forked chain loads each key once).
 */
import { BIGINT_0 } from '@ethereumjs/util'
import { toHex } from '../../bytes.ts'
import { readAccount, readStorage } from '../../state/state-source.ts'
import type { StateView } from '../../state/state-view.ts'
import type { Address } from '../../types.ts'
import { isDelegated } from '../authorizations.ts'
import type { FrameEnd, OpcodeStep, PrestateTracerConfig, TraceStart, Tracer } from './tracer.ts'

/** An account as it was before the run. */
export interface PrestateAccount {
  readonly balance: bigint
  readonly nonce: bigint
  /** Absent when the account has no code (or with `disableCode`). */
  readonly code: Uint8Array | undefined
  /** Absent when the account has no code. */
  readonly codeHash: Uint8Array | undefined
  /** The touched slots and their values (absent with `disableStorage`). */
  readonly storage: ReadonlyMap<bigint, bigint> | undefined
}

/** The touched accounts, by address in ascending order (as geth's JSON map sorts them). */
export type Prestate = ReadonlyMap<Address, PrestateAccount>

/** Opcodes whose top stack word names an account the run reads. */
const ACCOUNT_OPERANDS = new Set(['BALANCE', 'EXTCODESIZE', 'EXTCODECOPY', 'EXTCODEHASH', 'SELFDESTRUCT'])
const CALLS = new Set(['CALL', 'CALLCODE', 'DELEGATECALL', 'STATICCALL'])

function addressOf(word: bigint): Address {
  return `0x${BigInt.asUintN(160, word).toString(16).padStart(40, '0')}` as Address
}

/** Collects what a run touches, then reads it from the state before the run. */
export class PrestateTracer implements Tracer<Prestate> {
  private readonly slots = new Map<Address, Set<bigint>>()
  /** Accounts whose EIP-7702 delegate counts as touched too (the recipient, call targets). */
  private readonly callees = new Set<Address>()

  constructor(
    private readonly config: PrestateTracerConfig,
    /** The state the run started on. */
    private readonly before: StateView,
  ) {}

  onTxStart(start: TraceStart): void {
    this.touch(start.from)
    if (start.to !== undefined) this.touchCallee(start.to)
    this.touch(start.coinbase)
  }

  onOpcode(step: OpcodeStep): void {
    const { stack, op } = step
    const top = stack.length - 1
    if ((op === 'SLOAD' || op === 'SSTORE') && top >= 0) this.touch(step.address).add(stack[top])
    else if (ACCOUNT_OPERANDS.has(op) && top >= 0) this.touch(addressOf(stack[top]))
    else if (CALLS.has(op) && top >= 4) this.touchCallee(addressOf(stack[top - 1]))
  }

  onExit(end: FrameEnd): void {
    if (end.createdAddress !== undefined) this.touch(end.createdAddress)
  }

  async result(): Promise<Prestate> {
    const { config, before } = this
    for (const callee of this.callees) {
      const code = (await readAccount(before, callee))?.code
      if (code !== undefined && isDelegated(code)) this.touch(toHex(code.subarray(3, 23)) as Address)
    }
    const accounts = new Map<Address, PrestateAccount>()
    for (const address of [...this.slots.keys()].sort()) {
      const account = await readAccount(before, address)
      const balance = account?.balance ?? BIGINT_0
      const nonce = account?.nonce ?? BIGINT_0
      const code = account !== undefined && account.code.length > 0 ? account.code : undefined
      if (!config.includeEmpty && balance === 0n && nonce === 0n && code === undefined) continue
      let storage: Map<bigint, bigint> | undefined
      if (!config.disableStorage) {
        storage = new Map()
        for (const slot of this.slots.get(address)!) storage.set(slot, await readStorage(before, address, slot))
      }
      accounts.set(address, { balance, nonce, code: config.disableCode ? undefined : code, codeHash: code === undefined ? undefined : account!.codeHash, storage })
    }
    return accounts
  }

  /** Marks a called account touched, and its EIP-7702 delegate with it. */
  private touchCallee(address: Address): void {
    this.touch(address)
    this.callees.add(address)
  }

  /** Marks `address` touched; returns its touched slots. */
  private touch(address: Address): Set<bigint> {
    let slots = this.slots.get(address)
    if (slots === undefined) {
      slots = new Set()
      this.slots.set(address, slots)
    }
    return slots
  }
}
