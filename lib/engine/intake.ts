/**
 * Where transactions enter the chain: signed raw bytes (`eth_sendRawTransaction`) and requests
 * the dev-account wallet completes and signs (`eth_sendTransaction`, or unsigned with
 * `eth_sendUnsignedTransaction`). Each is decoded once, checked by geth's admission rules
 * against the pending state, pooled, and handed to the mining mode. The same completion
 * (nonce, gas, fees, type) serves `eth_signTransaction` and `eth_fillTransaction`, which
 * return the transaction instead of submitting it.
 */
import type { BlockSettings } from '../builder/block-settings.ts'
import type { BlockBuilder } from '../builder/builder.ts'
import type { Serializer } from '../clock/serializer.ts'
import { InvalidParamsError, TransactionRejectedError, TransactionRejection } from '../errors.ts'
import type { ExecutionEnvironment } from '../execution/execution-environment.ts'
import { checkChainId, type CallRequest } from '../execution/run-call.ts'
import { suggestedFeeCap } from '../fees.ts'
import { ensureAccounts, heldAccount, readAccount } from '../state/state-source.ts'
import { decodeTransaction, hashTransaction } from '../transactions/decode.ts'
import { inferredType, type TransactionToSign } from '../transactions/sign.ts'
import { decodeDeposit, depositTransaction, DEPOSIT_TYPE } from '../transactions/deposit.ts'
import type { DepositTransaction, UserTransaction } from '../transactions/transaction.ts'
import type { DepositQueue } from '../op-stack/deposit-queue.ts'
import { checkAgainstState, checkIntrinsic } from '../txpool/admission.ts'
import type { TxPool } from '../txpool/txpool.ts'
import { ZERO_ADDRESS, type Address, type Hash } from '../types.ts'
import { TAG, type BlockSelector } from './block-resolver.ts'
import type { Calls } from './calls.ts'
import type { ChainEmitter } from './events.ts'
import type { Mining } from './mining.ts'
import type { Wallet } from './wallet.ts'

/**
 * A transaction request for the wallet to complete (`eth_sendTransaction`, `eth_signTransaction`,
 * `eth_fillTransaction`). On an OP-stack chain, one with a `sourceHash` is a deposit, as Anvil
 * takes it: `mint` and `isSystemTx` go with it.
 */
export type TransactionRequest = CallRequest & {
  readonly nonce?: bigint
  readonly sourceHash?: Uint8Array
  readonly mint?: bigint
  readonly isSystemTx?: boolean
}

/** An L1→L2 deposit to simulate (`preconf_deposit`): ether minted to `from` (by default `to`), then a call from it. */
export interface DepositRequest {
  readonly to: Address
  readonly from?: Address
  readonly mint?: bigint
  readonly value?: bigint
  /** Default 100,000, what OptimismPortal gives a plain ether deposit. */
  readonly gas?: bigint
  readonly data?: Uint8Array
}

/** The gas OptimismPortal's `receive()` gives a deposit (RECEIVE_DEFAULT_GAS_LIMIT). */
const DEFAULT_DEPOSIT_GAS = 100_000n

/** What the intake works with. */
export interface IntakeParts {
  readonly pool: TxPool
  readonly builder: BlockBuilder
  readonly environment: ExecutionEnvironment
  readonly wallet: Wallet
  readonly calls: Calls
  readonly mining: Mining
  readonly events: ChainEmitter
  /** The block settings (admission checks a transaction's gas against their gas limit). */
  readonly settings: BlockSettings
  readonly serialize: Serializer
  /** An OP-stack chain's deposit queue; undefined on a plain chain, which refuses deposits. */
  readonly deposits: DepositQueue | undefined
  /** The nonce the node's own signer fills (`eth_sendTransaction`, `eth_signTransaction`): the pool's, as geth's, counting the sender's mempool run whatever `eth_getTransactionCount` reports at `pending`. */
  readonly poolNonce: (address: Address) => bigint | Promise<bigint>
  /** The nonce `eth_fillTransaction` fills: the one `eth_getTransactionCount` answers at `pending` (Base's node fills its pending state's, without the mempool). */
  readonly pendingNonce: (address: Address) => bigint | Promise<bigint>
  /** The chain's clock (ms): the pool's queued transactions expire on it. */
  readonly now: () => number
  /** The tip filled into a request that names none (the block rules' after the latest block). */
  readonly filledTip: () => bigint
}

