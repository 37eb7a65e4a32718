/**
 * Runs an OP-stack deposit as op-geth's state transition does since Regolith (OP specs
 * `deposits.md` §Execution): the mint is credited first and kept whatever happens; there is no
 * signature, nonce or fee check and no fee at all (gas price 0: nothing to the coinbase or the
 * vaults, no refund in ether, though the refund counter still lowers the gas used, and the
 * EIP-7623 floor applies, as op-revm applies it); the sender's nonce goes up by one. A revert
 * or a halt in the EVM is an ordinary failed receipt. A failure before the EVM runs (too little
 * gas for the intrinsic cost or the floor, a value the sender cannot pay even after the mint,
 * init code over the limit, an `isSystemTx` flag, which Regolith retired) rolls back to just after the mint, bumps the nonce, and reports
 * the whole gas limit used. The receipt records the nonce the deposit ran at.
 */
import { bigIntToUnpaddedBytes, generateAddress } from '@ethereumjs/util'
import { toHex } from '../bytes.ts'
import type { TransactionReceipt } from '../blocks/receipt.ts'
import { withAccountFields } from '../state/account.ts'
import { evmAddress } from '../state/evm-address.ts'
import { StateLayer } from '../state/state-layer.ts'
import { heldAccount } from '../state/state-source.ts'
import { MAX_INIT_CODE_SIZE } from '../transactions/decode.ts'
import type { DepositTransaction } from '../transactions/transaction.ts'
import type { Address } from '../types.ts'
import { toEVMBlock, type BlockContext } from './block-context.ts'
import type { ExecutionEnvironment } from './execution-environment.ts'
import { prepareRun } from './prepare-run.ts'
import { credit, gasUsedAfterRefund, logsOf, receiptOf, removeDestroyedCreations, type BlockPosition } from './transaction-outcome.ts'

/** The receipt version deposits carry since Canyon. */
export const DEPOSIT_RECEIPT_VERSION = 1n

/** Why a deposit cannot run at all (op-geth's pre-EVM errors), or undefined when it can. */
function preExecutionFailure(deposit: DepositTransaction, state: StateLayer): string | undefined {
  // Since Regolith a system transaction is no longer supported (op-geth's ErrSystemTxNotSupported).
  if (deposit.isSystemTx) return 'system tx not supported'
  if (deposit.gasLimit < deposit.intrinsicGas) return `intrinsic gas too low: have ${deposit.gasLimit}, want ${deposit.intrinsicGas}`
  if (deposit.gasLimit < deposit.floorDataGas) return `insufficient gas for floor data gas cost: have ${deposit.gasLimit}, want ${deposit.floorDataGas}`
  if ((heldAccount(state, deposit.sender)?.balance ?? 0n) < deposit.value) return 'insufficient funds for transfer'
  if (deposit.to === undefined && deposit.data.length > MAX_INIT_CODE_SIZE) return 'max initcode size exceeded'
  return undefined
}

/** Adds one to the sender's nonce. */
function bumpNonce(state: StateLayer, sender: Address): void {
  const account = heldAccount(state, sender)
  state.putAccount(sender, withAccountFields(account, { nonce: (account?.nonce ?? 0n) + 1n }))
}

/** Executes `deposit` on `state` in `block` (see the file's comment for the rules). */
export async function runDeposit(
  deposit: DepositTransaction,
  state: StateLayer,
  block: BlockContext,
  position: BlockPosition,
  environment: ExecutionEnvironment,
): Promise<TransactionReceipt> {
  credit(state, deposit.sender, deposit.mint)
  const nonce = heldAccount(state, deposit.sender)?.nonce ?? 0n
  const depositFields = { nonce, receiptVersion: DEPOSIT_RECEIPT_VERSION }
  const contractAddress = deposit.to === undefined ? (toHex(generateAddress(deposit.senderAddress.bytes, bigIntToUnpaddedBytes(nonce))) as Address) : undefined

  if (preExecutionFailure(deposit, state) !== undefined) {
    bumpNonce(state, deposit.sender)
    return { ...receiptOf(0, deposit.gasLimit, 0n, [], contractAddress, position), deposit: depositFields }
  }

  // The run goes on a layer of its own, so only what it did is taken over.
  const run = new StateLayer(state)
  const { evm } = environment
  environment.state.attach(run)
  prepareRun(evm, deposit.sender, deposit.to, block.coinbase, [])
  bumpNonce(run, deposit.sender)
  const result = await evm.runCall({
    block: toEVMBlock(block),
    gasPrice: 0n,
    caller: deposit.senderAddress,
    gasLimit: deposit.gasLimit - deposit.intrinsicGas,
    to: deposit.to === undefined ? undefined : evmAddress(deposit.to),
    value: deposit.value,
    data: deposit.data,
    skipNonceIncrement: true,
  })
  const execution = result.execResult
  const gasUsed = gasUsedAfterRefund(execution, deposit)
  removeDestroyedCreations(run, execution)
  await evm.journal.cleanup()
  state.apply(run)

  const failed = execution.exceptionError !== undefined
  return { ...receiptOf(failed ? 0 : 1, gasUsed, 0n, logsOf(execution), contractAddress, position), deposit: depositFields }
}
