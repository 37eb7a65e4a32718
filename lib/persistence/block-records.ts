/**
 * Sealed blocks in a state dump: the header's fields, and each transaction's envelope with what
 * its receipt commits to. Reading one back rebuilds the block, recovers each signed sender, derives
 * the rest of each receipt, and checks the block against its own commitments: the transactions
 * and receipts roots, and the hash of the header (except for a fork's block, whose header the
 * upstream made).
 */
import type { Common } from '@ethereumjs/common'
import { toHex } from '../bytes.ts'
import { commitBody } from '../blocks/assemble.ts'
import type { IncludedTransaction, SealedBlock } from '../blocks/block.ts'
import { blockSize } from '../blocks/block-encoding.ts'
import { logsBloom } from '../blocks/bloom.ts'
import { hashHeader, type BlockHeader } from '../blocks/header.ts'
import type { L1FeeReceiptFields, Log, TransactionReceipt } from '../blocks/receipt.ts'
import { bigIntToUnpaddedBytes, generateAddress } from '@ethereumjs/util'
import { decodeTransaction, hashTransaction, rebuildTransaction, signedChainIdOf } from '../transactions/decode.ts'
import { decodeDeposit, depositTransaction, DEPOSIT_TYPE } from '../transactions/deposit.ts'
import { effectiveTip, type Transaction } from '../transactions/transaction.ts'
import { DEPOSIT_RECEIPT_VERSION } from '../execution/run-deposit.ts'
import type { Address } from '../types.ts'
import { addressAt, dataAt, hashAt, hexQuantity, integerAt, listAt, objectAt, quantityAt, StateDumpError, wordAt } from './dump-fields.ts'

/** A sealed block as a dump writes it. */
export function blockRecord(block: SealedBlock): Record<string, unknown> {
  const { header } = block
  return {
    hash: block.hash,
    parentHash: toHex(header.parentHash),
    miner: header.coinbase,
    stateRoot: toHex(header.stateRoot),
    transactionsRoot: toHex(header.transactionsRoot),
    receiptsRoot: toHex(header.receiptsRoot),
    logsBloom: toHex(header.logsBloom),
    number: hexQuantity(header.number),
    gasLimit: hexQuantity(header.gasLimit),
    gasUsed: hexQuantity(header.gasUsed),
    timestamp: hexQuantity(header.timestamp),
    extraData: toHex(header.extraData),
    mixHash: toHex(header.mixHash),
    baseFeePerGas: hexQuantity(header.baseFeePerGas),
    withdrawalsRoot: toHex(header.withdrawalsRoot),
    blobGasUsed: hexQuantity(header.blobGasUsed),
    excessBlobGas: hexQuantity(header.excessBlobGas),
    parentBeaconBlockRoot: toHex(header.parentBeaconBlockRoot),
    ...(header.requestsHash === undefined ? {} : { requestsHash: toHex(header.requestsHash) }),
    size: block.size,
    transactions: block.transactions.map(transactionRecord),
  }
}

/**
 * A transaction with what its receipt commits to. What follows from the envelope and the block
 * (a signed transaction's sender, the gas used, the price paid, a creation's address) is derived
 * when the dump is read rather than trusted; an impersonated transaction's sender has no
 * signature to be recovered from, so it is written.
 */
function transactionRecord({ transaction, receipt }: IncludedTransaction): Record<string, unknown> {
  return {
    raw: toHex(transaction.raw),
    ...(transaction.kind === 'impersonated' ? { impersonated: transaction.sender } : {}),
    // A deposit's receipt commits to the nonce it ran at, which its envelope does not hold.
    ...(receipt.deposit === undefined ? {} : { depositNonce: hexQuantity(receipt.deposit.nonce) }),
    status: receipt.status,
    cumulativeGasUsed: hexQuantity(receipt.cumulativeGasUsed),
    logs: receipt.logs.map((log) => [log.address, log.topics.map(toHex), toHex(log.data)]),
    // An OP-stack receipt's L1 fee fields: computed from the state the transaction ran on, so written.
    ...(receipt.l1 === undefined ? {} : { l1: Object.fromEntries(Object.entries(receipt.l1).map(([name, value]) => [name, hexQuantity(value)])) }),
  }
}

