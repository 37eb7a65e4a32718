/**
 * The reason geth puts after `execution reverted: ` (abi.UnpackRevert): the string of an
 * Error(string) revert, or the text of a Panic(uint256) code; nothing for other revert data.
 */
import { bytesToBigInt } from '@ethereumjs/util'

const ERROR_SELECTOR = 0x08c379a0
const PANIC_SELECTOR = 0x4e487b71

/** Solidity's panic codes, with geth's texts (accounts/abi/abi.go panicReasons). */
const PANIC_REASONS: ReadonlyMap<bigint, string> = new Map([
  [0x00n, 'generic panic'],
  [0x01n, 'assert(false)'],
  [0x11n, 'arithmetic underflow or overflow'],
  [0x12n, 'division or modulo by zero'],
  [0x21n, 'enum overflow'],
  [0x22n, 'invalid encoded storage byte array accessed'],
  [0x31n, 'out-of-bounds array access; popping on an empty array'],
  [0x32n, 'out-of-bounds access of an array or bytesN'],
  [0x41n, 'out of memory'],
  [0x51n, 'uninitialized function'],
])

function selectorOf(data: Uint8Array): number {
  return ((data[0] << 24) | (data[1] << 16) | (data[2] << 8) | data[3]) >>> 0
}

/** The decoded reason of revert `data`, or undefined when it is neither Error(string) nor Panic(uint256). */
export function revertReason(data: Uint8Array): string | undefined {
  if (data.length < 4) return undefined
  const selector = selectorOf(data)
  const body = data.subarray(4)
  if (selector === PANIC_SELECTOR && body.length === 32) {
    const code = bytesToBigInt(body)
    return PANIC_REASONS.get(code) ?? `unknown panic code: 0x${code.toString(16)}`
  }
  if (selector !== ERROR_SELECTOR || body.length < 64) return undefined
  const offset = bytesToBigInt(body.subarray(0, 32))
  if (offset + 32n > BigInt(body.length)) return undefined
  const start = Number(offset)
  const length = bytesToBigInt(body.subarray(start, start + 32))
  if (BigInt(start) + 32n + length > BigInt(body.length)) return undefined
  return new TextDecoder().decode(body.subarray(start + 32, start + 32 + Number(length)))
}
