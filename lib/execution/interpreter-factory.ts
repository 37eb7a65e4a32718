/**
 * Interpreters built without the library's constructor (@ethereumjs/evm 10.1.3, pinned), which
 * gives every frame a fresh 8 KiB `Memory`: an ArrayBuffer of its own, ~0.8 µs to allocate and
 * more to collect, where a balanceOf call runs in ~20 µs. Here a frame's memory store is cut
 * from a shared arena, never handed out twice (so nothing a finished frame left behind, a view
 * included, ever sees another frame's bytes); an arena is freed once no store of it is
 * referenced. Everything else is the constructor's own assignments, in its order.
 */
import type { InterpreterClass, InterpreterInstance } from './interpreter-loop.ts'
import { INVALID } from './opcode-bytes.ts'

/** The library's memory container size: a store starts with this many bytes, and its `extend` grows it in these steps. */
const STORE_BYTES = 8192

/** Bytes per arena: 32 stores. */
const ARENA_BYTES = 32 * STORE_BYTES

let arena = new ArrayBuffer(0)
let arenaUsed = 0

/** A zeroed store of STORE_BYTES no other frame has had. */
function freshStore(): Uint8Array {
  if (arenaUsed === arena.byteLength) {
    arena = new ArrayBuffer(ARENA_BYTES)
    arenaUsed = 0
  }
  const store = new Uint8Array(arena, arenaUsed, STORE_BYTES)
  arenaUsed += STORE_BYTES
  return store
}

/** The library's Interpreter constructor arguments, in its order. */
export type InterpreterArguments = [
  evm: unknown,
  stateManager: unknown,
  blockchain: unknown,
  env: { gasRefund: bigint; initialLogs?: unknown[] },
  gasLeft: bigint,
  journal: unknown,
  performanceLogs: unknown,
  profilerOpts: unknown,
]

/** Builds an interpreter of a class, for one frame. */
export type InterpreterFactory = (...args: InterpreterArguments) => InterpreterInstance

/**
 * A factory of `Interpreter` instances (a subclass of the library's, adding no fields of its own)
 * that does what the library's constructor does, with the memory store from an arena. `first`,
 * an interpreter the library built itself, gives the Memory and Stack classes (not exported).
 */
export function interpreterFactory(Interpreter: InterpreterClass, first: InterpreterInstance): InterpreterFactory {
  const { memory, stack } = first._runState as unknown as { memory: object; stack: object }
  const memoryPrototype = Object.getPrototypeOf(memory) as object
  const Stack = stack.constructor as new () => object
  const prototype = Interpreter.prototype as object
  return (evm, stateManager, blockchain, env, gasLeft, journal, performanceLogs, profilerOpts) => {
    const interpreter = Object.create(prototype) as Record<string, unknown>
    const memory = Object.create(memoryPrototype) as { _store: Uint8Array }
    memory._store = freshStore()
    interpreter.opDebuggers = {}
    interpreter._evm = evm
    interpreter._stateManager = stateManager
    interpreter.common = (evm as { common: unknown }).common
    // The constructor's clique check is left out: the devnet's chains are never proof-of-authority.
    interpreter._runState = {
      programCounter: 0,
      opCode: INVALID,
      memory,
      memoryWordCount: 0n,
      highestMemCost: 0n,
      stack: new Stack(),
      code: new Uint8Array(0),
      validJumps: Uint8Array.from([]),
      cachedPushes: {},
      stateManager,
      blockchain,
      env,
      shouldDoJumpAnalysis: true,
      interpreter,
      gasRefund: env.gasRefund,
      gasLeft,
      stateGasSpilled: 0n,
      returnBytes: new Uint8Array(0),
    }
    interpreter.journal = journal
    interpreter._env = env
    interpreter._result = { logs: env.initialLogs ? [...env.initialLogs] : [], returnValue: undefined, selfdestruct: new Map() }
    interpreter.profilerOpts = profilerOpts
    interpreter.performanceLogger = performanceLogs
    return interpreter as unknown as InterpreterInstance
  }
}
