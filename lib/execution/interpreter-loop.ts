/**
 * The devnet's subclass of @ethereumjs/evm's Interpreter (10.1.3, pinned): jump-destination
 * analysis cached per code array, and a step loop that awaits an opcode only when its gas or
 * its handler is asynchronous (the library's `runStep` is an async function: a promise and a
 * microtask for every PUSH, DUP and ADD). devnet-evm.ts builds its interpreters from it.
 */
import type { Common } from '@ethereumjs/common'
import { EVMError } from '@ethereumjs/evm'
import { CodeAnalysis } from './code-analysis.ts'
import { JUMP, JUMPI, REVERT } from './opcode-bytes.ts'

/** What the interpreter reads of the EVM that runs it (the devnet's). */
export interface InterpretingEVM {
  /** Jump analyses by code array (code arrays are kept stable by the state layer). */
  readonly jumpAnalyses: WeakMap<Uint8Array, JumpAnalysis>
  /** Whether none of the Amsterdam or binary-tree frame EIPs is active (the trimmed loop applies). */
  readonly plainFrames: boolean
  /** Whether code is analysed by {@link CodeAnalysis} (plain frames, no EIP-8024 immediates), else by the library. */
  readonly scansJumpsOnly: boolean
  readonly DEBUG: boolean
  readonly events: { listenerCount(event: string): number }
  /** The opcode table by opcode byte. */
  readonly _opcodeMap: readonly OpcodeEntry[]
}

/** One opcode as the library's tables hold it: its fixed facts, its handler and, with dynamic gas, its gas handler. */
type OpcodeEntry = {
  opcodeInfo: { code: number; feeBigInt: bigint; dynamicGas: boolean; isAsync: boolean; isInvalid: boolean }
  opHandler: (runState: unknown, common: Common) => unknown
  gasHandler: (runState: unknown, gas: bigint, common: Common) => bigint | Promise<bigint>
}
/** What the library's jump-destination analysis of one code array yields. */
export type JumpAnalysis = { jumps: unknown; pushes: unknown; opcodesCached: OpcodeEntry[] }
type InterpreterRunState = {
  code: Uint8Array
  programCounter: number
  opCode: number
  gasLeft: bigint
  gasRefund: bigint
  stateGasSpilled?: bigint
  validJumps: unknown
  cachedPushes: unknown
  shouldDoJumpAnalysis: boolean
  /** The frame's memory; `read` is its class's method unless {@link cachingInterpreter}'s step hook stands in for it. */
  memory: { read?: (offset: number, length: number) => Uint8Array }
}
type RunResult = { runState?: InterpreterRunState; exceptionError?: EVMError }
/** An interpreter as the devnet's EVM drives it: what it reads of the library's Interpreter. */
export type InterpreterInstance = {
  _result: { selfdestruct?: Map<string, string>; createdAddresses?: Set<string>; logs: unknown[]; returnValue?: Uint8Array }
  _evm: InterpretingEVM
  _runState: InterpreterRunState
  common: Common
  profilerOpts?: { enabled?: boolean }
  run(code: Uint8Array, opts?: { pc?: number }): Promise<RunResult>
  useGas(amount: bigint, context: unknown): void
  _getValidJumpDestinations(code: Uint8Array): JumpAnalysis
  _runStepHook(dynamicFee: bigint, gasLeft: bigint, memorySize: bigint): Promise<void>
}
/** The library's Interpreter class (not exported by it), or a subclass. */
export type InterpreterClass = new (...args: unknown[]) => InterpreterInstance

/** The opcodes whose presence triggers jump analysis, as in the library (0x5e was EIP-2315's JUMPSUB; it is MCOPY now). */
const JUMP_OPCODES = new Set([JUMP, JUMPI, 0x5e])

/** What the step event carries as REVERT's data here: nothing (see `_runStepHook`). */
const NO_REVERT_DATA = (): Uint8Array => new Uint8Array(0)

function isEVMError(error: unknown): error is EVMError {
  return typeof error === 'object' && error !== null && (error as { errorType?: string }).errorType === 'EVMError'
}

/**
 * The library's interpreter with jump analysis cached per code array, and a step loop that
 * awaits only what is asynchronous, and a step event that reads no revert data. The Interpreter
 * class is not exported; it is taken from a frame the library runs itself (its result's runState
 * holds the interpreter: devnet-evm.ts), which works whether the library is bundled or not.
 */
