/**
 * `eth_getProof` and `eth_getAccount`: proofs verified independently with @ethereumjs/mpt against
 * the block's `stateRoot`, storage roots rebuilt with @ethereumjs/mpt from known words, answers
 * compared byte for byte with Anvil 1.7.1 replaying the same signed transactions, and the errors
 * where no trie is kept (`pending`, a fork).
 */
import { spawn } from 'node:child_process'
import { createMPT, verifyMerkleProof } from '@ethereumjs/mpt'
import { RLP } from '@ethereumjs/rlp'
import { bigIntToUnpaddedBytes, bytesToBigInt, bytesToHex, hexToBytes, setLengthLeft } from '@ethereumjs/util'
import { expect } from 'chai'
import { encodeAbiParameters, encodeDeployData, getContractAddress, keccak256, parseEther, toHex, type Hex } from 'viem'
import { Counter } from '../../fixtures/artifacts/Counter.ts'
import { Token } from '../../fixtures/artifacts/Token.ts'
import { Chain } from '../../lib/chain.ts'
import { createChain, startServer, type ChainOptions } from '../../lib/index.ts'
import { resolveChainOptions } from '../../lib/options.ts'
import { fixedStateCommitment } from '../../lib/state/state-commitment.ts'
import { EMPTY_STATE_SOURCE } from '../../lib/state/state-source.ts'
import type { Address } from '../../lib/types.ts'
import { blockOf, EMPTY_TRIE_ROOT, receiptOf, rejection, sendDeploy, signCall, ZERO_ADDRESS } from '../support/chain-helpers.ts'
import { signer } from '../support/wallet.ts'

const carol = `0x${'00'.repeat(18)}ca41` as Address
const nobody = `0x${'de'.repeat(20)}` as Address
const EMPTY_CODE_HASH = keccak256('0x')
/** A short string as Solidity stores it in one word: the bytes left-aligned, 2 × length in the last byte. */
const shortString = (text: string): bigint => (BigInt(toHex(text)) << BigInt(8 * (32 - text.length))) | BigInt(2 * text.length)
const word = (slot: bigint): Hex => toHex(slot, { size: 32 })
const balanceSlot = (holder: Address): Hex => keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [holder, 3n]))

interface RpcProof {
  address: Address
  balance: Hex
  codeHash: Hex
  nonce: Hex
  storageHash: Hex
  accountProof: Hex[]
  storageProof: { key: Hex; value: Hex; proof: Hex[] }[]
}

const request = async <T>(chain: Chain, method: string, ...params: unknown[]): Promise<T> => (await chain.request({ method, params })) as T
const getProof = (chain: Chain, address: Address, keys: Hex[], block: unknown = 'latest') => request<RpcProof>(chain, 'eth_getProof', address, keys, block)

/** The account the proof proves under `root` ([nonce, balance, storageRoot, codeHash]), null for a proof of absence. */
async function provenAccount(root: Hex, proof: RpcProof): Promise<[bigint, bigint, Hex, Hex] | null> {
  const leaf = await verifyMerkleProof(hexToBytes(keccak256(proof.address)), proof.accountProof.map((node) => hexToBytes(node)), { root: hexToBytes(root) })
  if (leaf === null) return null
  const [nonce, balance, storageRoot, codeHash] = RLP.decode(leaf) as Uint8Array[]
  return [bytesToBigInt(nonce), bytesToBigInt(balance), bytesToHex(storageRoot) as Hex, bytesToHex(codeHash) as Hex]
}

/** The word each storage proof proves under the account's storage root (null: proven absent). */
async function provenWords(proof: RpcProof): Promise<(bigint | null)[]> {
  return Promise.all(
    proof.storageProof.map(async (entry) => {
      const key = hexToBytes(keccak256(word(BigInt(entry.key))))
      const value = await verifyMerkleProof(key, entry.proof.map((node) => hexToBytes(node)), { root: hexToBytes(proof.storageHash) })
      return value === null ? null : bytesToBigInt(RLP.decode(value) as Uint8Array)
    }),
  )
}

