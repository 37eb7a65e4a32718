/**
 * Real clients, unchanged, against an OP-stack preset chain (issue 10, point 6): viem 2.57.1 with
 * its `base` / `baseSepolia` chains (op-stack formatters and serializer) and with
 * `experimental_preconfirmationTime`, viem's `publicActionsL2` against the GasPriceOracle and
 * L1Block predeploys, and ethers 6. Fees are worked from the OP specs' Fjord and Jovian formulas
 * over the independent FastLZ in spec/support/flz-reference.ts; op-geth (what Base runs) is the
 * judge of what a receipt charges.
 */
import { expect } from 'chai'
import { BrowserProvider, JsonRpcProvider, Network, getAddress, type Provider } from 'ethers'
import { concatHex, encodeFunctionData, keccak256, parseGwei, serializeTransaction, toFunctionSelector, toHex, type Address, type Hex } from 'viem'
import { base, baseSepolia } from 'viem/chains'
import { parseTransaction, serializeTransaction as serializeOpStack } from 'viem/op-stack'
import { Token } from '../../fixtures/artifacts/Token.ts'
import { startServer, type DevnetServer } from '../../lib/index.ts'
import { DEFAULT_L1, OP, fjordL1Fee, flzLength, jovianOperatorFee, l1InfoSourceHash, opStackViem } from '../support/op-stack-clients.ts'

type Setup = Awaited<ReturnType<typeof opStackViem<typeof base>>>

const ETHER = 10n ** 18n
const FROM = '0x00000000000000000000000000000000000000f1' as Address
const TO = '0x00000000000000000000000000000000000000aa' as Address
/** A transaction at the Fjord floor (100 bytes): 100e6 × (16·5227·1e9 + 1,014,213·1) / 1e12 = 8,363,200,101.4 wei. */
const FLOOR_L1_FEE = 8_363_200_101n
/** 100e6 × 16 / 1e6. */
const FLOOR_L1_GAS = 1600n
/** What viem's estimateL1Fee/L1Gas serialize (op-stack/actions/estimateL1Fee.ts): an unsigned EIP-1559 envelope with fixed fields. */
const estimateEnvelope = (chainId: number, tx: { to: Address; value?: bigint; data?: Hex }) =>
  serializeTransaction({ ...tx, chainId, type: 'eip1559', gas: tx.data ? 300_000n : 21_000n, maxFeePerGas: parseGwei('5'), maxPriorityFeePerGas: parseGwei('1'), nonce: 1 })
const rawOf = (setup: Pick<Setup, 'chain'>, hash: Hex) => setup.chain.request({ method: 'eth_getRawTransactionByHash', params: [hash] }) as Promise<Hex>
/** `words` 32-byte keccak words (incompressible calldata). */
const keccakBytes = (words: number) => concatHex(Array.from({ length: words }, (_, i) => keccak256(toHex(i))))
const balanceAt = (setup: Pick<Setup, 'chain'>, address: Address, blockNumber: bigint) => setup.chain.getBalance(address, blockNumber)

