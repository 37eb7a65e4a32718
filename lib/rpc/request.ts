/**
 * EIP-1193 `request({ method, params })` over the method table: the one entry point shared by
 * the in-process provider and the HTTP and WebSocket servers. Errors always come out as
 * RPCErrors (`code`, `message`, `data`).
 */
import { hexToBytes } from '@ethereumjs/util'
import { ExecutionRevertedError, InvalidParamsError, InvalidRequestError, MethodNotFoundError, RPCErrorCode, toRPCError, type RPCError } from '../errors.ts'
import { revertReason } from '../execution/revert-reason.ts'
import type { RevertCode } from '../options.ts'
import type { BlockSelector } from '../engine/block-resolver.ts'
import type { UpstreamChain } from '../engine/upstream-chain.ts'
import type { Hash } from '../types.ts'
import { toQuantity } from './hex.ts'
import type { MethodContext, MethodDefinition, ReadTarget } from './method-definition.ts'
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

/**
 * On a forked chain, the upstream's answer to a read of what only it holds — a block up to the
 * fork block, or a transaction in one — with the request as sent (a tag that names a block by
 * this chain's head is sent as that block's number); undefined when the read is local.
 */
async function forwardToUpstream(context: MethodContext, upstream: UpstreamChain, method: string, target: ReadTarget, parsed: unknown[], params: unknown[]): Promise<{ result: unknown } | undefined> {
  if ('transaction' in target) {
    const hash = parsed[target.transaction] as Hash
    if (context.engine.lookups.find(hash) !== undefined) return undefined
    const block = await upstream.blockOfTransaction(hash)
    return block !== undefined && block <= upstream.forkNumber ? { result: await upstream.forward(method, params) } : undefined
  }
  const value = parsed[target.block]
  // A block hash, a plain number (Otterscan's), or a parsed tag.
  const selector: BlockSelector = typeof value === 'string' ? { hash: value as Hash } : typeof value === 'number' ? { number: BigInt(value) } : (value as BlockSelector)
  if (!(await context.view.blocks.upstreamHolds(selector, target.reads))) return undefined
  const sent = [...(params ?? [])]
  if ('tag' in selector) sent[target.block] = toQuantity(context.view.blocks.numberOfTag(selector.tag))
  return { result: await upstream.forward(method, sent) }
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
    const parsed = parseParameters(definition, args.params)
    if (context.engine.upstream !== undefined && definition.target !== undefined) {
      const forwarded = await forwardToUpstream(context, context.engine.upstream, method, definition.target, parsed, args.params as unknown[])
      if (forwarded !== undefined) return forwarded.result
    }
    return await definition.handler(context, parsed)
  } catch (error) {
    throw presentError(error, context.engine.options.revertCode)
  }
}
