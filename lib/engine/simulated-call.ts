/**
 * One call of a simulated block, as geth's simulator applies a message (internal/ethapi/
 * simulate.go): nonce bumped, gas bought and refunded, the tip paid to the coinbase, and with
 * `validation` the nonce, fee and funds checks of a transaction. The call is listed in its block
 * as the unsigned transaction geth builds for it.
 */
import type { Common } from '@ethereumjs/common'
import { createEOACode7702Tx, createFeeMarket1559Tx, createLegacyTx } from '@ethereumjs/tx'
import { bigIntToUnpaddedBytes, generateAddress, hexToBytes, toChecksumAddress } from '@ethereumjs/util'
import { toHex } from '../bytes.ts'
import type { IncludedTransaction } from '../blocks/block.ts'
import { logsBloom } from '../blocks/bloom.ts'
import type { Log } from '../blocks/receipt.ts'
import { InvalidParamsError, RPCErrorCode, SimulationError, TransactionRejection } from '../errors.ts'
import type { BlockContext, toEVMBlock } from '../execution/block-context.ts'
import { applyAuthorizations } from '../execution/authorizations.ts'
import type { ExecutionEnvironment } from '../execution/execution-environment.ts'
import { prepareRun } from '../execution/prepare-run.ts'
import { revertReason } from '../execution/revert-reason.ts'
import { callErrorMessage } from '../execution/run-call.ts'
import { TransferTracer } from '../execution/tracers/transfer-tracer.ts'
import { refundedGasUsed } from '../execution/transaction-outcome.ts'
import { withAccountFields } from '../state/account.ts'
import { evmAddress } from '../state/evm-address.ts'
import { StateLayer } from '../state/state-layer.ts'
import { readAccount } from '../state/state-source.ts'
import { hashTransaction, toUserTransaction } from '../transactions/decode.ts'
import type { UserTransaction } from '../transactions/transaction.ts'
import { ZERO_ADDRESS, type Address } from '../types.ts'
import type { CallRequest } from '../execution/run-call.ts'

/** One call of a simulated block: eth_call's fields, and a nonce (the sender's by default). */
export type SimulatedCallRequest = CallRequest & { readonly nonce?: bigint }

/** How a simulated call failed: code 3 with the revert data, or -32015 for other EVM failures. */
export interface SimulatedCallError {
  readonly code: number
  readonly message: string
  readonly revertData?: Uint8Array
}

/** A simulated call's outcome. */
export interface SimulatedCall {
  readonly status: 0 | 1
  readonly returnValue: Uint8Array
  /** Gas charged (after refunds and the EIP-7623 floor). */
  readonly gasUsed: bigint
  /** Gas consumed before refunds (geth's maxUsedGas). */
  readonly maxUsedGas: bigint
  /** The call's logs (with the transfer logs when traced) and the block-wide index of the first. */
  readonly logs: readonly Log[]
  readonly firstLogIndex: number
  readonly error?: SimulatedCallError
}

/** One request's run: the state carried across blocks, the gas left of the cap, the options. */
export interface Session {
  readonly world: StateLayer
  /** The request's options: transaction checks, transfer logs. */
  readonly options: { readonly validation: boolean; readonly traceTransfers: boolean }
  readonly environment: ExecutionEnvironment
  /** The Common the listed transactions are built with. */
  readonly common: Common
  /** Hashes of the blocks simulated so far, by number (for BLOCKHASH). */
  readonly hashes: Map<number, Uint8Array>
  budget: bigint
}

/** One block's run so far. */
export interface BlockRun {
  readonly context: BlockContext
  readonly evmBlock: ReturnType<typeof toEVMBlock>
  readonly transactions: IncludedTransaction[]
  readonly calls: SimulatedCall[]
  gasUsed: bigint
  logCount: number
  tracedLogCount: number
}

