/**
 * EIP-1193 `request({ method, params })` over the method table: the one entry point shared by
 * the in-process provider and the HTTP and WebSocket servers. Errors always come out as
 * RPCErrors (`code`, `message`, `data`).
 */
import { hexToBytes } from '@ethereumjs/util'
import { ExecutionRevertedError, InvalidParamsError, InvalidRequestError, MethodNotFoundError, RPCErrorCode, toRPCError, type RPCError } from '../errors.ts'
import { revertReason } from '../execution/revert-reason.ts'
import type { RevertCode } from '../options.ts'
import type { MethodContext, MethodDefinition } from './method-definition.ts'
import { methods, subscriptionMethods } from './methods.ts'

/** An EIP-1193 request. `params` defaults to an empty list. */
export interface RequestArguments {
  readonly method: string
  readonly params?: unknown
}

function parseParameters(definition: MethodDefinition, params: unknown): unknown[] {
  const given = params === undefined || params === null ? [] : params
  if (!Array.isArray(given)) throw new InvalidParamsError('invalid params: expected an array of positional parameters')
  const { parameters } = definition
  if (given.length > parameters.length) {
    throw new InvalidParamsError(`too many arguments, want at most ${parameters.length}`)
  }
  return parameters.map((parameter, i) => {
    const value = given[i]
    if (value === undefined || value === null) {
      if (parameter.fallback === undefined) throw new InvalidParamsError(`missing value for required argument ${i}`)
      return parameter.fallback()
    }
    return parameter.parse(value, parameter.name)
  })
}

/** `error` as the chain answers it: an RPCError, a revert with the chain's revert code. */
export function presentError(error: unknown, revertCode: RevertCode): RPCError {
  if (revertCode === RPCErrorCode.executionReverted && error instanceof ExecutionRevertedError && error.code !== revertCode) {
    return new ExecutionRevertedError(error.revertData, revertCode, revertReason(hexToBytes(error.revertData)))
  }
  return toRPCError(error)
}

/** Answers one request; throws an RPCError (never anything else). */
export async function handleRequest(context: MethodContext, args: RequestArguments): Promise<unknown> {
  try {
    if (typeof args !== 'object' || args === null || typeof args.method !== 'string') {
      throw new InvalidRequestError('expected { method: string, params?: unknown[] }')
    }
    const { method } = args
    const definition = Object.hasOwn(methods, method) ? methods[method] : Object.hasOwn(subscriptionMethods, method) ? subscriptionMethods[method] : undefined
    if (definition === undefined) throw new MethodNotFoundError(method)
    return await definition.handler(context, parseParameters(definition, args.params))
  } catch (error) {
    throw presentError(error, context.engine.options.revertCode)
  }
}
