/**
 * Interpreters built without the library's constructor (lib/execution/interpreter-factory.ts):
 * the same fields, in the same order and with the same values, as @ethereumjs/evm's own
 * constructor gives for the same arguments, on the same prototype; and a memory store for each
 * frame that is zeroed, 8 KiB, and shared with no other frame, across arenas.
 */
import { expect } from 'chai'
import { createEVM } from '@ethereumjs/evm'
import { createAddressFromString } from '@ethereumjs/util'
import { createExecutionCommon } from '../../lib/execution/common.ts'
import { interpreterFactory, type InterpreterArguments } from '../../lib/execution/interpreter-factory.ts'
import type { InterpreterClass, InterpreterInstance } from '../../lib/execution/interpreter-loop.ts'

type Fields = Record<string, unknown>
type WithRunState = { _runState: { memory: { _store: Uint8Array } } & Fields }

/** An interpreter the library built itself, from a stock EVM's first frame, and its class. */
async function libraryInterpreter(): Promise<{ first: InterpreterInstance; Interpreter: InterpreterClass; evm: unknown }> {
  const evm = await createEVM({ common: createExecutionCommon(31337, 'prague') })
  const result = await evm.runCode({ code: Uint8Array.of(0x00), gasLimit: 100_000n })
  const first = result.runState!.interpreter as unknown as InterpreterInstance
  return { first, Interpreter: first.constructor as InterpreterClass, evm }
}

/** The constructor's arguments for a frame of `evm`, with a fresh env each time. */
function argumentsFor(evm: { stateManager: unknown; blockchain: unknown; journal: unknown }): InterpreterArguments {
  const env = { gasRefund: 5n, initialLogs: [['log']], address: createAddressFromString(`0x${'12'.repeat(20)}`), depth: 0 }
  return [evm, evm.stateManager, evm.blockchain, env, 77_000n, evm.journal, { performance: true }, { enabled: false }]
}

describe('execution/interpreter-factory: the library\'s constructor, with memory from an arena', () => {
  it('builds the fields the library\'s constructor builds, in its order, with its values, on its prototype', async () => {
    const { first, Interpreter, evm } = await libraryInterpreter()
    const args = argumentsFor(evm as never)
    const built = interpreterFactory(Interpreter, first)(...args) as unknown as WithRunState & Fields
    const real = new Interpreter(...args) as unknown as WithRunState & Fields
    expect(Object.getPrototypeOf(built)).to.equal(Interpreter.prototype)
    expect(Object.keys(built)).to.deep.equal(Object.keys(real))
    expect(Object.keys(built._runState)).to.deep.equal(Object.keys(real._runState))
    for (const key of Object.keys(real)) if (key !== '_runState') expect(built[key], key).to.deep.equal(real[key])
    for (const key of ['stateManager', 'blockchain', 'env']) expect(built._runState[key], key).to.equal(real._runState[key])
    for (const key of Object.keys(real._runState)) {
      if (key !== 'memory' && key !== 'interpreter' && key !== 'stack') expect(built._runState[key], key).to.deep.equal(real._runState[key])
    }
    expect(built._runState.interpreter).to.equal(built)
    expect(Object.getPrototypeOf(built._runState.memory)).to.equal(Object.getPrototypeOf(real._runState.memory))
    expect(built._runState.memory._store).to.deep.equal(real._runState.memory._store)
    expect(built._runState.stack).to.deep.equal(real._runState.stack)
    // The logs are the env's, copied (a frame's logs must not grow its caller's array).
    expect(built._result).to.not.equal(real._result)
    expect((built._result as { logs: unknown[] }).logs).to.not.equal(args[3].initialLogs)
  })

  it('gives every frame a zeroed 8 KiB store of its own, across arenas', async () => {
    const { first, Interpreter, evm } = await libraryInterpreter()
    const build = interpreterFactory(Interpreter, first)
    const stores = Array.from({ length: 100 }, () => (build(...argumentsFor(evm as never)) as unknown as WithRunState)._runState.memory._store)
    for (const store of stores) {
      expect(store.length).to.equal(8192)
      expect(store.every((byte) => byte === 0)).to.equal(true)
    }
    stores.forEach((store, index) => store.fill(index + 1))
    stores.forEach((store, index) => expect(store.every((byte) => byte === index + 1), `store ${index}`).to.equal(true))
    expect(new Set(stores.map((store) => store.buffer)).size).to.be.above(1)
  })

  it('runs a frame whose memory grows past its first store as the library does (its extend concatenates)', async () => {
    const { first, Interpreter, evm } = await libraryInterpreter()
    const built = interpreterFactory(Interpreter, first)(...argumentsFor(evm as never)) as unknown as WithRunState
    const memory = built._runState.memory as unknown as { write(offset: number, size: number, value: Uint8Array): void; read(offset: number, size: number): Uint8Array; _store: Uint8Array }
    memory.write(8190, 4, Uint8Array.of(1, 2, 3, 4))
    expect(memory._store.length).to.equal(16384)
    expect([...memory.read(8189, 6)]).to.deep.equal([0, 1, 2, 3, 4, 0])
  })
})