/** Runs one call as geth's simulator applies a message, on the session's state. */
export async function runSimulatedCall(call: SimulatedCallRequest, run: BlockRun, session: Session): Promise<void> {
  const { context } = run
  const { world, options: request, environment } = session
  const { evm } = environment
  const from = call.from ?? ZERO_ADDRESS
  const sender = await readAccount(world, from)
  const stateNonce = sender?.nonce ?? 0n
  const nonce = call.nonce ?? stateNonce
  const remaining = context.gasLimit - run.gasUsed
  const wanted = call.gas ?? remaining
  if (wanted > remaining) throw new SimulationError(RPCErrorCode.simulateBlockGasLimitReached, `block gas limit reached: remaining: ${remaining}, required: ${wanted}`)
  const gas = wanted < session.budget ? wanted : session.budget
  const feeCap = call.gasPrice ?? call.maxFeePerGas ?? 0n
  const tip = call.gasPrice ?? call.maxPriorityFeePerGas ?? 0n
  const free = feeCap === 0n && tip === 0n
  const baseFee = context.baseFeePerGas
  const price = call.gasPrice ?? (free ? 0n : tip + baseFee < feeCap ? tip + baseFee : feeCap)
  const address = toChecksumAddress(from)
  if (request.validation && stateNonce !== nonce) {
    const [code, text] = stateNonce < nonce ? ([RPCErrorCode.simulateNonceTooHigh, 'nonce too high'] as const) : ([RPCErrorCode.simulateNonceTooLow, 'nonce too low'] as const)
    throw new SimulationError(code, `${text}: address ${address}, tx: ${nonce} state: ${stateNonce}`)
  }
  if (request.validation || !free) {
    if (feeCap < tip) throw new InvalidParamsError(`max priority fee per gas higher than max fee per gas: address ${address}, maxPriorityFeePerGas: ${tip}, maxFeePerGas: ${feeCap}`)
    if (feeCap < baseFee) throw new SimulationError(RPCErrorCode.simulateBaseFeeTooLow, `${TransactionRejection.feeCapTooLow}: address ${address}, maxFeePerGas: ${feeCap}, baseFee: ${baseFee}`)
  }
  const data = call.data ?? new Uint8Array(0)
  const maxInitCode = environment.transactionCommon.param('maxInitCodeSize')
  if (call.to === undefined && BigInt(data.length) > maxInitCode) {
    throw new SimulationError(RPCErrorCode.simulateMaxInitCodeSizeExceeded, `max initcode size exceeded: code size ${data.length}, limit ${maxInitCode}`)
  }
  const value = call.value ?? 0n
  const balance = sender?.balance ?? 0n
  if (balance < gas * feeCap + value) {
    throw new SimulationError(RPCErrorCode.simulateInsufficientFunds, `insufficient funds for gas * price + value: address ${address} have ${balance} want ${gas * feeCap + value}`)
  }
  const transaction = listedTransaction({ ...call, from, nonce, gas, maxFeePerGas: feeCap, maxPriorityFeePerGas: tip }, session)
  const { intrinsicGas, floorDataGas } = transaction
  if (gas < intrinsicGas) throw new SimulationError(RPCErrorCode.simulateIntrinsicGas, `intrinsic gas too low: have ${gas}, want ${intrinsicGas}`)
  if (gas < floorDataGas) throw new SimulationError(RPCErrorCode.simulateIntrinsicGas, `insufficient gas for floor data gas cost: have ${gas}, want ${floorDataGas}`)

  const layer = new StateLayer(world)
  environment.state.attach(layer)
  layer.putAccount(from, withAccountFields(sender, { nonce: stateNonce + 1n, balance: balance - gas * price }))
  prepareRun(evm, from, call.to, context.coinbase, call.accessList ?? [])
  const authorizationRefund = await applyAuthorizations(call.authorizationList ?? [], layer, environment)
  const tracer = request.traceTransfers ? new TransferTracer(evm) : undefined
  let outcome
  try {
    outcome = await evm.runCall({
      block: run.evmBlock,
      gasPrice: price,
      caller: transaction.senderAddress,
      gasLimit: gas - intrinsicGas,
      to: call.to === undefined ? undefined : evmAddress(call.to),
      value,
      data,
      skipNonceIncrement: true,
    })
  } finally {
    tracer?.detach()
  }
  const execution = outcome.execResult
  const peak = execution.executionGasUsed + intrinsicGas
  const gasUsed = refundedGasUsed(peak, (execution.gasRefund ?? 0n) + authorizationRefund, floorDataGas)
  const payer = await readAccount(layer, from)
  layer.putAccount(from, withAccountFields(payer, { balance: (payer?.balance ?? 0n) + (gas - gasUsed) * price }))
  // geth pays no tip for a fee-less call without validation (its base fee would make it negative).
  if (price > baseFee && !(free && !request.validation)) {
    const coinbase = await readAccount(layer, context.coinbase)
    layer.putAccount(context.coinbase, withAccountFields(coinbase, { balance: (coinbase?.balance ?? 0n) + gasUsed * (price - baseFee) }))
  }
  for (const created of execution.selfdestruct?.keys() ?? []) {
    if (execution.createdAddresses?.has(created) === true) layer.putAccount(created as Address, undefined)
  }
  await evm.journal.cleanup()
  world.apply(layer)
  session.budget -= gasUsed

  const error = execution.exceptionError
  const evmLogs: Log[] = (execution.logs ?? []).map(([emitter, topics, logData]) => ({ address: toHex(emitter) as Address, topics, data: logData }))
  const logs = tracer === undefined ? evmLogs : tracer.logs(evmLogs)
  const contractAddress = call.to === undefined ? (toHex(generateAddress(hexToBytes(from), bigIntToUnpaddedBytes(nonce))) as Address) : undefined
  const status = error === undefined ? 1 : 0
  const receipt = { status, gasUsed, cumulativeGasUsed: run.gasUsed + gasUsed, effectiveGasPrice: price, logs: evmLogs, logsBloom: logsBloom(evmLogs), contractAddress, firstLogIndex: run.logCount } as const
  run.transactions.push({ transaction, receipt, index: run.transactions.length })
  const { returnValue } = execution
  const maxUsedGas = peak > floorDataGas ? peak : floorDataGas
  const result: SimulatedCall = { status, returnValue, gasUsed, maxUsedGas, logs, firstLogIndex: run.tracedLogCount }
  const failure = error === undefined ? undefined : callErrorMessage({ error })
  run.calls.push(failure === undefined ? result : { ...result, error: callError(returnValue, failure, gas < wanted) })
  run.gasUsed += gasUsed
  run.logCount += evmLogs.length
  run.tracedLogCount += logs.length
}

