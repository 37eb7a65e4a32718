/**
 * The predeploys the devnet writes itself (WETH, L2ToL1MessagePasser, L1BlockNumber: no upgrade
 * transaction publishes OP's bytecode for them), through viem 2.57.1 as apps and its op-stack
 * withdrawal actions use them (audit S, S1), and the Isthmus withdrawalsRoot, a block's
 * L2ToL1MessagePasser storage root (OP specs isthmus/exec-engine.md; audit S, S3).
 */
import { expect } from 'chai'
import { encodeAbiParameters, getContractAddress, keccak256, parseAbi, parseEther, parseEventLogs, type Address, type Hex } from 'viem'
import { base } from 'viem/chains'
import { getWithdrawals, walletActionsL2 } from 'viem/op-stack'
import { opStackViem } from '../support/op-stack-clients.ts'

const WETH = '0x4200000000000000000000000000000000000006' as Address
const MESSAGE_PASSER = '0x4200000000000000000000000000000000000016' as Address
const L1_BLOCK_NUMBER = '0x4200000000000000000000000000000000000013' as Address
const L1_BLOCK = '0x4200000000000000000000000000000000000015' as Address
const EMPTY_TRIE_ROOT = '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421'

const wethAbi = parseAbi([
  'function name() view returns (string)',
  'function symbol() view returns (string)',
  'function decimals() view returns (uint8)',
  'function totalSupply() view returns (uint256)',
  'function balanceOf(address) view returns (uint256)',
  'function allowance(address, address) view returns (uint256)',
  'function deposit() payable',
  'function withdraw(uint256)',
  'function approve(address, uint256) returns (bool)',
  'function transfer(address, uint256) returns (bool)',
  'function transferFrom(address, address, uint256) returns (bool)',
])
const passerAbi = parseAbi([
  'function messageNonce() view returns (uint256)',
  'function sentMessages(bytes32) view returns (bool)',
  'function MESSAGE_VERSION() view returns (uint16)',
  'function burn()',
  'event WithdrawerBalanceBurnt(uint256 indexed amount)',
])

type Setup = Awaited<ReturnType<typeof opStackViem<typeof base>>>

