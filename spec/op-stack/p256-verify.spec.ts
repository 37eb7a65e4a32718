/**
 * RIP-7212's P256VERIFY at 0x100 on an OP-stack chain (OP specs `fjord/exec-engine.md`): a
 * secp256r1 signature made here with WebCrypto (Node's own P-256, not the library the chain
 * uses) verifies to the word 1 for 3450 gas; a wrong hash, a bad length or an off-curve key
 * returns nothing for the same gas; a plain chain has no precompile there.
 */
import { expect } from 'chai'
import { webcrypto } from 'node:crypto'
import { concat, hexToBigInt, pad, toHex, type Hex } from 'viem'
import { createChain, type Chain } from '../../lib/index.ts'

const P256_VERIFY = '0x0000000000000000000000000000000000000100'
const P256_N = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n

/** A message hash, a signature of it and the public key, from WebCrypto (ECDSA P-256, SHA-256). */
async function signed(message: string): Promise<{ hash: Hex; r: Hex; s: Hex; x: Hex; y: Hex }> {
  const keys = await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify'])
  const data = new TextEncoder().encode(message)
  const signature = new Uint8Array(await webcrypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, keys.privateKey, data))
  const raw = new Uint8Array(await webcrypto.subtle.exportKey('raw', keys.publicKey)) // 0x04 ‖ x ‖ y
  const hash = new Uint8Array(await webcrypto.subtle.digest('SHA-256', data))
  return { hash: toHex(hash), r: toHex(signature.subarray(0, 32)), s: toHex(signature.subarray(32, 64)), x: toHex(raw.subarray(1, 33)), y: toHex(raw.subarray(33, 65)) }
}

async function call(chain: Chain, data: Hex): Promise<{ output: Hex; gas: bigint }> {
  const output = (await chain.request({ method: 'eth_call', params: [{ to: P256_VERIFY, data }, 'latest'] })) as Hex
  const gas = hexToBigInt((await chain.request({ method: 'eth_estimateGas', params: [{ to: P256_VERIFY, data }] })) as Hex)
  return { output, gas }
}

/** The gas of a call with `data` to a precompile costing `cost`: max(21,000 + calldata (EIP-2028) + cost, the EIP-7623 floor). */
function gasOfCall(data: Hex, cost: bigint): bigint {
  const bytes = Buffer.from(data.slice(2), 'hex')
  let standard = 21_000n + cost
  let tokens = 0n
  for (const byte of bytes) {
    standard += byte === 0 ? 4n : 16n
    tokens += byte === 0 ? 1n : 4n
  }
  const floor = 21_000n + 10n * tokens
  return standard > floor ? standard : floor
}

describe('op-stack: P256VERIFY (RIP-7212, Fjord)', () => {
  it('a valid signature verifies to the word 1 for 3450 gas; so does its high-s twin (RIP-7212 does not normalise s)', async () => {
    const chain = await createChain({ preset: 'base' })
    const { hash, r, s, x, y } = await signed('passkey login')
    const input = concat([hash, r, s, x, y])
    const { output, gas } = await call(chain, input)
    expect(output).to.equal(pad('0x01'))
    // The estimate's search may stop within 1.5% of the exact figure (geth).
    expect(Number(gas - gasOfCall(input, 3450n))).to.be.within(0, 400)
    // Sent as a transaction, it is charged exactly that.
    const sent = await chain.sendTransaction({ from: chain.accounts[0].address, to: P256_VERIFY, data: input, gas: 100_000n })
    await chain.mine()
    const receipt = (await chain.request({ method: 'eth_getTransactionReceipt', params: [sent] })) as { gasUsed: Hex; status: Hex }
    expect(receipt.status).to.equal('0x1')
    expect(hexToBigInt(receipt.gasUsed)).to.equal(gasOfCall(input, 3450n))
    const twin = concat([hash, r, pad(toHex(P256_N - hexToBigInt(s))), x, y])
    expect((await call(chain, twin)).output).to.equal(pad('0x01'))
  })

  it('a wrong hash, a short input or a key off the curve return nothing, as RIP-7212 says', async () => {
    const chain = await createChain({ preset: 'base' })
    const { hash, r, s, x, y } = await signed('passkey login')
    const wrongHash = concat([pad(toHex(hexToBigInt(hash) ^ 1n)), r, s, x, y])
    expect((await call(chain, wrongHash)).output).to.equal('0x')
    expect((await call(chain, concat([hash, r, s, x]))).output).to.equal('0x')
    expect((await call(chain, concat([hash, r, s, x, pad(toHex(hexToBigInt(y) ^ 1n))]))).output).to.equal('0x')
    expect((await call(chain, concat([hash, pad('0x0'), s, x, y]))).output).to.equal('0x')
  })

  it('a plain chain has no precompile at 0x100 (an empty account returns nothing, for 21,000 gas plus calldata)', async () => {
    const chain = await createChain()
    const { hash, r, s, x, y } = await signed('passkey login')
    expect((await call(chain, concat([hash, r, s, x, y]))).output).to.equal('0x')
  })
})
