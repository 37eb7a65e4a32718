/**
 * @ethereumjs/evm with these costs removed, each measured on a balanceOf call:
 * - jump-destination analysis ran on every call (an array the size of the code, a bigint per
 *   PUSH); it is now cached per code array, which the state layer keeps stable per account,
 *   and marks only the JUMPDESTs: a PUSH's value is worked out when it first runs
 *   (code-analysis.ts; a deployment's init code, a fresh array each time, is analysed anew);
 * - `runInterpreter` spread three ~20-field objects into a `runState` copy nobody reads, and
 *   spread its varying-shape result again; on Node 20 these spreads take ~50 µs per frame
 *   (V8's slow path for spreading into an object that already has properties);
 * - `_executeCall` copies every message with the same kind of spread (~20 µs per frame), and
 *   writes back caller and callee unchanged when the call moves no value (a tenth of a call:
 *   the write-back only touched them, for EIP-161, and now they are just touched);
 * - MSTORE pads each word by spreading byte arrays (util's setLengthLeft), a fifth of the call,
 *   and the other word opcodes convert through hex strings (word-opcodes.ts);
 * - the interpreter awaited every opcode (its `runStep` is async): a promise and a microtask
 *   each, now only for opcodes whose gas or handler is asynchronous (interpreter-loop.ts;
 *   eth_call +28%, ERC-20 transfers sealed +25%);
 * - the gas of the opcodes that grow memory (MLOAD, MSTORE, KECCAK256, the copies, LOG,
 *   RETURN) and of EXP came from async functions that await nothing, so those opcodes were
 *   awaited too; their gas is now worked out synchronously (memory-gas.ts);
 * - every frame's interpreter allocated an 8 KiB ArrayBuffer of its own for memory; stores are
 *   now cut from shared arenas (interpreter-factory.ts);
 * - STOP and RETURN threw to end a frame (halt-opcodes.ts; with the arenas, eth_call +10%).
 * Everything else is the library's own code path. The overrides mirror @ethereumjs/evm 10.1.3
 * (pinned in package.json) `EVM.runInterpreter` and, for non-Amsterdam rules, `EVM._executeCall`.
 * A paced EVM (calls at the RPC edge run on those, never the builder) also asks its pacer whether
 * to go on, pause or stop (evm-pacing.ts).
 */
import type { Common } from '@ethereumjs/common'
import { createEVM, EVM, EVMError, NobleBN254, type EVMMockBlockchainInterface, type EVMResult, type ExecResult, type PrecompileFunc } from '@ethereumjs/evm'
import { Account, BIGINT_0, createZeroAddress, type Address as EVMAddress } from '@ethereumjs/util'
import type { EVMStateAdapter } from '../state/evm-state-adapter.ts'
import { installPushOpcodes } from './code-analysis.ts'
import { PaceCount, paceJumps, type Pacer } from './evm-pacing.ts'
import { installHaltOpcodes } from './halt-opcodes.ts'
import { interpreterFactory, type InterpreterFactory } from './interpreter-factory.ts'
import { cachingInterpreter, type InterpreterClass, type InterpreterInstance, type JumpAnalysis } from './interpreter-loop.ts'
import { installMemoryGas } from './memory-gas.ts'
import { installWriteProtection } from './write-protection.ts'
import { installWordOpcodes } from './word-opcodes.ts'

type Message = Parameters<EVM['runInterpreter']>[0]
type MessageWithTo = Parameters<EVM['_executeCall']>[0]
type InterpreterOptions = Parameters<EVM['runInterpreter']>[1]

/** EIPs whose frame rules (Amsterdam, binary trees) the trimmed `_executeCall` does not implement. */
const FRAME_RULE_EIPS = [2780, 6800, 7708, 7864, 7928, 8037]

/** Builds the caching interpreter of a frame, once {@link revealInterpreter} has. */
let newInterpreter: InterpreterFactory | undefined
let revealing: Promise<void> | undefined

/**
 * Finds the library's Interpreter class (not exported) from one STOP frame of a throwaway EVM of
 * its own, once in the process, before the devnet's first frame: every frame then runs on the
 * caching interpreter, the first of a trace too.
 */
function revealInterpreter(): Promise<void> {
  revealing ??= createEVM().then(async (evm) => {
    const { runState } = await evm.runCode({ code: Uint8Array.of(0), gasLimit: 0n })
    const first = runState!.interpreter as unknown as InterpreterInstance
    newInterpreter = interpreterFactory(cachingInterpreter(first.constructor as InterpreterClass), first)
  })
  // A failure is the frame's to report; the next frame tries again.
  revealing.catch(() => (revealing = undefined))
  return revealing
}

