/**
 * The fast path of decoding (lib/transactions/decode-plain.ts) against @ethereumjs/tx, the
 * library it stands in for: transactions signed by viem (legacy EIP-155, EIP-2930, EIP-1559;
 * calls and creations; calldata, access lists, values, nonces and gas limits at their edges; on
 * Cancun, Prague and Osaka) decode to the same engine transaction as the library builds, with
 * the signer recovered; what the path does not take (a limit reached, a pre-EIP-155 signature,
 * a non-canonical or malformed field) it leaves to the library, whose verdict stands.
 */
import { expect } from 'chai'
import { bytesToHex, hexToBytes } from '@ethereumjs/util'
import { RLP } from '@ethereumjs/rlp'
import { keccak256, serializeTransaction, type Hex, type TransactionSerializable } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { createTransactionCommon, type Hardfork } from '../../lib/execution/common.ts'
import { TransactionRejectedError } from '../../lib/errors.ts'
import { decodeTransaction, hashTransaction, rebuildTransaction } from '../../lib/transactions/decode.ts'
import { decodePlainTransaction } from '../../lib/transactions/decode-plain.ts'
import type { Address, Hash } from '../../lib/types.ts'

const account = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d')
const sender = account.address.toLowerCase() as Address
const HARDFORKS: Hardfork[] = ['cancun', 'prague', 'osaka']
const GWEI = 1_000_000_000n
const TO = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
const KEY = (i: number): Hex => `0x${i.toString(16).padStart(64, '0')}`

/** Deterministic bytes: `length` of them, a zero every `zeroEvery`-th. */
function bytes(length: number, zeroEvery = 3): Hex {
  let hex = '0x'
  for (let i = 0; i < length; i++) hex += (i % zeroEvery === 0 ? 0 : (i * 37 + 11) % 256 || 1).toString(16).padStart(2, '0')
  return hex as Hex
}

/** The shapes each type is signed in: calls and creations, calldata, access lists, values, nonces and gas at their edges. */
const SHAPES: Partial<TransactionSerializable>[] = [
  { to: TO, gas: 21000n },
  { to: TO, gas: 21000n, value: 1n, nonce: 1 },
  { to: TO, gas: 100_000n, value: 10n ** 30n, data: '0x00', nonce: 2 ** 32 },
  { to: TO, gas: 100_000n, data: bytes(33), nonce: Number.MAX_SAFE_INTEGER },
  { to: TO, gas: 5_000_000n, data: bytes(1000, 2) },
  { gas: 1_000_000n, data: bytes(64) },
  { gas: 16_777_216n, data: bytes(49152, 5) },
  { to: TO, gas: 16_777_216n, value: 0n },
]
const ACCESS_LISTS = [
  [],
  [{ address: TO, storageKeys: [] }],
  [
    { address: TO, storageKeys: [KEY(1), KEY(2)] },
    { address: '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc', storageKeys: [KEY(0)] },
  ],
] as const

function signed(chainId: number, type: 'legacy' | 'eip2930' | 'eip1559', shape: Partial<TransactionSerializable>, index: number): Promise<Hex> {
  const accessList = ACCESS_LISTS[index % ACCESS_LISTS.length] as never
  const fees =
    type === 'eip1559'
      ? { maxFeePerGas: 100n * GWEI, maxPriorityFeePerGas: BigInt(index % 3) * GWEI }
      : { gasPrice: BigInt(index % 4) * GWEI }
  return account.signTransaction({ chainId, nonce: 0, ...shape, ...fees, type, ...(type === 'legacy' ? {} : { accessList }) } as TransactionSerializable)
}

/** The library's engine transaction for `raw`, with `sender` as its signer. */
function libraryDecode(raw: Uint8Array, hardfork: Hardfork, chainId: number) {
  return rebuildTransaction(raw, sender, 'signed', createTransactionCommon(chainId, hardfork))
}

/** decodeTransaction's verdict: the transaction, or the rejection's text. */
function verdict(raw: Uint8Array, hardfork: Hardfork, chainId: number): unknown {
  try {
    return decodeTransaction(raw, hashTransaction(raw), createTransactionCommon(chainId, hardfork), BigInt(chainId))
  } catch (error) {
    expect(error).to.be.instanceOf(TransactionRejectedError)
    return (error as Error).message
  }
}

/** `raw`'s signed fields re-encoded with `edit` applied (the envelope type kept). */
function reencoded(raw: Uint8Array, edit: (fields: Uint8Array[]) => unknown[]): Uint8Array {
  const typed = raw[0] < 0xc0
  const fields = RLP.decode(typed ? raw.subarray(1) : raw) as Uint8Array[]
  const list = RLP.encode(edit(fields) as Uint8Array[])
  return typed ? Uint8Array.of(raw[0], ...list) : list
}

