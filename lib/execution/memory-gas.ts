/**
 * The dynamic gas of the opcodes that read or grow memory — KECCAK256, CALLDATACOPY, CODECOPY,
 * RETURNDATACOPY, MLOAD, MSTORE, MSTORE8, MCOPY, LOG0–LOG4, RETURN, REVERT — and of EXP, as
 * @ethereumjs/evm 10.1.3 works it out (opcodes/gas.js, `subMemUsage` in opcodes/util.js), but
 * synchronous: the library's handlers are async functions that await nothing, so every MLOAD
 * and MSTORE cost a promise and a microtask in the step loop, which awaits only what is
 * asynchronous (interpreter-loop.ts). Where geth differs from the library, geth's: memory past
 * what geth prices fails at the fixed cost with geth's text (for the calls, creations and
 * EXTCODECOPY too, whose gas the library still prices), so does init code past EIP-3860's limit,
 * and RETURNDATACOPY past the return data fails in its handler once paid. Installed with the
 * word opcodes (without the Amsterdam and binary-tree frame EIPs, whose code-chunk charges
 * CODECOPY would otherwise add).
 */
import type { Common } from '@ethereumjs/common'
import { EVMError, type EVM } from '@ethereumjs/evm'
import { writeProtection } from './write-protection.ts'
import { CALL, CALLCODE, CALLDATACOPY, CODECOPY, CREATE, CREATE2, DELEGATECALL, EXP, EXTCODECOPY, KECCAK256, LOG0, MCOPY, MLOAD, MSTORE, MSTORE8, RETURN, RETURNDATACOPY, REVERT, STATICCALL } from './opcode-bytes.ts'

type OpcodeMap = EVM['_opcodeMap']
type GasHandler = NonNullable<OpcodeMap[number]['gasHandler']>
type Handler = (runState: RunState, common: Common) => unknown

/** What these gas handlers read of the library's run state. */
interface RunState {
  stack: { peek(count?: number): bigint[] }
  memoryWordCount: bigint
  highestMemCost: bigint
  opCode: number
  env: { eof?: unknown }
  interpreter: { isStatic(): boolean; getReturnDataSize(): bigint }
}

/** `a / b` rounded up (both non-negative). */
function divCeil(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b
}

/**
 * The most memory geth prices, in words (0x1FFFFFFFE0 bytes): past it the gas would not fit a
 * uint64, and the step fails on its gas charge with only its fixed cost counted, which a struct
 * log shows. No gas limit could pay for it anyway.
 */
const MAX_MEMORY_WORDS = 0xffffffffn
/** The last byte count geth rounds up to words without overflowing a uint64 (toWordSize × 32). */
const MAX_ROUNDED_BYTES = (1n << 64n) - 32n

/**
 * geth's failure for stretches of memory (offset, length pairs) one of which it cannot price,
 * else undefined (an empty stretch needs none): memory whose size does not round to words in a
 * uint64 fails before the gas (`gas uint64 overflow`, from the interpreter's memorySize), memory
 * past the priced bound on the gas charge (`out of gas: gas uint64 overflow`, memoryGasCost).
 */
function unpriceable(stretches: ReadonlyArray<readonly [offset: bigint, length: bigint]>): EVMError | undefined {
  let pastBound = false
  for (const [offset, length] of stretches) {
    if (length === 0n) continue
    if (offset + length > MAX_ROUNDED_BYTES) return new EVMError('gas uint64 overflow' as EVMError['error'])
    if (divCeil(offset + length, 32n) > MAX_MEMORY_WORDS) pastBound = true
  }
  return pastBound ? new EVMError('out of gas: gas uint64 overflow' as EVMError['error']) : undefined
}

/** Throws geth's failure for the stretches if it cannot price one of them ({@link unpriceable}). */
function checkPriceable(...stretches: ReadonlyArray<readonly [offset: bigint, length: bigint]>): void {
  const failure = unpriceable(stretches)
  if (failure !== undefined) throw failure
}

/**
 * A call's or creation's checks before its gas, in geth's order: memory whose size does not
 * round to words (the interpreter's memorySize), then, from its gas function, a write in a
 * static frame (`out of gas: write protection`), then memory past the priced bound.
 */
function checkWriteAndMemory(runState: RunState, stretches: ReadonlyArray<readonly [offset: bigint, length: bigint]>, writes: boolean): void {
  const failure = unpriceable(stretches)
  if (failure !== undefined && (failure.error as string) === 'gas uint64 overflow') throw failure
  if (writes && runState.interpreter.isStatic()) throw writeProtection()
  if (failure !== undefined) throw failure
}

/**
 * The gas to grow memory to cover `length` bytes from `offset` (none for an empty stretch),
 * recorded in the run state as the library's `subMemUsage` does; geth's failure past its most.
 */