/**
 * The unsigned transaction geth lists for a call (its ToTransaction): EIP-1559, legacy when a
 * gas price is given, EIP-7702 with authorizations; signature values all 0.
 */
function listedTransaction(call: SimulatedCallRequest & { from: Address; nonce: bigint; gas: bigint; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }, session: Session): UserTransaction {
  const { common } = session
  const fields = { nonce: call.nonce, gasLimit: call.gas, to: call.to, value: call.value ?? 0n, data: call.data ?? new Uint8Array(0) }
  const accessList = (call.accessList ?? []).map((entry) => ({ address: entry.address, storageKeys: [...entry.storageKeys] }))
  const dynamic = { ...fields, chainId: session.environment.chainId.value, maxFeePerGas: call.maxFeePerGas, maxPriorityFeePerGas: call.maxPriorityFeePerGas, accessList }
  let tx
  try {
    if (call.gasPrice !== undefined) tx = createLegacyTx({ ...fields, gasPrice: call.gasPrice }, { common })
    else if (call.authorizationList !== undefined) tx = createEOACode7702Tx({ ...dynamic, authorizationList: [...call.authorizationList] }, { common })
    else tx = createFeeMarket1559Tx(dynamic, { common })
  } catch (error) {
    throw new InvalidParamsError((error as Error).message.replace(/ \(tx type=.*$/, ''))
  }
  const raw = tx.serialize()
  return { ...toUserTransaction(tx, raw, hashTransaction(raw), evmAddress(call.from), 'impersonated'), v: 0n, r: 0n, s: 0n }
}

/** A failed call's error, as geth reports it in the call's result. */
function callError(returnValue: Uint8Array, message: string, gasCapped: boolean): SimulatedCallError {
  if (message === 'execution reverted') {
    const reason = revertReason(returnValue)
    return { code: RPCErrorCode.executionReverted, message: reason === undefined ? message : `${message}: ${reason}`, revertData: returnValue }
  }
  return { code: RPCErrorCode.simulateVMError, message: gasCapped ? `${message} (gas limit was capped by the RPC server's global gas cap)` : message }
}

