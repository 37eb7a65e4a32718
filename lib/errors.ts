/**
 * The errors the devnet answers with: one base class, one table of JSON-RPC codes. No other
 * module invents a code. Every error carries `code`, `message` (the node's text, exactly what
 * geth would send) and `data`, so viem and ethers classify it the same in-process and over HTTP.
 */

/** The JSON-RPC error codes, in one place. */
export const RPCErrorCode = {
  /** Invalid JSON was received. */
  parseError: -32700,
  /** The JSON is not a valid request object. */
  invalidRequest: -32600,
  /** The method does not exist or is not available. */
  methodNotFound: -32601,
  /** Invalid method parameters. */
  invalidParams: -32602,
  /** A bug in the devnet; never used for an expected failure (viem retries it). */
  internal: -32603,
  /** geth's code for execution, pool and state errors. */
  server: -32000,
  /** Anvil's code for a block it does not hold, where its method must answer one (`Resource not found`). */
  resourceNotFound: -32001,
  /** geth's code for a request (or a batch's remaining members) cut at the server's deadline (rpc/errors.go errcodeTimeout). */
  requestTimeout: -32002,
  /** geth's and Anvil's code for `execution reverted` (with the `revertCode: 3` option). */
  executionReverted: 3,
  /** EIP-7966: `eth_sendRawTransactionSync` timed out before the receipt was ready. */
  transactionTimeout: 4,
  // geth's eth_simulateV1 codes (internal/ethapi/errors.go): a call that could not be included.
  simulateNonceTooLow: -38010,
  simulateNonceTooHigh: -38011,
  simulateBaseFeeTooLow: -38012,
  simulateIntrinsicGas: -38013,
  simulateInsufficientFunds: -38014,
  simulateBlockGasLimitReached: -38015,
  simulateBlockNumberInvalid: -38020,
  simulateBlockTimestampInvalid: -38021,
  simulateMaxInitCodeSizeExceeded: -38025,
  /** geth's errCodeClientLimitExceeded: a request past a size limit (eth_simulateV1's blocks and calls, eth_getStorageValues' slots). */
  clientLimitExceeded: -38026,
  /** geth's code for a simulated call that failed in the EVM other than by reverting (in its result). */
  simulateVMError: -32015,
} as const

/** The codes of {@link SimulationError}. */
type SimulationErrorCode = Extract<(typeof RPCErrorCode)[keyof typeof RPCErrorCode], -38010 | -38011 | -38012 | -38013 | -38014 | -38015 | -38020 | -38021 | -38025 | -38026>

/** A JSON-RPC error object, as it goes over the wire. */
export type RPCErrorObject = { code: number; message: string; data?: unknown }

/** Options for an {@link RPCError}. */
export type RPCErrorOptions = {
  /** JSON-serialisable payload, e.g. the revert bytes as hex. */
  data?: unknown
  /** The underlying error, kept for debugging. */
  cause?: unknown
}

/** The base class of every error the devnet throws to its callers. */
export class RPCError extends Error {
  override name = 'RPCError'
  /** JSON-RPC error code (see {@link RPCErrorCode}). */
  readonly code: number
  /** JSON-RPC error data, if any (absent, not undefined, when there is none). */
  declare readonly data?: unknown
  /** The one-line node message; equals `message` (viem reads `details` of its RPC errors). */
  readonly shortMessage: string
  /** The node message, as viem's `RpcRequestError.details`: what viem's error matchers read. */
  readonly details: string

  constructor(code: number, message: string, options: RPCErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.code = code
    if (options.data !== undefined) Object.defineProperty(this, 'data', { value: options.data, enumerable: true })
    this.shortMessage = message
    this.details = message
  }

  /** The error as a JSON-RPC error object. */
  toJSON(): RPCErrorObject {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data }
  }
}

/** -32700: the request body is not JSON. */
export class ParseError extends RPCError {
  override name = 'ParseError'
  constructor(details: string) {
    super(RPCErrorCode.parseError, `parse error: ${details}`)
  }
}

