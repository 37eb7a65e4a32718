/**
 * The test controls of Anvil and Hardhat: state edits on `latest` and `pending` at once,
 * impersonation, block-time controls (`evm_increaseTime`, `evm_setNextBlockTimestamp`, a fixed
 * timestamp interval, `evm_setTime`), the settings of the blocks to come (coinbase, gas limit,
 * base fee, prevRandao), the chain id, and mempool removals. None of them seals a block.
 */
import type { BlockStore } from '../blocks/block-store.ts'
import type { BlockBuilder } from '../builder/builder.ts'
import type { BlockSchedule } from '../clock/block-schedule.ts'
import type { Serializer } from '../clock/serializer.ts'
import { InvalidInputError } from '../errors.ts'
import type { LiveChainId } from '../execution/live-chain-id.ts'
import type { DropRequest } from '../faults/drop-preconfirmations.ts'
import type { StateCommitment } from '../state/state-commitment.ts'
import type { BlockSettings } from '../builder/block-settings.ts'
import type { Clock } from '../clock/clock.ts'
import type { StateHistory } from '../state/state-history.ts'
import { ensureAccounts, heldAccount } from '../state/state-source.ts'
import type { StateReads } from '../state/read-recorder.ts'
import type { UserTransaction } from '../transactions/transaction.ts'
import type { TxPool } from '../txpool/txpool.ts'
import type { Address, Hash } from '../types.ts'
import type { Mining } from './mining.ts'
import { setBalance, setCode, setNonce, setStorage, type EditTarget } from './state-edits.ts'
import type { Wallet } from './wallet.ts'

/** What the controls act on. */
export interface ControlParts {
  readonly history: StateHistory
  readonly pool: TxPool
  readonly settings: BlockSettings
  readonly clock: Clock
  readonly blocks: BlockStore
  readonly builder: BlockBuilder
  readonly commitment: StateCommitment
  readonly schedule: BlockSchedule
  readonly mining: Mining
  readonly wallet: Wallet
  readonly chainId: LiveChainId
  readonly serialize: Serializer
  /** Takes pre-confirmations back and announces it (FaultControls.withdraw). */
  readonly withdraw: (request: DropRequest) => void
}

/** State edits, impersonation and time controls. */
export class TestControls {
  private logging = true

  constructor(private readonly parts: ControlParts) {}

  /** Sets the balance of `address` in wei, at `latest` and `pending` at once (no block is sealed). */
  setBalance(address: Address, balance: bigint): Promise<void> {
    return this.edit(address, 'accounts', (target) => setBalance(target, address, balance))
  }

  /**
   * Sets the nonce of `address`, at `latest` and `pending` at once. Its pooled transactions
   * below the new nonce leave the pool, as geth's pool drops those the state's nonce has passed.
   */
  setNonce(address: Address, nonce: bigint): Promise<void> {
    const { pool } = this.parts
    return this.edit(address, 'accounts', (target) => {
      setNonce(target, address, nonce)
      for (const { transaction } of [...pool.fromSender(address)]) if (transaction.nonce < nonce) pool.remove(transaction)
    })
  }

  /** Replaces the runtime code of `address`, at `latest` and `pending` at once. */
  setCode(address: Address, code: Uint8Array): Promise<void> {
    return this.edit(address, 'accounts', (target) => setCode(target, address, code))
  }

  /** Sets one storage word of `address`, at `latest` and `pending` at once. */
  setStorageAt(address: Address, slot: bigint, value: bigint): Promise<void> {
    return this.edit(address, 'storage', (target) => setStorage(target, address, slot, value))
  }

  /** Adds `amount` wei to the balance of `address` (`anvil_addBalance`). */
  addBalance(address: Address, amount: bigint): Promise<void> {
    return this.edit(address, 'accounts', (target) => setBalance(target, address, (heldAccount(target.history.latest, address)?.balance ?? 0n) + amount))
  }

  /** Lets `eth_sendTransaction` send from `address` without its key (until stopped). */
  impersonate(address: Address): void {
    this.parts.wallet.impersonate(address)
  }

  /** Lets `eth_sendTransaction` send from any address without its key (`anvil_autoImpersonateAccount`). */
  autoImpersonate(enabled: boolean): void {
    this.parts.wallet.autoImpersonate(enabled)
  }

