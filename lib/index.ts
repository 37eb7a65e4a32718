/**
 * preconf-devnet: a deterministic in-process EVM chain with pre-confirmations.
 * This module is the one door in: every public name is listed here, one by one; nothing else
 * under lib/ is part of the package's interface.
 */
export { Chain, createChain } from './chain.ts'
export type { CallParameters, DepositParameters } from './chain.ts'
export type { ChainEvents, SubscriptionMessage, WithdrawnPreconfirmations } from './engine/events.ts'
export type { ExecutedLocation, TransactionLocation } from './engine/lookups.ts'
export type { Preconfirmation } from './builder/builder.ts'
export type { PendingBlockView, PreconfirmationRecord } from './builder/pending-block.ts'
export type { DroppedTransaction } from './builder/sources.ts'
export type { IncludedTransaction, SealedBlock } from './blocks/block.ts'
export type { BlockHeader } from './blocks/header.ts'
export type { Log, TransactionReceipt } from './blocks/receipt.ts'
export type { BlockContext } from './execution/block-context.ts'
export type { AccessList, Authorization, Transaction, UserTransaction } from './transactions/transaction.ts'
export type { Clock, ClockMode } from './clock/clock.ts'
export type { ChainOptions, FaultOptions, MiningMode, OptionDefinition, ResolvedChainOptions } from './options.ts'
export { chainOptions } from './options.ts'
export { serverOptions } from './cli-options.ts'
export { faultOptions } from './faults/fault-options.ts'
export { startServer } from './server/server.ts'
export type { CloseOptions, DevnetServer, ServerOptions } from './server/server.ts'
export { httpSafetyOptions } from './server/http-options.ts'
export type { DevAccount } from './accounts/dev-accounts.ts'
export { DEFAULT_MNEMONIC } from './accounts/dev-accounts.ts'
export {
  BlockNotFoundError,
  ExecutionFailedError,
  ExecutionRevertedError,
  HeaderNotFoundError,
  InternalError,
  InvalidInputError,
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
export type { RPCErrorObject, RPCErrorOptions } from './errors.ts'
export type { RequestArguments } from './rpc/request.ts'
export type { Address, BlockTag, BlockTagName, Hash, Hex } from './types.ts'