describe("op-stack: real clients unchanged (viem 2.57.1, ethers 6) against preset 'base'", () => {
  describe("viem's `base` chain: formatters and serializer", () => {
    let setup: Setup
    let userDeposit: Hex
    let userTx: Hex

    before(async () => {
      setup = await opStackViem(base, { preset: 'base' })
      userDeposit = await setup.chain.deposit({ from: FROM, to: TO, mint: 3n * ETHER, value: ETHER })
      await setup.chain.mine() // block 1: L1 attributes, the deposit
      userTx = await setup.wallet(0).sendTransaction({ to: TO, value: 1n, data: '0xdeadbeef' })
      await setup.chain.mine() // block 2: L1 attributes, the user transaction
    })

    it('getBlock(includeTransactions): the L1-attributes deposit at index 0 (OP specs source hash), the user deposit at 1, hashes as viem serializes deposits', async () => {
      expect(await setup.publicClient.getChainId()).to.equal(8453)
      const block = await setup.publicClient.getBlock({ blockNumber: 1n, includeTransactions: true })
      expect(block.stateRoot).to.match(/^0x[0-9a-f]{64}$/)
      expect(block.transactions.map((tx) => [tx.type, tx.transactionIndex])).to.deep.equal([['deposit', 0], ['deposit', 1]])
      const [l1Info, deposit] = block.transactions
      if (l1Info.type !== 'deposit' || deposit.type !== 'deposit') throw new Error('not deposits')
      expect([l1Info.from, l1Info.to, l1Info.mint ?? 0n, l1Info.value, l1Info.gas]).to.deep.equal([OP.depositor, OP.l1Block, 0n, 0n, 1_000_000n])
      expect(l1Info.isSystemTx).to.not.equal(true) // a regular deposit since Regolith
      expect(l1Info.input.slice(0, 10)).to.equal(toFunctionSelector('setL1BlockValuesJovian()'))
      expect(l1Info.sourceHash).to.equal(l1InfoSourceHash(l1Info.input))
      expect([deposit.hash, deposit.from, deposit.to, deposit.mint, deposit.value]).to.deep.equal([userDeposit, FROM, TO, 3n * ETHER, ETHER])
      for (const tx of [l1Info, deposit]) {
        const { sourceHash, from, to, mint, value, gas, isSystemTx, input: data } = tx
        expect(keccak256(serializeOpStack({ type: 'deposit', sourceHash, from, to: to ?? undefined, mint, value, gas, isSystemTx, data }))).to.equal(tx.hash)
      }
    })

    it('getTransaction of the L1-attributes deposit and of a user deposit: type deposit, typeHex 0x7e, mint, sourceHash, isSystemTx, the nonce the sender had', async () => {
      const deposit = await setup.publicClient.getTransaction({ hash: userDeposit })
      if (deposit.type !== 'deposit') throw new Error(`type ${deposit.type}`)
      expect([deposit.typeHex, deposit.mint, deposit.value, deposit.gas, deposit.nonce, deposit.blockNumber]).to.deep.equal(['0x7e', 3n * ETHER, ETHER, 100_000n, 0, 1n])
      expect(deposit.sourceHash).to.match(/^0x[0-9a-f]{64}$/)
      expect(deposit.isSystemTx).to.not.equal(true)
      // Block 2's L1-attributes deposit: the depositor's second deposit.
      const { transactions } = await setup.publicClient.getBlock({ blockNumber: 2n })
      const l1Info = await setup.publicClient.getTransaction({ hash: transactions[0] })
      if (l1Info.type !== 'deposit') throw new Error(`type ${l1Info.type}`)
      expect([l1Info.from, l1Info.to, l1Info.nonce, l1Info.transactionIndex]).to.deep.equal([OP.depositor, OP.l1Block, 1, 0])
      expect(l1Info.sourceHash).to.equal(l1InfoSourceHash(l1Info.input))
    })

    it('getTransactionReceipt of deposits: depositNonce (the nonce before), depositReceiptVersion 1, no gas price, no L1 fee', async () => {
      const receipt = await setup.publicClient.getTransactionReceipt({ hash: userDeposit })
      expect([receipt.status, receipt.type, receipt.depositNonce, receipt.depositReceiptVersion]).to.deep.equal(['success', '0x7e', 0n, 1])
      expect([receipt.gasUsed, receipt.effectiveGasPrice, receipt.l1Fee, receipt.l1GasUsed]).to.deep.equal([21_000n, 0n, null, null])
      const { transactions } = await setup.publicClient.getBlock({ blockNumber: 2n })
      const l1Info = await setup.publicClient.getTransactionReceipt({ hash: transactions[0] })
      expect([l1Info.depositNonce, l1Info.depositReceiptVersion, l1Info.transactionIndex]).to.deep.equal([1n, 1, 0])
    })

    it('getTransactionReceipt of a user transaction: l1Fee, l1GasUsed, l1GasPrice as bigints, the Fjord fee of its signed bytes', async () => {
      const receipt = await setup.publicClient.getTransactionReceipt({ hash: userTx })
      const raw = await rawOf(setup, userTx)
      const worked = fjordL1Fee(flzLength(raw)) // flz < 171 bytes: the 100-byte floor
      expect([worked.fee, worked.gasUsed]).to.deep.equal([FLOOR_L1_FEE, FLOOR_L1_GAS])
      expect([receipt.l1Fee, receipt.l1GasUsed, receipt.l1GasPrice]).to.deep.equal([FLOOR_L1_FEE, FLOOR_L1_GAS, DEFAULT_L1.l1BaseFee])
      expect([receipt.transactionIndex, receipt.type, receipt.l1FeeScalar]).to.deep.equal([1, 'eip1559', null])
      // viem passes the Ecotone/Jovian fields through as the node sent them (hex, as op-geth).
      const { l1BaseFeeScalar, l1BlobBaseFee, l1BlobBaseFeeScalar } = receipt as unknown as Record<string, unknown>
      expect([l1BaseFeeScalar, l1BlobBaseFee, l1BlobBaseFeeScalar]).to.deep.equal(['0x146b', '0x1', '0xf79c5'])
      // Jovian DA footprint: 100 bytes × daFootprintGasScalar 400.
      expect(receipt.blobGasUsed).to.equal(40_000n)
    })

    it("sendTransaction through the `base` wallet client (op-stack serializer): an EIP-1559 envelope for 8453, its l1Fee in the L1FeeVault and off the sender's balance", async () => {
      const sent = setup.requests.filter((request) => request.method === 'eth_sendRawTransaction').map((request) => request.params[0] as Hex)
      expect(sent).to.have.length(1)
      expect(keccak256(sent[0])).to.equal(userTx)
      const parsed = parseTransaction(sent[0])
      expect([parsed.type, parsed.chainId, parsed.to, parsed.data]).to.deep.equal(['eip1559', 8453, TO, '0xdeadbeef'])
      const receipt = await setup.publicClient.getTransactionReceipt({ hash: userTx })
      const { baseFeePerGas } = await setup.publicClient.getBlock({ blockNumber: 2n })
      const delta = async (address: Address) => (await balanceAt(setup, address, 2n)) - (await balanceAt(setup, address, 1n))
      expect(await delta(OP.l1FeeVault)).to.equal(FLOOR_L1_FEE)
      expect(await delta(OP.baseFeeVault)).to.equal(receipt.gasUsed * baseFeePerGas!)
      expect(await delta(setup.chain.accounts[0].address)).to.equal(-(1n + receipt.gasUsed * receipt.effectiveGasPrice + FLOOR_L1_FEE))
    })

    it("the pending block (blockTag 'pending') after two ticks: L1 attributes and a deposit in pre-confirmation 0, the user transaction after them, receipts pre-confirmed", async () => {
      const deposit = await setup.chain.deposit({ from: FROM, to: TO, mint: 1n })
      const userTx2 = await setup.wallet(0).sendTransaction({ to: TO, value: 2n })
      await setup.chain.tick()
      await setup.chain.tick()
      const block = await setup.publicClient.getBlock({ blockTag: 'pending', includeTransactions: true })
      expect(block.number).to.equal(3n)
      expect(block.transactions.map((tx) => [tx.type, tx.hash])).to.deep.equal([['deposit', block.transactions[0].hash], ['deposit', deposit], ['eip1559', userTx2]])
      const l1Info = block.transactions[0]
      if (l1Info.type !== 'deposit') throw new Error('not a deposit')
      expect(l1Info.sourceHash).to.equal(l1InfoSourceHash(l1Info.input))
      expect((await setup.publicClient.getTransactionReceipt({ hash: deposit })).depositNonce).to.equal(1n) // FROM's second deposit
      const receipt = await setup.publicClient.getTransactionReceipt({ hash: userTx2 })
      expect([receipt.transactionIndex, receipt.l1Fee]).to.deep.equal([2, fjordL1Fee(flzLength(await rawOf(setup, userTx2))).fee])
    })
  })

  it("viem's `baseSepolia` over preset 'base-sepolia': chain 84532, a deposit and a user transaction format, the receipt carries the L1 fee", async () => {
    const setup = await opStackViem(baseSepolia, { preset: 'base-sepolia' })
    expect(await setup.publicClient.getChainId()).to.equal(84532)
    const deposit = await setup.chain.deposit({ to: TO, mint: ETHER })
    await setup.chain.mine()
    const userTx = await setup.wallet(0).sendTransaction({ to: TO, value: 1n })
    await setup.chain.mine()
    const block = await setup.publicClient.getBlock({ blockNumber: 1n, includeTransactions: true })
    expect(block.transactions.map((tx) => [tx.type, tx.hash])).to.deep.equal([['deposit', block.transactions[0].hash], ['deposit', deposit]])
    const tx = await setup.publicClient.getTransaction({ hash: deposit })
    expect([tx.type, tx.type === 'deposit' && tx.mint]).to.deep.equal(['deposit', ETHER])
    expect((await setup.publicClient.getTransactionReceipt({ hash: deposit })).depositNonce).to.equal(0n)
    expect(parseTransaction(await rawOf(setup, userTx)).chainId).to.equal(84532)
    const receipt = await setup.publicClient.getTransactionReceipt({ hash: userTx })
    expect([receipt.l1Fee, receipt.l1GasUsed, receipt.l1GasPrice]).to.deep.equal([FLOOR_L1_FEE, FLOOR_L1_GAS, DEFAULT_L1.l1BaseFee])
  })

  it("a chain with experimental_preconfirmationTime 200: viem reads 'pending' (blocks, receipts, the GasPriceOracle) and sees pre-confirmed deposits and fees before any seal", async () => {
    const setup = await opStackViem({ ...base, experimental_preconfirmationTime: 200 }, { preset: 'base' })
    const deposit = await setup.chain.deposit({ to: TO, mint: ETHER })
    const userTx = await setup.wallet(0).sendTransaction({ to: TO, value: 1n })
    await setup.chain.tick()
    await setup.chain.tick()
    const block = await setup.publicClient.getBlock({ includeTransactions: true })
    expect(block.number).to.equal(1n)
    expect(block.transactions.map((tx) => [tx.type, tx.transactionIndex])).to.deep.equal([['deposit', 0], ['deposit', 1], ['eip1559', 2]])
    expect((await setup.publicClient.getTransactionReceipt({ hash: deposit })).depositNonce).to.equal(0n)
    const receipt = await setup.publicClient.getTransactionReceipt({ hash: userTx })
    expect(await setup.publicClient.estimateL1Fee({ account: setup.wallet(1).account, to: TO, value: 1n })).to.equal(receipt.l1Fee).and.to.equal(FLOOR_L1_FEE)
    expect(await setup.publicClient.getL1BaseFee()).to.equal(DEFAULT_L1.l1BaseFee)
    const tags = (method: string, at: number) => setup.requests.filter((request) => request.method === method).map((request) => request.params[at])
    expect(tags('eth_getBlockByNumber', 0)).to.include('pending')
    expect(tags('eth_call', 1)).to.deep.equal(['pending', 'pending'])
    expect(setup.chain.blockNumber()).to.equal(0n)
  })

  describe("viem's publicActionsL2 against the GasPriceOracle and L1Block predeploys", () => {
    let setup: Setup
    let token: Address

    before(async () => {
      setup = await opStackViem(base, { preset: 'base' })
      const hash = await setup.wallet(0).deployContract({ abi: Token.abi, bytecode: Token.bytecode, args: ['Token', 'TKN', 1000n * ETHER] } as never)
      await setup.chain.mine()
      token = (await setup.publicClient.getTransactionReceipt({ hash })).contractAddress!
    })

    it("getL1BaseFee is the configured L1 base fee (1 gwei by default, 7 gwei with opStack.l1BaseFee), and estimateL1Fee scales with it", async () => {
      expect(await setup.publicClient.getL1BaseFee()).to.equal(1_000_000_000n)
      const seven = await opStackViem(base, { preset: 'base', opStack: { l1BaseFee: 7_000_000_000n } })
      expect(await seven.publicClient.getL1BaseFee()).to.equal(7_000_000_000n)
      // 100e6 × (16·5227·7e9 + 1,014,213) / 1e12 = 58,542,400,101.4
      expect(await seven.publicClient.estimateL1Fee({ account: seven.wallet(0).account, to: TO, value: 1n })).to.equal(58_542_400_101n)
    })

    it('an ERC-20 transfer: estimateL1Fee and estimateL1Gas equal the l1Fee and l1GasUsed the node then charges (both at the Fjord 100-byte floor)', async () => {
      const alice = setup.wallet(0)
      const data = encodeFunctionData({ abi: Token.abi, functionName: 'transfer', args: [TO, 5n] })
      const estimate = await setup.publicClient.estimateL1Fee({ account: alice.account, to: token, data })
      const estimatedGas = await setup.publicClient.estimateL1Gas({ account: alice.account, to: token, data })
      // The GasPriceOracle prices the unsigned envelope plus 68 bytes for the signature.
      const worked = fjordL1Fee(flzLength(estimateEnvelope(8453, { to: token, data })) + 68)
      expect([estimate, estimatedGas]).to.deep.equal([worked.fee, worked.gasUsed])
      const hash = await alice.sendTransaction({ to: token, data })
      await setup.chain.mine()
      const receipt = await setup.publicClient.getTransactionReceipt({ hash })
      expect(receipt.status).to.equal('success')
      expect([receipt.l1Fee, receipt.l1GasUsed]).to.deep.equal([fjordL1Fee(flzLength(await rawOf(setup, hash))).fee, FLOOR_L1_GAS])
      expect([receipt.l1Fee, receipt.l1GasUsed]).to.deep.equal([estimate, estimatedGas]).and.to.deep.equal([FLOOR_L1_FEE, FLOOR_L1_GAS])
    })

    // Above the floor the two differ, on Base as here: getL1Fee compresses the unsigned
    // envelope and adds 68 bytes, the receipt (op-geth) compresses the signed bytes, whose
    // 67 signature bytes cost FastLZ 69 here (two more literal-run headers).
    it("320 bytes of calldata, signed with the estimate's own fields: the receipt is one FastLZ byte (836,500 × l1FeeScaled / 1e12 ≈ 69,958,169 wei) dearer than estimateL1Fee, as op-geth charges", async () => {
      const carol = setup.wallet(2)
      await carol.sendTransaction({ to: TO, value: 1n }) // nonce 0, so the next is the estimate's nonce 1
      await setup.chain.mine()
      const data = keccakBytes(10)
      const estimate = await setup.publicClient.estimateL1Fee({ account: carol.account, to: TO, value: 1n, data })
      const estimatedGas = await setup.publicClient.estimateL1Gas({ account: carol.account, to: TO, value: 1n, data })
      const unsigned = estimateEnvelope(8453, { to: TO, value: 1n, data })
      const signed = await carol.signTransaction({ to: TO, value: 1n, data, nonce: 1, gas: 300_000n, maxFeePerGas: parseGwei('5'), maxPriorityFeePerGas: parseGwei('1') })
      expect((signed.length - unsigned.length) / 2).to.equal(67) // yParity, r, s: 1 + 33 + 33 bytes, the same list header
      const [flzUnsigned, flzSigned] = [flzLength(unsigned), flzLength(signed)]
      expect(flzSigned).to.equal(flzUnsigned + 69)
      expect([estimate, estimatedGas]).to.deep.equal([fjordL1Fee(flzUnsigned + 68).fee, fjordL1Fee(flzUnsigned + 68).gasUsed])
      const hash = await setup.chain.sendRawTransaction(signed)
      await setup.chain.mine()
      const receipt = await setup.publicClient.getTransactionReceipt({ hash })
      expect([receipt.l1Fee, receipt.l1GasUsed]).to.deep.equal([fjordL1Fee(flzSigned).fee, fjordL1Fee(flzSigned).gasUsed])
      expect(receipt.l1Fee! - estimate).to.equal(69_958_169n)
      expect(await balanceAt(setup, OP.l1FeeVault, receipt.blockNumber) - (await balanceAt(setup, OP.l1FeeVault, receipt.blockNumber - 1n))).to.equal(receipt.l1Fee)
    })
  })

  describe('the operator fee (opStack operatorFeeScalar 7, operatorFeeConstant 11): estimateOperatorFee and estimateTotalFee', () => {
    let setup: Setup

    before(async () => {
      setup = await opStackViem(base, { preset: 'base', opStack: { operatorFeeScalar: 7, operatorFeeConstant: 11n } })
    })

    it("a plain transfer: 21,000 × 7 × 100 + 11 = 14,700,011 (GasPriceOracle, and L1Block with l1BlockAddress) lands in the OperatorFeeVault; estimateTotalFee is the sender's whole fee", async () => {
      const bob = setup.wallet(1)
      const request = { account: bob.account, to: TO, value: ETHER }
      const operatorFee = await setup.publicClient.estimateOperatorFee(request)
      expect(operatorFee).to.equal(jovianOperatorFee(21_000n, 7n, 11n)).and.to.equal(14_700_011n)
      expect(await setup.publicClient.estimateOperatorFee({ ...request, l1BlockAddress: OP.l1Block })).to.equal(operatorFee)
      const [total, l1Fee, gasPrice] = await Promise.all([setup.publicClient.estimateTotalFee(request), setup.publicClient.estimateL1Fee(request), setup.publicClient.getGasPrice()])
      expect(total).to.equal(l1Fee + operatorFee + 21_000n * gasPrice)
      const hash = await bob.sendTransaction({ to: TO, value: ETHER })
      await setup.chain.mine()
      const receipt = await setup.publicClient.getTransactionReceipt({ hash })
      const { operatorFeeScalar, operatorFeeConstant } = receipt as unknown as Record<string, unknown>
      expect([operatorFeeScalar, operatorFeeConstant, receipt.gasUsed, receipt.effectiveGasPrice]).to.deep.equal(['0x7', '0xb', 21_000n, gasPrice])
      const delta = async (address: Address) => (await balanceAt(setup, address, 1n)) - (await balanceAt(setup, address, 0n))
      expect(await delta(OP.operatorFeeVault)).to.equal(14_700_011n)
      expect(await delta(OP.l1FeeVault)).to.equal(l1Fee)
      expect(-(await delta(bob.account.address)) - ETHER).to.equal(total)
    })

    // On Base too: viem prices eth_estimateGas's gas (geth's search stops within 1.5%), while
    // op-geth charges the operator fee of gasUsed (it refunds that of the unused gas).
    it('a call with calldata: the estimate prices eth_estimateGas, the node charges gasUsed (21,000 + 10 × 16 tokens, the EIP-7623 floor)', async () => {
      const bob = setup.wallet(1)
      const request = { account: bob.account, to: TO, value: 1n, data: '0xdeadbeef' as Hex }
      const gas = await setup.publicClient.estimateGas(request)
      expect(await setup.publicClient.estimateOperatorFee(request)).to.equal(jovianOperatorFee(gas, 7n, 11n))
      const hash = await bob.sendTransaction(request)
      await setup.chain.mine()
      const receipt = await setup.publicClient.getTransactionReceipt({ hash })
      expect(receipt.gasUsed).to.equal(21_160n)
      expect(gas >= receipt.gasUsed && gas <= (receipt.gasUsed * 1015n) / 1000n).to.equal(true)
      expect((await balanceAt(setup, OP.operatorFeeVault, 2n)) - (await balanceAt(setup, OP.operatorFeeVault, 1n))).to.equal(jovianOperatorFee(21_160n, 7n, 11n))
    })
  })

  describe('ethers 6 reads deposits, their receipts and blocks', () => {
    let setup: Setup
    let server: DevnetServer
    let deposit: Hex
    let userTx: Hex

    before(async () => {
      setup = await opStackViem(base, { preset: 'base' })
      server = await startServer(setup.chain, { port: 0 })
      deposit = await setup.chain.deposit({ from: FROM, to: TO, mint: 3n * ETHER, value: ETHER })
      await setup.chain.mine()
      userTx = await setup.chain.sendTransaction({ from: setup.chain.accounts[0].address, to: TO, value: 1n })
      await setup.chain.mine()
    })

    after(() => server.close())

    const providers: Record<string, () => Provider> = {
      'JsonRpcProvider over HTTP': () => new JsonRpcProvider(server.url, Network.from(8453), { staticNetwork: true, cacheTimeout: -1 }),
      'BrowserProvider over the chain': () => new BrowserProvider(setup.chain, undefined, { cacheTimeout: -1 }),
    }
    for (const [name, make] of Object.entries(providers)) {
      it(`${name}: getTransactionReceipt (deposit, user), getBlock(1, prefetch) and getTransaction of a deposit`, async () => {
        const provider = make()
        try {
          expect((await provider.getNetwork()).chainId).to.equal(8453n)
          const depositReceipt = (await provider.getTransactionReceipt(deposit))!
          expect([depositReceipt.type, depositReceipt.status, depositReceipt.index, depositReceipt.from, depositReceipt.gasUsed, depositReceipt.fee]).to.deep.equal([126, 1, 1, getAddress(FROM), 21_000n, 0n])
          const userReceipt = (await provider.getTransactionReceipt(userTx))!
          expect([userReceipt.type, userReceipt.status, userReceipt.index, userReceipt.blockNumber]).to.deep.equal([2, 1, 1, 2])
          const block = (await provider.getBlock(1, true))!
          expect(block.prefetchedTransactions.map((tx) => [tx.type, tx.index, tx.from])).to.deep.equal([[126, 0, getAddress(OP.depositor)], [126, 1, getAddress(FROM)]])
          const tx = (await provider.getTransaction(deposit))!
          expect([tx.type, tx.from, tx.to, tx.value, tx.nonce, tx.gasLimit, tx.blockNumber]).to.deep.equal([126, getAddress(FROM), getAddress(TO), ETHER, 0, 100_000n, 1])
        } finally {
          provider.destroy()
        }
      })
    }
  })
})
