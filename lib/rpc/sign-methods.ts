/**
 * The wallet methods of the dev accounts: signing messages (`personal_sign`, `eth_sign`), typed
 * data (`eth_signTypedData_v4`) and transactions (`eth_signTransaction`), completing a request
 * without signing it (`eth_fillTransaction`) and Anvil's `eth_sendUnsignedTransaction`.
 * Signatures are 65 bytes r ‖ s ‖ v with v 27 or 28, deterministic (RFC 6979).
 */
import { hashMessage } from '../accounts/message.ts'
import { hashTypedData, parseTypedData } from '../accounts/typed-data.ts'
import { InvalidParamsError } from '../errors.ts'
import type { TransactionRequest } from '../engine/intake.ts'
import type { UserTransaction } from '../transactions/transaction.ts'
import { formatTransaction } from './format-transaction.ts'
import { describeValue, invalidArgument, parseAddress, parseData, toData } from './hex.ts'
import { method, required, type MethodDefinition } from './method-definition.ts'
import { parseCallRequest } from './params.ts'

const transactionRequest = required('0 (transaction)', parseCallRequest)

/** EIP-712 typed data (an object, or the JSON string viem and ethers send) to its digest; -32602 naming the argument. */
function parseTypedDataDigest(value: unknown, name: string): Uint8Array {
  let json = value
  if (typeof value === 'string') {
    try {
      json = JSON.parse(value)
    } catch (error) {
      throw invalidArgument(name, `invalid JSON in ${describeValue(value)}: ${(error as Error).message}`)
    }
  }
  try {
    return hashTypedData(parseTypedData(json))
  } catch (error) {
    if (error instanceof InvalidParamsError) throw invalidArgument(name, error.message)
    throw error
  }
}

/**
 * The filled transaction as `eth_fillTransaction`'s `tx`: the pending-transaction JSON with a
 * zero signature. Fees the node chose are left for the client to choose: viem (2.57)
 * multiplies a returned fee cap or gas price by its base-fee multiplier, so a typed
 * transaction's `tx` carries `maxFeePerGas` only when the request set it, and no `gasPrice`;
 * viem then completes the fee cap exactly as it would without `eth_fillTransaction`. `raw`
 * carries every field.
 */
function formatFilled(transaction: UserTransaction, request: TransactionRequest): Record<string, unknown> {
  const json = formatTransaction(transaction, undefined)
  if (transaction.type >= 2) {
    delete json.gasPrice
    if (request.maxFeePerGas === undefined && request.gasPrice === undefined) delete json.maxFeePerGas
  }
  return json
}

/**
 * EIP-712 v4; also answers `eth_signTypedData`, which wallets and Hardhat treat as v4, and
 * MetaMask's `eth_signTypedData_v3`, whose data (no arrays) v4 hashes alike (Anvil answers
 * neither: -32603 `Not implemented`).
 */
const signTypedData = method([required('0 (address)', parseAddress), required('1 (typedData)', parseTypedDataDigest)], ({ engine }, address, digest) =>
  toData(engine.wallet.signDigest(address, digest)),
)

/** The signing methods, by name. */
export const signMethods: Readonly<Record<string, MethodDefinition>> = {
  personal_sign: method([required('0 (data)', parseData), required('1 (address)', parseAddress)], ({ engine }, data, address) =>
    toData(engine.wallet.signDigest(address, hashMessage(data))),
  ),
  eth_sign: method([required('0 (address)', parseAddress), required('1 (data)', parseData)], ({ engine }, address, data) =>
    toData(engine.wallet.signDigest(address, hashMessage(data))),
  ),
  eth_signTypedData_v4: signTypedData,
  eth_signTypedData: signTypedData,
  eth_signTypedData_v3: signTypedData,
  eth_signTransaction: method([transactionRequest], async ({ engine }, request) => toData((await engine.intake.signRequest(request)).raw)),
  eth_fillTransaction: method([transactionRequest], async ({ engine }, request) => {
    const transaction = await engine.intake.fillRequest(request)
    return { raw: toData(transaction.raw), tx: formatFilled(transaction, request) }
  }),
  eth_sendUnsignedTransaction: method([transactionRequest], ({ engine }, request) => engine.intake.submitUnsigned(request)),
}
