/**
 * The OP-stack preinstalls (op-stack/preinstalls.ts): every runtime constant is the code
 * ethereum-optimism's Preinstalls.sol publishes (the fixture, the same git blob), an OP-stack
 * chain's genesis holds each at its address with nonce 1 as SetPreinstalls.s.sol places them,
 * Permit2 carries the chain's id and domain separator, and real clients use them unchanged:
 * viem's `multicall` on its `base` chain, which names Multicall3.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { expect } from 'chai'
import { encodeAbiParameters, keccak256, parseAbi, toHex } from 'viem'
import { base } from 'viem/chains'
import { createChain } from '../../lib/index.ts'
import * as code from '../../lib/op-stack/preinstall-code.ts'
import { opStackPreinstalls, PERMIT2 } from '../../lib/op-stack/preinstalls.ts'
import type { Address } from '../../lib/types.ts'
import { opStackViem } from '../support/op-stack-clients.ts'

const SOURCE = readFileSync(new URL('../../fixtures/op-stack/Preinstalls.sol', import.meta.url), 'utf8')

/** Preinstalls.sol's `<name>Code` constant, lowercase hex. */
function published(name: string): string {
  const match = new RegExp(`bytes internal constant ${name}Code =\\s*hex"([0-9a-fA-F]+)"`).exec(SOURCE)
  if (match === null) throw new Error(`Preinstalls.sol has no ${name}Code`)
  return `0x${match[1]!.toLowerCase()}`
}

/** Preinstalls.sol's address constant `name`, lowercase. */
function addressOf(name: string): Address {
  const match = new RegExp(`address internal constant ${name} = (0x[0-9a-fA-F]{40});`).exec(SOURCE)
  if (match === null) throw new Error(`Preinstalls.sol has no address ${name}`)
  return match[1]!.toLowerCase() as Address
}

/** Each lib constant and the Preinstalls.sol name it copies. */
const CONSTANTS: ReadonlyArray<readonly [keyof typeof code, string]> = [
  ['MULTICALL3_RUNTIME', 'MultiCall3'],
  ['CREATE2_DEPLOYER_RUNTIME', 'Create2Deployer'],
  ['SAFE_V130_RUNTIME', 'Safe_v130'],
  ['SAFE_L2_V130_RUNTIME', 'SafeL2_v130'],
  ['MULTI_SEND_CALL_ONLY_V130_RUNTIME', 'MultiSendCallOnly_v130'],
  ['SAFE_SINGLETON_FACTORY_RUNTIME', 'SafeSingletonFactory'],
  ['DETERMINISTIC_DEPLOYMENT_PROXY_RUNTIME', 'DeterministicDeploymentProxy'],
  ['MULTI_SEND_V130_RUNTIME', 'MultiSend_v130'],
  ['PERMIT2_TEMPLATE_RUNTIME', 'Permit2Template'],
  ['SENDER_CREATOR_V060_RUNTIME', 'SenderCreator_v060'],
  ['ENTRY_POINT_V060_RUNTIME', 'EntryPoint_v060'],
  ['SENDER_CREATOR_V070_RUNTIME', 'SenderCreator_v070'],
  ['ENTRY_POINT_V070_RUNTIME', 'EntryPoint_v070'],
  ['CREATE_X_RUNTIME', 'CreateX'],
  ['BEACON_BLOCK_ROOTS_RUNTIME', 'BeaconBlockRoots'],
]

describe('op-stack: the preinstalls', () => {
  it('the fixture is Preinstalls.sol as ethereum-optimism/optimism publishes it (git blob db886f5), and every constant is its code', () => {
    const blob = createHash('sha1').update(`blob ${Buffer.byteLength(SOURCE)}\0`).update(SOURCE).digest('hex')
    expect(blob).to.equal('db886f57f10a90ac327bd6f9e5b51acbd7661d31')
    for (const [constant, name] of CONSTANTS) expect(code[constant], constant).to.equal(published(name))
    expect(Object.keys(code)).to.have.length(CONSTANTS.length)
  })

  it('places each at the address Preinstalls.sol names, with nonce 1 and no storage (SetPreinstalls.s.sol)', () => {
    const accounts = opStackPreinstalls(8453n)
    const names = CONSTANTS.map(([, name]) => (name === 'Permit2Template' ? 'Permit2' : name))
    expect(accounts.map(({ address }) => address).sort()).to.deep.equal(names.map(addressOf).sort())
    for (const { nonce, storage } of accounts) expect([nonce, storage.size]).to.deep.equal([1n, 0])
  })

  it("on a Base chain each is in place at genesis, and Permit2's DOMAIN_SEPARATOR() is the chain's own (Preinstalls.getPermit2Code)", async () => {
    const chain = await createChain({ clock: 'manual', preset: 'base' })
    for (const { address, code: runtime } of opStackPreinstalls(8453n)) {
      expect(await chain.getCode(address, 'earliest')).to.equal(toHex(runtime))
      expect(await chain.request({ method: 'eth_getTransactionCount', params: [address, 'earliest'] })).to.equal('0x1')
    }
    const typeHash = keccak256(toHex('EIP712Domain(string name,uint256 chainId,address verifyingContract)'))
    const expected = keccak256(encodeAbiParameters([{ type: 'bytes32' }, { type: 'bytes32' }, { type: 'uint256' }, { type: 'address' }], [typeHash, keccak256(toHex('Permit2')), 8453n, PERMIT2]))
    const separator = await chain.call({ to: PERMIT2, data: '0x3644e515' }, 'latest')
    expect(separator).to.equal(expected)
  })

  it("viem's multicall on its `base` chain (contracts.multicall3) reads through Multicall3", async () => {
    const { chain, publicClient } = await opStackViem(base, { preset: 'base' })
    const abi = parseAbi(['function getEthBalance(address) view returns (uint256)', 'function getChainId() view returns (uint256)'])
    const multicall3 = base.contracts.multicall3.address
    const [balance, chainId] = await publicClient.multicall({
      contracts: [
        { address: multicall3, abi, functionName: 'getEthBalance', args: [chain.accounts[0]!.address] },
        { address: multicall3, abi, functionName: 'getChainId' },
      ],
      allowFailure: false,
    })
    expect([balance, chainId]).to.deep.equal([10_000n * 10n ** 18n, 8453n])
  })
})
