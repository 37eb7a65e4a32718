/**
 * Jump-destination analysis of a code array, and the PUSH opcodes that read it. @ethereumjs/evm
 * 10.1.3's analysis (interpreter.js, `_getValidJumpDestinations`) works out every PUSH's value
 * up front through util's hex-string `bytesToBigInt`, with a subarray each, and lists an opcode
 * entry per code byte: ~50 bytes of heap and ~100 ns per byte of code, paid again for each
 * deployment's init code, and kept while the code is. Here the scan only marks the JUMPDESTs; a
 * PUSH's value is worked out when it first runs and kept with its code array, and the opcode
 * entries are listed only if the library's own step loop asks for them (tracing). Installed with
 * the word opcodes (without the Amsterdam and binary-tree frame EIPs).
 */
import type { EVM } from '@ethereumjs/evm'
import { JUMPDEST, PUSH1, PUSH32 } from './opcode-bytes.ts'

type OpcodeMap = EVM['_opcodeMap']
type OpcodeEntry = OpcodeMap[number]
type Handler = OpcodeEntry['opHandler']

/** A code array's jump destinations and, as they are asked for, its PUSH values and opcode entries (the shape the library's step loop and PUSH read). */
export class CodeAnalysis<Entry> {
  /** 1 at each offset that is a JUMPDEST opcode (not a PUSH's immediate byte). */
  readonly jumps: Uint8Array
  /** PUSH2–PUSH32 values by the offset of their first immediate byte, kept as each first runs. */
  readonly pushes: Array<bigint | undefined>
  private entries: Entry[] | undefined

  /** Scans `code`; `opcodes` is the EVM's table, by opcode byte. */
  constructor(
    private readonly code: Uint8Array,
    private readonly opcodes: readonly Entry[],
  ) {
    const jumps = new Uint8Array(code.length)
    for (let i = 0; i < code.length; i++) {
      const opcode = code[i]
      if (opcode >= PUSH1 && opcode <= PUSH32) i += opcode - PUSH1 + 1
      else if (opcode === JUMPDEST) jumps[i] = 1
    }
    this.jumps = jumps
    this.pushes = new Array<bigint | undefined>(code.length)
  }

  /** The opcode entry of each code byte, as the library's step loop reads them (listed on first use). */
  get opcodesCached(): Entry[] {
    this.entries ??= Array.from(this.code, (opcode) => this.opcodes[opcode])
    return this.entries
  }
}

/** The 256 one-byte values as bigints, so PUSH1 allocates nothing. */
const BYTE_VALUES = Array.from({ length: 256 }, (_, value) => BigInt(value))

/** The `size` bytes of `code` from `offset` as a big-endian number, bytes past the end read as zeros (as the library pads an immediate cut short). */
function immediate(code: Uint8Array, offset: number, size: number): bigint {
  let value = 0n
  for (let start = 0; start < size; start += 6) {
    const bytes = Math.min(6, size - start)
    let chunk = 0
    for (let i = 0; i < bytes; i++) chunk = chunk * 256 + (code[offset + start + i] ?? 0)
    value = (value << BigInt(8 * bytes)) | BigInt(chunk)
  }
  return value
}

/** What PUSH reads of the library's run state. */
interface RunState {
  code: Uint8Array
  programCounter: number
  opCode: number
  shouldDoJumpAnalysis: boolean
  cachedPushes: Array<bigint | undefined>
  stack: { push(value: bigint): void }
}

/**
 * PUSH1–PUSH32 (the library's, without the binary-tree witness charge): the immediate's value,
 * kept in the code's analysis once it has one (code without jumps has none, as in the library).
 */
function push(runState: RunState): void {
  const { code, programCounter: offset } = runState
  const size = runState.opCode - PUSH1 + 1
  let value: bigint | undefined
  if (size === 1) value = BYTE_VALUES[code[offset] ?? 0]
  else if (runState.shouldDoJumpAnalysis) value = immediate(code, offset, size)
  else {
    value = runState.cachedPushes[offset]
    if (value === undefined) runState.cachedPushes[offset] = value = immediate(code, offset, size)
  }
  runState.stack.push(value)
  runState.programCounter = offset + size
}

/** Replaces the PUSH1–PUSH32 handlers of `opcodes` with ones that read values from a {@link CodeAnalysis}. */
export function installPushOpcodes(opcodes: OpcodeMap): void {
  for (let opcode = PUSH1; opcode <= PUSH32; opcode++) opcodes[opcode].opHandler = push as unknown as Handler
}
