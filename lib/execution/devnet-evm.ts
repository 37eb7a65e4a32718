/**
 * @ethereumjs/evm with two per-call costs removed, both measured on a balanceOf call:
 * - jump-destination analysis ran on every call (an array the size of the code, a bigint per
 *   PUSH); it is now cached per code array, which the state layer keeps stable per account;
 * - `runInterpreter` spread three ~20-field objects into a `runState` copy nobody reads; on
 *   Node 20 that spread takes ~50 µs per frame (V8 slow path for spread-after-clone).
 * Everything else is the library's own code path. The override mirrors
 * @ethereumjs/evm 10.1.3 `EVM.runInterpreter` (pinned in package.json).
 */
import type { Common } from '@ethereumjs/common'
import { EVM, EVMError, NobleBN254, type EVMMockBlockchainInterface, type ExecResult } from '@ethereumjs/evm'
import { Account, BIGINT_0, createZeroAddress } from '@ethereumjs/util'
import type { EVMStateAdapter } from '../state/evm-state-adapter.ts'

type JumpAnalysis = unknown
type InterpreterInstance = {
  _result: { selfdestruct?: unknown; createdAddresses?: unknown; logs: unknown[]; returnValue?: Uint8Array }
  _evm: DevnetEVM
  run(code: Uint8Array, opts: unknown): Promise<{ runState?: { gasLeft: bigint; gasRefund: bigint; stateGasSpilled?: bigint }; exceptionError?: EVMError }>
}
type InterpreterClass = new (...args: unknown[]) => InterpreterInstance

// The Interpreter is not in the package's exports; load the module the EVM itself uses.
const interpreterModule = (await import(new URL('./interpreter.js', import.meta.resolve('@ethereumjs/evm')).href)) as {
  Interpreter: InterpreterClass & { prototype: { _getValidJumpDestinations(code: Uint8Array): JumpAnalysis } }
}
const analyseJumps = interpreterModule.Interpreter.prototype._getValidJumpDestinations

/** The library's interpreter, with jump analysis cached per code array. */
class CachingInterpreter extends interpreterModule.Interpreter {
  _getValidJumpDestinations(code: Uint8Array): JumpAnalysis {
    const cache = this._evm.jumpAnalyses
    let analysis = cache.get(code)
    if (analysis === undefined) {
      analysis = analyseJumps.call(this, code)
      cache.set(code, analysis)
    }
    return analysis
  }
}

type Message = Parameters<EVM['runInterpreter']>[0]
type InterpreterOptions = Parameters<EVM['runInterpreter']>[1]

/** The EVM the devnet runs: the library's, minus two per-call costs. */
export class DevnetEVM extends EVM {
  /** Jump analyses by code array (code arrays are kept stable by the state layer). */
  readonly jumpAnalyses = new WeakMap<Uint8Array, JumpAnalysis>()

  protected override async runInterpreter(message: Message, opts: InterpreterOptions = {}): Promise<ExecResult> {
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
    const interpreter = new CachingInterpreter(
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
    let result = interpreter._result
    let gasUsed = message.gasLimit - runState.gasLeft
    if (error !== undefined) {
      if (error.error !== EVMError.errorMessages.REVERT && error.error !== EVMError.errorMessages.INVALID_EOF_FORMAT) {
        gasUsed = message.gasLimit
      }
      result = { ...result, logs: [], selfdestruct: new Map(), createdAddresses: new Set() }
    }
    message.accessWitness?.commit()
    return {
      ...result,
      exceptionError: error,
      gas: runState.gasLeft,
      executionGasUsed: gasUsed,
      gasRefund: runState.gasRefund,
      stateGasSpilled: runState.stateGasSpilled,
      returnValue: result.returnValue ?? new Uint8Array(0),
    } as ExecResult
  }
}

/** Reads block hashes for the BLOCKHASH opcode. */
export type BlockHashSource = (blockNumber: number) => Uint8Array | undefined

/** A DevnetEVM over `state`, with BLOCKHASH answered by `blockHash`. */
export function createDevnetEVM(common: Common, state: EVMStateAdapter, blockHash: BlockHashSource): DevnetEVM {
  const blockchain: EVMMockBlockchainInterface = {
    getBlock: async (blockNumber: number) => {
      const hash = blockHash(blockNumber) ?? new Uint8Array(32)
      return { hash: () => hash }
    },
    putBlock: async () => {},
    shallowCopy: () => blockchain,
  }
  // createEVM() would also build a default state manager and blockchain we do not use.
  return new DevnetEVM({ common, stateManager: state, blockchain, bn254: new NobleBN254() })
}