/** The storage root of `words` built by @ethereumjs/mpt. */
async function referenceStorageRoot(words: Record<Hex, bigint>): Promise<Hex> {
  const trie = await createMPT({ useKeyHashing: true })
  for (const [slot, value] of Object.entries(words)) await trie.put(setLengthLeft(hexToBytes(slot as Hex), 32), RLP.encode(bigIntToUnpaddedBytes(value)))
  return bytesToHex(trie.root()) as Hex
}

/** A chain with a token (alice 750, bob 250) and 3 ETH sent to carol, each transaction sealed in its own block (1, 2, 3). */
async function tokenWorld(options: ChainOptions = {}) {
  const chain = await createChain({ accounts: 3, ...options })
  const [alice, bob] = [signer(chain, 0), signer(chain, 1)]
  const { address: token, hash } = await sendDeploy(chain, alice, Token, ['Token', 'TKN', 1000n])
  await chain.mine()
  await chain.sendRawTransaction(await signCall(alice, token, Token.abi, 'transfer', [bob.address, 250n], { nonce: 1 }))
  await chain.mine()
  await chain.sendRawTransaction(await alice.sign({ nonce: 2, to: carol, value: parseEther('3') }))
  await chain.mine()
  expect((await receiptOf(chain, hash))?.status).to.equal('0x1')
  return { chain, alice, bob, token }
}

