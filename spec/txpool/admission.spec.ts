/**
 * Txpool admission: what eth_sendRawTransaction accepts and refuses, with geth's error texts
 * (core/txpool/validation.go ValidateTransaction / ValidateTransactionWithState,
 * core/txpool/legacypool list.Add for replacements, core/types signer errors), always code -32000.
 * "Pending" here is the pre-confirmed overlay: nonce and funds are checked against it.
 */
import { expect } from 'chai'
import { keccak256, parseEther, toHex, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { createChain, RPCError, type Chain, type Preconfirmation } from '../../lib/index.ts'
import type { UserTransaction } from '../../lib/transactions/transaction.ts'
import { rejection } from '../support/chain-helpers.ts'
import { GWEI, signer } from '../support/wallet.ts'
import { decodeEnvelope, SECP256K1_N, signUncheckedEip1559, withHighS, withSignature } from '../support/txpool-raw.ts'

type Submit = (chain: Chain, raw: Hex) => Promise<Hex>

/** Both doors in: the plain function and EIP-1193 `request`. */
const submitters: ReadonlyArray<readonly [string, Submit]> = [
  ['chain.sendRawTransaction', (chain, raw) => chain.sendRawTransaction(raw)],
  ['request eth_sendRawTransaction', async (chain, raw) => (await chain.request({ method: 'eth_sendRawTransaction', params: [raw] })) as Hex],
]

const send: Submit = submitters[0][1]
const sendViaRequest: Submit = submitters[1][1]

/** Dev accounts start with 10000 ETH. */
const INITIAL_BALANCE = parseEther('10000')
/** Base fee of block 1 (EIP-1559 from genesis' 1 gwei with an empty genesis). */
const BLOCK_1_BASE_FEE = 875_000_000n
const BLOCK_GAS_LIMIT = 30_000_000n
const ZERO_HASH = `0x${'0'.repeat(64)}`

function fresh(): Promise<Chain> {
  return createChain({ clock: 'manual' })
}

/** The RPCError a promise rejects with (fails the test if it resolves). */
const rpcRejection = (promise: Promise<unknown>) => rejection(promise, RPCError)

/** A -32000 rejection with exactly `message` (geth's text), `details` equal to it and no data. */
async function expectRejected(promise: Promise<unknown>, message: string): Promise<void> {
  const error = await rpcRejection(promise)
  expect({ code: error.code, message: error.message }).to.deep.equal({ code: -32000, message })
  expect(error.details).to.equal(message)
  expect(error.data).to.equal(undefined)
}

/** A -32000 rejection whose message starts with `prefix` (for details the library words itself). */
async function expectRejectedWithPrefix(promise: Promise<unknown>, prefix: string): Promise<string> {
  const error = await rpcRejection(promise)
  expect(error.code).to.equal(-32000)
  expect(error.message.startsWith(prefix), `"${error.message}" should start with "${prefix}"`).to.equal(true)
  return error.message
}

async function txByHash(chain: Chain, hash: Hex): Promise<Record<string, unknown> | null> {
  return (await chain.request({ method: 'eth_getTransactionByHash', params: [hash] })) as Record<string, unknown> | null
}

async function status(chain: Chain, hash: Hex): Promise<string> {
  return ((await chain.request({ method: 'service_transactionStatus', params: [hash] })) as { status: string }).status
}

async function pendingBlockHashes(chain: Chain): Promise<Hex[]> {
  return ((await chain.request({ method: 'eth_getBlockByNumber', params: ['pending', false] })) as { transactions: Hex[] }).transactions
}

function tickHashes(preconfirmation: Preconfirmation): Hex[] {
  return preconfirmation.transactions.map(({ transaction }) => transaction.hash)
}

describe('txpool admission (geth rules and texts, code -32000)', () => {
  describe('decoding: every supported envelope is accepted', () => {
    for (const [via, submit] of submitters) {
      describe(`via ${via}`, () => {
        it('accepts a pre-EIP-155 legacy transaction (v = 27/28), as Anvil and Hardhat do (geth: --rpc.allow-unprotected-txs)', async () => {
          const chain = await fresh()
          const alice = signer(chain, 0)
          const bob = chain.accounts[1].address
          const raw = await alice.signAny({ type: 'legacy', chainId: undefined, nonce: 0, gas: 21000n, gasPrice: 10n * GWEI, to: bob, value: 7n } as never)
          const { type, fields } = decodeEnvelope(raw)
          expect(type).to.equal(0)
          expect([27, 28]).to.include(Number(toHex(fields[6] as Uint8Array)))

          const hash = await submit(chain, raw)
          expect(hash).to.equal(keccak256(raw))
          expect(await status(chain, hash)).to.equal('Known')
          const json = await txByHash(chain, hash)
          expect(json).to.include({ hash, from: alice.address.toLowerCase(), nonce: '0x0', type: '0x0', blockNumber: null })
          expect(['0x1b', '0x1c']).to.include(json!.v)

          const before = await chain.getBalance(bob, 'pending')
          expect(tickHashes(await chain.tick())).to.deep.equal([hash])
          expect(await chain.getBalance(bob, 'pending')).to.equal(before + 7n)
        })

        it('accepts an EIP-155 legacy transaction (v = 2 * 31337 + 35/36)', async () => {
          const chain = await fresh()
          const alice = signer(chain, 0)
          const raw = await alice.signAny({ type: 'legacy', nonce: 0, gas: 21000n, gasPrice: 10n * GWEI, to: chain.accounts[1].address })
          const v = Number(toHex(decodeEnvelope(raw).fields[6] as Uint8Array))
          expect([62709, 62710]).to.include(v)
          const hash = await submit(chain, raw)
          expect(hash).to.equal(keccak256(raw))
          expect(await txByHash(chain, hash)).to.include({ chainId: '0x7a69', type: '0x0' })
          expect(tickHashes(await chain.tick())).to.deep.equal([hash])
        })

        it('accepts an EIP-2930 access-list transaction (intrinsic 21000 + 2400 per address + 1900 per key)', async () => {
          const chain = await fresh()
          const alice = signer(chain, 0)
          const bob = chain.accounts[1].address
          const accessList = [{ address: bob, storageKeys: [`0x${'0'.repeat(63)}1` as Hex] }]
          const raw = await alice.signAny({ type: 'eip2930', chainId: 31337, nonce: 0, gas: 25300n, gasPrice: 10n * GWEI, to: bob, accessList })
          expect(decodeEnvelope(raw).type).to.equal(1)
          const hash = await submit(chain, raw)
          expect(hash).to.equal(keccak256(raw))
          expect(await txByHash(chain, hash)).to.include({ type: '0x1', gas: '0x62d4' })
          expect(tickHashes(await chain.tick())).to.deep.equal([hash])
        })

        it('accepts an EIP-1559 transaction', async () => {
          const chain = await fresh()
          const alice = signer(chain, 0)
          const raw = await alice.sign({ to: chain.accounts[1].address, value: 1n })
          expect(decodeEnvelope(raw).type).to.equal(2)
          const hash = await submit(chain, raw)
          expect(hash).to.equal(keccak256(raw))
          expect(await txByHash(chain, hash)).to.include({ type: '0x2', maxFeePerGas: toHex(10n * GWEI), maxPriorityFeePerGas: toHex(GWEI) })
          expect(tickHashes(await chain.tick())).to.deep.equal([hash])
        })

        it('accepts an EIP-7702 set-code transaction (Prague) and applies its authorization when pre-confirmed', async () => {
          const chain = await fresh()
          const alice = signer(chain, 0)
          const authority = privateKeyToAccount(chain.accounts[5].privateKey)
          const delegate = '0x000000000000000000000000000000000000c0de' as const
          const authorization = await authority.signAuthorization({ contractAddress: delegate, chainId: 31337, nonce: 0 })
          const raw = await alice.signAny({
            type: 'eip7702',
            chainId: 31337,
            nonce: 0,
            gas: 100_000n,
            maxFeePerGas: 10n * GWEI,
            maxPriorityFeePerGas: GWEI,
            to: authority.address,
            authorizationList: [authorization],
          })
          expect(decodeEnvelope(raw).type).to.equal(4)
          const hash = await submit(chain, raw)
          expect(hash).to.equal(keccak256(raw))
          expect(await txByHash(chain, hash)).to.include({ type: '0x4' })
          expect(tickHashes(await chain.tick())).to.deep.equal([hash])
          expect(await chain.getCode(authority.address, 'pending')).to.equal(`0xef0100${delegate.slice(2)}`)
        })
      })
    }
  })

  describe('decoding: what the pool refuses', () => {
    for (const [via, submit] of submitters) {
      describe(`via ${via}`, () => {
        it("refuses a blob transaction (type 3) with 'transaction type not supported'", async () => {
          const chain = await fresh()
          const alice = signer(chain, 0)
          const raw = await alice.signAny({
            type: 'eip4844',
            nonce: 0,
            gas: 21000n,
            maxFeePerGas: 10n * GWEI,
            maxPriorityFeePerGas: GWEI,
            maxFeePerBlobGas: GWEI,
            to: chain.accounts[1].address,
            blobVersionedHashes: [`0x01${'00'.repeat(31)}`],
          } as never)
          expect(decodeEnvelope(raw).type).to.equal(3)
          await expectRejectedWithPrefix(submit(chain, raw), 'transaction type not supported: blob transactions (type 3)')
        })

        it("refuses an unknown envelope type with 'transaction type not supported' (geth: ErrTxTypeNotSupported)", async () => {
          const chain = await fresh()
          await expectRejectedWithPrefix(submit(chain, '0x05c0'), 'transaction type not supported')
          await expectRejectedWithPrefix(submit(chain, '0x7fc3010203'), 'transaction type not supported')
        })

        it("refuses undecodable bytes with 'invalid transaction: …'", async () => {
          const chain = await fresh()
          for (const garbage of ['0x', '0xdeadbeef', '0xc0', '0xc3010203', '0x02', '0x02c0', '0x0280', '0x01deadbeef'] as Hex[]) {
            await expectRejectedWithPrefix(submit(chain, garbage), 'invalid transaction: ')
          }
          expect(await pendingBlockHashes(chain)).to.deep.equal([])
          expect(tickHashes(await chain.tick())).to.deep.equal([])
        })

        it("refuses another chain's signature: 'invalid sender: invalid chain id for signer: have 1 want 31337'", async () => {
          const chain = await fresh()
          const alice = signer(chain, 0)
          const bob = chain.accounts[1].address
          const message = 'invalid sender: invalid chain id for signer: have 1 want 31337'
          await expectRejected(submit(chain, await alice.sign({ chainId: 1, to: bob })), message)
          await expectRejected(submit(chain, await alice.signAny({ type: 'legacy', chainId: 1, nonce: 0, gas: 21000n, gasPrice: 10n * GWEI, to: bob })), message)
          await expectRejected(submit(chain, await alice.signAny({ type: 'eip2930', chainId: 1, nonce: 0, gas: 21000n, gasPrice: 10n * GWEI, to: bob })), message)
        })

        it("refuses r >= n: 'invalid sender: invalid transaction v, r, s values' (geth ValidateSignatureValues)", async () => {
          const chain = await fresh()
          const alice = signer(chain, 0)
          const raw = await alice.sign({ to: chain.accounts[1].address })
          await expectRejected(
            submit(chain, withSignature(raw, (sig) => ({ ...sig, r: SECP256K1_N }))),
            'invalid sender: invalid transaction v, r, s values',
          )
          // The untouched transaction is still admissible: nothing was recorded for the bad one.
          expect(await submit(chain, raw)).to.equal(keccak256(raw))
        })

        it("refuses r = 0 and s = 0: 'invalid sender: invalid transaction v, r, s values' (geth recovers, and r, s must be >= 1)", async () => {
          const chain = await fresh()
          const alice = signer(chain, 0)
          const raw = await alice.sign({ to: chain.accounts[1].address })
          const message = 'invalid sender: invalid transaction v, r, s values'
          await expectRejected(submit(chain, withSignature(raw, (sig) => ({ ...sig, r: 0n }))), message)
          await expectRejected(submit(chain, withSignature(raw, (sig) => ({ ...sig, s: 0n }))), message)
          expect(await submit(chain, raw)).to.equal(keccak256(raw))
        })

        it("refuses a high-s (EIP-2 malleable) legacy signature: 'invalid sender: invalid transaction v, r, s values'", async () => {
          const chain = await fresh()
          const alice = signer(chain, 0)
          const legacy = await alice.signAny({ type: 'legacy', nonce: 0, gas: 21000n, gasPrice: 10n * GWEI, to: chain.accounts[1].address })
          await expectRejected(submit(chain, withHighS(legacy)), 'invalid sender: invalid transaction v, r, s values')
        })

        it("refuses a high-s (EIP-2 malleable) typed signature: 'invalid sender: invalid transaction v, r, s values' (geth recoverPlain)", async () => {
          const chain = await fresh()
          const alice = signer(chain, 0)
          const typed = await alice.sign({ to: chain.accounts[1].address })
          await expectRejected(submit(chain, withHighS(typed)), 'invalid sender: invalid transaction v, r, s values')
        })

        it("refuses a typed transaction with yParity 2: 'invalid sender: invalid transaction v, r, s values'", async () => {
          const chain = await fresh()
          const alice = signer(chain, 0)
          const raw = await alice.sign({ to: chain.accounts[1].address })
          await expectRejected(
            submit(chain, withSignature(raw, (sig) => ({ ...sig, v: 2n }))),
            'invalid sender: invalid transaction v, r, s values',
          )
        })
      })
    }
  })

  describe('checks without state (geth ValidateTransaction)', () => {
    for (const [via, submit] of submitters) {
      describe(`via ${via}`, () => {
        it("refuses a transfer with 20999 gas: 'intrinsic gas too low: gas 20999, minimum needed 21000'; 21000 is accepted", async () => {
          const chain = await fresh()
          const alice = signer(chain, 0)
          const bob = chain.accounts[1].address
          await expectRejected(submit(chain, await alice.sign({ to: bob, gas: 20999n })), 'intrinsic gas too low: gas 20999, minimum needed 21000')
          const raw = await alice.sign({ to: bob, gas: 21000n })
          expect(await submit(chain, raw)).to.equal(keccak256(raw))
        })

        it('counts calldata and access lists in intrinsic gas (16 per non-zero byte, 2400 + 1900 per list entry)', async () => {
          const chain = await fresh()
          const alice = signer(chain, 0)
          const bob = chain.accounts[1].address
          // 10 non-zero bytes: 21000 + 160 = 21160 intrinsic, floor 21000 + 10 * 40 = 21400.
          await expectRejected(
            submit(chain, await alice.sign({ to: bob, gas: 21159n, data: `0x${'ff'.repeat(10)}` })),
            'intrinsic gas too low: gas 21159, minimum needed 21160',
          )
          const accessList = [{ address: bob, storageKeys: [`0x${'0'.repeat(64)}` as Hex] }]
          await expectRejected(
            submit(chain, await alice.signAny({ type: 'eip2930', chainId: 31337, nonce: 0, gas: 25299n, gasPrice: 10n * GWEI, to: bob, accessList })),
            'intrinsic gas too low: gas 25299, minimum needed 25300',
          )
        })

        it("refuses calldata-heavy gas below the EIP-7623 floor: 'insufficient gas for floor data gas cost: gas 24999, minimum needed 25000'", async () => {
          const chain = await fresh()
          const alice = signer(chain, 0)
          const bob = chain.accounts[1].address
          // 100 non-zero bytes: intrinsic 21000 + 16 * 100 = 22600, floor 21000 + 10 * (4 * 100) = 25000.
          const data = `0x${'ff'.repeat(100)}` as Hex
          await expectRejected(submit(chain, await alice.sign({ to: bob, data, gas: 22599n })), 'intrinsic gas too low: gas 22599, minimum needed 22600')
          await expectRejected(
            submit(chain, await alice.sign({ to: bob, data, gas: 24999n })),
            'insufficient gas for floor data gas cost: gas 24999, minimum needed 25000',
          )
          const raw = await alice.sign({ to: bob, data, gas: 25000n })
          expect(await submit(chain, raw)).to.equal(keccak256(raw))
        })

        it("refuses gas above the block gas limit: 'exceeds block gas limit'; exactly the limit is accepted", async () => {
          const chain = await fresh()
          const alice = signer(chain, 0)
          const bob = chain.accounts[1].address
          await expectRejected(submit(chain, await alice.sign({ to: bob, gas: BLOCK_GAS_LIMIT + 1n })), 'exceeds block gas limit')
          const raw = await alice.sign({ to: bob, gas: BLOCK_GAS_LIMIT })
          expect(await submit(chain, raw)).to.equal(keccak256(raw))
        })

        it("refuses a tip above the fee cap: 'max priority fee per gas higher than max fee per gas'", async () => {
          const chain = await fresh()
          const { privateKey } = chain.accounts[0]
          const raw = await signUncheckedEip1559(privateKey, {
            chainId: 31337,
            nonce: 0,
            maxPriorityFeePerGas: 2n * GWEI,
            maxFeePerGas: 2n * GWEI - 1n,
            gas: 21000n,
            to: chain.accounts[1].address,
          })
          await expectRejected(submit(chain, raw), 'max priority fee per gas higher than max fee per gas')
          // Equal tip and fee cap is fine.
          const equal = await signUncheckedEip1559(privateKey, {
            chainId: 31337,
            nonce: 0,
            maxPriorityFeePerGas: 2n * GWEI,
            maxFeePerGas: 2n * GWEI,
            gas: 21000n,
            to: chain.accounts[1].address,
          })
          expect(await submit(chain, equal)).to.equal(keccak256(equal))
        })
      })
    }
  })

  describe('nonce too low against the pending (pre-confirmed) state', () => {
    it("refuses another nonce-0 tx once nonce 0 is pre-confirmed, though latest still says nonce 0: 'nonce too low: next nonce 1, tx nonce 0'", async () => {
      const chain = await fresh()
      const alice = signer(chain, 0)
      const bob = chain.accounts[1].address
      const first = await send(chain, await alice.sign({ to: bob, value: 1n }))
      await chain.clock.advance(200)
      expect(await status(chain, first)).to.equal('Known')
      expect(await chain.getTransactionCount(alice.address, 'latest')).to.equal(0)
      expect(await chain.getTransactionCount(alice.address, 'pending')).to.equal(1)

      const other = await alice.sign({ to: bob, value: 2n })
      await expectRejected(send(chain, other), 'nonce too low: next nonce 1, tx nonce 0')
      await expectRejected(sendViaRequest(chain, other), 'nonce too low: next nonce 1, tx nonce 0')
      // Even a higher-priced "replacement" cannot touch a pre-confirmed nonce.
      await expectRejected(send(chain, await alice.sign({ to: bob, value: 2n, maxFeePerGas: 100n * GWEI, maxPriorityFeePerGas: 50n * GWEI })), 'nonce too low: next nonce 1, tx nonce 0')
      expect(await txByHash(chain, keccak256(other))).to.equal(null)
    })

    it('while nonce 0 is only in the mempool, another nonce-0 tx is a replacement attempt, not nonce too low', async () => {
      const chain = await fresh()
      const alice = signer(chain, 0)
      const bob = chain.accounts[1].address
      await send(chain, await alice.sign({ to: bob, value: 1n }))
      await expectRejected(send(chain, await alice.sign({ to: bob, value: 2n })), 'replacement transaction underpriced')
    })

    it('counts several pre-confirmed nonces: next nonce 3 after three ticks', async () => {
      const chain = await fresh()
      const alice = signer(chain, 0)
      const bob = chain.accounts[1].address
      for (let nonce = 0; nonce < 3; nonce++) {
        await send(chain, await alice.sign({ nonce, to: bob }))
        await chain.clock.advance(200)
      }
      expect(chain.blockNumber()).to.equal(0n)
      await expectRejected(sendViaRequest(chain, await alice.sign({ nonce: 1, to: bob, value: 5n })), 'nonce too low: next nonce 3, tx nonce 1')
    })

    it('after the seal a resent tx is no longer known but nonce too low (geth: mined txs leave the pool)', async () => {
      const chain = await fresh()
      const alice = signer(chain, 0)
      const raw = await alice.sign({ to: chain.accounts[1].address })
      const hash = await send(chain, raw)
      await chain.clock.advance(2000)
      expect(chain.blockNumber()).to.equal(1n)
      expect(await status(chain, hash)).to.equal('Unknown')
      await expectRejected(send(chain, raw), 'nonce too low: next nonce 1, tx nonce 0')
    })
  })

  describe('insufficient funds against the pending state', () => {
    const transferGasCost = 21000n * 10n * GWEI

    async function afterOnePreconfirmedEther(): Promise<{ chain: Chain; alice: ReturnType<typeof signer>; bob: Hex; balance: bigint }> {
      const chain = await fresh()
      const alice = signer(chain, 0)
      const bob = chain.accounts[1].address
      await send(chain, await alice.sign({ to: bob, value: parseEther('1') }))
      await chain.tick()
      const balance = await chain.getBalance(alice.address, 'pending')
      // Paid 1 ETH + 21000 × (base fee + tip) at pending; latest is untouched.
      expect(balance).to.equal(INITIAL_BALANCE - parseEther('1') - 21000n * (BLOCK_1_BASE_FEE + GWEI))
      expect(await chain.getBalance(alice.address, 'latest')).to.equal(INITIAL_BALANCE)
      return { chain, alice, bob, balance }
    }

    it("names the pending balance, the tx cost (gas × fee cap + value) and the overshot: 'insufficient funds for gas * price + value: balance X, tx cost Y, overshot Z'", async () => {
      const { chain, alice, bob, balance } = await afterOnePreconfirmedEther()
      const value = balance
      const cost = transferGasCost + value
      const message = `insufficient funds for gas * price + value: balance ${balance}, tx cost ${cost}, overshot ${transferGasCost}`
      const raw = await alice.sign({ nonce: 1, to: bob, value })
      await expectRejected(send(chain, raw), message)
      await expectRejected(sendViaRequest(chain, raw), message)
    })

    it('uses the fee cap, not the effective price, for the cost (legacy: gas price)', async () => {
      const { chain, alice, bob, balance } = await afterOnePreconfirmedEther()
      const value = balance - 21000n * 3n * GWEI
      const eip1559 = await alice.sign({ nonce: 1, to: bob, value, maxFeePerGas: 3n * GWEI + 1n, maxPriorityFeePerGas: 1n })
      await expectRejected(send(chain, eip1559), `insufficient funds for gas * price + value: balance ${balance}, tx cost ${balance + 21000n}, overshot 21000`)
      const legacy = await alice.signAny({ type: 'legacy', nonce: 1, gas: 21000n, gasPrice: 3n * GWEI + 2n, to: bob, value })
      await expectRejected(send(chain, legacy), `insufficient funds for gas * price + value: balance ${balance}, tx cost ${balance + 42000n}, overshot 42000`)
    })

    it('accepts a tx costing exactly the pending balance', async () => {
      const { chain, alice, bob, balance } = await afterOnePreconfirmedEther()
      const raw = await alice.sign({ nonce: 1, to: bob, value: balance - transferGasCost })
      expect(await send(chain, raw)).to.equal(keccak256(raw))
    })

    it("adds the sender's pooled txs: 'balance X, queued cost Q, tx cost Y, overshot Q + Y − X'", async () => {
      const { chain, alice, bob, balance } = await afterOnePreconfirmedEther()
      const queued = transferGasCost + parseEther('1')
      await send(chain, await alice.sign({ nonce: 1, to: bob, value: parseEther('1') }))
      // Alone it would fit exactly; behind the queued one it overshoots by the queued cost.
      const value = balance - transferGasCost
      const cost = transferGasCost + value
      const message = `insufficient funds for gas * price + value: balance ${balance}, queued cost ${queued}, tx cost ${cost}, overshot ${queued}`
      const raw = await alice.sign({ nonce: 2, to: bob, value })
      await expectRejected(send(chain, raw), message)
      await expectRejected(sendViaRequest(chain, raw), message)
      // One that fits beside the queued one is accepted.
      const fits = await alice.sign({ nonce: 2, to: bob, value: value - queued })
      expect(await send(chain, fits)).to.equal(keccak256(fits))
    })

    it("a replacement pays only its bump over the replaced tx: 'balance X, queued cost Q, tx bumped B, overshot Q + B − X'", async () => {
      const { chain, alice, bob, balance } = await afterOnePreconfirmedEther()
      const firstCost = transferGasCost + parseEther('1')
      await send(chain, await alice.sign({ nonce: 1, to: bob, value: parseEther('1') }))
      const secondCost = transferGasCost + 5n
      await send(chain, await alice.sign({ nonce: 2, to: bob, value: 5n }))
      const queued = firstCost + secondCost

      // Replace nonce 2 with 11 gwei fee cap (+10%) and a value that fits alone but not with nonce 1.
      const value = balance - 21000n * 11n * GWEI
      const replacementCost = 21000n * 11n * GWEI + value
      const bump = replacementCost - secondCost
      const raw = await alice.sign({ nonce: 2, to: bob, value, maxFeePerGas: 11n * GWEI, maxPriorityFeePerGas: 11n * GWEI / 10n })
      await expectRejected(
        send(chain, raw),
        `insufficient funds for gas * price + value: balance ${balance}, queued cost ${queued}, tx bumped ${bump}, overshot ${queued + bump - balance}`,
      )
    })

    it('counts only the executable (gapless) pooled txs as queued cost, not one held behind a nonce gap (geth legacypool ExistingExpenditure = pending list)', async () => {
      const chain = await fresh()
      const alice = signer(chain, 0)
      const bob = chain.accounts[1].address
      // nonce 5 waits behind a gap and would spend almost everything once it became executable.
      await send(chain, await alice.sign({ nonce: 5, to: bob, value: parseEther('9999') }))
      const raw = await alice.sign({ nonce: 0, to: bob, value: parseEther('2') })
      expect(await send(chain, raw)).to.equal(keccak256(raw))
    })

    it('an account without ether: balance 0', async () => {
      const chain = await fresh()
      const stranger = privateKeyToAccount(`0x${'11'.repeat(32)}`)
      const raw = await stranger.signTransaction({
        type: 'eip1559',
        chainId: 31337,
        nonce: 0,
        gas: 21000n,
        maxFeePerGas: 10n * GWEI,
        maxPriorityFeePerGas: GWEI,
        to: chain.accounts[0].address,
      })
      await expectRejected(
        sendViaRequest(chain, raw),
        `insufficient funds for gas * price + value: balance 0, tx cost ${transferGasCost}, overshot ${transferGasCost}`,
      )
    })
  })

  describe('already known', () => {
    for (const [via, submit] of submitters) {
      it(`refuses an identical resend of a mempool tx with 'already known', not 'replacement transaction underpriced' (via ${via})`, async () => {
        const chain = await fresh()
        const alice = signer(chain, 0)
        const raw = await alice.sign({ to: chain.accounts[1].address })
        const hash = await send(chain, raw)
        await expectRejected(submit(chain, raw), 'already known')
        expect(await status(chain, hash)).to.equal('Known')
        expect(tickHashes(await chain.tick())).to.deep.equal([hash])
      })

      it(`refuses an identical resend of a pre-confirmed, unsealed tx with 'already known', not 'nonce too low' (via ${via})`, async () => {
        const chain = await fresh()
        const alice = signer(chain, 0)
        const raw = await alice.sign({ to: chain.accounts[1].address })
        const hash = await send(chain, raw)
        expect(tickHashes(await chain.tick())).to.deep.equal([hash])
        await expectRejected(submit(chain, raw), 'already known')
        expect(tickHashes(await chain.tick())).to.deep.equal([])
        expect(await pendingBlockHashes(chain)).to.deep.equal([hash])
      })
    }

    it("refuses an identical resend of a queued (gapped) tx with 'already known'", async () => {
      const chain = await fresh()
      const alice = signer(chain, 0)
      const raw = await alice.sign({ nonce: 3, to: chain.accounts[1].address })
      await send(chain, raw)
      await expectRejected(send(chain, raw), 'already known')
    })
  })

  describe('replacement (geth legacypool list.Add, price bump 10%)', () => {
    const OLD_FEE_CAP = 1_000_000_000n
    const OLD_TIP = 100_000_000n

    async function withPooled(feeCap: bigint, tip: bigint) {
      const chain = await fresh()
      const alice = signer(chain, 0)
      const bob = chain.accounts[1].address
      const oldHash = await send(chain, await alice.sign({ nonce: 0, to: bob, value: 1n, maxFeePerGas: feeCap, maxPriorityFeePerGas: tip }))
      const replace = async (maxFeePerGas: bigint, maxPriorityFeePerGas: bigint, submit: Submit = send) =>
        submit(chain, await alice.sign({ nonce: 0, to: bob, value: 2n, maxFeePerGas, maxPriorityFeePerGas }))
      return { chain, alice, bob, oldHash, replace }
    }

    for (const [via, submit] of submitters) {
      it(`accepts exactly +10% on both fields (1100000000 / 110000000) (via ${via})`, async () => {
        const { chain, replace } = await withPooled(OLD_FEE_CAP, OLD_TIP)
        const hash = await replace(1_100_000_000n, 110_000_000n, submit)
        expect(await txByHash(chain, hash)).to.include({ maxFeePerGas: toHex(1_100_000_000n), maxPriorityFeePerGas: toHex(110_000_000n) })
      })

      it(`refuses one wei below +10% on the fee cap (1099999999 / 110000000) (via ${via})`, async () => {
        const { replace } = await withPooled(OLD_FEE_CAP, OLD_TIP)
        await expectRejected(replace(1_099_999_999n, 110_000_000n, submit), 'replacement transaction underpriced')
      })

      it(`refuses one wei below +10% on the tip (1100000000 / 109999999) (via ${via})`, async () => {
        const { replace } = await withPooled(OLD_FEE_CAP, OLD_TIP)
        await expectRejected(replace(1_100_000_000n, 109_999_999n, submit), 'replacement transaction underpriced')
      })
    }

    it('refuses equal fees (a different tx at the same nonce)', async () => {
      const { replace } = await withPooled(OLD_FEE_CAP, OLD_TIP)
      await expectRejected(replace(OLD_FEE_CAP, OLD_TIP), 'replacement transaction underpriced')
    })

    it('refuses a bump of one field only, however large', async () => {
      const { replace } = await withPooled(OLD_FEE_CAP, OLD_TIP)
      await expectRejected(replace(100n * OLD_FEE_CAP, OLD_TIP), 'replacement transaction underpriced')
      await expectRejected(replace(OLD_FEE_CAP, 10n * OLD_TIP), 'replacement transaction underpriced')
      await expectRejected(replace(100n * OLD_FEE_CAP, OLD_TIP - 1n), 'replacement transaction underpriced')
    })

    it('rounds the threshold down: old tip 15 wei → threshold 16 (15 × 110 / 100 = 16.5): 16 accepted, 15 refused', async () => {
      const refused = await withPooled(OLD_FEE_CAP, 15n)
      await expectRejected(refused.replace(1_100_000_000n, 15n), 'replacement transaction underpriced')
      const accepted = await withPooled(OLD_FEE_CAP, 15n)
      const hash = await accepted.replace(1_100_000_000n, 16n)
      expect(await txByHash(accepted.chain, hash)).to.include({ maxPriorityFeePerGas: '0x10' })
    })

    it('rounds the fee-cap threshold down: old 1000000005 → threshold 1100000005 (1100000005.5): 1100000005 accepted, 1100000004 refused', async () => {
      const refused = await withPooled(1_000_000_005n, OLD_TIP)
      await expectRejected(refused.replace(1_100_000_004n, 110_000_000n), 'replacement transaction underpriced')
      const accepted = await withPooled(1_000_000_005n, OLD_TIP)
      expect(await accepted.replace(1_100_000_005n, 110_000_000n)).to.match(/^0x[0-9a-f]{64}$/)
    })

    it('also requires strictly greater fees: old tip 5 wei → threshold 5 (5.5 rounded down), yet 5 is refused and 6 accepted', async () => {
      const refused = await withPooled(OLD_FEE_CAP, 5n)
      await expectRejected(refused.replace(1_100_000_000n, 5n), 'replacement transaction underpriced')
      const accepted = await withPooled(OLD_FEE_CAP, 5n)
      expect(await accepted.replace(1_100_000_000n, 6n)).to.match(/^0x[0-9a-f]{64}$/)
    })

    it('also requires strictly greater fees: old tip 0 → threshold 0, yet 0 is refused and 1 accepted', async () => {
      const refused = await withPooled(OLD_FEE_CAP, 0n)
      await expectRejected(refused.replace(1_100_000_000n, 0n), 'replacement transaction underpriced')
      const accepted = await withPooled(OLD_FEE_CAP, 0n)
      expect(await accepted.replace(1_100_000_000n, 1n)).to.match(/^0x[0-9a-f]{64}$/)
    })

    it('applies the same rule to legacy gas price (fee cap = tip = gas price)', async () => {
      const chain = await fresh()
      const alice = signer(chain, 0)
      const bob = chain.accounts[1].address
      const legacy = (gasPrice: bigint, value: bigint) => alice.signAny({ type: 'legacy', nonce: 0, gas: 21000n, gasPrice, to: bob, value })
      await send(chain, await legacy(1_000_000_000n, 1n))
      await expectRejected(send(chain, await legacy(1_099_999_999n, 2n)), 'replacement transaction underpriced')
      const hash = await send(chain, await legacy(1_100_000_000n, 2n))
      expect(await txByHash(chain, hash)).to.include({ gasPrice: toHex(1_100_000_000n) })
    })

    it('after a replacement the old hash is gone and the new one is pre-confirmed on the next tick', async () => {
      const { chain, alice, oldHash, replace } = await withPooled(OLD_FEE_CAP, OLD_TIP)
      const announced: Hex[] = []
      chain.on('transaction', (transaction) => announced.push(transaction.hash))
      expect(await status(chain, oldHash)).to.equal('Known')

      const newHash = await replace(1_100_000_000n, 110_000_000n)
      expect(announced).to.deep.equal([newHash])
      expect(await txByHash(chain, oldHash)).to.equal(null)
      expect(await status(chain, oldHash)).to.equal('Unknown')
      expect(await chain.request({ method: 'base_transactionStatus', params: [oldHash] })).to.deep.equal({ status: 'Unknown' })
      expect(await status(chain, newHash)).to.equal('Known')
      expect(await txByHash(chain, newHash)).to.include({ hash: newHash, nonce: '0x0', value: '0x2', blockNumber: null })
      expect(await chain.getTransactionCount(alice.address, 'pending')).to.equal(1)

      await chain.clock.advance(200)
      expect(await pendingBlockHashes(chain)).to.deep.equal([newHash])
      expect(await txByHash(chain, newHash)).to.include({ blockNumber: '0x1', transactionIndex: '0x0' })
      const receipt = (await chain.request({ method: 'eth_getTransactionReceipt', params: [newHash] })) as Record<string, unknown>
      expect(receipt).to.include({ blockHash: ZERO_HASH, blockNumber: '0x1', status: '0x1' })
      expect(await txByHash(chain, oldHash)).to.equal(null)
      expect(await chain.request({ method: 'eth_getTransactionReceipt', params: [oldHash] })).to.equal(null)
      expect(await status(chain, oldHash)).to.equal('Unknown')
      expect(await chain.getBalance(chain.accounts[1].address, 'pending')).to.equal(INITIAL_BALANCE + 2n)
    })

    it('a replaced tx resent is refused as underpriced (it is no longer known)', async () => {
      const chain = await fresh()
      const alice = signer(chain, 0)
      const bob = chain.accounts[1].address
      const old = await alice.sign({ nonce: 0, to: bob, maxFeePerGas: OLD_FEE_CAP, maxPriorityFeePerGas: OLD_TIP })
      await send(chain, old)
      await send(chain, await alice.sign({ nonce: 0, to: bob, maxFeePerGas: 2n * OLD_FEE_CAP, maxPriorityFeePerGas: 2n * OLD_TIP }))
      await expectRejected(send(chain, old), 'replacement transaction underpriced')
    })

    it('replaces a queued (gapped) tx by the same rule', async () => {
      const chain = await fresh()
      const alice = signer(chain, 0)
      const bob = chain.accounts[1].address
      const old = await send(chain, await alice.sign({ nonce: 2, to: bob, maxFeePerGas: OLD_FEE_CAP, maxPriorityFeePerGas: OLD_TIP }))
      await expectRejected(send(chain, await alice.sign({ nonce: 2, to: bob, value: 1n, maxFeePerGas: OLD_FEE_CAP, maxPriorityFeePerGas: OLD_TIP })), 'replacement transaction underpriced')
      const replacement = await send(chain, await alice.sign({ nonce: 2, to: bob, value: 1n, maxFeePerGas: 1_100_000_000n, maxPriorityFeePerGas: 110_000_000n }))
      expect(await txByHash(chain, old)).to.equal(null)
      expect(await status(chain, replacement)).to.equal('Known')
    })
  })

  describe('nonce gaps (geth queued txs)', () => {
    it('holds nonce 1 sent before nonce 0; once nonce 0 arrives both are pre-confirmed in nonce order on the next tick', async () => {
      const chain = await fresh()
      const alice = signer(chain, 0)
      const bob = chain.accounts[1].address
      const second = await send(chain, await alice.sign({ nonce: 1, to: bob, value: 2n }))
      expect(await status(chain, second)).to.equal('Known')
      expect(await chain.getTransactionCount(alice.address, 'pending')).to.equal(0)

      const held = await chain.tick()
      expect(tickHashes(held)).to.deep.equal([])
      expect(held.dropped).to.deep.equal([])
      await chain.clock.advance(400)
      expect(await pendingBlockHashes(chain)).to.deep.equal([])
      expect(await txByHash(chain, second)).to.include({ blockNumber: null, transactionIndex: null })
      expect(await status(chain, second)).to.equal('Known')
      expect(await chain.getBalance(bob, 'pending')).to.equal(INITIAL_BALANCE)

      const first = await sendViaRequest(chain, await alice.sign({ nonce: 0, to: bob, value: 1n }))
      expect(await chain.getTransactionCount(alice.address, 'pending')).to.equal(2)
      expect(await chain.request({ method: 'eth_getTransactionCount', params: [alice.address, 'pending'] })).to.equal('0x2')
      expect(await chain.getTransactionCount(alice.address, 'latest')).to.equal(0)

      const tick = await chain.tick()
      expect(tickHashes(tick)).to.deep.equal([first, second])
      expect(tick.transactions.map(({ index }) => index)).to.deep.equal([0, 1])
      expect(await pendingBlockHashes(chain)).to.deep.equal([first, second])
      expect(await txByHash(chain, first)).to.include({ blockNumber: '0x1', transactionIndex: '0x0' })
      expect(await txByHash(chain, second)).to.include({ blockNumber: '0x1', transactionIndex: '0x1' })
      expect(await chain.getBalance(bob, 'pending')).to.equal(INITIAL_BALANCE + 3n)
      expect(await chain.getTransactionCount(alice.address, 'pending')).to.equal(2)
    })

    it('eth_getTransactionCount(pending) counts only the gapless run from the pending nonce', async () => {
      const chain = await fresh()
      const alice = signer(chain, 0)
      const bob = chain.accounts[1].address
      const count = async () => chain.request({ method: 'eth_getTransactionCount', params: [alice.address, 'pending'] })

      await send(chain, await alice.sign({ nonce: 0, to: bob }))
      await chain.tick() // nonce 0 pre-confirmed: pending state nonce 1
      expect(await count()).to.equal('0x1')
      await send(chain, await alice.sign({ nonce: 2, to: bob }))
      await send(chain, await alice.sign({ nonce: 4, to: bob }))
      expect(await count()).to.equal('0x1')
      await send(chain, await alice.sign({ nonce: 1, to: bob }))
      expect(await count()).to.equal('0x3') // 1, 2 in a row; 4 is behind the gap at 3
      expect(await chain.request({ method: 'eth_getTransactionCount', params: [alice.address, 'latest'] })).to.equal('0x0')

      const tick = await chain.tick()
      expect(tick.transactions.map(({ transaction }) => (transaction as UserTransaction).nonce)).to.deep.equal([1n, 2n])
      expect(await count()).to.equal('0x3')
      await send(chain, await alice.sign({ nonce: 3, to: bob }))
      expect(await count()).to.equal('0x5')
      expect((await chain.tick()).transactions.map(({ transaction }) => (transaction as UserTransaction).nonce)).to.deep.equal([3n, 4n])
      expect(await count()).to.equal('0x5')
    })
  })

  describe('a rejected transaction leaves no trace', () => {
    /** Everything observable about alice, bob, carol and the coinbase, the pending block and `hashes`. */
    async function observe(chain: Chain, hashes: readonly Hex[]) {
      const people = [0, 1, 2].map((i) => chain.accounts[i].address).concat([chain.options.coinbase as Hex])
      const perAccount = []
      for (const address of people) {
        perAccount.push({
          address,
          latest: await chain.getBalance(address, 'latest'),
          pending: await chain.getBalance(address, 'pending'),
          nonceLatest: await chain.getTransactionCount(address, 'latest'),
          noncePending: await chain.request({ method: 'eth_getTransactionCount', params: [address, 'pending'] }),
        })
      }
      const perHash = []
      for (const hash of hashes) {
        perHash.push({
          hash,
          transaction: await txByHash(chain, hash),
          status: await status(chain, hash),
          receipt: await chain.request({ method: 'eth_getTransactionReceipt', params: [hash] }),
        })
      }
      return {
        blockNumber: chain.blockNumber(),
        perAccount,
        perHash,
        pendingBlock: await chain.request({ method: 'eth_getBlockByNumber', params: ['pending', true] }),
        latestBlock: await chain.request({ method: 'eth_getBlockByNumber', params: ['latest', false] }),
      }
    }

    function summary(preconfirmation: Preconfirmation) {
      return {
        blockNumber: preconfirmation.blockNumber,
        index: preconfirmation.index,
        transactions: tickHashes(preconfirmation),
        dropped: preconfirmation.dropped.map(({ transaction }) => transaction.hash),
      }
    }

    /**
     * alice: nonce 0 pre-confirmed (1 ETH to bob), nonce 1 in the mempool (1 ETH to bob).
     * carol: nonce 1 held behind a gap.
     */
    async function scenario() {
      const chain = await fresh()
      const alice = signer(chain, 0)
      const carol = signer(chain, 2)
      const bob = chain.accounts[1].address
      const tx0 = await alice.sign({ nonce: 0, to: bob, value: parseEther('1') })
      await send(chain, tx0)
      await chain.clock.advance(200)
      const tx1 = await alice.sign({ nonce: 1, to: bob, value: parseEther('1') })
      await send(chain, tx1)
      await send(chain, await carol.sign({ nonce: 1, to: bob, value: 3n }))
      return { chain, alice, bob, tx0, tx1 }
    }

    type Scenario = Awaited<ReturnType<typeof scenario>>
    const transferGasCost = 21000n * 10n * GWEI

    const cases: ReadonlyArray<{ name: string; known?: boolean; make: (s: Scenario) => Promise<Hex> }> = [
      { name: 'undecodable bytes', make: async () => '0xdeadbeef' },
      { name: 'an unknown envelope type', make: async () => '0x05c0' },
      {
        name: 'a blob transaction',
        make: ({ alice, bob }) =>
          alice.signAny({ type: 'eip4844', nonce: 2, gas: 21000n, maxFeePerGas: 10n * GWEI, maxPriorityFeePerGas: GWEI, maxFeePerBlobGas: GWEI, to: bob, blobVersionedHashes: [`0x01${'00'.repeat(31)}`] } as never),
      },
      { name: 'a wrong chain id', make: ({ alice, bob }) => alice.sign({ nonce: 2, chainId: 1, to: bob }) },
      { name: 'an invalid signature (r = 0)', make: async ({ alice, bob }) => withSignature(await alice.sign({ nonce: 2, to: bob }), (sig) => ({ ...sig, r: 0n })) },
      { name: 'a high-s signature', make: async ({ alice, bob }) => withHighS(await alice.sign({ nonce: 2, to: bob })) },
      { name: 'intrinsic gas too low', make: ({ alice, bob }) => alice.sign({ nonce: 2, to: bob, gas: 20999n }) },
      { name: 'gas below the floor data gas', make: ({ alice, bob }) => alice.sign({ nonce: 2, to: bob, gas: 24999n, data: `0x${'ff'.repeat(100)}` }) },
      { name: 'gas above the block gas limit', make: ({ alice, bob }) => alice.sign({ nonce: 2, to: bob, gas: BLOCK_GAS_LIMIT + 1n }) },
      {
        name: 'a tip above the fee cap',
        make: ({ chain, bob }) =>
          signUncheckedEip1559(chain.accounts[0].privateKey, { chainId: 31337, nonce: 2, maxPriorityFeePerGas: 2n * GWEI, maxFeePerGas: GWEI, gas: 21000n, to: bob }),
      },
      { name: 'nonce too low (nonce 0 pre-confirmed)', make: ({ alice, bob }) => alice.sign({ nonce: 0, to: bob, value: 2n }) },
      { name: 'insufficient funds', make: ({ alice, bob }) => alice.sign({ nonce: 2, to: bob, value: INITIAL_BALANCE }) },
      {
        name: 'insufficient funds behind the queued cost',
        make: async ({ chain, alice, bob }) => alice.sign({ nonce: 2, to: bob, value: (await chain.getBalance(alice.address, 'pending')) - transferGasCost }),
      },
      { name: 'an underpriced replacement', make: ({ alice, bob }) => alice.sign({ nonce: 1, to: bob, value: 2n, maxFeePerGas: 10n * GWEI + 1n, maxPriorityFeePerGas: GWEI + 1n }) },
      { name: 'already known (mempool)', known: true, make: async ({ tx1 }) => tx1 },
      { name: 'already known (pre-confirmed)', known: true, make: async ({ tx0 }) => tx0 },
    ]

    for (const { name, known, make } of cases) {
      it(`${name}: balances, nonces, pool, pending block and the next tick are as if it was never sent`, async () => {
        const rejected = await scenario()
        const control = await scenario()
        const raw = await make(rejected)
        expect(await make(control)).to.equal(raw) // deterministic signatures: the same bytes
        const hash = keccak256(raw)
        const watched = [hash, keccak256(rejected.tx0), keccak256(rejected.tx1)]

        const before = await observe(rejected.chain, watched)
        expect(before).to.deep.equal(await observe(control.chain, watched))
        if (!known) {
          expect(before.perHash[0]).to.deep.include({ transaction: null, status: 'Unknown', receipt: null })
        }

        const announced: Hex[] = []
        rejected.chain.on('transaction', (transaction) => announced.push(transaction.hash))
        const error = await rpcRejection(send(rejected.chain, raw))
        expect(error.code).to.equal(-32000)
        const viaRequest = await rpcRejection(sendViaRequest(rejected.chain, raw))
        expect({ code: viaRequest.code, message: viaRequest.message }).to.deep.equal({ code: -32000, message: error.message })
        expect(announced).to.deep.equal([])

        expect(await observe(rejected.chain, watched)).to.deep.equal(before)
        expect(await observe(control.chain, watched)).to.deep.equal(before)

        // The next tick does exactly what it does on a chain that never saw the rejected bytes.
        const tick = summary(await rejected.chain.tick())
        expect(tick).to.deep.equal(summary(await control.chain.tick()))
        expect(tick.transactions).to.deep.equal([keccak256(rejected.tx1)])
        expect(await observe(rejected.chain, watched)).to.deep.equal(await observe(control.chain, watched))

        // And the nonce the rejected tx wanted is still free.
        const next = await rejected.alice.sign({ nonce: 2, to: rejected.bob, value: 9n })
        expect(await send(rejected.chain, next)).to.equal(await send(control.chain, next))
        expect(summary(await rejected.chain.tick())).to.deep.equal(summary(await control.chain.tick()))
      })
    }
  })
})