export function cachingInterpreter(Interpreter: InterpreterClass): InterpreterClass {
  const analyse = Interpreter.prototype._getValidJumpDestinations as (code: Uint8Array) => JumpAnalysis
  return class CachingInterpreter extends Interpreter {
    override _getValidJumpDestinations(code: Uint8Array): JumpAnalysis {
      const evm = this._evm
      const cache = evm.jumpAnalyses
      let analysis = cache.get(code)
      if (analysis === undefined) {
        analysis = evm.scansJumpsOnly ? new CodeAnalysis(code, evm._opcodeMap) : analyse.call(this, code)
        cache.set(code, analysis)
      }
      return analysis
    }

    /**
     * The library's step event (tracing), without the revert data it reads for a REVERT before
     * the step's gas is checked: no tracer here reads it, and a stretch the step cannot pay for
     * threw a RangeError past 2^32 bytes (an internal error where geth traces the failed step),
     * or was allocated below that (1 GiB). The library reads it before its first await.
     */
    override _runStepHook(dynamicFee: bigint, gasLeft: bigint, memorySize: bigint): Promise<void> {
      if (this._runState.opCode !== REVERT) return super._runStepHook(dynamicFee, gasLeft, memorySize)
      const { memory } = this._runState
      memory.read = NO_REVERT_DATA
      try {
        return super._runStepHook(dynamicFee, gasLeft, memorySize)
      } finally {
        delete memory.read
      }
    }

    /**
     * The library's `Interpreter.run` for legacy code, untraced and unprofiled, under rules
     * without Amsterdam's or binary trees' frame EIPs (where its loop does only this): its
     * `runStep` is an async function, so every opcode cost a promise and a microtask; here an
     * opcode is awaited only when its gas or its handler is asynchronous (storage not yet
     * loaded, SSTORE, account reads, calls and creations), and PUSH, DUP, arithmetic, memory and
     * jumps run straight on (memory-gas.ts makes memory's gas synchronous). Otherwise, the
     * library's.
     */
    override run(code: Uint8Array, opts: { pc?: number } = {}): Promise<RunResult> {
      const evm = this._evm
      if (!evm.plainFrames || code[0] === 0xef || evm.DEBUG || this.profilerOpts?.enabled === true || evm.events.listenerCount('step') > 0) return super.run(code, opts)
      return this.runPlain(code, opts.pc)
    }

    private async runPlain(code: Uint8Array, pc: number | undefined): Promise<RunResult> {
      const runState = this._runState
      runState.code = code
      runState.programCounter = pc ?? runState.programCounter
      const start = runState.programCounter
      if (start !== 0 && (start < 0 || start >= code.length)) throw new Error('Internal error: program counter not in range')
      const opcodes = this._evm._opcodeMap
      let analysed = false
      let exceptionError: EVMError | undefined
      while (runState.programCounter < code.length) {
        const opcode = code[runState.programCounter]
        // Jump analysis only for code that jumps, as the library does.
        if (!analysed && JUMP_OPCODES.has(opcode)) {
          const { jumps, pushes } = this._getValidJumpDestinations(code)
          runState.validJumps = jumps
          runState.cachedPushes = pushes
          runState.shouldDoJumpAnalysis = false
          analysed = true
        }
        const entry = opcodes[opcode]
        runState.opCode = entry.opcodeInfo.code
        try {
          const pending = this.step(entry)
          if (pending !== undefined) await pending
        } catch (error) {
          if (!isEVMError(error)) throw error
          // STOP is not an exception.
          if (error.error !== EVMError.errorMessages.STOP) exceptionError = error
          break
        }
      }
      return { runState, exceptionError }
    }

    /** The library's `runStep` without its tracing, profiling and binary-tree branches: a promise only if the opcode's gas or handler is asynchronous. */
    private step(entry: OpcodeEntry): Promise<unknown> | undefined {
      if (!entry.opcodeInfo.dynamicGas) return this.execute(entry, entry.opcodeInfo.feeBigInt)
      const gas = entry.gasHandler(this._runState, entry.opcodeInfo.feeBigInt, this.common)
      return gas instanceof Promise ? gas.then((amount) => this.execute(entry, amount)) : this.execute(entry, gas)
    }

    private execute(entry: OpcodeEntry, gas: bigint): Promise<unknown> | undefined {
      const info = entry.opcodeInfo
      if (info.isInvalid) throw new EVMError(EVMError.errorMessages.INVALID_OPCODE)
      this.useGas(gas, info)
      this._runState.programCounter++
      const result = entry.opHandler(this._runState, this.common)
      return info.isAsync ? (result as Promise<unknown>) : undefined
    }
  }
}
