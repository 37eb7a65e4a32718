/**
 * `anvil_reorg`: the last `depth` blocks replaced by as many new ones, as Anvil 1.7.1 does it.
 * The blocks are rolled back ({@link rollBack}); then each new block is mined holding only the
 * transactions the request assigns it (by its offset from the first new block), in their
 * order, those that cannot execute left out. A transaction given as a request is completed on
 * the state the new blocks build on and signed for its `from` (by default the first dev
 * account), each sender's nonces counted on from there. The mempool is left as it is.
 */
import type { Serializer } from '../clock/serializer.ts'
import { InvalidParamsError } from '../errors.ts'
import type { UserTransaction } from '../transactions/transaction.ts'
import type { Address } from '../types.ts'
import type { TransactionIntake, TransactionRequest } from './intake.ts'
import { rollBack, unwindTarget, type RollbackParts } from './rollback.ts'
import type { StateReads } from './state-reads.ts'
import type { Wallet } from './wallet.ts'

/** A replacement block's transaction: signed bytes, or a request for the wallet to complete and sign. */
export type ReorgTransaction = { readonly raw: Uint8Array } | { readonly request: TransactionRequest }

/** A transaction and the offset of the new block it goes in (0: the first). */
export type ReorgPlacement = readonly [transaction: ReorgTransaction, block: number]

/** What a reorg works with: a rollback's parts, and what completes and signs its transactions. */
export interface ReorgParts {
  readonly rollback: RollbackParts
  readonly intake: TransactionIntake
  readonly reads: StateReads
  /** Its first dev account sends a request that names no `from`. */
  readonly wallet: Wallet
  readonly serialize: Serializer
}

/** Replaces the last `depth` blocks with new ones holding `placements` (Anvil's -32602 texts for a depth or an offset too large). */
export async function reorg(parts: ReorgParts, depth: number, placements: readonly ReorgPlacement[]): Promise<void> {
  const common = unwindTarget(parts.rollback, depth, 'Reorg')
  const beyond = placements.find(([, block]) => block >= depth)
  if (beyond !== undefined) {
    throw new InvalidParamsError(`Block number for reorg tx will exceed the reorged chain height. Block number ${beyond[1]} must not exceed (depth-1) ${depth - 1}`)
  }
  const blocks: UserTransaction[][] = Array.from({ length: depth }, () => [])
  const nonces = new Map<Address, bigint>()
  // In block order (a stable sort keeps each block's own order), so each sender's nonces run on across the blocks.
  for (const [transaction, block] of [...placements].sort((a, b) => a[1] - b[1])) {
    blocks[block]!.push('raw' in transaction ? parts.intake.decode(transaction.raw) : await signed(parts, transaction.request, BigInt(common), nonces))
  }
  await parts.serialize(async () => {
    rollBack(parts.rollback, depth, 'Reorg')
    for (const transactions of blocks) await parts.rollback.mining.mineWith(transactions)
  })
}

/** `request` completed on block `common` and signed, with its sender's next nonce there (counting those already given out). */
async function signed(parts: ReorgParts, request: TransactionRequest, common: bigint, nonces: Map<Address, bigint>): Promise<UserTransaction> {
  const from = request.from ?? parts.wallet.firstAccount
  if (from === undefined) throw new InvalidParamsError('no signer available: the chain has no dev accounts, and the request names no from')
  const nonce = nonces.get(from) ?? (await parts.reads.nonce(from, { number: common }))
  nonces.set(from, nonce + 1n)
  return parts.intake.signOnBlock(request, from, nonce, common)
}
