/**
 * preconf-devnet: a deterministic in-process EVM chain with pre-confirmations.
 * This module is the one door in; everything else under lib/ is internal.
 */
export { Chain, createChain } from './chain.ts'
export type { CallParameters, ChainEvents, TransactionLocation } from './chain.ts'
export type { Preconfirmation } from './builder.ts'
export type { Clock } from './clock.ts'
export type { ChainOptions, ClockMode, ResolvedChainOptions } from './options.ts'
export { chainOptions, serverOptions } from './options.ts'
export { startServer } from './server/server.ts'
export type { DevnetServer, ServerOptions } from './server/server.ts'
export type { DevAccount } from './accounts/dev-accounts.ts'
export { DEFAULT_MNEMONIC } from './accounts/dev-accounts.ts'
export {
  ExecutionFailedError,
  ExecutionRevertedError,
  HeaderNotFoundError,
  InternalError,
  InvalidParamsError,
  InvalidRequestError,
  MethodNotFoundError,
  ParseError,
  ResourceNotFoundError,
  RPCError,
  RPCErrorCode,
  TransactionRejectedError,
  TransactionRejection,
  TransactionTimeoutError,
} from './errors.ts'
export type { RPCErrorObject } from './errors.ts'
export type { RequestArguments } from './rpc/request.ts'
export type { Address, BlockTag, BlockTagName, Hash, Hex } from './types.ts'
