/**
 * The devnet's code analysis and PUSH (lib/execution/code-analysis.ts) against @ethereumjs/evm
 * 10.1.3's own (interpreter.js `_getValidJumpDestinations`, opcodes/functions.js PUSH): the same
 * JUMPDESTs, the same PUSH values (an immediate cut short by the code's end is padded with zeros
 * on the right, as the library pads it), with and without jump analysis, the first time and
 * from the cache, and the same opcode entries for the library's own step loop.
 */
import { expect } from 'chai'
import { createEVM, type EVM } from '@ethereumjs/evm'
import { hexToBytes } from '@ethereumjs/util'
import { CodeAnalysis, installPushOpcodes } from '../../lib/execution/code-analysis.ts'

type OpcodeMap = EVM['_opcodeMap']
type LibraryAnalysis = { jumps: Uint8Array; pushes: Record<number, bigint>; opcodesCached: unknown[] }

/** The library's Interpreter, as the devnet finds it: from the run state of a frame the library ran. */
async function libraryAnalyser(): Promise<{ analyse: (code: Uint8Array) => LibraryAnalysis; opcodes: OpcodeMap }> {
  const evm = await createEVM()
  const result = await evm.runCode({ code: Uint8Array.of(0x00), gasLimit: 100_000n })
  const interpreter = result.runState!.interpreter as unknown as { _getValidJumpDestinations(code: Uint8Array): LibraryAnalysis }
  return { analyse: (code) => interpreter._getValidJumpDestinations(code), opcodes: (evm as unknown as { _opcodeMap: OpcodeMap })._opcodeMap }
}

/** The PUSH handler the devnet installs. */
function pushHandler(): (runState: unknown) => void {
  const table = Array.from({ length: 256 }, () => ({ opHandler: undefined })) as unknown as OpcodeMap
  installPushOpcodes(table)
  return table[0x60].opHandler as unknown as (runState: unknown) => void
}

/** What PUSH at `offset` − 1 pushes, through the devnet's handler: its value and where the program counter goes. */
function runPush(code: Uint8Array, offset: number, cachedPushes: Array<bigint | undefined>, analysed: boolean): { value: bigint; next: number } {
  const pushed: bigint[] = []
  const runState = { code, programCounter: offset, opCode: code[offset - 1], shouldDoJumpAnalysis: !analysed, cachedPushes, stack: { push: (value: bigint) => pushed.push(value) } }
  pushHandler()(runState)
  return { value: pushed[0], next: runState.programCounter }
}

/** A seeded generator of code bytes, PUSHes and JUMPDESTs made common. */
function randomCodes(count: number): Uint8Array[] {
  let seed = 0x2545f491
  const next = () => {
    seed ^= seed << 13
    seed ^= seed >>> 17
    seed ^= seed << 5
    return seed >>> 0
  }
  return Array.from({ length: count }, () =>
    Uint8Array.from({ length: 1 + (next() % 200) }, () => {
      const pick = next() % 4
      return pick === 0 ? 0x5b : pick === 1 ? 0x60 + (next() % 32) : next() % 256
    }),
  )
}

describe('execution/code-analysis: the analysis and PUSH match @ethereumjs/evm\'s', () => {
  const cases = [
    ...randomCodes(400),
    // PUSH32 with only 3 immediate bytes left; PUSH2 with none; a JUMPDEST byte inside a PUSH's immediate.
    hexToBytes('0x5b7f010203'),
    hexToBytes('0x5b61'),
    hexToBytes('0x615b5b5b'),
  ]

  it('marks the JUMPDESTs the library marks, outside PUSH immediates, and lists the same opcode entries where an opcode starts', async () => {
    const { analyse, opcodes } = await libraryAnalyser()
    for (const code of cases) {
      const ours = new CodeAnalysis(code, opcodes)
      const library = analyse(code)
      expect([...ours.jumps], Buffer.from(code).toString('hex')).to.deep.equal([...library.jumps])
      // The library lists an entry only where an opcode starts, which is all its loop reads.
      expect(ours.opcodesCached.length).to.equal(library.opcodesCached.length)
      library.opcodesCached.forEach((entry, i) => expect(ours.opcodesCached[i], `entry ${i}`).to.equal(entry))
    }
  })

  it('pushes the values the library works out, padded on the right at the code\'s end, whether analysed or not and again from the cache', async () => {
    const { analyse, opcodes } = await libraryAnalyser()
    let checked = 0
    for (const code of cases) {
      const ours = new CodeAnalysis(code, opcodes)
      for (const [key, expected] of Object.entries(analyse(code).pushes)) {
        const offset = Number(key)
        const size = code[offset - 1] - 0x5f
        for (const analysed of [true, true, false]) {
          const { value, next } = runPush(code, offset, ours.pushes, analysed)
          expect(value, `${Buffer.from(code).toString('hex')} at ${offset}`).to.equal(expected)
          expect(next).to.equal(offset + size)
        }
        checked++
      }
    }
    expect(checked).to.be.greaterThan(2000)
    // The cut-short cases, spelled out: 0x010203 padded to 32 bytes; PUSH2 with nothing left is 0.
    expect(runPush(hexToBytes('0x5b7f010203'), 2, [], false).value).to.equal(0x010203n << 232n)
    expect(runPush(hexToBytes('0x5b61'), 2, [], true).value).to.equal(0n)
  })
})
