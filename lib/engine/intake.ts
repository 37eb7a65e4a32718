/**
 * Where transactions enter the chain: signed raw bytes (`eth_sendRawTransaction`) and requests
 * the dev-account wallet signs (`eth_sendTransaction`). Each is decoded once, checked by geth's
 * admission rules against the pending state, pooled, and handed to the mining mode.
 */
import type { BlockBuilder } from '../builder/builder.ts'
import type { Serializer } from '../clock/serializer.ts'
import { InvalidParamsError, TransactionRejectedError, TransactionRejection } from '../errors.ts'
import type { ExecutionEnvironment } from '../execution/execution-environment.ts'
import type { CallRequest } from '../execution/run-call.ts'
import { SUGGESTED_PRIORITY_FEE, suggestedFeeCap } from '../fees.ts'
import { ensureAccounts, readAccount } from '../state/state-source.ts'
import { decodeTransaction, hashTransaction } from '../transactions/decode.ts'
import type { UserTransaction } from '../transactions/transaction.ts'
import { checkAgainstState, checkIntrinsic } from '../txpool/admission.ts'
import type { TxPool } from '../txpool/txpool.ts'
import type { Hash } from '../types.ts'
import { TAG } from './block-resolver.ts'
import type { Calls } from './calls.ts'
import type { ChainEmitter } from './events.ts'
import type { Mining } from './mining.ts'
import type { Wallet } from './wallet.ts'

/** A transaction request for the wallet to complete and sign (`eth_sendTransaction`). */
export type TransactionRequest = CallRequest & { readonly nonce?: bigint }

/** What the intake works with. */
export interface IntakeParts {
  readonly pool: TxPool
  readonly builder: BlockBuilder
  readonly environment: ExecutionEnvironment
  readonly wallet: Wallet
  readonly calls: Calls
  readonly mining: Mining
  readonly events: ChainEmitter
  readonly blockGasLimit: bigint
  readonly serialize: Serializer
}

/** Admits transactions into the mempool. */
export class TransactionIntake {
  constructor(private readonly parts: IntakeParts) {}

  /** Submits a signed transaction; returns its hash (geth's admission rules and texts). */
  submitRaw(raw: Uint8Array): Promise<Hash> {
    const { environment } = this.parts
    return this.parts.serialize(async () => {
      const hash = hashTransaction(raw)
      this.rejectKnown(hash)
      return this.admit(decodeTransaction(raw, hash, environment.transactionCommon, environment.chainId))
    })
  }

  /**
   * Completes `request` as wallets do and submits it from its `from` dev account (or an
   * impersonated one): the pending nonce, an estimate at `pending`, a 1 gwei tip and a fee cap
   * of twice the pending base fee plus the tip (or a legacy transaction when `gasPrice` is given).
   */
  async submitRequest(request: TransactionRequest): Promise<Hash> {
    const { from } = request
    if (from === undefined) throw new InvalidParamsError('invalid argument 0 (transaction): from is required')
    const { wallet, builder, pool } = this.parts
    wallet.checkSender(from)
    const gas = request.gas ?? (await this.parts.calls.estimateGas(request, TAG.pending))
    // Nonce and fees are chosen, and the transaction admitted, in one step: two concurrent
    // sends from one account get consecutive nonces.
    return this.parts.serialize(async () => {
      const pending = builder.pending
      const cap = request.maxFeePerGas
      const tip = request.maxPriorityFeePerGas ?? (cap !== undefined && cap < SUGGESTED_PRIORITY_FEE ? cap : SUGGESTED_PRIORITY_FEE)
      if (cap !== undefined && tip > cap) throw new TransactionRejectedError(TransactionRejection.tipAboveFeeCap)
      const transaction = wallet.sign(from, {
        nonce: request.nonce ?? pool.pendingNonce(from, (await readAccount(pending.state, from))?.nonce ?? 0n),
        to: request.to,
        value: request.value ?? 0n,
        data: request.data ?? new Uint8Array(0),
        gas,
        gasPrice: request.gasPrice,
        maxFeePerGas: cap ?? suggestedFeeCap(pending.context.baseFeePerGas, tip),
        maxPriorityFeePerGas: tip,
        accessList: request.accessList ?? [],
      })
      this.rejectKnown(transaction.hash)
      return this.admit(transaction)
    })
  }

  /** Rejects a transaction already in the mempool or pre-confirmed (geth checks this first). */
  private rejectKnown(hash: Hash): void {
    if (this.parts.pool.get(hash) !== undefined || this.parts.builder.pending.transactionsByHash.has(hash)) {
      throw new TransactionRejectedError(TransactionRejection.alreadyKnown)
    }
  }

  /** Admission against pending state; then, per the mining mode, pre-confirms (and seals) at once. */
  private async admit(transaction: UserTransaction): Promise<Hash> {
    const { pool, builder, blockGasLimit, events, mining } = this.parts
    checkIntrinsic(transaction, blockGasLimit)
    const pending = builder.pending.state
    const loading = ensureAccounts(pending, [transaction.sender])
    if (loading !== undefined) await loading
    checkAgainstState(transaction, { pool, pending, blockGasLimit })
    pool.insert(transaction)
    events.emit('transaction', transaction)
    await mining.afterAdmission()
    return transaction.hash
  }
}
