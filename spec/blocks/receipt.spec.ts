/**
 * A receipt's consensus encoding (lib/blocks/receipt.ts, written with the trie's RLP writer)
 * against @ethereumjs/rlp encoding the same fields as EIP-2718 and the OP specs list them —
 * `type || rlp([status, cumulativeGasUsed, logsBloom, logs])`, a deposit's nonce and receipt
 * version after them — over every transaction type, both statuses, gas at RLP's length
 * boundaries, no logs and logs with single-byte, short and long data.
 */
import { expect } from 'chai'
import { RLP } from '@ethereumjs/rlp'
import { bigIntToUnpaddedBytes, bytesToHex, concatBytes, hexToBytes } from '@ethereumjs/util'
import { encodeReceipt, type TransactionReceipt } from '../../lib/blocks/receipt.ts'
import type { Transaction } from '../../lib/transactions/transaction.ts'

function reference(type: number, receipt: TransactionReceipt): Uint8Array {
  const fields: unknown[] = [
    receipt.status === 1 ? Uint8Array.of(1) : new Uint8Array(0),
    bigIntToUnpaddedBytes(receipt.cumulativeGasUsed),
    receipt.logsBloom,
    receipt.logs.map((log) => [hexToBytes(log.address), [...log.topics], log.data]),
  ]
  if (receipt.deposit !== undefined) fields.push(bigIntToUnpaddedBytes(receipt.deposit.nonce), bigIntToUnpaddedBytes(receipt.deposit.receiptVersion))
  const payload = RLP.encode(fields as never)
  return type === 0 ? payload : concatBytes(Uint8Array.of(type), payload)
}

const bytes = (length: number, seed: number) => Uint8Array.from({ length }, (_, i) => (i * 31 + seed) % 256)

describe('blocks/receipt encoding', () => {
  it('is byte for byte what a generic RLP encoder gives, for every type, status, gas length, log shape and deposit field', () => {
    let compared = 0
    for (const type of [0, 1, 2, 4, 0x7e]) {
      for (const status of [0, 1] as const) {
        for (const cumulativeGasUsed of [0n, 127n, 128n, 21000n, 2n ** 64n - 1n]) {
          for (const dataLength of [0, 1, 55, 56, 300]) {
            for (const deposit of [undefined, { nonce: 0n, receiptVersion: 1n }, { nonce: 300n, receiptVersion: 1n }]) {
              const logs = [0, 1].slice(0, dataLength === 0 ? 0 : 2).map((i) => ({
                address: bytesToHex(bytes(20, i)) as `0x${string}`,
                topics: [0, 1, 2].slice(0, i + 1).map((t) => bytes(32, t)),
                data: dataLength === 1 ? Uint8Array.of(i * 100) : bytes(dataLength, i),
              }))
              const receipt = { status, cumulativeGasUsed, logsBloom: bytes(256, type), logs, deposit } as unknown as TransactionReceipt
              expect(bytesToHex(encodeReceipt({ type } as Transaction, receipt))).to.equal(bytesToHex(reference(type, receipt)))
              compared++
            }
          }
        }
      }
    }
    expect(compared).to.equal(5 * 2 * 5 * 5 * 3)
  })
})
