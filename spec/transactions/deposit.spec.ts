/**
 * OP-stack deposit envelopes (type 0x7e): the hash against the OP Sepolia vector Foundry's Anvil
 * tests use (research opstack.md §1), the field order of the RLP list (OP specs `deposits.md`),
 * source hashes worked from their definition with viem's keccak256, and geth's -32000 for
 * envelopes that do not decode.
 */
import { expect } from 'chai'
import { concat, keccak256, pad, toHex, type Hex } from 'viem'
import { hexToBytes } from '@ethereumjs/util'
import { TransactionRejectedError } from '../../lib/errors.ts'
import { decodeDeposit, depositIntrinsicGas, depositTransaction, encodeDeposit, l1InfoSourceHash, userDepositSourceHash } from '../../lib/transactions/deposit.ts'

const VECTOR: Hex =
  '0x7ef861a0dfd7ae78bf3c414cfaa77f13c0205c82eb9365e217b2daa3448c3156b69b27ac94778f2146f48179643473b82931c4cd7b8f153efd94778f2146f48179643473b82931c4cd7b8f153efd872386f26fc10000872386f26fc10000830186a08080'

describe('transactions/deposit', () => {
  it('decodes the OP Sepolia vector and hashes it as Anvil and op-alloy do (0xbf8b5f08…)', () => {
    const raw = hexToBytes(VECTOR)
    const fields = decodeDeposit(raw)
    expect(toHex(fields.sourceHash)).to.equal('0xdfd7ae78bf3c414cfaa77f13c0205c82eb9365e217b2daa3448c3156b69b27ac')
    expect(fields.from).to.equal('0x778f2146f48179643473b82931c4cd7b8f153efd')
    expect(fields.to).to.equal('0x778f2146f48179643473b82931c4cd7b8f153efd')
    expect(fields.mint).to.equal(10_000_000_000_000_000n) // 0x2386f26fc10000 = 0.01 ether
    expect(fields.value).to.equal(10_000_000_000_000_000n)
    expect(fields.gasLimit).to.equal(100_000n)
    expect(fields.isSystemTx).to.equal(false)
    expect(fields.data.length).to.equal(0)
    const deposit = depositTransaction(fields, raw)
    expect(deposit.hash).to.equal('0xbf8b5f08c43e4b860715cd64fc0849bbce0d0ea20a76b269e7bc8886d112fca7')
    expect(deposit.hash).to.equal(keccak256(VECTOR))
    expect(toHex(encodeDeposit(fields))).to.equal(VECTOR)
  })

  it('encodes a creation with an empty `to`, a system flag of 0x01 and zero quantities as empty strings', () => {
    const fields = { sourceHash: new Uint8Array(32).fill(7), from: '0x00000000000000000000000000000000000000aa' as const, to: undefined, mint: 0n, value: 0n, gasLimit: 21_000n, isSystemTx: true, data: Uint8Array.of(0x60, 0) }
    const raw = encodeDeposit(fields)
    // 0x7e ‖ rlp([0xa0‖32 bytes, 0x94‖from, 0x80, 0x80, 0x80, 0x825208, 0x01, 0x826000])
    const payload = concat(['0xa0', toHex(fields.sourceHash), '0x94', fields.from, '0x80', '0x80', '0x80', '0x825208', '0x01', '0x826000'])
    const length = (payload.length - 2) / 2
    expect(length).to.equal(64) // over 55 bytes: a long list, 0xf8 ‖ length
    expect(toHex(raw)).to.equal(concat(['0x7e', '0xf8', toHex(length, { size: 1 }), payload]))
    expect(decodeDeposit(raw)).to.deep.equal(fields)
  })

  it('keeps a `to` that starts with zero bytes (an address, not a quantity)', () => {
    const fields = { sourceHash: new Uint8Array(32), from: '0x0000000000000000000000000000000000000001' as const, to: '0x00000000000000000000000000000000000000aa' as const, mint: 1n, value: 0n, gasLimit: 100_000n, isSystemTx: false, data: new Uint8Array(0) }
    expect(decodeDeposit(encodeDeposit(fields))).to.deep.equal(fields)
  })

  it('charges the intrinsic gas of any transaction: 21,000, calldata 4/16 per byte, +32,000 and 2 per init-code word for a creation', () => {
    expect(depositIntrinsicGas({ to: '0x00000000000000000000000000000000000000aa', data: Uint8Array.of(0, 1, 0) })).to.equal(21_000n + 4n + 16n + 4n)
    expect(depositIntrinsicGas({ to: undefined, data: new Uint8Array(33).fill(1) })).to.equal(21_000n + 33n * 16n + 32_000n + 2n * 2n)
  })

  it('source hashes: keccak(bytes32(domain) ‖ keccak(l1BlockHash ‖ bytes32(n))), domain 0 for user deposits and 1 for L1 attributes', () => {
    const l1Hash = keccak256('0x1234')
    const expected = (domain: number, n: number) => keccak256(concat([pad(toHex(domain)), keccak256(concat([l1Hash, pad(toHex(n))]))]))
    expect(toHex(userDepositSourceHash(hexToBytes(l1Hash), 5n))).to.equal(expected(0, 5))
    expect(toHex(l1InfoSourceHash(hexToBytes(l1Hash), 3n))).to.equal(expected(1, 3))
  })

  describe('envelopes that do not decode are refused with -32000', () => {
    const cases: Array<[string, Hex]> = [
      ['not a list', '0x7e80'],
      ['seven fields', '0x7edb' + 'a0' + '00'.repeat(32) + '94' + '11'.repeat(20) + '80808080' + '80' as Hex],
      ['a 19-byte from', ('0x7ef8' + '3d' + 'a0' + '00'.repeat(32) + '93' + '11'.repeat(19) + '80808080' + '80' + '80') as Hex],
      ['a mint with a leading zero', ('0x7ef8' + '40' + 'a0' + '00'.repeat(32) + '94' + '11'.repeat(20) + '80' + '820001' + '80' + '80' + '80' + '80') as Hex],
      ['isSystemTx of 2', ('0x7ef8' + '3e' + 'a0' + '00'.repeat(32) + '94' + '11'.repeat(20) + '80808080' + '02' + '80') as Hex],
    ]
    for (const [name, raw] of cases) {
      it(name, () => {
        let caught: unknown
        try {
          decodeDeposit(hexToBytes(raw))
        } catch (error) {
          caught = error
        }
        expect(caught).to.be.instanceOf(TransactionRejectedError)
        expect((caught as TransactionRejectedError).code).to.equal(-32000)
        expect((caught as Error).message).to.match(/^invalid transaction: deposit: /)
      })
    }
  })
})