/** Admits transactions into the mempool. */
export class TransactionIntake {
  constructor(private readonly parts: IntakeParts) {}

  /** Submits a signed transaction, or on an OP-stack chain a deposit envelope (0x7e); returns its hash (geth's admission rules and texts). */
  submitRaw(raw: Uint8Array): Promise<Hash> {
    return this.parts.serialize(async () => {
      const hash = hashTransaction(raw)
      this.rejectKnown(hash)
      if (raw[0] === DEPOSIT_TYPE) {
        this.depositQueue() // a plain chain refuses deposits before decoding them
        return this.queueDeposit(depositTransaction(decodeDeposit(raw), raw))
      }
      return this.admit(this.decode(raw, hash))
    })
  }

  /** A signed transaction (of hash `hash`) decoded and checked as {@link submitRaw} takes it; not submitted. */
  decode(raw: Uint8Array, hash = hashTransaction(raw)): UserTransaction {
    const { environment } = this.parts
    return decodeTransaction(raw, hash, environment.transactionCommon, environment.chainId.value)
  }

  /** `request` completed on block `at`'s state (`nonce` unless it names one), signed for `from` (unsigned if impersonated); not submitted (`anvil_reorg`). */
  async signOnBlock(request: TransactionRequest, from: Address, nonce: bigint, at: bigint): Promise<UserTransaction> {
    this.parts.wallet.checkSender(from)
    return this.complete({ ...request, from, nonce: request.nonce ?? nonce }, from, (fields) => this.parts.wallet.sign(from, fields), { number: at })
  }

  /**
   * Completes `request` as wallets do ({@link fillRequest}) and submits it from its `from` dev
   * account (or an impersonated one), signed with its key (`eth_sendTransaction`). A request
   * with a `sourceHash` is a deposit on an OP-stack chain, sent as it is (Anvil's optimism mode).
   */
  async submitRequest(request: TransactionRequest): Promise<Hash> {
    const from = requireFrom(request)
    if (request.sourceHash !== undefined) return this.submitDepositRequest(request, from, request.sourceHash)
    this.parts.wallet.checkSender(from)
    // Nonce and fees are chosen, and the transaction admitted, in one step: two concurrent
    // sends from one account get consecutive nonces.
    return this.complete(request, from, (fields) => this.admitNew(this.parts.wallet.sign(from, fields)))
  }

  /** {@link submitRequest} from any `from`, key or no key, impersonated (Anvil's `eth_sendUnsignedTransaction`). */
  async submitUnsigned(request: TransactionRequest): Promise<Hash> {
    const from = requireFrom(request)
    return this.complete(request, from, (fields) => this.admitNew(this.parts.wallet.impersonatedFrom(from, fields)))
  }

  /** Completes `request` and signs it with the key of its `from` dev account, without submitting it (`eth_signTransaction`). */
  async signRequest(request: TransactionRequest): Promise<UserTransaction> {
    const from = requireFrom(request)
    this.parts.wallet.checkKey(from)
    return this.complete(request, from, (fields) => this.parts.wallet.signWithKey(from, fields))
  }

  /**
   * Completes `request` as wallets do and returns it unsigned (`eth_fillTransaction`; no key
   * needed; `from` defaults to the zero address, as geth's): the pending nonce (the one
   * `eth_getTransactionCount` answers, so Base's pending nonce shows here too), an estimate at
   * `pending`, a 1 gwei tip and a fee cap of twice the pending base fee plus the tip (geth's
   * defaults), in the type {@link inferredType} infers.
   */
  async fillRequest(request: TransactionRequest): Promise<UserTransaction> {
    const from = request.from ?? ZERO_ADDRESS
    return this.complete(request, from, (fields) => this.parts.wallet.unsigned(from, fields), TAG.pending, this.parts.pendingNonce)
  }