function memoryGrowth(runState: RunState, offset: bigint, length: bigint, common: Common): bigint {
  if (length === 0n) return 0n
  const words = divCeil(offset + length, 32n)
  if (words <= runState.memoryWordCount) return 0n
  if (words > MAX_MEMORY_WORDS) checkPriceable([offset, length])
  let cost = words * common.param('memoryGas') + (words * words) / common.param('quadCoefficientDivGas')
  if (cost > runState.highestMemCost) {
    const highest = runState.highestMemCost
    runState.highestMemCost = cost
    cost -= highest
  }
  runState.memoryWordCount = words
  return cost
}

/** The per-word copy charge of `length` bytes. */
function copyGas(length: bigint, common: Common): bigint {
  return length === 0n ? 0n : common.param('copyGas') * divCeil(length, 32n)
}

/** MLOAD and MSTORE: a word of memory at the top of the stack. */
function wordAccessGas(runState: RunState, gas: bigint, common: Common): bigint {
  return gas + memoryGrowth(runState, runState.stack.peek()[0], 32n, common)
}

/** MSTORE8: one byte of memory. */
function byteStoreGas(runState: RunState, gas: bigint, common: Common): bigint {
  return gas + memoryGrowth(runState, runState.stack.peek()[0], 1n, common)
}

/** RETURN and REVERT: the stretch of memory returned. */
function outputGas(runState: RunState, gas: bigint, common: Common): bigint {
  const [offset, length] = runState.stack.peek(2)
  return gas + memoryGrowth(runState, offset, length, common)
}

/** KECCAK256: the stretch hashed, and a charge per word. */
function hashGas(runState: RunState, gas: bigint, common: Common): bigint {
  const [offset, length] = runState.stack.peek(2)
  return gas + memoryGrowth(runState, offset, length, common) + common.param('keccak256WordGas') * divCeil(length, 32n)
}

/** CALLDATACOPY and CODECOPY: the stretch written, and a charge per word. */
function copyIntoMemoryGas(runState: RunState, gas: bigint, common: Common): bigint {
  const [memoryOffset, , length] = runState.stack.peek(3)
  return gas + memoryGrowth(runState, memoryOffset, length, common) + copyGas(length, common)
}

/** RETURNDATACOPY: as CALLDATACOPY (reading past the return data fails once it is paid for: {@link returnDataBoundsChecked}). */
function returnDataCopyGas(runState: RunState, gas: bigint, common: Common): bigint {
  const [memoryOffset, , length] = runState.stack.peek(3)
  return gas + memoryGrowth(runState, memoryOffset, length, common) + copyGas(length, common)
}

/**
 * RETURNDATACOPY's handler behind geth's bounds check (opReturnDataCopy): legacy code reading
 * past the return data fails with `return data out of bounds` once its gas is paid, where the
 * library charged it as out of gas first. Both consume the frame's gas; the step's traced cost
 * and the frame's error are geth's.
 */
function returnDataBoundsChecked(handler: Handler): Handler {
  return (runState: RunState, common: Common) => {
    const [, dataOffset, length] = runState.stack.peek(3)
    if (dataOffset + length > runState.interpreter.getReturnDataSize() && runState.env.eof === undefined) {
      throw new EVMError(EVMError.errorMessages.OUT_OF_RANGE)
    }
    return handler(runState, common)
  }
}

/** MCOPY (EIP-5656): a charge per word copied, and both stretches. */
function memoryCopyGas(runState: RunState, gas: bigint, common: Common): bigint {
  const [destination, source, length] = runState.stack.peek(3)
  checkPriceable([source, length], [destination, length])
  gas += 3n * ((length + 31n) / 32n)
  gas += memoryGrowth(runState, source, length, common)
  return gas + memoryGrowth(runState, destination, length, common)
}

/** LOG0–LOG4: refused in a static call; the data's stretch, and charges per topic and per byte. */
function logGas(runState: RunState, gas: bigint, common: Common): bigint {
  if (runState.interpreter.isStatic()) throw new EVMError(EVMError.errorMessages.STATIC_STATE_CHANGE)
  const [offset, length] = runState.stack.peek(2)
  const topics = BigInt(runState.opCode - LOG0)
  return gas + memoryGrowth(runState, offset, length, common) + common.param('logTopicGas') * topics + length * common.param('logDataGas')
}

/** EXP: a charge per byte of the exponent. */
function exponentGas(runState: RunState, gas: bigint, common: Common): bigint {
  const exponent = runState.stack.peek(2)[1]
  if (exponent === 0n) return gas
  const bytes = Math.ceil(exponent.toString(2).length / 8)
  return gas + BigInt(bytes) * common.param('expByteGas')
}

/** Whether an opcode's operands (top first) make it a write, which a static frame refuses. */
type Writes = (stack: readonly bigint[]) => boolean