describe("op-stack: the devnet's own predeploys, through viem (preset 'base')", () => {
  let setup: Setup
  let alice: Address
  let bob: Address

  beforeEach(async () => {
    setup = await opStackViem(base, { preset: 'base' })
    alice = setup.chain.accounts[0].address as Address
    bob = setup.chain.accounts[1].address as Address
  })

  /** Sends a contract call from dev account `index`, seals it, and returns its receipt. */
  async function sealed(index: number, call: { address: Address; abi: typeof wethAbi; functionName: string; args?: readonly unknown[]; value?: bigint }) {
    const hash = await setup.wallet(index).writeContract(call as never)
    await setup.chain.mine()
    return setup.publicClient.getTransactionReceipt({ hash })
  }

  const weth = (functionName: string, args: readonly unknown[] = []) => setup.publicClient.readContract({ address: WETH, abi: wethAbi, functionName, args } as never) as Promise<unknown>

  it("WETH wraps and unwraps ether as WETH9 does: deposit (or a plain send), transfer, an allowance of 2^256-1 never spent, withdraw; totalSupply is the ether held", async () => {
    expect([await weth('name'), await weth('symbol'), await weth('decimals')]).to.deep.equal(['Wrapped Ether', 'WETH', 18])
    const deposit = await sealed(0, { address: WETH, abi: wethAbi, functionName: 'deposit', value: parseEther('2') })
    expect(deposit.status).to.equal('success')
    expect(deposit.logs[0].topics[0]).to.equal(keccak256(new TextEncoder().encode('Deposit(address,uint256)')))
    const sent = await setup.wallet(1).sendTransaction({ to: WETH, value: parseEther('1') })
    await setup.chain.mine()
    expect((await setup.publicClient.getTransactionReceipt({ hash: sent })).status).to.equal('success')
    expect([await weth('balanceOf', [alice]), await weth('balanceOf', [bob]), await weth('totalSupply')]).to.deep.equal([parseEther('2'), parseEther('1'), parseEther('3')])

    await sealed(0, { address: WETH, abi: wethAbi, functionName: 'approve', args: [bob, 2n ** 256n - 1n] })
    await sealed(1, { address: WETH, abi: wethAbi, functionName: 'transferFrom', args: [alice, bob, parseEther('0.5')] })
    expect([await weth('balanceOf', [alice]), await weth('allowance', [alice, bob])]).to.deep.equal([parseEther('1.5'), 2n ** 256n - 1n])

    const before = await setup.chain.getBalance(bob)
    const withdrawal = await sealed(1, { address: WETH, abi: wethAbi, functionName: 'withdraw', args: [parseEther('1.5')] })
    const fees = withdrawal.gasUsed * withdrawal.effectiveGasPrice + (withdrawal as unknown as { l1Fee: bigint }).l1Fee
    expect(await setup.chain.getBalance(bob)).to.equal(before + parseEther('1.5') - fees)
    expect([await weth('balanceOf', [bob]), await weth('totalSupply')]).to.deep.equal([0n, parseEther('1.5')])
    const overdraw = await setup.publicClient.simulateContract({ account: alice, address: WETH, abi: wethAbi, functionName: 'withdraw', args: [parseEther('2')] }).catch((error: Error) => error)
    expect(overdraw).to.be.instanceOf(Error)
  })

  it("viem's initiateWithdrawal goes through the L2ToL1MessagePasser: MessagePassed as getWithdrawals reads it, the hash recorded, the versioned nonce counted; the block's withdrawalsRoot is the passer's storage root", async () => {
    const wallet = setup.wallet(0).extend(walletActionsL2())
    expect(await setup.publicClient.readContract({ address: MESSAGE_PASSER, abi: passerAbi, functionName: 'messageNonce' })).to.equal(1n << 240n)
    const genesis = await setup.publicClient.getBlock({ blockNumber: 0n })
    expect(genesis.withdrawalsRoot).to.equal(EMPTY_TRIE_ROOT)

    const hash = await wallet.initiateWithdrawal({ request: { gas: 21_000n, to: bob, value: parseEther('1') } })
    await setup.chain.mine()
    const receipt = await setup.publicClient.getTransactionReceipt({ hash })
    const [withdrawal] = getWithdrawals(receipt)
    expect(withdrawal).to.deep.include({ nonce: 1n << 240n, sender: alice, target: bob, value: parseEther('1'), gasLimit: 21_000n, data: '0x' })
    const expected = keccak256(
      encodeAbiParameters(
        [{ type: 'uint256' }, { type: 'address' }, { type: 'address' }, { type: 'uint256' }, { type: 'uint256' }, { type: 'bytes' }],
        [1n << 240n, alice, bob, parseEther('1'), 21_000n, '0x'],
      ),
    )
    expect(withdrawal.withdrawalHash).to.equal(expected)
    expect(await setup.publicClient.readContract({ address: MESSAGE_PASSER, abi: passerAbi, functionName: 'sentMessages', args: [expected] })).to.equal(true)
    expect(await setup.publicClient.readContract({ address: MESSAGE_PASSER, abi: passerAbi, functionName: 'messageNonce' })).to.equal((1n << 240n) + 1n)
    expect(await setup.chain.getBalance(MESSAGE_PASSER)).to.equal(parseEther('1'))

    const block = await setup.publicClient.getBlock({ blockNumber: receipt.blockNumber })
    const proof = (await setup.chain.request({ method: 'eth_getProof', params: [MESSAGE_PASSER, [], `0x${receipt.blockNumber.toString(16)}`] })) as { storageHash: Hex }
    expect(block.withdrawalsRoot).to.not.equal(EMPTY_TRIE_ROOT)
    expect(block.withdrawalsRoot).to.equal(proof.storageHash)
  })

  it("the passer's burn() destroys the ether withdrawals left there: WithdrawerBalanceBurnt, the passer and the burner it creates both empty after", async () => {
    const wallet = setup.wallet(0).extend(walletActionsL2())
    await wallet.initiateWithdrawal({ request: { gas: 21_000n, to: bob, value: parseEther('1.25') } })
    await setup.chain.mine()
    const burner = getContractAddress({ from: MESSAGE_PASSER, nonce: BigInt(await setup.publicClient.getTransactionCount({ address: MESSAGE_PASSER })) })

    const burn = await sealed(1, { address: MESSAGE_PASSER, abi: passerAbi as never, functionName: 'burn' })
    expect(burn.status).to.equal('success')
    const [burnt] = parseEventLogs({ abi: passerAbi, logs: burn.logs, eventName: 'WithdrawerBalanceBurnt' })
    expect(burnt.args.amount).to.equal(parseEther('1.25'))
    expect([await setup.chain.getBalance(MESSAGE_PASSER), await setup.chain.getBalance(burner), await setup.chain.getCode(burner)]).to.deep.equal([0n, 0n, '0x'])
  })

  it('L1BlockNumber answers the L1 origin L1Block holds, by getL1BlockNumber() and by any call', async () => {
    await setup.chain.mine()
    const l1Number = await setup.publicClient.readContract({ address: L1_BLOCK, abi: parseAbi(['function number() view returns (uint64)']), functionName: 'number' })
    const byName = await setup.publicClient.readContract({ address: L1_BLOCK_NUMBER, abi: parseAbi(['function getL1BlockNumber() view returns (uint256)']), functionName: 'getL1BlockNumber' })
    const { data } = await setup.publicClient.call({ to: L1_BLOCK_NUMBER, data: '0x' })
    expect([byName, BigInt(data!)]).to.deep.equal([l1Number, l1Number])
    expect(l1Number > 0n).to.equal(true)
    const version = await setup.publicClient.readContract({ address: L1_BLOCK_NUMBER, abi: parseAbi(['function version() view returns (string)']), functionName: 'version' })
    expect(version).to.equal('1.1.0') // OP's L1BlockNumber (contracts-bedrock src/legacy/L1BlockNumber.sol)
  })
})