  /**
   * Estimates the gas (if not given) at `at`, then decides nonce (by `nonceOf`, the pool's
   * unless told) and fees and hands the fields to `use`, in one serialized step.
   */
  private async complete<T>(request: TransactionRequest, from: Address, use: (fields: TransactionToSign) => T | Promise<T>, at: BlockSelector = TAG.pending, nonceOf = this.parts.poolNonce): Promise<T> {
    checkChainId(request, this.parts.environment.chainId.value)
    const gas = request.gas ?? (await this.parts.calls.estimateGas(request, at))
    return this.parts.serialize(async () => use(await this.fields(request, from, gas, nonceOf)))
  }

  /** Every field of `request` decided against the pending block and the mempool, the nonce by `nonceOf`. */
  private async fields(request: TransactionRequest, from: Address, gas: bigint, nonceOf: IntakeParts['poolNonce']): Promise<TransactionToSign> {
    const pending = this.parts.builder.pending
    const type = inferredType(request)
    let cap: bigint
    let tip: bigint
    if (request.gasPrice !== undefined) {
      cap = tip = request.gasPrice
    } else {
      const filled = this.parts.filledTip()
      tip = request.maxPriorityFeePerGas ?? (request.maxFeePerGas !== undefined && request.maxFeePerGas < filled ? request.maxFeePerGas : filled)
      if (request.maxFeePerGas !== undefined && tip > request.maxFeePerGas) throw new TransactionRejectedError(TransactionRejection.tipAboveFeeCap)
      cap = request.maxFeePerGas ?? suggestedFeeCap(pending.context.baseFeePerGas, tip)
    }
    return {
      type,
      nonce: request.nonce ?? (await nonceOf(from)),
      to: request.to,
      value: request.value ?? 0n,
      data: request.data ?? new Uint8Array(0),
      gas,
      maxFeePerGas: cap,
      maxPriorityFeePerGas: tip,
      accessList: request.accessList ?? [],
      authorizationList: request.authorizationList ?? [],
    }
  }

  /**
   * Simulates an L1→L2 deposit (`preconf_deposit`): `mint` wei credited to `from` (by default
   * `to`), then a call of `gas` (default 100,000) from it to `to` with `value` and `data`, in
   * the next block's first pre-confirmation, with a fresh user-deposit source hash.
   */
  async simulateDeposit(request: DepositRequest): Promise<Hash> {
    const queue = this.depositQueue()
    return this.parts.serialize(async () => {
      const sourceHash = queue.nextSourceHash(this.parts.builder.pending.context.number)
      return this.queueDeposit(depositOf(request, request.from ?? request.to, sourceHash, request.gas ?? DEFAULT_DEPOSIT_GAS, false))
    })
  }

  /** A deposit request (`eth_sendTransaction` with a `sourceHash`): its gas estimated if not given. */
  private async submitDepositRequest(request: TransactionRequest, from: Address, sourceHash: Uint8Array): Promise<Hash> {
    this.depositQueue()
    const gasLimit = request.gas ?? (await this.estimateDeposit(request, from))
    const deposit = depositOf(request, from, sourceHash, gasLimit, request.isSystemTx ?? false)
    return this.parts.serialize(async () => {
      this.rejectKnown(deposit.hash)
      return this.queueDeposit(deposit)
    })
  }

  /** A deposit's gas as Anvil estimates it: at `pending`, with its mint credited to the sender first. */
  private async estimateDeposit(request: TransactionRequest, from: Address): Promise<bigint> {
    const balance = ((await readAccount(this.parts.builder.pending.state, from))?.balance ?? 0n) + (request.mint ?? 0n)
    return this.parts.calls.estimateGas(request, TAG.pending, { state: new Map([[from, { balance }]]) })
  }

  /** The chain's deposit queue; a plain chain refuses deposits as geth does (`transaction type not supported`). */
  private depositQueue(): DepositQueue {
    if (this.parts.deposits === undefined) {
      throw new TransactionRejectedError(TransactionRejection.typeNotSupported, 'deposits (type 0x7e) need an OP-stack chain (a preset)')
    }
    return this.parts.deposits
  }

