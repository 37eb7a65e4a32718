/**
 * The dev-account wallet as remote signers use it (Hardhat's default accounts, viem JSON-RPC
 * accounts, ethers' JsonRpcSigner, wagmi's mock connector): personal_sign, eth_signTypedData_v4
 * and eth_signTransaction give, byte for byte, what the same key signs locally with viem and
 * ethers; eth_fillTransaction leaves viem's prepareTransactionRequest unchanged;
 * eth_sendUnsignedTransaction and auto-impersonation send without a key; EIP-7702
 * authorization lists become type-4 transactions.
 */
import { expect } from 'chai'
import { JsonRpcProvider, Network, Wallet as EthersWallet, verifyMessage as ethersVerifyMessage, verifyTypedData as ethersVerifyTypedData } from 'ethers'
import {
  createWalletClient,
  custom,
  hashTypedData as viemHashTypedData,
  http,
  parseGwei,
  parseTransaction,
  recoverTransactionAddress,
  serializeTransaction,
  verifyMessage,
  verifyTypedData,
  type Transport,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { prepareTransactionRequest } from 'viem/actions'
import { hashTypedData, parseTypedData } from '../../lib/accounts/typed-data.ts'
import { createChain, startServer, type Chain, type DevnetServer } from '../../lib/index.ts'
import type { Address, Hex } from '../../lib/types.ts'
import { rejection, type RpcReceipt } from '../support/chain-helpers.ts'
import { devnetChain } from '../support/clients-viem.ts'

/** An address with no key, no code and no balance. */
const stranger = `0x${'55'.repeat(20)}` as Address
const recipient = `0x${'ee'.repeat(19)}01` as Address

/** EIP-2612 permit of a token at Anvil's first deployment address. */
const permit = (owner: Address, spender: Address) =>
  ({
    domain: { name: 'Token', version: '1', chainId: 31337, verifyingContract: '0x5FbDB2315678afecb367f032d93F642f64180aa3' },
    types: {
      Permit: [
        { name: 'owner', type: 'address' },
        { name: 'spender', type: 'address' },
        { name: 'value', type: 'uint256' },
        { name: 'nonce', type: 'uint256' },
        { name: 'deadline', type: 'uint256' },
      ],
    },
    primaryType: 'Permit',
    message: { owner, spender, value: 10n ** 24n, nonce: 0n, deadline: 2n ** 256n - 1n },
  }) as const

/** Nested structs, arrays of structs, nested and fixed arrays, bytes, signed ints, bool and uint8. */
const nested = {
  domain: { name: 'Mailbox', chainId: 31337, salt: `0x${'ab'.repeat(32)}` },
  types: {
    Person: [
      { name: 'name', type: 'string' },
      { name: 'wallets', type: 'address[]' },
    ],
    Mail: [
      { name: 'from', type: 'Person' },
      { name: 'to', type: 'Person[]' },
      { name: 'contents', type: 'string' },
      { name: 'attachment', type: 'bytes' },
      { name: 'tags', type: 'bytes4[2]' },
      { name: 'deltas', type: 'int64[][]' },
      { name: 'urgent', type: 'bool' },
      { name: 'priority', type: 'uint8' },
    ],
  },
  primaryType: 'Mail',
  message: {
    from: { name: 'Cow', wallets: ['0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826'] },
    to: [
      { name: 'Bob', wallets: ['0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB', '0xB0BdaBea57B0BDABeA57b0bdABEA57b0BDabEa57'] },
      { name: 'Ünïcødé ✓', wallets: [] },
    ],
    contents: 'Hello, Bob!',
    attachment: '0xdeadbeef',
    tags: ['0x01020304', '0xffffffff'],
    deltas: [[-1n, 2n ** 63n - 1n], [], [-(2n ** 63n)]],
    urgent: true,
    priority: 255,
  },
} as const

async function send<T = unknown>(chain: Chain, method: string, ...params: unknown[]): Promise<T> {
  return (await chain.request({ method, params })) as T
}

/** The -32602 / -32000 a request fails with. */
async function failure(chain: Chain, method: string, ...params: unknown[]): Promise<{ code: number; message: string }> {
  return rejection<Error & { code: number }>(chain.request({ method, params }))
}

describe('wallet: signing with the dev accounts (Anvil 1.7.1 and geth as the judges)', () => {
  let chain: Chain
  let server: DevnetServer
  beforeEach(async () => {
    chain = await createChain({ clock: 'manual' })
    server = await startServer(chain, { port: 0 })
  })
  afterEach(() => server.close())

  const key = (i: number) => chain.accounts[i].privateKey
  const transports: Record<string, () => Transport> = {
    'in process (custom)': () => custom({ request: (args) => chain.request(args) }, { retryCount: 0 }),
    'over HTTP (startServer + http)': () => http(server.url, { retryCount: 0 }),
  }

  for (const [name, transport] of Object.entries(transports)) {
    describe(`viem JSON-RPC account, ${name}`, () => {
      const clients = () => {
        const local = privateKeyToAccount(key(0))
        return { local, remote: createWalletClient({ account: local.address, chain: devnetChain(), transport: transport() }) }
      }

      it('signMessage (personal_sign) verifies and equals the local signature byte for byte', async () => {
        const { local, remote } = clients()
        for (const message of ['hello', { raw: '0x00ff00' as Hex }, '']) {
          const signature = await remote.signMessage({ message })
          expect(signature).to.equal(await local.signMessage({ message }))
          expect(await verifyMessage({ address: local.address, message, signature })).to.equal(true)
        }
      })

      it('signTypedData (eth_signTypedData_v4): an EIP-2612 permit and nested structs verify and equal the local signature', async () => {
        const { local, remote } = clients()
        for (const typedData of [permit(local.address, chain.accounts[1].address as Address), nested]) {
          const signature = await remote.signTypedData(typedData as never)
          expect(signature).to.equal(await local.signTypedData(typedData as never))
          expect(await verifyTypedData({ address: local.address, signature, ...typedData } as never)).to.equal(true)
        }
      })

      it('signTransaction (eth_signTransaction) fills nonce, gas and fees, signs, and equals the local signature', async () => {
        const { local, remote } = clients()
        for (const request of [{ to: recipient, value: 5n }, { to: recipient, gasPrice: parseGwei('3') }, { to: recipient, data: '0x1234' as Hex, maxPriorityFeePerGas: 7n }]) {
          const raw = await remote.signTransaction(request as never)
          expect(await recoverTransactionAddress({ serializedTransaction: raw as never })).to.equal(local.address)
          const { r, s, v, yParity, ...fields } = parseTransaction(raw)
          expect([r, s, v, yParity]).to.not.include(undefined)
          expect(await local.signTransaction(fields as never)).to.equal(raw)
        }
      })
    })
  }

  it('Anvil 1.7.1 gives the same signatures: personal_sign "hello", eth_sign, a typed Mail and a legacy eth_signTransaction', async () => {
    const address = chain.accounts[0].address
    // Recorded from `anvil` (default mnemonic) with the same requests.
    const hello = '0xf16ea9a3478698f695fd1401bfe27e9e4a7e8e3da94aa72b021125e31fa899cc573c48ea3fe1d4ab61a9db10c19032026e3ed2dbccba5a178235ac27f94504311c'
    expect(await send(chain, 'personal_sign', '0x68656c6c6f', address)).to.equal(hello)
    expect(await send(chain, 'eth_sign', address.toLowerCase(), '0x68656c6c6f')).to.equal(hello)
    const mail = { types: { EIP712Domain: [{ name: 'name', type: 'string' }], Mail: [{ name: 'contents', type: 'string' }] }, primaryType: 'Mail', domain: { name: 'x' }, message: { contents: 'hi' } }
    const mailSignature = '0x6626bf8fa37e31809fa3c3e749270d935bf3643b7030e1f0566430c4b6f7a3626c413203219d288f27640d1aaf6251cc54d797210e4a4f9f7556a3f17bf3c0cd1b'
    expect(await send(chain, 'eth_signTypedData_v4', address, mail)).to.equal(mailSignature)
    expect(await send(chain, 'eth_signTypedData_v4', address, JSON.stringify(mail))).to.equal(mailSignature)
    // Without EIP712Domain in `types`, the domain type is derived from the domain's fields (as Anvil and viem).
    expect(await send(chain, 'eth_signTypedData', address, { ...mail, types: { Mail: mail.types.Mail } })).to.equal(mailSignature)
    const legacy = await send(chain, 'eth_signTransaction', { from: address, to: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8', value: '0x1', gasPrice: '0x3b9aca00' })
    expect(legacy).to.equal(
      '0xf86580843b9aca008252089470997970c51812dc3a010c7d01b50e0d17dc79c8018082f4f5a01975752eb4e386649e8ec4e67436bbad151fc60ea6ff87f6c9aab29038872e77a05108c04138280c6fdd5c7d54347219b4fb66ae2ff3f4467422872d0547d19b51',
    )
  })

  it('typed-data digests equal viem’s hashTypedData, and the EIP-712 example’s published digest', () => {
    for (const typedData of [permit(stranger, recipient), nested]) {
      const json = JSON.parse(JSON.stringify(typedData, (_, value) => (typeof value === 'bigint' ? value.toString() : value)))
      expect(Buffer.from(hashTypedData(parseTypedData(json))).toString('hex')).to.equal(viemHashTypedData(typedData as never).slice(2))
    }
    const example = {
      types: {
        Person: [{ name: 'name', type: 'string' }, { name: 'wallet', type: 'address' }],
        Mail: [{ name: 'from', type: 'Person' }, { name: 'to', type: 'Person' }, { name: 'contents', type: 'string' }],
      },
      primaryType: 'Mail',
      domain: { name: 'Ether Mail', version: '1', chainId: 1, verifyingContract: '0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC' },
      message: {
        from: { name: 'Cow', wallet: '0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826' },
        to: { name: 'Bob', wallet: '0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB' },
        contents: 'Hello, Bob!',
      },
    }
    // EIP-712's reference implementation (Example.js) prints this digest.
    expect(Buffer.from(hashTypedData(parseTypedData(example))).toString('hex')).to.equal('be609aee343fb3c4b28e1df9e632fca64fcfaede20f02e86244efddf30957bd2')
  })

  it('ethers v6 JsonRpcSigner (getSigner(0)) signMessage and signTypedData equal an ethers Wallet with the same key', async () => {
    const provider = new JsonRpcProvider(server.url, Network.from(31337), { staticNetwork: true, cacheTimeout: -1 })
    try {
      const remote = await provider.getSigner(0)
      const local = new EthersWallet(key(0))
      expect(remote.address).to.equal(local.address)
      const signature = await remote.signMessage('gm ethers')
      expect(signature).to.equal(await local.signMessage('gm ethers'))
      expect(ethersVerifyMessage('gm ethers', signature)).to.equal(local.address)
      const { domain, types, message } = permit(local.address as Address, chain.accounts[1].address as Address)
      const typedSignature = await remote.signTypedData(domain, types as never, message)
      expect(typedSignature).to.equal(await local.signTypedData(domain, types as never, message))
      expect(ethersVerifyTypedData(domain, types as never, message, typedSignature)).to.equal(local.address)
    } finally {
      provider.destroy()
    }
  })

  it('prepareTransactionRequest through eth_fillTransaction equals viem’s fallback path (eth_fillTransaction -32601)', async () => {
    await chain.clock.advance(6000) // empty blocks: the base fee is no longer a round 1 gwei
    const asked: string[] = []
    const client = (fill: boolean) =>
      createWalletClient({
        chain: devnetChain(),
        transport: custom({
          request: (args) => {
            if (fill) asked.push(args.method)
            if (!fill && args.method === 'eth_fillTransaction') return Promise.reject(Object.assign(new Error('the method eth_fillTransaction does not exist/is not available'), { code: -32601 }))
            return chain.request(args)
          },
        }),
      })
    const jsonRpc = chain.accounts[0].address as Address
    const local = privateKeyToAccount(key(1))
    const requests = [
      { account: jsonRpc, to: recipient, value: 1n },
      { account: local, to: recipient, data: '0x1234' },
      { account: jsonRpc, to: recipient, gasPrice: parseGwei('3') },
      { account: jsonRpc, to: recipient, gasPrice: parseGwei('3'), accessList: [] },
      { account: jsonRpc, to: recipient, maxPriorityFeePerGas: parseGwei('2') },
      { account: local, to: recipient, maxFeePerGas: parseGwei('5') },
      { account: jsonRpc, to: recipient, type: 'legacy' },
    ]
    for (const request of requests) {
      const filled = await prepareTransactionRequest(client(true), { ...request } as never)
      const fallback = await prepareTransactionRequest(client(false), { ...request } as never)
      expect(filled).to.deep.equal(fallback)
    }
    expect(asked.filter((method) => method === 'eth_fillTransaction')).to.have.length(requests.length)
    expect(asked).to.not.include('eth_estimateGas')
  })

  it('eth_fillTransaction returns { raw, tx }: the unsigned envelope and the pending-transaction JSON with a zero signature (geth)', async () => {
    const from = chain.accounts[0].address.toLowerCase() as Address
    const { raw, tx } = await send<{ raw: Hex; tx: Record<string, unknown> }>(chain, 'eth_fillTransaction', { from, to: recipient, value: '0x7' })
    const base = BigInt((await send<{ baseFeePerGas: Hex }>(chain, 'eth_getBlockByNumber', 'pending', false)).baseFeePerGas)
    // geth's defaults: pending nonce, the estimate, a 1 gwei tip, a cap of 2 × base fee + tip.
    const fields = { type: 'eip1559', chainId: 31337, nonce: 0, to: recipient, value: 7n, gas: 21000n, maxPriorityFeePerGas: 10n ** 9n, maxFeePerGas: 2n * base + 10n ** 9n } as const
    expect(raw).to.equal(serializeTransaction(fields, { r: '0x0', s: '0x0', yParity: 0 }))
    expect(tx).to.include({ type: '0x2', from, nonce: '0x0', gas: '0x5208', maxPriorityFeePerGas: '0x3b9aca00', value: '0x7', r: '0x0', s: '0x0', v: '0x0', blockHash: null })
    // The cap the node chose is left for viem to choose (it multiplies a returned cap by 1.2).
    expect(tx).to.not.have.any.keys('maxFeePerGas', 'gasPrice')
    const capped = await send<{ tx: Record<string, unknown> }>(chain, 'eth_fillTransaction', { from, to: recipient, maxFeePerGas: '0x77359400' })
    expect(capped.tx).to.include({ maxFeePerGas: '0x77359400', maxPriorityFeePerGas: '0x3b9aca00' })
  })

  it("under Osaka, eth_signTransaction and eth_fillTransaction build a transaction over EIP-7825's 2^24 gas (geth caps its pool, not what it only builds); the pool then refuses it", async () => {
    const osaka = await createChain({ hardfork: 'osaka' })
    const from = osaka.accounts[0].address.toLowerCase() as Address
    const request = { from, to: recipient, gas: '0x1000001' }
    const raw = await send<Hex>(osaka, 'eth_signTransaction', request)
    expect(parseTransaction(raw).gas).to.equal(0x1000001n)
    expect((await send<{ tx: { gas: Hex } }>(osaka, 'eth_fillTransaction', request)).tx.gas).to.equal('0x1000001')
    const refused = await rejection(send(osaka, 'eth_sendRawTransaction', raw))
    expect([refused.code, refused.message]).to.deep.equal([-32000, 'transaction gas limit too high (cap: 16777216, tx: 16777217)'])
  })

  it('eth_sendUnsignedTransaction from a keyless address funded with anvil_setBalance lands (Anvil)', async () => {
    expect(await failure(chain, 'eth_sendTransaction', { from: stranger, to: recipient, value: '0x1' })).to.include({ code: -32000, message: 'unknown account' })
    await send(chain, 'anvil_setBalance', stranger, '0xde0b6b3a7640000')
    const hash = await send<Hex>(chain, 'eth_sendUnsignedTransaction', { from: stranger, to: recipient, value: '0x2a' })
    await chain.clock.advance(200)
    const receipt = await send<RpcReceipt>(chain, 'eth_getTransactionReceipt', hash)
    expect(receipt).to.include({ from: stranger, to: recipient, status: '0x1' })
    expect(await send(chain, 'eth_getBalance', recipient, 'pending')).to.equal('0x2a')
  })

  it('EIP-7702: an authorizationList in eth_sendTransaction and eth_signTransaction makes a type-4 transaction', async () => {
    const sender = privateKeyToAccount(key(0))
    const authority = privateKeyToAccount(key(1))
    const delegate = `0x${'c0de'.repeat(10)}` as Address
    const authorization = await authority.signAuthorization({ address: delegate, chainId: 31337, nonce: 0 })
    const remote = createWalletClient({ account: sender.address, chain: devnetChain(), transport: transports['in process (custom)']() })
    const raw = await remote.signTransaction({ to: recipient, authorizationList: [authorization] } as never)
    expect(raw.startsWith('0x04')).to.equal(true)
    const { r, s, v, yParity, ...fields } = parseTransaction(raw)
    expect(fields.authorizationList).to.deep.equal([authorization])
    expect(await sender.signTransaction(fields as never)).to.equal(raw)

    const hash = await remote.sendTransaction({ to: recipient, authorizationList: [authorization] } as never)
    await chain.clock.advance(200)
    expect(await send(chain, 'eth_getTransactionReceipt', hash)).to.include({ type: '0x4', status: '0x1' })
    expect(await send(chain, 'eth_getCode', authority.address, 'pending')).to.equal(`0xef0100${delegate.slice(2)}`)
  })

  it('anvil_autoImpersonateAccount lets any sender send (not sign), and snapshots keep it (Anvil)', async () => {
    const transfer = { from: stranger, to: recipient, value: '0x1' }
    await send(chain, 'anvil_setBalance', stranger, '0xde0b6b3a7640000')
    await send(chain, 'anvil_autoImpersonateAccount', true)
    const snapshot = await send(chain, 'evm_snapshot')
    await send(chain, 'anvil_autoImpersonateAccount', false)
    expect(await failure(chain, 'eth_sendTransaction', transfer)).to.include({ code: -32000, message: 'unknown account' })
    await send(chain, 'evm_revert', snapshot)
    expect(await send(chain, 'eth_sendTransaction', transfer)).to.match(/^0x[0-9a-f]{64}$/)
    expect(await failure(chain, 'personal_sign', '0x00', stranger)).to.include({ code: -32000, message: 'unknown account' })
  })

  it("a request for another chain is geth's -32000 'chainId does not match node's (have=1, want=31337)'; one with blob hashes is refused as a blob transaction is; neither leaves a trace", async () => {
    const from = chain.accounts[0].address
    for (const method of ['eth_sendTransaction', 'eth_signTransaction', 'eth_fillTransaction', 'eth_call', 'eth_estimateGas']) {
      expect(await failure(chain, method, { from, to: recipient, value: '0x1', chainId: '0x1' }), method).to.deep.include({ code: -32000, message: "chainId does not match node's (have=1, want=31337)" })
    }
    const blob = { from, to: recipient, maxFeePerBlobGas: '0x1', blobVersionedHashes: [`0x01${'00'.repeat(31)}`] }
    for (const method of ['eth_sendTransaction', 'eth_signTransaction']) {
      expect(await failure(chain, method, blob), method).to.deep.include({ code: -32000, message: 'transaction type not supported: blob transactions (type 3) are not supported by preconf-devnet' })
    }
    expect(await send(chain, 'eth_getTransactionCount', from, 'pending')).to.equal('0x0')
    expect(await send(chain, 'eth_sendTransaction', { from, to: recipient, value: '0x1', chainId: '0x7a69' })).to.match(/^0x[0-9a-f]{64}$/)
  })

  it('geth’s -32000 "unknown account" for keyless signers, -32602 naming the argument for bad inputs', async () => {
    const address = chain.accounts[0].address
    const mail = (contents: unknown, type = 'uint8') => ({ types: { Mail: [{ name: 'contents', type }] }, primaryType: 'Mail', domain: {}, message: { contents } })
    await send(chain, 'anvil_impersonateAccount', stranger)
    for (const [method, params] of [
      ['personal_sign', ['0x00', stranger]],
      ['eth_signTypedData_v4', [stranger, mail(1)]],
      ['eth_signTransaction', [{ from: stranger, to: recipient, gas: '0x5208' }]],
    ] as const) {
      expect(await failure(chain, method, ...params)).to.include({ code: -32000, message: 'unknown account' })
    }
    const invalid = async (method: string, params: unknown[], message: string) => expect(await failure(chain, method, ...params)).to.include({ code: -32602, message })
    await invalid('personal_sign', ['hello', address], 'invalid argument 0 (data): expected even-length 0x-prefixed hex data, got "hello"')
    await invalid('eth_sign', ['0x1234', '0x00'], 'invalid argument 0 (address): expected a 20-byte hex address, got "0x1234"')
    await invalid('eth_signTypedData_v4', [address, mail(300)], 'invalid argument 1 (typedData): message.contents: 300 does not fit uint8')
    await invalid('eth_signTypedData_v4', [address, mail(-1, 'uint256')], 'invalid argument 1 (typedData): message.contents: -1 does not fit uint256')
    await invalid('eth_signTypedData_v4', [address, mail('0x01', 'bytes2')], 'invalid argument 1 (typedData): message.contents: expected 2 bytes for bytes2, got 1')
    await invalid('eth_signTypedData_v4', [address, mail(1, 'uint')], 'invalid argument 1 (typedData): message.contents: unknown type "uint"')
    await invalid('eth_signTypedData_v4', [address, { ...mail(1), message: {} }], 'invalid argument 1 (typedData): message.contents: missing value for uint8')
    await invalid('eth_signTypedData_v4', [address, { ...mail(1), primaryType: 'Letter' }], 'invalid argument 1 (typedData): primaryType: "Letter" is not one of the types')
    expect((await failure(chain, 'eth_signTypedData_v4', address, '{"types":')).message).to.match(/^invalid argument 1 \(typedData\): invalid JSON/)
    await invalid('eth_sendUnsignedTransaction', [{ to: recipient }], 'invalid argument 0 (transaction): from is required')
  })
})