describe('engine/proofs', () => {
  describe('eth_getProof (EIP-1186), verified with @ethereumjs/mpt against the block stateRoot', () => {
    it('proves an EOA, a contract with words present and absent, and an absent account', async () => {
      const { chain, alice, bob, token } = await tokenWorld()
      const { stateRoot } = (await blockOf(chain, 'latest'))!

      const toCarol = await getProof(chain, carol, [])
      expect(await provenAccount(stateRoot, toCarol)).to.deep.equal([0n, parseEther('3'), EMPTY_TRIE_ROOT, EMPTY_CODE_HASH])
      expect(toCarol).to.deep.include({ balance: '0x29a2241af62c0000', nonce: '0x0', storageHash: EMPTY_TRIE_ROOT, codeHash: EMPTY_CODE_HASH, storageProof: [] })

      const keys = [word(0n), word(1n), word(2n), balanceSlot(alice.address), balanceSlot(bob.address), word(5n), balanceSlot(carol), '0x2' as Hex]
      const proof = await getProof(chain, token, keys)
      expect(await provenAccount(stateRoot, proof)).to.deep.equal([1n, 0n, proof.storageHash, keccak256(Token.deployedBytecode)])
      const expected = [shortString('Token'), shortString('TKN'), 1000n, 750n, 250n, null, null, 1000n]
      expect(await provenWords(proof)).to.deep.equal(expected)
      expect(proof.storageProof.map((entry) => entry.value)).to.deep.equal(expected.map((value) => toHex(value ?? 0n)))
      expect(proof.storageProof.map((entry) => entry.key), 'keys echoed as geth does: 32 bytes as given, else a quantity').to.deep.equal(keys)
      const words = { [word(0n)]: shortString('Token'), [word(1n)]: shortString('TKN'), [word(2n)]: 1000n, [balanceSlot(alice.address)]: 750n, [balanceSlot(bob.address)]: 250n }
      expect(proof.storageHash).to.equal(await referenceStorageRoot(words))

      const absent = await getProof(chain, nobody, [word(0n)])
      expect(await provenAccount(stateRoot, absent), 'a proof of absence').to.equal(null)
      expect(absent).to.deep.equal({
        ...{ address: nobody, balance: '0x0', codeHash: EMPTY_CODE_HASH, nonce: '0x0', storageHash: EMPTY_TRIE_ROOT },
        ...{ accountProof: absent.accountProof, storageProof: [{ key: word(0n), value: '0x0', proof: ['0x80'] }] },
      })
      // An empty trie's proof is its one node, rlp(""), as Anvil answers (geth lists none).
      expect(keccak256(absent.storageProof[0].proof[0])).to.equal(EMPTY_TRIE_ROOT)
      chain.close()
    })

    it('proves older blocks against their own stateRoot, as Anvil answers them: words and balances as they were there', async () => {
      const { chain, alice, bob, token } = await tokenWorld()
      const keys = [word(2n), balanceSlot(alice.address), balanceSlot(bob.address)]
      const cases = [
        { block: '0x1', words: [1000n, 1000n, null], carol: null },
        { block: '0x2', words: [1000n, 750n, 250n], carol: null },
        { block: '0x3', words: [1000n, 750n, 250n], carol: [0n, parseEther('3'), EMPTY_TRIE_ROOT, EMPTY_CODE_HASH] },
      ] as const
      // Blocks 1 to 3 are all older than the head, whose tries the commitment keeps.
      await chain.mine()
      for (const { block, words, carol: proven } of cases) {
        const { stateRoot } = (await blockOf(chain, block))!
        const proof = await getProof(chain, token, keys, block)
        expect(await provenAccount(stateRoot, proof), block).to.deep.equal([1n, 0n, proof.storageHash, keccak256(Token.deployedBytecode)])
        expect(await provenWords(proof), block).to.deep.equal(words)
        expect(await provenAccount(stateRoot, await getProof(chain, carol, [], block)), block).to.deep.equal(proven)
      }
      const beforeDeploy = await getProof(chain, token, [word(2n)], 'earliest')
      expect(await provenAccount((await blockOf(chain, '0x0'))!.stateRoot, beforeDeploy), 'absent before its deploy').to.equal(null)
      chain.close()
    })

    it('includes test-control edits not sealed yet (as Anvil), reverts with them, and the next block seals the root they prove against', async () => {
      // Cancun: from Prague the next block also writes its parent's hash into EIP-2935's ring.
      const { chain, token } = await tokenWorld({ hardfork: 'cancun' })
      const before = (await blockOf(chain, 'latest'))!.stateRoot
      const snapshot = await request<Hex>(chain, 'evm_snapshot')
      await request(chain, 'anvil_setStorageAt', token, word(5n), word(42n))
      const proof = await getProof(chain, token, [word(5n)])
      const root = keccak256(proof.accountProof[0])
      expect(root).to.not.equal(before)
      expect(await provenAccount(root, proof)).to.not.equal(null)
      expect(await provenWords(proof)).to.deep.equal([42n])

      await request(chain, 'evm_revert', snapshot)
      expect(keccak256((await getProof(chain, token, [])).accountProof[0]), 'a reverted edit leaves the proofs').to.equal(before)
      await request(chain, 'anvil_setStorageAt', token, word(5n), word(42n))
      expect(await getProof(chain, token, [word(5n)])).to.deep.equal(proof)
      await chain.mine()
      expect((await blockOf(chain, 'latest'))!.stateRoot).to.equal(root)
      chain.close()
    })
  })

  describe("eth_getAccount (Anvil's shape) at any block", () => {
    it('gives the storage root at the head, at older blocks and at pending, as @ethereumjs/mpt builds it', async () => {
      const { chain, alice, bob, token } = await tokenWorld()
      const head = { [word(0n)]: shortString('Token'), [word(1n)]: shortString('TKN'), [word(2n)]: 1000n, [balanceSlot(alice.address)]: 750n }
      const account = (block: unknown) => request<Record<string, Hex>>(chain, 'eth_getAccount', token, block)
      const codeHash = keccak256(Token.deployedBytecode)
      expect(await account('latest')).to.deep.equal({ nonce: '0x1', balance: '0x0', storageRoot: await referenceStorageRoot({ ...head, [balanceSlot(bob.address)]: 250n }), codeHash })
      expect(await account('0x1')).to.deep.equal({ nonce: '0x1', balance: '0x0', storageRoot: await referenceStorageRoot({ ...head, [balanceSlot(alice.address)]: 1000n }), codeHash })
      expect(await account('earliest'), 'not yet deployed: an empty account').to.deep.equal({ nonce: '0x0', balance: '0x0', storageRoot: EMPTY_TRIE_ROOT, codeHash: EMPTY_CODE_HASH })

      await chain.sendRawTransaction(await signCall(bob, token, Token.abi, 'transfer', [alice.address, 250n]))
      await chain.tick()
      const pending = await account('pending')
      expect(pending.storageRoot, "bob's word cleared in the pre-confirmed block").to.equal(await referenceStorageRoot({ ...head, [balanceSlot(alice.address)]: 1000n }))
      await chain.mine()
      expect((await getProof(chain, token, [])).storageHash).to.equal(pending.storageRoot)
      expect(await request(chain, 'eth_getAccount', nobody, 'latest')).to.deep.equal({ nonce: '0x0', balance: '0x0', storageRoot: EMPTY_TRIE_ROOT, codeHash: EMPTY_CODE_HASH })
      chain.close()
    })
  })

  describe('errors', () => {
    it('answers -32000 for pending (no trie there) and past the head, and -32602 for bad keys', async () => {
      const { chain, token } = await tokenWorld()
      const pending = await rejection(getProof(chain, token, [], 'pending'))
      expect(pending).to.include({ code: -32000, message: 'proofs are available for sealed blocks only: the pending block has no state trie' })
      expect(await rejection(getProof(chain, token, [], '0x9'))).to.include({ code: -32000, message: 'header not found' })
      const head = (await blockOf(chain, 'latest'))!
      expect(await getProof(chain, token, [], head.number)).to.deep.equal(await getProof(chain, token, [], { blockHash: head.hash }))
      const older = (await blockOf(chain, '0x1'))!
      expect(await getProof(chain, token, [], '0x1')).to.deep.equal(await getProof(chain, token, [], { blockHash: older.hash }))

      expect(await rejection(getProof(chain, token, ['0xzz']))).to.include({ code: -32602, message: 'invalid argument 1 (storageKeys)[0]: hex string invalid' })
      expect(await rejection(getProof(chain, token, [word(0n), `0x01${'00'.repeat(32)}`]))).to.include({
        code: -32602,
        message: 'invalid argument 1 (storageKeys)[1]: hex string too long, want at most 32 bytes',
      })
      expect(await rejection(request(chain, 'eth_getProof', token, word(0n), 'latest'))).to.include({ code: -32602 })
      chain.close()
    })

    it('serves the head for `pending` on the standard endpoint (pending is the newest sealed block there)', async () => {
      const { chain, token } = await tokenWorld()
      const server = await startServer(chain, { port: 0 })
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getProof', params: [token, [word(2n)], 'pending'] })
      const response = await fetch(server.sealedUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
      expect(((await response.json()) as { result: RpcProof }).result).to.deep.equal(await getProof(chain, token, [word(2n)]))
      await server.close()
    })

    it('answers -32000 on a chain whose state root is fixed (a fork holds no trie)', async () => {
      const chain = new Chain(resolveChainOptions({}), { source: EMPTY_STATE_SOURCE, commitment: () => fixedStateCommitment(new Uint8Array(32)) })
      const message = "state proofs are not available on a forked chain: it does not hold the upstream's state trie"
      expect(await rejection(getProof(chain, carol, []))).to.include({ code: -32000, message })
      expect(await rejection(request(chain, 'eth_getAccount', carol, 'latest'))).to.include({ code: -32000, message })
      chain.close()
    })
  })

  describe('against Anvil 1.7.1 replaying the same signed transactions', () => {
    it('answers eth_getProof and eth_getAccount byte for byte, and seals the same state roots', async () => {
      // Cancun: both genesis blocks hold the dev accounts and the CREATE2 deployer (from Prague
      // each block writes its parent's hash into EIP-2935's ring, and the genesis hashes differ:
      // Anvil's header carries the empty root). Anvil's first block keeps the genesis base fee
      // where the devnet's follows EIP-1559 (1 gwei × 7/8 after an empty genesis): Anvil starts
      // at that fee, so both charge the same from block 1 on.
      const anvil = await startAnvil(['--hardfork', 'cancun', '--no-mining', '--base-fee', '875000000'])
      const chain = await createChain({ hardfork: 'cancun', coinbase: ZERO_ADDRESS })
      const server = await startServer(chain, { port: 0 })
      const post = async (url: string, method: string, ...params: unknown[]) =>
        (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })).text()
      const same = async (method: string, ...params: unknown[]) => {
        const [ours, theirs] = await Promise.all([post(server.url, method, ...params), post(anvil.url, method, ...params)])
        expect(ours, `${method} ${JSON.stringify(params)}`).to.equal(theirs)
        return JSON.parse(ours).result
      }
      try {
        const [alice, bob] = [signer(chain, 0), signer(chain, 1)]
        const token = getContractAddress({ from: alice.address, nonce: 0n }).toLowerCase() as Address
        const counter = getContractAddress({ from: alice.address, nonce: 3n }).toLowerCase() as Address
        const transactions = [
          await alice.sign({ to: null, gas: 2_000_000n, data: encodeDeployData({ abi: Token.abi, bytecode: Token.bytecode, args: ['Token', 'TKN', 1000n] }) }),
          await signCall(alice, token, Token.abi, 'transfer', [bob.address, 250n], { nonce: 1 }),
          await alice.sign({ nonce: 2, to: carol, value: parseEther('3') }),
          await alice.sign({ nonce: 3, to: null, gas: 1_000_000n, data: Counter.bytecode }),
          await signCall(bob, counter, Counter.abi, 'increment', []),
        ]
        const accounts = [alice.address, bob.address, carol, token, counter, ZERO_ADDRESS, nobody]
        const keys = [word(0n), word(1n), word(2n), balanceSlot(alice.address), balanceSlot(bob.address), word(7n)]
        const stateRoot = async (url: string) => {
          const { number, stateRoot } = JSON.parse(await post(url, 'eth_getBlockByNumber', 'latest', false)).result as { number: Hex; stateRoot: Hex }
          return { number, stateRoot }
        }
        const send = async (raw: Hex) => {
          await same('eth_sendRawTransaction', raw)
          await Promise.all([chain.mine(), post(anvil.url, 'evm_mine')])
        }

        // Anvil's genesis header carries the empty root; its proofs show the state is the devnet's.
        const genesis = await same('eth_getProof', alice.address, [], 'latest')
        expect(keccak256(genesis.accountProof[0])).to.equal((await blockOf(chain, '0x0'))!.stateRoot)
        for (const account of accounts) await same('eth_getProof', account, keys, 'latest')
        for (const [i, raw] of transactions.entries()) {
          await send(raw)
          expect(await stateRoot(server.url), `block ${i + 1}`).to.deep.equal(await stateRoot(anvil.url))
          for (const account of accounts) await same('eth_getProof', account, keys, 'latest')
        }
        // Older blocks too, now that the head has moved on: proofs on tries built for the block.
        for (let block = 0; block <= transactions.length; block++) {
          for (const account of accounts) await same('eth_getAccount', account, toHex(block))
          for (const account of accounts) await same('eth_getProof', account, keys, toHex(block))
        }

        // Where a word returns to zero Anvil 1.7.1 keeps it in the trie as a zero leaf; the devnet
        // deletes it, as the yellow paper and geth do. Bob's balance word goes back to zero:
        await send(await signCall(bob, token, Token.abi, 'transfer', [alice.address, 250n], { nonce: 1 }))
        for (const account of accounts.filter((account) => account !== token)) await same('eth_getAccount', account, 'latest')
        const words = { [word(0n)]: shortString('Token'), [word(1n)]: shortString('TKN'), [word(2n)]: 1000n, [balanceSlot(alice.address)]: 1000n }
        const root = async (url: string) => JSON.parse(await post(url, 'eth_getAccount', token, 'latest')).result.storageRoot
        expect(await root(server.url)).to.equal(await referenceStorageRoot(words))
        expect(await root(anvil.url)).to.equal(await referenceStorageRoot({ ...words, [balanceSlot(bob.address)]: 0n }))
      } finally {
        await server.close()
        anvil.stop()
      }
    })
  })
})

/** Anvil on a free port, in its own process group (stopped with it). */
async function startAnvil(args: string[]): Promise<{ url: string; stop(): void }> {
  const binary = new URL('../../node_modules/.bin/anvil', import.meta.url).pathname
  const child = spawn(binary, ['--host', '127.0.0.1', '--port', '0', ...args], { detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
  const stop = () => {
    if (child.exitCode === null && child.pid !== undefined) process.kill(-child.pid, 'SIGTERM')
  }
  const url = await new Promise<string>((resolve, reject) => {
    let output = ''
    const collect = (chunk: Buffer) => {
      output += chunk.toString()
      const listening = /Listening on (\S+)/.exec(output)
      if (listening !== null) resolve(`http://${listening[1]}`)
    }
    child.stdout.on('data', collect)
    child.stderr.on('data', collect)
    child.once('error', (error) => reject(new Error(`Anvil 1.7.1 cannot run here (${error.message})`)))
    child.once('exit', (code) => reject(new Error(`Anvil 1.7.1 exited (${code}) before listening: ${output}`)))
  })
  return { url, stop }
}
