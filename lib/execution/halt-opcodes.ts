/**
 * STOP and RETURN without an exception. @ethereumjs/evm 10.1.3 (opcodes/functions.js) ends a
 * frame on them by throwing (`trap(STOP)`, through `Interpreter.finish` for RETURN), which its
 * step loop catches and, STOP being no exception, treats as the end of the code: a throw and
 * its unwinding every frame, ~4% of a balanceOf call. Here they move the program counter to the
 * end of the code instead, which ends the step loop (the library's and interpreter-loop.ts's
 * alike) in the same way, RETURN's data set as `finish` sets it. Installed with the word
 * opcodes (without the Amsterdam and binary-tree frame EIPs).
 */
import type { EVM } from '@ethereumjs/evm'
import { RETURN, STOP } from './opcode-bytes.ts'

type OpcodeMap = EVM['_opcodeMap']
type Handler = OpcodeMap[number]['opHandler']

/** What these handlers read of the library's run state. */
interface RunState {
  stack: { popN(count: number): bigint[] }
  memory: { read(offset: number, size: number, avoidCopy?: boolean): Uint8Array }
  code: Uint8Array
  programCounter: number
  interpreter: { _result: { returnValue?: Uint8Array } }
}

/** Ends the frame's step loop, as reaching the end of its code does. */
function halt(runState: RunState): void {
  runState.programCounter = runState.code.length
}

/** RETURN: the frame's output is a copy of a stretch of memory. */
function returnMemory(runState: RunState): void {
  const [offset, length] = runState.stack.popN(2)
  runState.interpreter._result.returnValue = length === 0n ? new Uint8Array(0) : runState.memory.read(Number(offset), Number(length))
  halt(runState)
}

/** Replaces the STOP and RETURN handlers of `opcodes` with ones that halt without throwing. */
export function installHaltOpcodes(opcodes: OpcodeMap): void {
  opcodes[STOP].opHandler = halt as unknown as Handler
  opcodes[RETURN].opHandler = returnMemory as unknown as Handler
}