/**
 * The operands (stack positions from the top) of the memory stretches of the opcodes whose gas
 * the library still prices: calls (input and output), EXTCODECOPY (creations: {@link creationChecked});
 * and whether it writes (a CALL moving value).
 */
const LIBRARY_PRICED: ReadonlyArray<readonly [opcode: number, operands: number, stretches: ReadonlyArray<readonly [offset: number, length: number]>, writes?: Writes]> = [
  [CALL, 7, [[3, 4], [5, 6]], (stack) => stack[2] !== 0n],
  [CALLCODE, 7, [[3, 4], [5, 6]]],
  [DELEGATECALL, 6, [[2, 3], [4, 5]]],
  [STATICCALL, 6, [[2, 3], [4, 5]]],
  [EXTCODECOPY, 4, [[1, 3]]],
]

/** `handler` behind geth's memory bound (and a static frame's refusal of a write): a stretch it cannot price fails at the opcode's fixed cost, before the library prices it. */
function memoryBounded(handler: GasHandler, operands: number, stretches: ReadonlyArray<readonly [number, number]>, writes?: Writes): GasHandler {
  return ((runState: RunState, gas: bigint, common: Common) => {
    const stack = runState.stack.peek(operands)
    checkWriteAndMemory(runState, stretches.map(([offset, length]) => [stack[offset], stack[length]] as const), writes?.(stack) ?? false)
    return (handler as unknown as (runState: RunState, gas: bigint, common: Common) => unknown)(runState, gas, common)
  }) as unknown as GasHandler
}

/**
 * CREATE's and CREATE2's `handler` behind geth's checks, in geth's order (gasCreateEip3860):
 * memory and a static frame ({@link checkWriteAndMemory}), then EIP-3860's limit on init code,
 * whose step is out of gas at the fixed cost with geth's text (`out of gas: max initcode size
 * exceeded: code size 49153 limit 49152`), where the library charged the whole cost and then
 * failed in its handler.
 */
function creationChecked(handler: GasHandler, operands: number): GasHandler {
  return ((runState: RunState, gas: bigint, common: Common) => {
    // The whole operand count first: a stack too short fails before anything else, as geth checks it.
    const [, offset, length] = runState.stack.peek(operands)
    checkWriteAndMemory(runState, [[offset, length]], true)
    if (common.isActivatedEIP(3860)) {
      const limit = common.param('maxInitCodeSize')
      if (length > limit) throw new EVMError(`out of gas: max initcode size exceeded: code size ${length} limit ${limit}` as EVMError['error'])
    }
    return (handler as unknown as (runState: RunState, gas: bigint, common: Common) => unknown)(runState, gas, common)
  }) as unknown as GasHandler
}

/** Replaces the gas handlers of the memory opcodes and EXP in `opcodes` (one EVM's own table) with synchronous ones, RETURNDATACOPY's bounds check moved to its handler; the calls', creations' and EXTCODECOPY's behind geth's memory bound, the creations' behind EIP-3860's limit. */
export function installMemoryGas(opcodes: OpcodeMap): void {
  const charge = (opcode: number, handler: (runState: RunState, gas: bigint, common: Common) => bigint): void => {
    opcodes[opcode].gasHandler = handler as unknown as GasHandler
  }
  charge(MLOAD, wordAccessGas)
  charge(MSTORE, wordAccessGas)
  charge(MSTORE8, byteStoreGas)
  charge(KECCAK256, hashGas)
  charge(CALLDATACOPY, copyIntoMemoryGas)
  charge(CODECOPY, copyIntoMemoryGas)
  charge(RETURNDATACOPY, returnDataCopyGas)
  const copyReturnData = opcodes[RETURNDATACOPY].opHandler as unknown as Handler
  opcodes[RETURNDATACOPY].opHandler = returnDataBoundsChecked(copyReturnData) as unknown as OpcodeMap[number]['opHandler']
  charge(RETURN, outputGas)
  charge(REVERT, outputGas)
  charge(EXP, exponentGas)
  for (let topics = 0; topics <= 4; topics++) charge(LOG0 + topics, logGas)
  for (const [opcode, operands, stretches, writes] of LIBRARY_PRICED) {
    const entry = opcodes[opcode]
    if (entry?.gasHandler !== undefined) entry.gasHandler = memoryBounded(entry.gasHandler, operands, stretches, writes)
  }
  for (const [opcode, operands] of [[CREATE, 3], [CREATE2, 4]]) {
    const entry = opcodes[opcode]
    if (entry?.gasHandler !== undefined) entry.gasHandler = creationChecked(entry.gasHandler, operands)
  }
  // MCOPY is in the table from Cancun on.
  if (opcodes[MCOPY]?.opcodeInfo.dynamicGas === true) charge(MCOPY, memoryCopyGas)
}