/** -32600: the JSON is not a JSON-RPC request. */
export class InvalidRequestError extends RPCError {
  override name = 'InvalidRequestError'
  constructor(details: string) {
    super(RPCErrorCode.invalidRequest, `invalid request: ${details}`)
  }
}

/** -32601: unknown method, with geth's text (ethers recognises it). */
export class MethodNotFoundError extends RPCError {
  override name = 'MethodNotFoundError'
  constructor(method: string) {
    super(RPCErrorCode.methodNotFound, `the method ${method} does not exist/is not available`)
  }
}

/** -32602: a parameter is missing or malformed; the message names the argument. */
export class InvalidParamsError extends RPCError {
  override name = 'InvalidParamsError'
  constructor(message: string) {
    super(RPCErrorCode.invalidParams, message)
  }
}

/** -32603: an unexpected failure inside the devnet (a bug, reported as such). */
export class InternalError extends RPCError {
  override name = 'InternalError'
  constructor(cause: unknown) {
    super(RPCErrorCode.internal, `internal error: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    })
  }
}

/**
 * `execution reverted`, `data` = the revert bytes. By default -32000 with exactly this text:
 * viem decodes a -32000 revert only when it is (and ethers needs /revert/ beside hex data).
 * With the `revertCode: 3` option, geth's and Anvil's code 3 and geth's message
 * (`execution reverted: <reason>` for Error(string) and Panic data), which cast decodes.
 */
export class ExecutionRevertedError extends RPCError {
  override name = 'ExecutionRevertedError'
  constructor(
    /** The revert bytes. */
    readonly revertData: `0x${string}`,
    code: typeof RPCErrorCode.server | typeof RPCErrorCode.executionReverted = RPCErrorCode.server,
    reason?: string,
  ) {
    super(code, reason === undefined ? 'execution reverted' : `execution reverted: ${reason}`, { data: revertData })
  }
}

/** -32000 for an EVM failure other than a revert (out of gas, invalid opcode, …). */
export class ExecutionFailedError extends RPCError {
  override name = 'ExecutionFailedError'
  constructor(message: string) {
    super(RPCErrorCode.server, message)
  }
}

/** geth's texts for rejected transactions; a detail may follow after `: `. */
export const TransactionRejection = {
  alreadyKnown: 'already known',
  nonceTooLow: 'nonce too low',
  insufficientFunds: 'insufficient funds for gas * price + value',
  insufficientFundsForTransfer: 'insufficient funds for transfer',
  replacementUnderpriced: 'replacement transaction underpriced',
  underpriced: 'transaction underpriced',
  txPoolFull: 'txpool is full',
  futureReplacePending: 'future transaction tries to replace pending',
  intrinsicGasTooLow: 'intrinsic gas too low',
  floorDataGas: 'insufficient gas for floor data gas cost',
  gasLimitExceeded: 'exceeds block gas limit',
  gasLimitTooHigh: 'transaction gas limit too high',
  feeCapTooLow: 'max fee per gas less than block base fee',
  invalidSender: 'invalid sender',
  tipAboveFeeCap: 'max priority fee per gas higher than max fee per gas',
  typeNotSupported: 'transaction type not supported',
  oversizedData: 'oversized data',
  initCodeTooLarge: 'max initcode size exceeded',
  invalidTransaction: 'invalid transaction',
} as const

/** -32000: the pool refused a transaction, with geth's text (viem and ethers match on it). */
export class TransactionRejectedError extends RPCError {
  override name = 'TransactionRejectedError'
  /** The geth reason without the detail, e.g. `nonce too low`. */
  readonly reason: string
  /**
   * @param detail what follows the reason, after `separator`: geth puts most details after a
   *   colon, and a few in parentheses after a space (`transaction gas limit too high (cap: …)`)
   */
  constructor(reason: (typeof TransactionRejection)[keyof typeof TransactionRejection], detail?: string, separator: ': ' | ' ' = ': ') {
    super(RPCErrorCode.server, detail === undefined ? reason : `${reason}${separator}${detail}`)
    this.reason = reason
  }
}

/** -32000 `header not found`: a block number beyond the head (geth's text). */
export class HeaderNotFoundError extends RPCError {
  override name = 'HeaderNotFoundError'
  constructor() {
    super(RPCErrorCode.server, 'header not found')
  }
}

/** -32000 for a parameter geth decodes but then refuses, with geth's text (a trace config's `timeout`: `time: invalid duration "x"`). */
export class RejectedParameterError extends RPCError {
  override name = 'RejectedParameterError'
  constructor(message: string) {
    super(RPCErrorCode.server, message)
  }
}

/** -32000 for a test control given an input it cannot honour (Hardhat's InvalidInputError). */
export class InvalidInputError extends RPCError {
  override name = 'InvalidInputError'
  constructor(message: string) {
    super(RPCErrorCode.server, message)
  }
}

/**
 * A forked chain's upstream failed (unreachable, timed out, refused) or answered what it should
 * not: -32000 with a message naming the upstream and the call. Nothing is cached from a failed
 * call, so the next request tries again.
 */
export class UpstreamError extends RPCError {
  override name = 'UpstreamError'
  constructor(message: string, options: RPCErrorOptions = {}) {
    super(RPCErrorCode.server, message, options)
  }
}

/**
 * -32002 `request timed out` (geth's rpc/errors.go): a batch's members not yet run when the
 * batch's time is up (geth answers them so as its HTTP write deadline nears).
 */
export class RequestTimeoutError extends RPCError {
  override name = 'RequestTimeoutError'
  constructor() {
    super(RPCErrorCode.requestTimeout, 'request timed out')
  }
}

/** -32000 for a well-formed request naming something the devnet does not have (an unknown block hash or account). */
export class ResourceNotFoundError extends RPCError {
  override name = 'ResourceNotFoundError'
  constructor(message: string) {
    super(RPCErrorCode.server, message)
  }
}

/** -32001 `Resource not found`: Anvil's answer where a block its method must describe does not exist (Otterscan's block methods). */
export class BlockNotFoundError extends RPCError {
  override name = 'BlockNotFoundError'
  constructor() {
    super(RPCErrorCode.resourceNotFound, 'Resource not found')
  }
}

/**
 * Code 4 (EIP-7966): the transaction was accepted but not pre-confirmed in time, with the text
 * of Base's node (reth's TransactionConfirmationTimeout); `data` is its hash, as geth gives it.
 */
export class TransactionTimeoutError extends RPCError {
  override name = 'TransactionTimeoutError'
  constructor(hash: `0x${string}`, timeoutMs: number) {
    super(
      RPCErrorCode.transactionTimeout,
      `Transaction ${hash} was added to the mempool but wasn't confirmed within ${rustDuration(timeoutMs)}.`,
      { data: hash },
    )
  }
}

/** Whole milliseconds as Rust's `Duration` debug-prints them: `0ns`, `300ms`, `1s`, `2.5s`, `1.234s`. */
function rustDuration(ms: number): string {
  if (ms === 0) return '0ns'
  if (ms < 1000) return `${ms}ms`
  const fraction = String(ms % 1000).padStart(3, '0').replace(/0+$/, '')
  return `${Math.floor(ms / 1000)}${fraction === '' ? '' : `.${fraction}`}s`
}

/** `eth_simulateV1`: a call or block that could not be simulated, with geth's code and text. */
export class SimulationError extends RPCError {
  override name = 'SimulationError'
  constructor(code: SimulationErrorCode, message: string) {
    super(code, message)
  }
}

/** -38026 (geth's clientLimitExceededError): a request larger than the node serves, with geth's text. */
export class ClientLimitExceededError extends RPCError {
  override name = 'ClientLimitExceededError'
  constructor(message: string) {
    super(RPCErrorCode.clientLimitExceeded, message)
  }
}

/** Any thrown value as an {@link RPCError}: unknown errors become -32603 (they are bugs). */
export function toRPCError(error: unknown): RPCError {
  return error instanceof RPCError ? error : new InternalError(error)
}
