/**
 * geth's prestateTracer: every account and storage slot a run touched — sender, recipient,
 * coinbase, EIP-7702 authorities, call and creation targets, BALANCE / EXTCODE* / SELFDESTRUCT operands, SLOAD /
 * SSTORE slots — with its value before the run (or, in diffMode, what the run changed:
 * prestate-diff.ts). Values are read from the state the run started on, once it is over (so a
 * forked chain loads each key once).
 */
import { BIGINT_0 } from '@ethereumjs/util'
import { addressOfWord, toHex } from '../../bytes.ts'
import { EMPTY_CODE } from '../../state/account.ts'
import { readAccount, readStorage } from '../../state/state-source.ts'
import type { StateView } from '../../state/state-view.ts'
import type { Address } from '../../types.ts'
import { authorityOf, isDelegated } from '../authorizations.ts'
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

/** An account's fields at one state, and the touched slots' values there. */
export interface AccountAt {
  readonly balance: bigint
  readonly nonce: bigint
  /** Empty for none (or an account that does not exist). */
  readonly code: Uint8Array
  /** Undefined for no code. */
  readonly codeHash: Uint8Array | undefined
  readonly storage: ReadonlyMap<bigint, bigint>
}

/** What a run touched: each account with its touched slots, and the accounts that ran SELFDESTRUCT. */
export interface Touched {
  readonly accounts: ReadonlyMap<Address, ReadonlySet<bigint>>
  readonly selfdestructed: ReadonlySet<Address>
}

/** Opcodes whose top stack word names an account the run reads. */
const ACCOUNT_OPERANDS = new Set(['BALANCE', 'EXTCODESIZE', 'EXTCODECOPY', 'EXTCODEHASH', 'SELFDESTRUCT'])
const CALLS = new Set(['CALL', 'CALLCODE', 'DELEGATECALL', 'STATICCALL'])

/** `address` at `view`, with the values of `slots`. */
export async function accountAt(view: StateView, address: Address, slots: Iterable<bigint>): Promise<AccountAt> {
  const account = await readAccount(view, address)
  const code = account?.code ?? EMPTY_CODE
  const storage = new Map<bigint, bigint>()
  for (const slot of slots) storage.set(slot, await readStorage(view, address, slot))
  return { balance: account?.balance ?? BIGINT_0, nonce: account?.nonce ?? BIGINT_0, code, codeHash: code.length > 0 ? account!.codeHash : undefined, storage }
}

/** Whether an account is empty as geth's prestateTracer judges it: no balance, nonce or code. */
export function isEmpty(account: AccountAt): boolean {
  return account.balance === 0n && account.nonce === 0n && account.code.length === 0
}

/** `account` as a prestate lists it, with `storage` as its slots. */
export function prestateOf(account: AccountAt, storage: ReadonlyMap<bigint, bigint>, config: PrestateTracerConfig): PrestateAccount {
  const code = account.code.length > 0 && !config.disableCode ? account.code : undefined
  return { balance: account.balance, nonce: account.nonce, code, codeHash: account.codeHash, storage: config.disableStorage ? undefined : storage }
}

/** Collects what a run touches, then reads it from the state before the run. */
export class PrestateTracer implements Tracer<Prestate> {
  private readonly slots = new Map<Address, Set<bigint>>()
  /** Accounts whose EIP-7702 delegate counts as touched too (the recipient, call targets). */
  private readonly callees = new Set<Address>()
  private readonly selfdestructed = new Set<Address>()
  /** The last opcode, recorded once the next step or the frame's end shows it ran (geth records nothing of a step that failed before it ran). */
  private last: OpcodeStep | undefined

  constructor(
    private readonly config: PrestateTracerConfig,
    /** The state the run started on. */
    private readonly before: StateView,
  ) {}

  onTxStart(start: TraceStart): void {
    this.touch(start.from)
    if (start.to !== undefined) this.touchCallee(start.to)
    this.touch(start.coinbase)
    // geth looks up every authority that recovers, valid authorization or not.
    for (const authorization of start.authorizationList) {
      const authority = authorityOf(authorization)
      if (authority !== undefined) this.touch(authority)
    }
  }

  onOpcode(step: OpcodeStep): void {
    this.recordLast()
    this.last = step
  }

  /** The last opcode failed before it ran (out of gas): geth's tracer records nothing of such a step. */
  onOpcodeFault(): void {
    this.last = undefined
  }

  onExit(end: FrameEnd): void {
    this.recordLast()
    if (end.createdAddress !== undefined) this.touch(end.createdAddress)
  }

  /** What the run touched, the EIP-7702 delegates of the called accounts included (read from the state before the run). */
  async touched(): Promise<Touched> {
    this.recordLast()
    for (const callee of this.callees) {
      const code = (await readAccount(this.before, callee))?.code
      if (code !== undefined && isDelegated(code)) this.touch(toHex(code.subarray(3, 23)) as Address)
    }
    return { accounts: this.slots, selfdestructed: this.selfdestructed }
  }

  async result(): Promise<Prestate> {
    const { config, before } = this
    const { accounts: touched } = await this.touched()
    const accounts = new Map<Address, PrestateAccount>()
    for (const address of [...touched.keys()].sort()) {
      const account = await accountAt(before, address, config.disableStorage ? [] : touched.get(address)!)
      if (!config.includeEmpty && isEmpty(account)) continue
      accounts.set(address, prestateOf(account, account.storage, config))
    }
    return accounts
  }

  /** Marks a called account touched, and its EIP-7702 delegate with it. */
  private touchCallee(address: Address): void {
    this.touch(address)
    this.callees.add(address)
  }

  /** Records what the last opcode touched, now that it is known to have run (see {@link onOpcodeFault}). */
  private recordLast(): void {
    const step = this.last
    if (step === undefined) return
    this.last = undefined
    const { stack, op } = step
    const top = stack.length - 1
    if ((op === 'SLOAD' || op === 'SSTORE') && top >= 0) this.touch(step.address).add(stack[top])
    else if (ACCOUNT_OPERANDS.has(op) && top >= 0) {
      this.touch(addressOfWord(stack[top]))
      if (op === 'SELFDESTRUCT') this.selfdestructed.add(step.address)
    } else if (CALLS.has(op) && top >= 4) this.touchCallee(addressOfWord(stack[top - 1]))
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
