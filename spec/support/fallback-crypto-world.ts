/**
 * Run in a child process under `without-native-secp256k1.cjs`: drives a chain through what
 * needs secp256k1 (sender recovery, a refused signature, dev-account signing) and prints the
 * outcome as JSON for `spec/crypto/secp256k1.spec.ts`.
 */
import { nativeSecp256k1 } from '../../lib/crypto/secp256k1.ts'
import { createChain } from '../../lib/index.ts'
import { signer } from './wallet.ts'

const chain = await createChain({ clock: 'manual' })
const alice = signer(chain, 0)
const bob = chain.accounts[1].address
const carol = `0x${'00'.repeat(19)}ca` as const

const raw = await alice.sign({ to: carol, value: 5n })
const hash = await chain.sendRawTransaction(raw)
const foreign = await alice.sign({ chainId: 1, to: carol, nonce: 1 })
const refusal = await chain.sendRawTransaction(foreign).then(
  () => 'accepted',
  (error: Error) => error.message,
)
const sent = await chain.request({ method: 'eth_sendTransaction', params: [{ from: bob, to: carol, value: '0x7' }] })
await chain.clock.advance(200)
const sender = (await chain.request({ method: 'eth_getTransactionByHash', params: [hash] })) as { from: string }
const sentBy = (await chain.request({ method: 'eth_getTransactionByHash', params: [sent] })) as { from: string }

process.stdout.write(
  JSON.stringify({
    native: nativeSecp256k1,
    sender: sender.from,
    refusal,
    sentBy: sentBy.from,
    carolPending: String(await chain.getBalance(carol, 'pending')),
  }),
)