/** The EVM the devnet runs: the library's, minus eight per-call costs. */
export class DevnetEVM extends EVM {
  /** Jump analyses by code array (code arrays are kept stable by the state layer). */
  readonly jumpAnalyses = new WeakMap<Uint8Array, JumpAnalysis>()
  /** Whether none of the Amsterdam or binary-tree frame EIPs is active: the trimmed frame and step loop apply. */
  readonly plainFrames = !FRAME_RULE_EIPS.some((eip) => this.common.isActivatedEIP(eip))
  /** Whether code is analysed by code-analysis.ts (plain frames without EIP-8024's immediates), else by the library. */
  readonly scansJumpsOnly = this.plainFrames && !this.common.isActivatedEIP(8024)
  /** The pacer of the run in progress (paced EVMs only). */
  pacer: Pacer | undefined
  private readonly paceCount = new PaceCount()

  /** With `paced`, the EVM asks its {@link pacer} at every JUMPS_PER_PACE-th jump, frame or precompile run. */
  constructor(options: ConstructorParameters<typeof EVM>[0], paced = false) {
    super(options)
    if (this.plainFrames) {
      installWordOpcodes(this._opcodeMap, this.common)
      installHaltOpcodes(this._opcodeMap)
      installPushOpcodes(this._opcodeMap)
      installMemoryGas(this._opcodeMap)
      installWriteProtection(this._opcodeMap)
    }
    if (paced) paceJumps(this._opcodeMap, this.paceCount, () => this.pacer)
  }

  /** A paced EVM like this one (its rules, block hashes and precompiles) over `state`, for calls at the RPC edge. */
  pacedSibling(state: EVMStateAdapter): DevnetEVM {
    // Its own Common: each EVM listens on its Common for hardfork changes, which would keep it alive.
    return new DevnetEVM({ ...this._optsCached, common: this.common.copy(), stateManager: state }, true)
  }

  /**
   * A message call, as the library's `_executeCall` runs it when none of the Amsterdam frame
   * EIPs is active (otherwise the library's own). The library copies the message with two
   * object spreads before interpreting it (~20 µs per frame on Node 20); without those EIPs the
   * copy equals the message, so it is passed as is.
   */
  protected override async _executeCall(message: MessageWithTo): Promise<EVMResult> {
    if (!this.plainFrames) return super._executeCall(message)
    let failure: EVMError | undefined
    if (!message.delegatecall && message.value === 0n && this.holds(message.caller) && this.holds(message.to)) {
      // Moving nothing between existing accounts writes them back unchanged: only the EIP-161 touches remain.
      const journal = this.journal as unknown as { touchAddress(address: EVMAddress): void }
      journal.touchAddress(message.caller)
      journal.touchAddress(message.to)
    } else if (!message.delegatecall) {
      try {
        await this._reduceSenderBalance((await this.stateManager.getAccount(message.caller)) ?? new Account(), message)
        await this._addToBalance((await this.stateManager.getAccount(message.to)) ?? new Account(), message)
      } catch (error) {
        failure = error as EVMError
      }
    }
    await this._loadCode(message)
    const code = message.code
    if (failure !== undefined || code === undefined || (typeof code !== 'function' && code.length === 0)) {
      return {
        execResult: { gasRefund: message.gasRefund, executionGasUsed: BIGINT_0, exceptionError: failure, returnValue: new Uint8Array(0) },
      }
    }
    let result: ExecResult
    if (message.isCompiled) {
      result = await this.runPrecompile(code as PrecompileFunc, message.data, message.gasLimit)
      result.gasRefund = message.gasRefund
    } else {
      result = await this.runInterpreter(message)
    }
    if (message.depth === 0 && this.common.isActivatedEIP(1153)) this.transientStorage.clear()
    return { execResult: result }
  }

  /** Whether the state holds an account at `address` at hand (not one still to load). */
  private holds(address: EVMAddress): boolean {
    return (this.stateManager as EVMStateAdapter).holdsAccount(address)
  }

  /** A precompile run, asking the pacer first when one is due (an unpaced EVM runs it exactly as the library does). */
  protected override runPrecompile(code: PrecompileFunc, data: Uint8Array, gasLimit: bigint): Promise<ExecResult> | ExecResult {
    const pause = this.pacer !== undefined && this.paceCount.due() ? this.pacer.pace() : undefined
    return pause === undefined ? super.runPrecompile(code, data, gasLimit) : pause.then(() => super.runPrecompile(code, data, gasLimit))
  }