describe('transactions/decode-plain (the fast path against @ethereumjs/tx)', function () {
  for (const hardfork of HARDFORKS) {
    for (const chainId of [31337, 8453]) {
      it(`${hardfork}, chain ${chainId}: every shape of every plain type decodes to what the library builds, the signer recovered`, async function () {
        let taken = 0
        for (const type of ['legacy', 'eip2930', 'eip1559'] as const) {
          for (const [index, shape] of SHAPES.entries()) {
            const raw = hexToBytes(await signed(chainId, type, shape, index))
            const hash = hashTransaction(raw)
            expect(hash).to.equal(keccak256(bytesToHex(raw) as Hex))
            const plain = decodePlainTransaction(raw, hash as Hash, raw[0] >= 0xc0 ? 0 : raw[0], createTransactionCommon(chainId, hardfork))
            // Osaka caps a transaction's gas at 2^24 (EIP-7825): at the cap the path takes it.
            expect(plain, `${type} shape ${index}`).to.not.equal(undefined)
            expect(plain, `${type} shape ${index}`).to.deep.equal(libraryDecode(raw, hardfork, chainId))
            expect(plain!.sender).to.equal(sender)
            taken++
          }
        }
        expect(taken).to.equal(3 * SHAPES.length)
      })
    }
  }

  it('leaves to the slow path what it does not take, whose verdict is geth\'s: over the EIP-7825 cap (core/txpool/validation.go), over the init code limit, a pre-EIP-155 signature, another chain', async function () {
    const over = [
      { raw: await signed(1337, 'eip1559', { to: TO, gas: 16_777_217n }, 0), hardfork: 'osaka' as const },
      { raw: await signed(1337, 'eip1559', { gas: 16_777_216n, data: bytes(49153) }, 0), hardfork: 'prague' as const },
      { raw: await unprotected(), hardfork: 'prague' as const },
      { raw: await signed(1, 'eip1559', { to: TO, gas: 21000n }, 0), hardfork: 'prague' as const },
    ]
    const verdicts: unknown[] = []
    for (const { raw: hex, hardfork } of over) {
      const raw = hexToBytes(hex)
      expect(decodePlainTransaction(raw, hashTransaction(raw) as Hash, raw[0] >= 0xc0 ? 0 : raw[0], createTransactionCommon(1337, hardfork))).to.equal(undefined)
      verdicts.push(verdict(raw, hardfork, 1337))
    }
    expect(verdicts[0]).to.equal('transaction gas limit too high (cap: 16777216, tx: 16777217)')
    expect(verdicts[1]).to.equal('max initcode size exceeded: code size 49153, limit 49152')
    expect(verdicts[2]).to.deep.include({ sender, chainId: undefined })
    expect([27n, 28n]).to.include((verdicts[2] as { v: bigint }).v)
    expect(verdicts[3]).to.equal('invalid sender: invalid chain id for signer: have 1 want 1337')
  })

  it('leaves non-canonical and malformed envelopes to the library, which rejects them with its texts', async function () {
    const raw = hexToBytes(await signed(1337, 'eip1559', { to: TO, gas: 21000n, nonce: 5 }, 0))
    const variants: Record<string, Uint8Array> = {
      'a nonce with a leading zero': reencoded(raw, (fields) => fields.map((field, i) => (i === 1 ? Uint8Array.of(0, 5) : field))),
      'a 19-byte recipient': reencoded(raw, (fields) => fields.map((field, i) => (i === 5 ? field.subarray(1) : field))),
      'a field too few': reencoded(raw, (fields) => fields.slice(0, 11)),
      'an access list that is not a list': reencoded(raw, (fields) => fields.map((field, i) => (i === 8 ? Uint8Array.of(1) : field))),
      'a byte past the list': Uint8Array.of(...raw, 0x80),
      'a long-form length for a short list': Uint8Array.of(raw[0], 0xf8, raw[1] - 0xc0, ...raw.subarray(2)),
      'a y-parity of 2': reencoded(raw, (fields) => fields.map((field, i) => (i === 9 ? Uint8Array.of(2) : field))),
    }
    const common = createTransactionCommon(1337, 'prague')
    for (const [name, variant] of Object.entries(variants)) {
      expect(decodePlainTransaction(variant, hashTransaction(variant) as Hash, 2, common), name).to.equal(undefined)
      expect(verdict(variant, 'prague', 1337), name).to.be.a('string')
    }
  })
})

/** A legacy transfer signed without a chain id (v 27/28): EIP-155's opt-out, which the library judges. */
async function unprotected(): Promise<Hex> {
  const fields = { type: 'legacy', to: TO, gas: 21000n, gasPrice: GWEI, nonce: 0 } as const
  const signature = await account.sign({ hash: keccak256(serializeTransaction(fields)) })
  const [r, s] = [`0x${signature.slice(2, 66)}`, `0x${signature.slice(66, 130)}`] as Hex[]
  return serializeTransaction(fields, { r, s, v: BigInt(Number.parseInt(signature.slice(130), 16)) })
}
