/**
 * EIP-7702 authorizations: each valid one delegates its authority's code to an address (or
 * clears the delegation), as a type-4 transaction applies them before its call — and as
 * `eth_call` / `eth_estimateGas` apply a request's `authorizationList`.
 */
import { bytesToBigInt, concatBytes, eoaCode7702RecoverAuthority, equalsBytes, MAX_UINT64, SECP256K1_ORDER, SECP256K1_ORDER_DIV_2 } from '@ethereumjs/util'
import { TransactionRejectedError, TransactionRejection } from '../errors.ts'
import { withAccountCode, withAccountFields } from '../state/account.ts'
import type { StateLayer } from '../state/state-layer.ts'
import { readAccount } from '../state/state-source.ts'
import type { Authorization } from '../transactions/transaction.ts'
import type { Address } from '../types.ts'
import type { ExecutionEnvironment } from './execution-environment.ts'

/** The code of a delegated account starts with these bytes, then the delegate's address. */
const DELEGATION_PREFIX = Uint8Array.of(0xef, 0x01, 0x00)
const ZERO_ADDRESS_BYTES = new Uint8Array(20)

/** Whether `code` is an EIP-7702 delegation. */
export function isDelegated(code: Uint8Array): boolean {
  return equalsBytes(code.subarray(0, 3), DELEGATION_PREFIX)
}

/**
 * The account that signed `authorization` (its authority); undefined for signature values geth
 * refuses (a y-parity above 1, r or s out of range, a high s: its ValidateSignatureValues) or
 * when no key recovers.
 */
export function authorityOf(authorization: Authorization): Address | undefined {
  const [yParity, r, s] = authorization.slice(3).map((bytes) => bytesToBigInt(bytes))
  if (yParity > 1n || r === 0n || r >= SECP256K1_ORDER || s === 0n || s > SECP256K1_ORDER_DIV_2) return undefined
  try {
    return eoaCode7702RecoverAuthority(authorization).toString() as Address
  } catch {
    return undefined
  }
}

/**
 * The intrinsic gas of `count` authorizations (EIP-7702: PER_EMPTY_ACCOUNT_COST each); none
 * without any. Before Prague a request that carries some names a transaction type the chain does
 * not take: geth's `transaction type not supported`.
 */
export function authorizationGas(count: number, environment: ExecutionEnvironment): bigint {
  if (count === 0) return 0n
  const common = environment.transactionCommon
  if (!common.isActivatedEIP(7702)) throw new TransactionRejectedError(TransactionRejection.typeNotSupported)
  return BigInt(count) * common.param('perEmptyAccountCost')
}

/** Installs each valid authorization's delegation on `state`; returns the refund for authorities that existed. */
export async function applyAuthorizations(authorizations: readonly Authorization[], state: StateLayer, environment: ExecutionEnvironment): Promise<bigint> {
  if (authorizations.length === 0) return 0n
  const common = environment.transactionCommon
  const existingAuthorityRefund = common.param('perEmptyAccountCost') - common.param('perAuthBaseGas')
  let refund = 0n
  for (const authorization of authorizations) {
    const [chainId, delegate, nonceBytes] = authorization
    const authorizedChain = bytesToBigInt(chainId)
    if (authorizedChain !== 0n && authorizedChain !== environment.chainId.value) continue
    const nonce = bytesToBigInt(nonceBytes)
    if (nonce >= MAX_UINT64) continue
    const authorityKey = authorityOf(authorization)
    if (authorityKey === undefined) continue
    environment.evm.journal.addAlwaysWarmAddress(authorityKey)
    const account = await readAccount(state, authorityKey)
    if (account !== undefined && account.code.length > 0 && !isDelegated(account.code)) continue
    if ((account?.nonce ?? 0n) !== nonce) continue
    if (account !== undefined) refund += existingAuthorityRefund
    const code = equalsBytes(delegate, ZERO_ADDRESS_BYTES) ? new Uint8Array(0) : concatBytes(DELEGATION_PREFIX, delegate)
    state.putAccount(authorityKey, withAccountCode(withAccountFields(account, { nonce: nonce + 1n }), code))
  }
  return refund
}
