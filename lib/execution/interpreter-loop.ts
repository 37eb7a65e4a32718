/**
 * The devnet's subclass of @ethereumjs/evm's Interpreter (10.1.3, pinned): jump-destination
 * analysis cached per code array, and a step loop that awaits an opcode only when its gas or
 * its handler is asynchronous (the library's `runStep` is an async function: a promise and a
 * microtask for every PUSH, DUP and ADD), traced or not (step-event.ts: what tracers hear).
 * devnet-evm.ts builds its interpreters from it.
 */
import type { Common } from '@ethereumjs/common'
import { EVMError } from '@ethereumjs/evm'
import { CodeAnalysis } from './code-analysis.ts'
import { JUMP, JUMPI, RETURN, STOP } from './opcode-bytes.ts'
import { notify, StepEvent, type StepListener } from './step-event.ts'

/** What the interpreter reads of the EVM that runs it (the devnet's). */
export interface InterpretingEVM {
  /** Jump analyses by code array (code arrays are kept stable by the state layer). */
  readonly jumpAnalyses: WeakMap<Uint8Array, JumpAnalysis>
  /** Whether none of the Amsterdam or binary-tree frame EIPs is active (the trimmed loop applies). */
  readonly plainFrames: boolean
  /** Whether code is analysed by {@link CodeAnalysis} (plain frames, no EIP-8024 immediates), else by the library. */
  readonly scansJumpsOnly: boolean
  readonly DEBUG: boolean
  readonly events: { listenerCount(event: string): number; listeners(event: 'step'): readonly StepListener[] }
  /** The opcode table by opcode byte. */
  readonly _opcodeMap: readonly OpcodeEntry[]
}