  /** Whether the node's activity log writes lines (`anvil_setLoggingEnabled`); on by default. */
  get loggingEnabled(): boolean {
    return this.logging
  }

  /** Turns the node's activity log on or off. */
  setLoggingEnabled(enabled: boolean): void {
    this.logging = enabled
  }

  /** Ends {@link impersonate} for `address`. */
  stopImpersonating(address: Address): void {
    this.parts.wallet.stopImpersonating(address)
  }

  /**
   * Moves block timestamps `seconds` ahead of the clock (`evm_increaseTime`); the pending block
   * takes the new time at once (its pre-confirmations, if any, taken back and made again:
   * Mining.restamp). Returns the total offset.
   */
  increaseTime(seconds: number): Promise<number> {
    return this.parts.serialize(async () => {
      const total = this.parts.schedule.increaseTime(seconds)
      await this.restamp(undefined)
      return total
    })
  }

  /**
   * Gives the next block `timestamp` (`evm_setNextBlockTimestamp`): the pending block at once
   * (Mining.restamp). Later blocks follow on.
   */
  setNextBlockTimestamp(timestamp: bigint): Promise<void> {
    return this.parts.serialize(async () => {
      const floor = this.parts.blocks.head.header.timestamp
      if (timestamp <= floor) {
        throw new InvalidInputError(`Timestamp ${timestamp} is lower than or equal to previous block's timestamp ${floor}`)
      }
      await this.restamp(timestamp)
    })
  }

  /**
   * Steps each new block's timestamp by `seconds` from its parent (undefined: follow the clock
   * again), from the pending block on. Returns whether an interval was set before.
   */
  setBlockTimestampInterval(seconds: bigint | undefined): Promise<boolean> {
    return this.parts.serialize(async () => {
      const hadInterval = this.parts.schedule.setTimestampInterval(seconds)
      await this.restamp(undefined)
      return hadInterval
    })
  }

  /**
   * Moves block time so that now is `timestamp` (seconds; Anvil's `evm_setTime`): later blocks
   * follow on from it. Returns how many seconds ahead of the previous block time that is (0 if behind).
   */
  setTime(timestamp: bigint): Promise<number> {
    return this.parts.serialize(async () => {
      const { schedule, clock } = this.parts
      const before = schedule.blockTimeAt(clock.now())
      schedule.setTimeAt(clock.now(), timestamp)
      await this.restamp(undefined)
      return timestamp > before ? Number(timestamp - before) : 0
    })
  }

  /** New blocks go to `coinbase` (`anvil_setCoinbase`), from the pending block on. */
  setCoinbase(coinbase: Address): Promise<void> {
    return this.settle(() => this.parts.settings.setCoinbase(coinbase))
  }

  /** New blocks have gas limit `gasLimit` (`evm_setBlockGasLimit`). */
  setBlockGasLimit(gasLimit: bigint): Promise<void> {
    return this.settle(() => this.parts.settings.setGasLimit(gasLimit))
  }

  /** The next block has base fee `baseFee` (`anvil_setNextBlockBaseFeePerGas`): the pending one. */
  setNextBlockBaseFee(baseFee: bigint): Promise<void> {
    return this.settle(() => this.parts.settings.setBaseFee(baseFee, this.nextBlockNumber()))
  }

  /** The next block has prevRandao `value` (`hardhat_setPrevRandao`). */
  setNextBlockPrevRandao(value: Uint8Array): Promise<void> {
    return this.settle(() => this.parts.settings.setPrevRandao(value, this.nextBlockNumber()))
  }

  /**
   * Makes `chainId` the chain's id (`anvil_setChainId`): CHAINID, `eth_chainId`, the dev
   * accounts' signatures and the chain id new transactions must be signed for. Transactions
   * already taken stay. As in Anvil, reverting a snapshot keeps the new id.
   */
  setChainId(chainId: bigint): Promise<void> {
    return this.parts.serialize(async () => this.parts.chainId.set(chainId))
  }

