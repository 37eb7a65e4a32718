/**
 * What a step shows tracers before it runs: the frame a call or creation opcode would open (its
 * callee's gas, input and value, read off the stack and memory) and the memory a LOG records.
 */
import type { InterpreterStep } from '@ethereumjs/evm'
import { addressOfWord } from '../../bytes.ts'
import type { Address } from '../../types.ts'
import type { FrameStart, FrameType } from './tracer.ts'

/** The gas a call with value hands its callee on top of what it asks for. */
const CALL_STIPEND = 2300n
/** No opcode that succeeds can touch memory this far out (its expansion would cost far more gas than a block holds). */
const MEMORY_REACH = 1n << 26n

/** `size` bytes of memory from `offset`, zero-padded past its end (as the opcode would read them). */
export function memorySlice(memory: Uint8Array, offset: bigint, size: bigint): Uint8Array {
  if (size === 0n || offset + size > MEMORY_REACH) return new Uint8Array(0)
  const slice = new Uint8Array(Number(size))
  if (offset < BigInt(memory.length)) slice.set(memory.subarray(Number(offset), Math.min(memory.length, Number(offset + size))))
  return slice
}

/** geth's callGas: what a call hands its callee (the stipend aside), from the gas left after the opcode's own cost. */
export function calleeGas(requested: bigint, gasLeft: bigint, cost: bigint): bigint {
  const available = gasLeft - cost
  // geth's unsigned arithmetic leaves the request standing when the cost exceeds the gas left.
  if (available < 0n) return requested
  const allButOne64th = available - available / 64n
  return requested < allButOne64th ? requested : allButOne64th
}

/** The frame a call or creation opcode would open, read off its stack and memory (bottom-first stack). */
export function frameOf(type: FrameType, step: InterpreterStep, depth: number, cost: bigint, callerValue: bigint): FrameStart {
  const stack = step.stack
  const at = (fromTop: number): bigint => stack[stack.length - 1 - fromTop]
  const from = step.address.toString() as Address
  if (type === 'CREATE' || type === 'CREATE2') {
    const gas = step.gasLeft - cost
    return { depth, type, from, to: undefined, input: memorySlice(step.memory, at(1), at(2)), gas: gas - gas / 64n, value: at(0) }
  }
  const withValue = type === 'CALL' || type === 'CALLCODE'
  const value = withValue ? at(2) : type === 'DELEGATECALL' ? callerValue : undefined
  const input = withValue ? memorySlice(step.memory, at(3), at(4)) : memorySlice(step.memory, at(2), at(3))
  const gas = calleeGas(at(0), step.gasLeft, cost) + (withValue && value !== 0n ? CALL_STIPEND : 0n)
  return { depth, type, from, to: addressOfWord(at(1)), input, gas, value }
}