/** One opcode as the library's tables hold it: its fixed facts, its handler and, with dynamic gas, its gas handler. */
type OpcodeEntry = {
  opcodeInfo: { code: number; fee: number; fullName: string; feeBigInt: bigint; dynamicGas: boolean; isAsync: boolean; isInvalid: boolean }
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
  memory: { _store: Uint8Array }
  memoryWordCount: bigint
  stack: { getStack(): bigint[] }
  stateManager: unknown
}
type RunResult = { runState?: InterpreterRunState; exceptionError?: EVMError }
/** An interpreter as the devnet's EVM drives it: what it reads of the library's Interpreter. */
export type InterpreterInstance = {
  _result: { selfdestruct?: Map<string, string>; createdAddresses?: Set<string>; logs: unknown[]; returnValue?: Uint8Array }
  _evm: InterpretingEVM
  _env: { depth: number; address: unknown; contract: unknown; codeAddress: unknown; eof?: unknown }
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

/** What the library's step hook resolves to when no listener answered later. */
const ANNOUNCED = Promise.resolve()

function isEVMError(error: unknown): error is EVMError {
  return typeof error === 'object' && error !== null && (error as { errorType?: string }).errorType === 'EVMError'
}

/**
 * The library's interpreter with jump analysis cached per code array, and a step loop that
 * awaits only what is asynchronous, traced runs too (with a lighter step event). The Interpreter
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
     * The library's step hook (tracing) where its own loop runs (Amsterdam's or binary trees'
     * frame rules, EOF code): the event of {@link announce}. Under `DEBUG`, the library's.
     */
    override _runStepHook(dynamicFee: bigint, gasLeft: bigint, memorySize: bigint): Promise<void> {
      if (this._evm.DEBUG || this._env.eof !== undefined) return super._runStepHook(dynamicFee, gasLeft, memorySize)
      return this.announce(dynamicFee, memorySize) ?? ANNOUNCED
    }

    /**
     * Tells the `step` listeners (tracers) of the opcode about to run, as the library's step
     * event, lighter: memory is copied only if a tracer reads it (the struct logger with
     * `enableMemory`, a call's input, a log's data; a copy every step was most of a trace's
     * time), and no revert data is read for a REVERT before its gas is checked (no tracer reads
     * it; a stretch past 2^32 bytes threw a RangeError, where geth traces the failed step). A
     * promise only if a listener answers later.
     */
    private announce(dynamicFee: bigint, memoryWords: bigint): Promise<void> | undefined {
      const runState = this._runState
      const info = this._evm._opcodeMap[runState.opCode].opcodeInfo
      return notify(this._evm.events.listeners('step'), new StepEvent(runState, this._env, info, dynamicFee, runState.gasLeft, memoryWords), 0)
    }

    /**
     * The library's `Interpreter.run` for legacy code, untraced and unprofiled, under rules
     * without Amsterdam's or binary trees' frame EIPs (where its loop does only this): its
     * `runStep` is an async function, so every opcode cost a promise and a microtask; here an
     * opcode is awaited only when its gas or its handler is asynchronous (storage not yet
     * loaded, SSTORE, account reads, calls and creations), and PUSH, DUP, arithmetic, memory and
     * jumps run straight on (memory-gas.ts makes memory's gas synchronous); traced, each step is
     * announced first ({@link announce}). Otherwise (a profiler, `DEBUG`), the library's.
     */
    override run(code: Uint8Array, opts: { pc?: number } = {}): Promise<RunResult> {
      const evm = this._evm
      if (!evm.plainFrames || code[0] === 0xef || evm.DEBUG || this.profilerOpts?.enabled === true) return super.run(code, opts)
      return this.runPlain(code, opts.pc, evm.events.listenerCount('step') > 0)
    }

    private async runPlain(code: Uint8Array, pc: number | undefined, traced: boolean): Promise<RunResult> {
      const runState = this._runState
      runState.code = code
      runState.programCounter = pc ?? runState.programCounter
      const start = runState.programCounter
      if (start !== 0 && (start < 0 || start >= code.length)) throw new Error('Internal error: program counter not in range')
      const opcodes = this._evm._opcodeMap
      let analysed = false
      let exceptionError: EVMError | undefined
      let ranOff = code.length > 0
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
        // STOP and RETURN end the loop as running off the code does (halt-opcodes.ts).
        ranOff = opcode !== STOP && opcode !== RETURN
        try {
          const pending = traced ? this.tracedStep(entry) : this.step(entry)
          if (pending !== undefined) await pending
        } catch (error) {
          ranOff = false
          if (!isEVMError(error)) throw error
          // STOP is not an exception.
          if (error.error !== EVMError.errorMessages.STOP) exceptionError = error
          break
        }
      }
      if (traced && ranOff) {
        // Code that runs off its end stops there: geth's loop reads STOP past the code and traces it.
        runState.opCode = STOP
        await this.announce(0n, runState.memoryWordCount)
      }
      return { runState, exceptionError }
    }

    /** The library's `runStep` without its tracing, profiling and binary-tree branches: a promise only if the opcode's gas or handler is asynchronous. */
    private step(entry: OpcodeEntry): Promise<unknown> | undefined {
      if (!entry.opcodeInfo.dynamicGas) return this.execute(entry, entry.opcodeInfo.feeBigInt)
      const gas = entry.gasHandler(this._runState, entry.opcodeInfo.feeBigInt, this.common)
      return gas instanceof Promise ? gas.then((amount) => this.execute(entry, amount)) : this.execute(entry, gas)
    }

    /**
     * {@link step}, announcing the opcode once its gas is known, as the library's `runStep` does:
     * a gas charge that fails (out of gas) is announced with the opcode's fixed fee, then thrown.
     */
    private tracedStep(entry: OpcodeEntry): Promise<unknown> | undefined {
      const info = entry.opcodeInfo
      const memoryWords = this._runState.memoryWordCount
      if (!info.dynamicGas) return this.announceAndExecute(entry, info.feeBigInt, memoryWords)
      let gas: bigint | Promise<bigint>
      try {
        gas = entry.gasHandler(this._runState, info.feeBigInt, this.common)
      } catch (error) {
        return this.announceFailure(error, info.feeBigInt, memoryWords)
      }
      if (!(gas instanceof Promise)) return this.announceAndExecute(entry, gas, memoryWords)
      return gas.then(
        (amount) => this.announceAndExecute(entry, amount, memoryWords),
        (error: unknown) => this.announceFailure(error, info.feeBigInt, memoryWords),
      )
    }

    private announceAndExecute(entry: OpcodeEntry, gas: bigint, memoryWords: bigint): Promise<unknown> | undefined {
      const announced = this.announce(gas, memoryWords)
      return announced === undefined ? this.execute(entry, gas) : announced.then(() => this.execute(entry, gas))
    }

    /** A gas charge failed: an EVM error (out of gas) is announced with the opcode's fixed fee, then thrown; anything else is thrown at once. */
    private announceFailure(error: unknown, fee: bigint, memoryWords: bigint): Promise<never> {
      const announced = isEVMError(error) ? this.announce(fee, memoryWords) : undefined
      if (announced === undefined) throw error
      return announced.then(() => Promise.reject(error))
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
