/**
 * Otterscan's methods (`ots_*`, API level 8, and `erigon_getHeaderByNumber`), as Anvil serves
 * them, so the Otterscan block explorer runs against the devnet. A transaction's traces are
 * Parity's (engine/tracing.ts; a pre-confirmed one is traced in the pending block); the searches
 * over blocks are the engine's (engine/otterscan.ts, engine/lookups.ts), over sealed blocks only.
 */
import { TAG } from '../engine/block-resolver.ts'
import type { ChainView, Engine } from '../engine/engine.ts'
import type { AddressPage } from '../engine/otterscan.ts'
import { parityFrames } from '../engine/tracing.ts'
import { BlockNotFoundError, ResourceNotFoundError } from '../errors.ts'
import type { ParityTrace } from '../execution/tracers/parity-tracer.ts'
import { PARITY_TRACER } from '../execution/tracers/tracer.ts'
import type { Hash } from '../types.ts'
import {
  formatBlockDetails,
  formatBlockTransactions,
  formatInternalOperations,
  formatTimedReceipt,
  formatTraceEntries,
} from './format-otterscan.ts'
import { formatIncluded, sealedRef } from './format-transaction.ts'
import { parseAddress, parseHash, parseSmallQuantity, toData } from './hex.ts'
import { method, optional, required, type MethodDefinition } from './method-definition.ts'
import { blockAt, blockWithHash, type NamedBlock } from './named-block.ts'
import { parseBlockTag, parseQuantityLike } from './params.ts'

/** The API level Otterscan requires (its params.ts), as Anvil reports it. */
const API_LEVEL = 8

const transactionHash = required('0 (hash)', parseHash)
const address = required('0 (address)', parseAddress)
const blockTag = required('0 (block)', parseBlockTag)

/** The Parity traces of the pre-confirmed or sealed transaction `hash`; undefined for one unknown or only pooled. */
async function tracesOf(engine: Engine, view: ChainView, hash: Hash): Promise<ParityTrace[] | undefined> {
  const location = view.lookups.find(hash)
  if (location === undefined || location.status === 'mempool') return undefined
  return parityFrames((await engine.tracing.traceTransaction(hash, PARITY_TRACER, view)).trace)
}

/** A block Otterscan asks about must exist: -32001 `Resource not found` otherwise, as Anvil answers. */
function existing(found: NamedBlock | undefined): NamedBlock {
  if (found === undefined) throw new BlockNotFoundError()
  return found
}

/** A page of a search: each transaction in full and its receipt with its block's timestamp. */
function formatPage(view: ChainView, page: AddressPage): Record<string, unknown> {
  const txs: Record<string, unknown>[] = []
  const receipts: Record<string, unknown>[] = []
  for (const hash of page.hashes) {
    const location = view.lookups.find(hash)
    if (location?.status !== 'sealed') throw new Error(`a searched transaction ${hash} is not sealed`)
    const ref = sealedRef(location.block)
    txs.push(formatIncluded(location.included, ref))
    receipts.push(formatTimedReceipt(location.included, ref))
  }
  return { txs, receipts, firstPage: page.firstPage, lastPage: page.lastPage }
}

const search = [address, required('1 (block)', parseSmallQuantity), required('2 (page size)', parseSmallQuantity)] as const

/** Otterscan's methods, by name. */
export const otterscanMethods: Readonly<Record<string, MethodDefinition>> = {
  // Otterscan reads headers with it; Anvil answers the block with its transaction hashes (null beyond the head).
  erigon_getHeaderByNumber: method([blockTag], ({ view }, selector) => blockAt(view, selector)?.json(false) ?? null),
  ots_getApiLevel: method([], () => API_LEVEL),
  ots_hasCode: method([address, optional('1 (block)', parseBlockTag, () => TAG.latest)], async ({ view }, account, selector) => {
    return (await view.reads.code(account, selector)).length > 0
  }),
  // Anvil answers -32603 for an unknown transaction; that code means a bug here (and viem retries it), so geth's tracing error instead.
  ots_getInternalOperations: method([transactionHash], async ({ engine, view }, hash) => {
    const traces = await tracesOf(engine, view, hash)
    if (traces === undefined) throw new ResourceNotFoundError('transaction not found')
    return formatInternalOperations(traces)
  }),
  ots_traceTransaction: method([transactionHash], async ({ engine, view }, hash) => formatTraceEntries((await tracesOf(engine, view, hash)) ?? [])),
  // A failed transaction's return data (a revert's reason); '0x' for one that succeeded, ran out of gas, or is unknown.
  ots_getTransactionError: method([transactionHash], async ({ engine, view }, hash) => {
    const location = view.lookups.find(hash)
    if (location === undefined || location.status === 'mempool' || location.included.receipt.status === 1) return '0x'
    const top = (await tracesOf(engine, view, hash))?.[0]
    return top?.hasResult === true ? toData(top.output) : '0x'
  }),
  ots_getBlockDetails: method([blockTag], ({ view }, selector) => formatBlockDetails(existing(blockAt(view, selector)))),
  ots_getBlockDetailsByHash: method([required('0 (hash)', parseHash)], ({ view }, hash) => formatBlockDetails(existing(blockWithHash(view, hash)))),
  ots_getBlockTransactions: method(
    [required('0 (block)', parseSmallQuantity), required('1 (page)', parseSmallQuantity), required('2 (page size)', parseSmallQuantity)],
    ({ view }, number, page, pageSize) => formatBlockTransactions(existing(blockAt(view, { number: BigInt(number) })), page, pageSize),
  ),
  ots_searchTransactionsBefore: method([...search], async ({ engine, view }, account, block, pageSize) =>
    formatPage(view, await engine.otterscan.before(account, BigInt(block), pageSize, view)),
  ),
  ots_searchTransactionsAfter: method([...search], async ({ engine, view }, account, block, pageSize) =>
    formatPage(view, await engine.otterscan.after(account, BigInt(block), pageSize, view)),
  ),
  // Sealed transactions only, as Anvil's (its eth_getTransactionBySenderAndNonce also finds pooled ones).
  ots_getTransactionBySenderAndNonce: method([address, required('1 (nonce)', parseQuantityLike)], ({ view }, sender, nonce) => {
    return view.lookups.bySenderAndNonce(sender, nonce, true) ?? null
  }),
  ots_getContractCreator: method([address], async ({ engine, view }, contract) => (await engine.otterscan.contractCreator(contract, view)) ?? null),
}
