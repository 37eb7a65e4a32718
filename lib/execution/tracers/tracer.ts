/**
 * What a tracer sees of a run, shaped as geth's tracing hooks (OnTxStart, OnEnter, OnExit,
 * OnOpcode, OnLog, OnTxEnd), and which tracer a trace request asks for. Values are the engine's
 * (bigint, bytes, lowercase addresses); the RPC edge formats the results.
 */
import type { Authorization } from '../../transactions/transaction.ts'
import type { Address } from '../../types.ts'

/** A call frame's kind, by the opcode (or transaction) that opened it, as geth names them. */
export type FrameType = 'CALL' | 'STATICCALL' | 'DELEGATECALL' | 'CALLCODE' | 'CREATE' | 'CREATE2' | 'SELFDESTRUCT'

/** The run being traced, before any code runs. */
export interface TraceStart {
  readonly from: Address
  /** Undefined for a creation. */
  readonly to: Address | undefined
  readonly input: Uint8Array
  readonly value: bigint
  /** The transaction's (or call's) whole gas limit, intrinsic gas included. */
  readonly gasLimit: bigint
  /** The block's fee recipient. */
  readonly coinbase: Address
  /** EIP-7702 authorizations (a type-4 transaction's, or a call's); empty for none. */
  readonly authorizationList: readonly Authorization[]
}

/** A frame entered (geth's OnEnter); `depth` 0 is the transaction's own frame. */
export interface FrameStart {
  readonly depth: number
  readonly type: FrameType
  readonly from: Address
  /** The callee (the code's address for DELEGATECALL and CALLCODE); undefined for a creation until it exits. */
  readonly to: Address | undefined
  readonly input: Uint8Array
  /** Gas handed to the frame (the stipend included). */
  readonly gas: bigint
  /** Undefined for STATICCALL (geth passes no value). */
  readonly value: bigint | undefined
}

/** A frame left (geth's OnExit). */
export interface FrameEnd {
  readonly depth: number
  /** Return data, the revert data of a revert, or the deployed code of a creation. */
  readonly output: Uint8Array
  readonly gasUsed: bigint
  /** geth's error text; undefined on success. */
  readonly error: string | undefined
  /** Whether the error was a REVERT (its output is the revert data). */
  readonly reverted: boolean
  /** The address a creation deployed to (or would have). */
  readonly createdAddress: Address | undefined
}

/** One opcode about to run (geth's OnOpcode). */
export interface OpcodeStep {
  readonly pc: number
  /** geth's name of the opcode. */
  readonly op: string
  /** Gas left before the opcode. */
  readonly gas: bigint
  /** What the opcode costs, as geth counts it (for calls: the gas handed to the callee too). */
  readonly cost: bigint
  /** 1 for the transaction's own frame (geth counts from 1). */
  readonly depth: number
  /** Bottom first (this step's own copy). */
  readonly stack: readonly bigint[]
  /** Memory before the opcode expands it (a copy, made when first read: read it before the step returns). */
  readonly memory: Uint8Array
  /** The return data of the frame's last call. */
  readonly returnData: Uint8Array
  /** The refund counter. */
  readonly refund: bigint
  /** The address whose storage the frame uses. */
  readonly address: Address
  /** For SLOAD: the word it is about to read. */
  readonly loaded: bigint | undefined
}

/** A log emitted (geth's OnLog). */
export interface TracedLog {
  readonly address: Address
  readonly topics: readonly Uint8Array[]
  readonly data: Uint8Array
  /** Its index among the block's logs. */
  readonly index: number
}

/** The hooks a tracer implements (any subset). */
export interface TracerHooks {
  onTxStart?(start: TraceStart): void
  onEnter?(frame: FrameStart): void
  onExit?(frame: FrameEnd): void
  onOpcode?(step: OpcodeStep): void
  /** The last opcode reported failed before it ran (out of gas, stack under- or overflow): geth logs the error on that step, at `cost` where it counts less than reported (a charge refused before a call's callee gas was worked out). */
  onOpcodeFault?(error: string, cost?: bigint): void
  onLog?(log: TracedLog): void
  /** `gasUsed` as the receipt has it (refunds applied). */
  onTxEnd?(gasUsed: bigint): void
}

/** A tracer: hooks, then a result once the run is over. */
export interface Tracer<Result> extends TracerHooks {
  result(): Result | Promise<Result>
}

/** geth's struct logger options (all off by default). */
export interface StructLoggerConfig {
  readonly enableMemory: boolean
  readonly disableStack: boolean
  readonly disableStorage: boolean
  readonly enableReturnData: boolean
}

/** geth's callTracer options. */
export interface CallTracerConfig {
  readonly onlyTopCall: boolean
  readonly withLog: boolean
}

/** geth's prestateTracer options. */
export interface PrestateTracerConfig {
  /** The state the run changed, before and after ({ pre, post }), rather than all it touched as it was before. */
  readonly diffMode: boolean
  readonly disableCode: boolean
  readonly disableStorage: boolean
  readonly includeEmpty: boolean
}

/** What `trace_replayBlockTransactions` asks for besides the output: Parity's flat traces, the state diff. */
export interface ReplayConfig {
  readonly trace: boolean
  readonly stateDiff: boolean
}

/**
 * The tracer a trace request names, with its options, and its time box: geth's `timeout` in ms
 * (default: the chain's call timeout; 0 or less: over before it starts). `parity` is the
 * `trace_*` methods' flat list; `replay` is `trace_replayBlockTransactions`'s.
 */
export type TracerSpec = (
  | { readonly tracer: 'structLogger'; readonly config: StructLoggerConfig }
  | { readonly tracer: 'callTracer'; readonly config: CallTracerConfig }
  | { readonly tracer: 'prestateTracer'; readonly config: PrestateTracerConfig }
  | { readonly tracer: '4byteTracer' }
  | { readonly tracer: 'noopTracer' }
  | { readonly tracer: 'parity' }
  | { readonly tracer: 'replay'; readonly config: ReplayConfig }
) & { readonly timeoutMs?: number }

/** The `trace_*` methods' tracer (and Otterscan's, over the same frames), in the chain's call time box. */
export const PARITY_TRACER: TracerSpec = { tracer: 'parity' }