/** The names of an OP-stack receipt's L1 fee fields. */
const L1_FEE_FIELDS = ['l1BaseFee', 'l1GasUsed', 'l1Fee', 'baseFeeScalar', 'l1BlobBaseFee', 'blobBaseFeeScalar', 'operatorFeeScalar', 'operatorFeeConstant', 'daFootprintGasScalar', 'daFootprint'] as const

function l1FieldsFromRecord(record: unknown, path: string): L1FeeReceiptFields {
  const fields = objectAt(record, path)
  return Object.fromEntries(L1_FEE_FIELDS.map((name) => [name, quantityAt(fields[name], `${path}.${name}`)])) as unknown as L1FeeReceiptFields
}

/**
 * The block a dump's `record` describes, checked against its commitments; `trustHash` for a
 * first block that is a fork's (its hash is the upstream's to vouch for).
 */
export function blockFromRecord(record: unknown, path: string, commonFor: (chainId: bigint) => Common, chainId: number, trustHash: boolean): SealedBlock {
  const fields = objectAt(record, path)
  const at = (name: string) => `${path}.${name}`
  const header: BlockHeader = {
    parentHash: wordAt(fields.parentHash, at('parentHash')),
    coinbase: addressAt(fields.miner, at('miner')),
    stateRoot: wordAt(fields.stateRoot, at('stateRoot')),
    transactionsRoot: wordAt(fields.transactionsRoot, at('transactionsRoot')),
    receiptsRoot: wordAt(fields.receiptsRoot, at('receiptsRoot')),
    logsBloom: dataAt(fields.logsBloom, at('logsBloom')),
    number: quantityAt(fields.number, at('number')),
    gasLimit: quantityAt(fields.gasLimit, at('gasLimit')),
    gasUsed: quantityAt(fields.gasUsed, at('gasUsed')),
    timestamp: quantityAt(fields.timestamp, at('timestamp')),
    extraData: dataAt(fields.extraData, at('extraData')),
    mixHash: wordAt(fields.mixHash, at('mixHash')),
    baseFeePerGas: quantityAt(fields.baseFeePerGas, at('baseFeePerGas')),
    withdrawalsRoot: wordAt(fields.withdrawalsRoot, at('withdrawalsRoot')),
    blobGasUsed: quantityAt(fields.blobGasUsed, at('blobGasUsed')),
    excessBlobGas: quantityAt(fields.excessBlobGas, at('excessBlobGas')),
    parentBeaconBlockRoot: wordAt(fields.parentBeaconBlockRoot, at('parentBeaconBlockRoot')),
    requestsHash: fields.requestsHash === undefined ? undefined : wordAt(fields.requestsHash, at('requestsHash')),
  }
  const hash = hashAt(fields.hash, at('hash'))
  const context = { commonFor, chainId: BigInt(chainId), baseFee: header.baseFeePerGas, gasBefore: 0n, logsBefore: 0 }
  const included = listAt(fields.transactions, at('transactions')).map((entry, index) => {
    const transaction = includedFromRecord(entry, `${path}.transactions[${index}]`, index, context)
    context.gasBefore = transaction.receipt.cumulativeGasUsed
    context.logsBefore += transaction.receipt.logs.length
    return transaction
  })
  if (trustHash) return { header, hash, transactions: included, size: integerAt(fields.size, at('size')) }
  const body = commitBody(included)
  if (!sameBytes(body.transactionsRoot, header.transactionsRoot) || !sameBytes(body.receiptsRoot, header.receiptsRoot)) {
    throw new StateDumpError(`${path}: its transactions or receipts do not match the header's roots`)
  }
  const computed = hashHeader(header)
  if (computed.hash !== hash) throw new StateDumpError(`${path}: the header hashes to ${computed.hash}, not ${hash}`)
  return { header, hash, transactions: included, size: blockSize(computed.encodedLength, included.map(({ transaction }) => transaction.raw)) }
}