  /**
   * Takes a transaction out of the mempool (`anvil_dropTransaction`), or out of the pending block
   * that pre-confirmed it: its pre-confirmation and the later ones are taken back (a `withdrawn`
   * event) and the others' transactions requeued. It is not mined yet, as in Anvil and Hardhat,
   * where it waits in the mempool for its block. False if it is in neither.
   */
  dropTransaction(hash: Hash): Promise<boolean> {
    return this.parts.serialize(async () => {
      const { pool, builder, withdraw } = this.parts
      const transaction = pool.get(hash)
      if (transaction !== undefined) {
        pool.remove(transaction)
        return true
      }
      const at = builder.pending.preconfirmations.findIndex(({ transactions }) => transactions.some((included) => included.transaction.hash === hash))
      // Not there, or a system transaction of the block's opening pre-confirmation.
      if (at < builder.firstUserIndex) return false
      withdraw({ transactions: [hash], mode: 'discard' })
      await this.parts.mining.afterAdmission()
      return true
    })
  }

  /**
   * Empties the mempool (`anvil_dropAllTransactions`), or takes out the transactions of `sender`
   * (`anvil_removePoolTransactions`); pre-confirmed ones too, as {@link dropTransaction} does.
   */
  dropTransactions(sender?: Address): Promise<void> {
    return this.parts.serialize(async () => {
      const { pool } = this.parts
      for (const from of sender === undefined ? [...pool.senders()] : [sender]) {
        for (const { transaction } of [...pool.fromSender(from)]) pool.remove(transaction)
      }
      const preconfirmed = this.preconfirmedUserTransactions().filter((transaction) => sender === undefined || transaction.sender === sender)
      if (preconfirmed.length === 0) return
      this.parts.withdraw({ transactions: preconfirmed.map(({ hash }) => hash), mode: 'discard' })
      await this.parts.mining.afterAdmission()
    })
  }

  /** The number of the block a "next block" setting applies to: the pending one. */
  private nextBlockNumber(): bigint {
    return this.parts.builder.pending.context.number
  }

  /** Changes a block setting; the pending block takes it at once (Mining.restamp). */
  private settle(change: () => void): Promise<void> {
    return this.parts.serialize(async () => {
      change()
      await this.restamp(undefined)
    })
  }

  /** Runs `edit` of `address`'s account fields or storage on the sealed head and the pending block together, once `address` is loaded. */
  private edit(address: Address, part: keyof StateReads, edit: (target: EditTarget) => void): Promise<void> {
    const { history, blocks, builder, commitment } = this.parts
    return this.parts.serialize(async () => {
      await ensureAccounts(history.latest, [address])
      const withdrew = this.withdrawReaders(address, part)
      edit({ history, headNumber: Number(blocks.head.header.number), pending: builder.pending, commitment })
      if (withdrew) await this.parts.mining.afterAdmission()
    })
  }

  /**
   * Takes back the pending block's pre-confirmations from the first that read or wrote `part` of
   * `address`'s state on (requeued): an edit of it would leave a block whose transactions, run
   * again on the edited state, give another result (a sender's nonce, a recipient's balance, a
   * slot a contract read). Anvil runs its pending transactions on the edited state when it mines
   * them; the next tick does here (at once under `instant`). An OP-stack block's opening
   * pre-confirmation (its system deposits) is never taken back. Returns whether any were.
   */
  private withdrawReaders(address: Address, part: keyof StateReads): boolean {
    const { builder } = this.parts
    const { preconfirmations } = builder.pending
    const first = preconfirmations.findIndex(
      ({ index, transactions, reads, changes }) => index >= builder.firstUserIndex && transactions.length > 0 && (reads[part].has(address) || changes[part].has(address)),
    )
    if (first === -1) return false
    this.parts.withdraw({ count: preconfirmations.length - first, mode: 'requeue' })
    return true
  }

  /** The user transactions the pending block pre-confirmed, in order. */
  private preconfirmedUserTransactions(): UserTransaction[] {
    const { preconfirmations } = this.parts.builder.pending
    const first = this.parts.builder.firstUserIndex
    return preconfirmations.slice(first).flatMap(({ transactions }) => transactions.map(({ transaction }) => transaction).filter((transaction): transaction is UserTransaction => transaction.kind !== 'deposit'))
  }

  /** Re-stamps the pending block (Mining.restamp); what that took back is pre-confirmed again as the mining mode takes an admission (at once under `instant`). */
  private async restamp(timestamp: bigint | undefined): Promise<void> {
    if (this.parts.mining.restamp(timestamp)) await this.parts.mining.afterAdmission()
  }
}