  protected override async runInterpreter(message: Message, opts: InterpreterOptions = {}): Promise<ExecResult> {
    if (this.pacer !== undefined && this.paceCount.due()) await this.pacer.pace()
    if (newInterpreter === undefined) await revealInterpreter()
    const contract = (await this.stateManager.getAccount(message.to ?? createZeroAddress())) ?? new Account()
    const env = {
      address: message.to ?? createZeroAddress(),
      caller: message.caller ?? createZeroAddress(),
      callData: message.data ?? Uint8Array.from([0]),
      callValue: message.value ?? BIGINT_0,
      code: message.code as Uint8Array,
      isStatic: message.isStatic ?? false,
      isCreate: message.isCreate ?? false,
      depth: message.depth ?? 0,
      gasPrice: this._tx!.gasPrice,
      origin: this._tx!.origin ?? message.caller ?? createZeroAddress(),
      block: this._block!,
      contract,
      codeAddress: message.codeAddress,
      gasRefund: message.gasRefund,
      chargeCodeAccesses: message.chargeCodeAccesses,
      blobVersionedHashes: message.blobVersionedHashes ?? [],
      accessWitness: message.accessWitness,
      createdAddresses: message.createdAddresses,
      initialLogs: opts.initialLogs,
    }
    const interpreter = newInterpreter!(
      this,
      this.stateManager,
      this.blockchain,
      env,
      message.gasLimit,
      this.journal,
      this.performanceLogger,
      this._optsCached.profiler,
    )
    if (message.selfdestruct) interpreter._result.selfdestruct = message.selfdestruct
    if (message.createdAddresses) interpreter._result.createdAddresses = message.createdAddresses

    const interpreterResult = await interpreter.run(message.code as Uint8Array, opts)
    const runState = interpreterResult.runState!
    const error = interpreterResult.exceptionError
    const result = interpreter._result
    const failed = error !== undefined
    const consumesAllGas = failed && error.error !== EVMError.errorMessages.REVERT && error.error !== EVMError.errorMessages.INVALID_EOF_FORMAT
    message.accessWitness?.commit()
    // Built field by field: spreading the interpreter's result (whose shape varies) is a V8 slow path.
    return {
      logs: failed ? [] : result.logs,
      returnValue: result.returnValue ?? new Uint8Array(0),
      selfdestruct: failed ? new Map() : result.selfdestruct,
      createdAddresses: failed ? new Set() : result.createdAddresses,
      exceptionError: error,
      gas: runState.gasLeft,
      executionGasUsed: consumesAllGas ? message.gasLimit : message.gasLimit - runState.gasLeft,
      gasRefund: runState.gasRefund,
      stateGasSpilled: runState.stateGasSpilled,
    } as ExecResult
  }
}

/** Reads block hashes for the BLOCKHASH opcode. */
export type BlockHashSource = (blockNumber: number) => Uint8Array | undefined | Promise<Uint8Array | undefined>

/**
 * The KZG point-evaluation precompile (0x0a) needs a trusted setup the devnet does not ship
 * (it takes no blob transactions): calls to it fail as with invalid inputs, consuming the gas.
 */
const unavailablePointEvaluation: PrecompileFunc = (input) => ({
  returnValue: new Uint8Array(0),
  executionGasUsed: input.gasLimit,
  exceptionError: new EVMError(EVMError.errorMessages.INVALID_INPUTS),
})

/** A precompile a chain adds to the EVM's own (an OP-stack chain's P256VERIFY). */
export interface ChainPrecompile {
  readonly address: `0x${string}`
  readonly function: PrecompileFunc
}

/** A DevnetEVM over `state`, with BLOCKHASH answered by `blockHash`, and the chain's own `precompiles`. */
export function createDevnetEVM(common: Common, state: EVMStateAdapter, blockHash: BlockHashSource, precompiles: readonly ChainPrecompile[] = []): DevnetEVM {
  const blockchain: EVMMockBlockchainInterface = {
    getBlock: async (blockNumber: number) => {
      const hash = (await blockHash(blockNumber)) ?? new Uint8Array(32)
      return { hash: () => hash }
    },
    putBlock: async () => {},
    shallowCopy: () => blockchain,
  }
  // createEVM() would also build a default state manager and blockchain we do not use.
  return new DevnetEVM({
    common,
    stateManager: state,
    blockchain,
    bn254: new NobleBN254(),
    customPrecompiles: [{ address: '0x000000000000000000000000000000000000000a', function: unavailablePointEvaluation }, ...precompiles],
  })
}