function includedFromRecord(record: unknown, path: string, index: number, context: RecordContext): IncludedTransaction {
  const fields = objectAt(record, path)
  const at = (name: string) => `${path}.${name}`
  const raw = dataAt(fields.raw, at('raw'))
  let transaction: Transaction
  try {
    if (raw[0] === DEPOSIT_TYPE) {
      const deposit = decodeDeposit(raw)
      transaction = depositTransaction(deposit, raw)
    } else {
      // Taken when sent: each decodes for the chain id it was signed for (anvil_setChainId may have changed the chain's since).
      const signedFor = signedChainIdOf(raw) ?? context.chainId
      const common = context.commonFor(signedFor)
      transaction =
        fields.impersonated === undefined
          ? decodeTransaction(raw, hashTransaction(raw), common, signedFor)
          : rebuildTransaction(raw, addressAt(fields.impersonated, at('impersonated')), 'impersonated', common)
    }
  } catch (error) {
    throw new StateDumpError(`${at('raw')} does not decode: ${(error as Error).message}`)
  }
  // An impersonated transaction carries the placeholder signature its sender implies (lib/transactions/sign.ts).
  if (transaction.kind === 'impersonated' && (transaction.r !== BigInt(transaction.sender) + 1n || transaction.s !== 1n)) {
    throw new StateDumpError(`${at('impersonated')}: the transaction is signed, not sent for an impersonated ${transaction.sender}`)
  }
  const depositNonce = transaction.kind === 'deposit' ? quantityAt(fields.depositNonce, at('depositNonce')) : undefined
  const creatorNonce = transaction.kind === 'deposit' ? depositNonce! : transaction.nonce
  if (fields.status !== 0 && fields.status !== 1) throw new StateDumpError(`${at('status')} should be 0 or 1`)
  const logs: Log[] = listAt(fields.logs, at('logs')).map((entry, i) => {
    const [address, topics, data] = listAt(entry, `${at('logs')}[${i}]`)
    return { address: addressAt(address, `${at('logs')}[${i}][0]`), topics: listAt(topics, `${at('logs')}[${i}][1]`).map((topic, k) => wordAt(topic, `${at('logs')}[${i}][1][${k}]`)), data: dataAt(data, `${at('logs')}[${i}][2]`) }
  })
  const cumulativeGasUsed = quantityAt(fields.cumulativeGasUsed, at('cumulativeGasUsed'))
  if (cumulativeGasUsed < context.gasBefore) throw new StateDumpError(`${at('cumulativeGasUsed')} is below the gas used before it`)
  const receipt: TransactionReceipt = {
    status: fields.status,
    gasUsed: cumulativeGasUsed - context.gasBefore,
    cumulativeGasUsed,
    // A deposit pays nothing per gas.
    effectiveGasPrice: transaction.kind === 'deposit' ? 0n : context.baseFee + effectiveTip(transaction, context.baseFee),
    logs,
    logsBloom: logsBloom(logs),
    // geth reports the address a creation would have used, whether or not it succeeded.
    contractAddress: transaction.to === undefined ? (toHex(generateAddress(transaction.senderAddress.bytes, bigIntToUnpaddedBytes(creatorNonce))) as Address) : undefined,
    firstLogIndex: context.logsBefore,
    ...(depositNonce === undefined ? {} : { deposit: { nonce: depositNonce, receiptVersion: DEPOSIT_RECEIPT_VERSION } }),
    l1: fields.l1 === undefined ? undefined : l1FieldsFromRecord(fields.l1, at('l1')),
  }
  return { transaction, receipt, index }
}

/** What reading a block's transactions needs and carries from one to the next. */
interface RecordContext {
  /** The Common that decodes transactions signed for a chain id. */
  readonly commonFor: (chainId: bigint) => Common
  /** The dump's chain id. */
  readonly chainId: bigint
  readonly baseFee: bigint
  gasBefore: bigint
  logsBefore: number
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i])
}
