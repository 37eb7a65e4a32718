/**
 * Sealed blocks in a state dump: the header's fields, and each transaction's envelope with its
 * sender (an impersonated one has no signature to recover it from) and its receipt. Reading one
 * back rebuilds the block and checks it against its own commitments: the transactions and
 * receipts roots, and the hash of the header (except for a fork's block, whose header the
 * upstream made).
 */
import type { Common } from '@ethereumjs/common'
import { commitBody } from '../blocks/assemble.ts'
import type { IncludedTransaction, SealedBlock } from '../blocks/block.ts'
import { blockSize } from '../blocks/block-size.ts'
import { logsBloom } from '../blocks/bloom.ts'
import { hashHeader, type BlockHeader } from '../blocks/header.ts'
import type { Log, TransactionReceipt } from '../blocks/receipt.ts'
import { rebuildTransaction } from '../transactions/decode.ts'
import { addressAt, dataAt, hashAt, hexData, hexQuantity, integerAt, listAt, objectAt, quantityAt, StateDumpError, wordAt } from './dump-fields.ts'

/** A sealed block as a dump writes it. */
export function blockRecord(block: SealedBlock): Record<string, unknown> {
  const { header } = block
  return {
    hash: block.hash,
    parentHash: hexData(header.parentHash),
    miner: header.coinbase,
    stateRoot: hexData(header.stateRoot),
    transactionsRoot: hexData(header.transactionsRoot),
    receiptsRoot: hexData(header.receiptsRoot),
    logsBloom: hexData(header.logsBloom),
    number: hexQuantity(header.number),
    gasLimit: hexQuantity(header.gasLimit),
    gasUsed: hexQuantity(header.gasUsed),
    timestamp: hexQuantity(header.timestamp),
    extraData: hexData(header.extraData),
    mixHash: hexData(header.mixHash),
    baseFeePerGas: hexQuantity(header.baseFeePerGas),
    withdrawalsRoot: hexData(header.withdrawalsRoot),
    blobGasUsed: hexQuantity(header.blobGasUsed),
    excessBlobGas: hexQuantity(header.excessBlobGas),
    parentBeaconBlockRoot: hexData(header.parentBeaconBlockRoot),
    ...(header.requestsHash === undefined ? {} : { requestsHash: hexData(header.requestsHash) }),
    size: block.size,
    transactions: block.transactions.map(transactionRecord),
  }
}

function transactionRecord({ transaction, receipt }: IncludedTransaction): Record<string, unknown> {
  return {
    raw: hexData(transaction.raw),
    sender: transaction.sender,
    kind: transaction.kind,
    status: receipt.status,
    gasUsed: hexQuantity(receipt.gasUsed),
    cumulativeGasUsed: hexQuantity(receipt.cumulativeGasUsed),
    effectiveGasPrice: hexQuantity(receipt.effectiveGasPrice),
    ...(receipt.contractAddress === undefined ? {} : { contractAddress: receipt.contractAddress }),
    logs: receipt.logs.map((log) => [log.address, log.topics.map(hexData), hexData(log.data)]),
  }
}

/**
 * The block a dump's `record` describes, checked against its commitments; `trustHash` for a
 * first block that is a fork's (its hash is the upstream's to vouch for).
 */
export function blockFromRecord(record: unknown, path: string, common: Common, trustHash: boolean): SealedBlock {
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
  const transactions = listAt(fields.transactions, at('transactions')).map((entry, index) => includedFromRecord(entry, `${path}.transactions[${index}]`, index, common))
  let firstLogIndex = 0
  const included = transactions.map(({ transaction, receipt, index }) => {
    const withIndex = { ...receipt, firstLogIndex }
    firstLogIndex += receipt.logs.length
    return { transaction, receipt: withIndex, index }
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

function includedFromRecord(record: unknown, path: string, index: number, common: Common): IncludedTransaction {
  const fields = objectAt(record, path)
  const at = (name: string) => `${path}.${name}`
  const kind = fields.kind
  if (kind !== 'signed' && kind !== 'impersonated') throw new StateDumpError(`${at('kind')} should be "signed" or "impersonated"`)
  let transaction
  try {
    transaction = rebuildTransaction(dataAt(fields.raw, at('raw')), addressAt(fields.sender, at('sender')), kind, common)
  } catch (error) {
    if (error instanceof StateDumpError) throw error
    throw new StateDumpError(`${at('raw')} does not decode: ${(error as Error).message}`)
  }
  if (fields.status !== 0 && fields.status !== 1) throw new StateDumpError(`${at('status')} should be 0 or 1`)
  const logs: Log[] = listAt(fields.logs, at('logs')).map((entry, i) => {
    const [address, topics, data] = listAt(entry, `${at('logs')}[${i}]`)
    return { address: addressAt(address, `${at('logs')}[${i}][0]`), topics: listAt(topics, `${at('logs')}[${i}][1]`).map((topic, k) => wordAt(topic, `${at('logs')}[${i}][1][${k}]`)), data: dataAt(data, `${at('logs')}[${i}][2]`) }
  })
  const receipt: TransactionReceipt = {
    status: fields.status,
    gasUsed: quantityAt(fields.gasUsed, at('gasUsed')),
    cumulativeGasUsed: quantityAt(fields.cumulativeGasUsed, at('cumulativeGasUsed')),
    effectiveGasPrice: quantityAt(fields.effectiveGasPrice, at('effectiveGasPrice')),
    logs,
    logsBloom: logsBloom(logs),
    contractAddress: fields.contractAddress === undefined ? undefined : addressAt(fields.contractAddress, at('contractAddress')),
    firstLogIndex: 0,
  }
  return { transaction, receipt, index }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i])
}
