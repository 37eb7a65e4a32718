/**
 * Sender recovery and dev-account signing run on native libsecp256k1 when its prebuilt addon
 * loads, and on ethereumjs's own @noble/curves path otherwise. Both must give the same answers:
 * the native path is checked against noble signature by signature, and the fallback is run
 * end to end in a process where the addon cannot load.
 */
import { expect } from 'chai'
import { execFileSync } from 'node:child_process'
import { createCustomCommon, Mainnet } from '@ethereumjs/common'
import { createTx, createTxFromRLP, type TypedTxData } from '@ethereumjs/tx'
import { bytesToHex, ecrecover as nobleRecover, hexToBytes } from '@ethereumjs/util'
import { sign } from 'viem/accounts'
import { ecrecover, nativeSecp256k1 } from '../../lib/crypto/secp256k1.ts'
import { createTransactionCommon } from '../../lib/execution/common.ts'
import { ROOT } from '../support/server-cli.ts'

const PRIVATE_KEY = hexToBytes('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80')
const ALICE = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'
const TRANSACTION_KINDS: Array<[string, TypedTxData]> = [
  ['EIP-1559', { type: 2, chainId: 31337n, nonce: 3n, gasLimit: 21000n, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 10n ** 9n, to: `0x${'11'.repeat(20)}`, value: 1n }],
  ['EIP-2930', { type: 1, chainId: 31337n, nonce: 0n, gasLimit: 30000n, gasPrice: 10n ** 10n, to: `0x${'22'.repeat(20)}`, accessList: [] }],
  ['legacy, EIP-155', { type: 0, nonce: 9n, gasLimit: 21000n, gasPrice: 10n ** 10n, to: `0x${'33'.repeat(20)}`, value: 2n }],
]

describe('crypto/secp256k1: native libsecp256k1 and the @noble/curves fallback', () => {
  const native = createTransactionCommon(31337, 'prague')
  const noble = createCustomCommon({ chainId: 31337 }, Mainnet, { hardfork: 'prague' })

  it('the native binding loads after npm ci on linux-x64 (the fast path the bench measures)', function () {
    if (process.platform !== 'linux' || process.arch !== 'x64') this.skip()
    expect(nativeSecp256k1).to.equal(true)
  })

  for (const [kind, data] of TRANSACTION_KINDS) {
    it(`${kind}: native signing gives noble's exact bytes (RFC 6979, low s), and both recover the same sender`, () => {
      const signedNatively = createTx(data, { common: native }).sign(PRIVATE_KEY)
      const signedByNoble = createTx(data, { common: noble }).sign(PRIVATE_KEY)
      expect(signedNatively.serialize()).to.deep.equal(signedByNoble.serialize())
      const decodedNatively = createTxFromRLP(signedByNoble.serialize(), { common: native })
      const decodedByNoble = createTxFromRLP(signedNatively.serialize(), { common: noble })
      expect(decodedNatively.getSenderAddress().toString()).to.equal(ALICE)
      expect(decodedByNoble.getSenderAddress().toString()).to.equal(ALICE)
    })
  }

  it('pre-EIP-155 legacy signatures (v 27/28) recover the same key on both paths', async function () {
    if (ecrecover === undefined) this.skip()
    for (const fill of [1, 2, 3, 4]) {
      const digest = new Uint8Array(32).fill(fill)
      const signature = await sign({ hash: bytesToHex(digest), privateKey: bytesToHex(PRIVATE_KEY) })
      const [r, s] = [hexToBytes(signature.r), hexToBytes(signature.s)]
      expect([27n, 28n]).to.include(signature.v)
      expect(ecrecover!(digest, signature.v!, r, s)).to.deep.equal(nobleRecover(digest, signature.v!, r, s))
    }
  })

  it('a v that names no recovery id is refused by the native path, as by noble', function () {
    if (ecrecover === undefined) this.skip()
    const digest = new Uint8Array(32).fill(1)
    const one = new Uint8Array(32).fill(1)
    expect(() => ecrecover!(digest, 31n, one, one)).to.throw('Invalid signature v value')
    expect(() => nobleRecover(digest, 31n, one, one)).to.throw('Invalid signature v value')
  })

  it('without the addon, the chain runs on @noble/curves: senders recovered, a foreign chain id refused, eth_sendTransaction signed', function () {
    this.timeout(30_000)
    const output = execFileSync(
      process.execPath,
      ['--require', './spec/support/without-native-secp256k1.cjs', '--import', 'tsx', 'spec/support/fallback-crypto-world.ts'],
      { cwd: ROOT, encoding: 'utf8' },
    )
    expect(JSON.parse(output)).to.deep.equal({
      native: false,
      sender: ALICE,
      refusal: 'invalid sender: invalid chain id for signer: have 1 want 31337',
      sentBy: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
      carolPending: '12',
    })
  })
})