  /** Queues a deposit for the next block's first pre-confirmation (under automine, mined at once). */
  private async queueDeposit(deposit: DepositTransaction): Promise<Hash> {
    if (deposit.gasLimit > this.parts.settings.gasLimit) throw new TransactionRejectedError(TransactionRejection.gasLimitExceeded)
    this.depositQueue().submit(deposit)
    this.parts.events.emit('transaction', deposit)
    await this.parts.mining.afterDeposit()
    return deposit.hash
  }

  /** Admits a transaction the wallet just built, unless the same one is already known. */
  private admitNew(transaction: UserTransaction): Promise<Hash> {
    this.rejectKnown(transaction.hash)
    return this.admit(transaction)
  }

  /** Rejects a transaction already in the mempool or pre-confirmed (geth checks this first). */
  private rejectKnown(hash: Hash): void {
    const { pool, builder, deposits } = this.parts
    if (pool.get(hash) !== undefined || deposits?.get(hash) !== undefined || builder.pending.transactionsByHash.has(hash)) {
      throw new TransactionRejectedError(TransactionRejection.alreadyKnown)
    }
  }

  /**
   * Admission against pending state and the pool's limits; then, per the mining mode,
   * pre-confirms (and seals) at once. A transaction the limits drop as soon as they take it (a
   * gapped one past its account's queue) keeps its hash, as geth answers, but is announced to
   * no one.
   */
  private async admit(transaction: UserTransaction): Promise<Hash> {
    const { pool, builder, events, mining } = this.parts
    const blockGasLimit = this.parts.settings.gasLimit
    checkIntrinsic(transaction, blockGasLimit)
    // Under automine no block comes unless a transaction is ready: one that cannot pay the next
    // block's base fee would wait forever, and the sender's next ones behind it. Anvil and
    // Hardhat refuse it (before any state check); the text is geth's for a block that cannot include it.
    const { baseFeePerGas } = builder.pending.context
    if (mining.mode === 'auto' && transaction.maxFeePerGas < baseFeePerGas) {
      throw new TransactionRejectedError(TransactionRejection.feeCapTooLow, `address ${transaction.sender}, maxFeePerGas: ${transaction.maxFeePerGas}, baseFee: ${baseFeePerGas}`)
    }
    const pending = builder.pending.state
    const loading = ensureAccounts(pending, [transaction.sender])
    if (loading !== undefined) await loading
    const owed = this.parts.environment.fees.extraCharges(transaction, pending)
    const extra = owed instanceof Promise ? await owed : owed
    const extraCost = extra === undefined ? 0n : extra.l1Fee + extra.operatorFee(transaction.gasLimit)
    checkAgainstState(transaction, { pool, pending, blockGasLimit, extraCost })
    const { context, ticks } = builder.pending
    const view = {
      nonceOf: (sender: Address) => heldAccount(pending, sender)?.nonce ?? 0n,
      now: this.parts.now(),
      baseFee: context.baseFeePerGas,
      round: { block: context.number, tick: ticks },
    }
    if (pool.add(transaction, view)) events.emit('transaction', transaction)
    await mining.afterAdmission()
    return transaction.hash
  }
}

/** The deposit `request` asks for, from `from` (mint and value 0 and no data unless given). */
function depositOf(request: { readonly to?: Address; readonly mint?: bigint; readonly value?: bigint; readonly data?: Uint8Array }, from: Address, sourceHash: Uint8Array, gasLimit: bigint, isSystemTx: boolean): DepositTransaction {
  return depositTransaction({ sourceHash, from, to: request.to, mint: request.mint ?? 0n, value: request.value ?? 0n, gasLimit, isSystemTx, data: request.data ?? new Uint8Array(0) })
}

/** The `from` of a request the wallet sends or signs: -32602 when missing. */
function requireFrom(request: TransactionRequest): Address {
  if (request.from === undefined) throw new InvalidParamsError('invalid argument 0 (transaction): from is required')
  return request.from
}
