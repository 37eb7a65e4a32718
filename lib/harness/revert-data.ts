/**
 * Revert data out of whatever a failed call threw (the devnet's RPCError, viem's error chain,
 * ethers' CALL_EXCEPTION), a halt without any told apart from other failures, and the two
 * standard revert payloads decoded: Error(string) and Panic(uint256).
 */

const ERROR_SELECTOR = '0x08c379a0'
const PANIC_SELECTOR = '0x4e487b71'

function isRevertHex(value: unknown): value is `0x${string}` {
  return typeof value === 'string' && /^0x([0-9a-fA-F]{2})*$/.test(value)
}

/**
 * Every object in an error's chain, breadth first and each once: the error, its `cause`, `error`
 * and `info` (viem's and ethers' wrappers), and a `data` object (an RPC error's) among them.
 */
function* errorChain(error: unknown): Generator<Record<string, unknown>> {
  const seen = new Set<unknown>()
  const queue: unknown[] = [error]
  while (queue.length > 0) {
    const current = queue.shift()
    if (typeof current !== 'object' || current === null || seen.has(current)) continue
    seen.add(current)
    const record = current as Record<string, unknown>
    yield record
    queue.push(record.data, record.cause, record.error, record.info)
  }
}

/** The revert bytes (hex) an error carries, or undefined if it is not a revert. */
export function revertDataOf(error: unknown): `0x${string}` | undefined {
  for (const record of errorChain(error)) {
    const data = record.data
    if (isRevertHex(data) && /revert/i.test(`${String(record.message ?? '')} ${String(record.shortMessage ?? '')} ${String(record.details ?? '')}`)) return data
    if (isRevertHex(record.raw)) return record.raw
  }
  return undefined
}

/**
 * geth's texts for a run that halted without revert data (INVALID, out of gas, a bad jump…), as
 * calls report them; not `max initcode size exceeded`, which is also a call refused before it runs
 * (a run's own starts `out of gas: `).
 */
const HALT = /^(?:invalid opcode|out of gas|invalid jump destination|stack underflow|stack limit reached|write protection|return data out of bounds|max code size exceeded|contract creation code storage out of gas|gas uint64 overflow|invalid code: must not begin with 0xef)/

/** Whether an error (the devnet's, or one viem or ethers wrapped it in) is a run that halted without revert data. */
export function isExecutionHalt(error: unknown): boolean {
  for (const record of errorChain(error)) {
    if ([record.message, record.details, record.shortMessage].some((text) => typeof text === 'string' && HALT.test(text))) return true
  }
  return false
}

function word(data: string, index: number): string {
  return data.slice(10 + index * 64, 10 + (index + 1) * 64)
}

/** The reason of an Error(string) revert, or undefined for any other revert data. */
export function decodeRevertReason(data: `0x${string}`): string | undefined {
  if (!data.startsWith(ERROR_SELECTOR) || data.length < 10 + 128) return undefined
  const offset = Number.parseInt(word(data, 0), 16) / 32
  const length = Number.parseInt(word(data, offset), 16)
  const start = 10 + (offset + 1) * 64
  return Buffer.from(data.slice(start, start + length * 2), 'hex').toString('utf8')
}

/** The code of a Panic(uint256) revert (0x11 overflow, 0x12 division by zero, …), or undefined. */
export function decodePanicCode(data: `0x${string}`): bigint | undefined {
  if (!data.startsWith(PANIC_SELECTOR) || data.length !== 10 + 64) return undefined
  return BigInt(`0x${word(data, 0)}`)
}
