/**
 * The OP-stack predeploys: the fixtures are the files ethereum-optimism/specs publishes (same git
 * blobs), the runtime constants in lib are what that deployment code returns and hash to the code
 * hashes the OP-stack specs require, opStackPredeploys() places them with GasPriceOracle slot 0 =
 * 0x01010101, and the real contracts answer on a devnet chain as on an OP-stack node.
 */
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createEVM } from '@ethereumjs/evm'
import { createAddressFromString } from '@ethereumjs/util'
import { expect } from 'chai'
import { bytesToHex, decodeFunctionResult, encodeFunctionData, hexToBytes, keccak256, numberToHex, pad, parseAbi, type Abi, type Hex } from 'viem'
import { createChain, RPCError, type Chain } from '../../lib/index.ts'
import { L1_BLOCK_NUMBER_RUNTIME, L2_TO_L1_MESSAGE_PASSER_RUNTIME, WETH_RUNTIME } from '../../lib/op-stack/devnet-predeploy-code.ts'
import { GAS_PRICE_ORACLE_RUNTIME, L1_BLOCK_RUNTIME, OPERATOR_FEE_VAULT_RUNTIME } from '../../lib/op-stack/predeploy-code.ts'
import {
  BASE_FEE_VAULT,
  DEPOSITOR_ACCOUNT,
  GAS_PRICE_ORACLE,
  L1_BLOCK,
  L1_BLOCK_NUMBER,
  L1_FEE_VAULT,
  L2_TO_L1_MESSAGE_PASSER,
  OPERATOR_FEE_VAULT,
  opStackPredeploys,
  SEQUENCER_FEE_VAULT,
  WETH,
} from '../../lib/op-stack/predeploys.ts'
import type { Address } from '../../lib/types.ts'
import { rejection } from '../support/chain-helpers.ts'

const FIXTURES = new URL('../../fixtures/op-stack/', import.meta.url)
const ROOT = new URL('../../', import.meta.url).pathname
const fixtureText = (name: string): string => readFileSync(new URL(name, FIXTURES), 'utf8')
const fixtureBytes = (name: string): Uint8Array => hexToBytes(fixtureText(name).trim() as Hex)

/**
 * Each published deployment file: its git blob in ethereum-optimism/specs (specs/static/bytecode/*.txt),
 * the network-upgrade deployer (nonce 0) and the address and code hash the OP-stack specs state
 * (specs/protocol/{jovian,isthmus}/derivation.md), and the lib constant it must give.
 */
const DEPLOYMENTS = [
  {
    file: 'jovian-l1-block-deployment.hex',
    blob: '94c4e5a521a3f8ee280b61bc8b90148141ffcd4a',
    deployer: '0x4210000000000000000000000000000000000006',
    created: '0x3ba4007f5c922fbb33c454b41ea7a1f11e83df2c',
    codeHash: '0x5f885ca815d2cf27a203123e50b8ae204fdca910b6995d90b2d7700cbb9240d1',
    runtime: L1_BLOCK_RUNTIME,
  },
  {
    file: 'jovian-gas-price-oracle-deployment.hex',
    blob: '2735e142728226152b9751b15f210f9335b8934d',
    deployer: '0x4210000000000000000000000000000000000007',
    created: '0x4f1db3c6abd250ba86e0928471a8f7db3afd88f1',
    codeHash: '0xe9fc7c96c4db0d6078e3d359d7e8c982c350a513cb2c31121adf5e1e8a446614',
    runtime: GAS_PRICE_ORACLE_RUNTIME,
  },
  {
    file: 'isthmus-operator-fee-deployment.hex',
    blob: '36f7e64a05c783da47f2f8b0b8c885c7b71713f7',
    deployer: '0x4210000000000000000000000000000000000005',
    created: '0x4fa2be8cd41504037f1838bce3bcc93bc68ff537',
    codeHash: '0x57dc55c9c09ca456fa728f253fe7b895d3e6aae0706104935fe87c7721001971',
    runtime: OPERATOR_FEE_VAULT_RUNTIME,
  },
] as const

/** solc's constructor prologue when the constructor does nothing: reject value, CODECOPY init[32:], RETURN it. */
function solcPrologue(runtimeLength: number): Hex {
  return `0x608060405234801561001057600080fd5b5061${runtimeLength.toString(16).padStart(4, '0')}806100206000396000f3fe`
}

/** Runs init code as the network-upgrade deposit does (from the deployer at nonce 0) in @ethereumjs/evm. */
async function deploy(init: Uint8Array, deployer: string): Promise<{ created: string; code: Hex }> {
  const evm = await createEVM()
  const result = await evm.runCall({ caller: createAddressFromString(deployer), data: init, gasLimit: 30_000_000n, skipBalance: true })
  expect(result.execResult.exceptionError).to.equal(undefined)
  const created = result.createdAddress!
  return { created: created.toString(), code: bytesToHex(await evm.stateManager.getCode(created)) }
}

describe('OP-stack predeploy bytecode (ethereum-optimism/specs static/bytecode)', () => {
  for (const deployment of DEPLOYMENTS) {
    describe(deployment.file, () => {
      it('is the published file byte for byte (same git blob)', () => {
        const content = readFileSync(new URL(deployment.file, FIXTURES))
        const blob = createHash('sha1').update(`blob ${content.length}\0`).update(content).digest('hex')
        expect(blob).to.equal(deployment.blob)
      })

      it('deployed from its upgrade deployer, creates the address and code hash the OP-stack specs state, and gives the lib constant', async () => {
        const { created, code } = await deploy(fixtureBytes(deployment.file), deployment.deployer)
        expect(created).to.equal(deployment.created)
        expect(keccak256(code)).to.equal(deployment.codeHash)
        expect(code).to.equal(deployment.runtime)
      })
    })
  }

  it('L1Block and GasPriceOracle: the runtime is the deployment code minus its 32-byte solc prologue (no constructor work)', () => {
    for (const [file, runtime, length] of [
      ['jovian-l1-block-deployment.hex', L1_BLOCK_RUNTIME, 1813],
      ['jovian-gas-price-oracle-deployment.hex', GAS_PRICE_ORACLE_RUNTIME, 7848],
    ] as const) {
      const init = fixtureBytes(file)
      expect(init.length).to.equal(32 + length)
      expect(bytesToHex(init.subarray(0, 32))).to.equal(solcPrologue(length))
      expect(bytesToHex(init.subarray(32))).to.equal(runtime)
    }
  })
})

describe('opStackPredeploys()', () => {
  it('holds WETH, the GasPriceOracle, the vaults, L1BlockNumber, L1Block and the L2ToL1MessagePasser at their predeploy addresses, in address order', () => {
    const accounts = opStackPredeploys()
    expect(accounts.map((account) => account.address)).to.deep.equal([
      '0x4200000000000000000000000000000000000006',
      '0x420000000000000000000000000000000000000f',
      '0x4200000000000000000000000000000000000011',
      '0x4200000000000000000000000000000000000013',
      '0x4200000000000000000000000000000000000015',
      '0x4200000000000000000000000000000000000016',
      '0x4200000000000000000000000000000000000019',
      '0x420000000000000000000000000000000000001a',
      '0x420000000000000000000000000000000000001b',
    ])
    expect([WETH, GAS_PRICE_ORACLE, SEQUENCER_FEE_VAULT, L1_BLOCK_NUMBER, L1_BLOCK, L2_TO_L1_MESSAGE_PASSER, BASE_FEE_VAULT, L1_FEE_VAULT, OPERATOR_FEE_VAULT]).to.deep.equal(
      accounts.map((account) => account.address),
    )
    expect(DEPOSITOR_ACCOUNT).to.equal('0xdeaddeaddeaddeaddeaddeaddeaddeaddead0001')
  })

  it('GasPriceOracle and L1Block carry the Jovian code, the OperatorFeeVault the Isthmus vault, the other vaults no code', () => {
    const code = new Map(opStackPredeploys().map((account) => [account.address, bytesToHex(account.code)]))
    expect(code.get(GAS_PRICE_ORACLE)).to.equal(GAS_PRICE_ORACLE_RUNTIME)
    expect(code.get(L1_BLOCK)).to.equal(L1_BLOCK_RUNTIME)
    expect(code.get(OPERATOR_FEE_VAULT)).to.equal(OPERATOR_FEE_VAULT_RUNTIME)
    expect([code.get(WETH), code.get(L2_TO_L1_MESSAGE_PASSER), code.get(L1_BLOCK_NUMBER)]).to.deep.equal([WETH_RUNTIME, L2_TO_L1_MESSAGE_PASSER_RUNTIME, L1_BLOCK_NUMBER_RUNTIME])
    for (const vault of [SEQUENCER_FEE_VAULT, BASE_FEE_VAULT, L1_FEE_VAULT]) expect(code.get(vault)).to.equal('0x')
  })

  it('stores only GasPriceOracle slot 0 = 0x01010101 (isEcotone, isFjord, isIsthmus, isJovian), and returns fresh accounts', () => {
    const accounts = opStackPredeploys()
    const storage = accounts.map((account) => [account.address, [...account.storage]])
    expect(storage.filter(([, words]) => words.length > 0)).to.deep.equal([[GAS_PRICE_ORACLE, [[0n, 0x01010101n]]]])
    accounts[1].code.fill(0)
    expect(bytesToHex(opStackPredeploys()[1].code)).to.equal(GAS_PRICE_ORACLE_RUNTIME)
  })

  it("the devnet's own WETH, L2ToL1MessagePasser and L1BlockNumber are what fixtures/op-stack/devnet/*.sol compile to (npm run fixtures; solc runs in a process of its own)", () => {
    const checked = execFileSync(process.execPath, ['--import', 'tsx', 'fixtures/op-stack/build-devnet-predeploys.ts', '--check'], { cwd: ROOT, encoding: 'utf8' })
    expect(checked.trim()).to.equal('lib/op-stack/devnet-predeploy-code.ts is current')
  })
})

const GPO_ABI = parseAbi([
  'function isEcotone() view returns (bool)',
  'function isFjord() view returns (bool)',
  'function isIsthmus() view returns (bool)',
  'function isJovian() view returns (bool)',
  'function l1BaseFee() view returns (uint256)',
  'function blobBaseFee() view returns (uint256)',
  'function baseFeeScalar() view returns (uint32)',
  'function blobBaseFeeScalar() view returns (uint32)',
  'function decimals() pure returns (uint256)',
  'function version() view returns (string)',
  'function getOperatorFee(uint256 gasUsed) view returns (uint256)',
  'function getL1FeeUpperBound(uint256 unsignedTxSize) view returns (uint256)',
  'function getL1Fee(bytes data) view returns (uint256)',
])
const L1_BLOCK_ABI = parseAbi([
  'function DEPOSITOR_ACCOUNT() pure returns (address)',
  'function version() view returns (string)',
  'function operatorFeeScalar() view returns (uint32)',
  'function operatorFeeConstant() view returns (uint64)',
  'function daFootprintGasScalar() view returns (uint16)',
])
const VAULT_ABI = parseAbi([
  'function recipient() view returns (address)',
  'function minWithdrawalAmount() view returns (uint256)',
  'function withdrawalNetwork() view returns (uint8)',
  'function version() view returns (string)',
])

/** The OP-mainnet vector's L1 values (base-vector.md), plus an operator fee scalar 7, constant 11 and da scalar 400. */
const L1 = { baseFee: 1_055_991_687n, blobBaseFee: 1n, baseFeeScalar: 5227n, blobBaseFeeScalar: 1_014_213n, sequenceNumber: 4n, operatorScalar: 7n, operatorConstant: 11n, da: 400n }

/** Fjord's L1 cost of a FastLZ size (OP-stack specs, fjord/exec-engine.md), with the scalars above. */
function fjordCost(fastLzSize: bigint): bigint {
  const estimated = 836_500n * fastLzSize - 42_585_600n
  const size = estimated < 100_000_000n ? 100_000_000n : estimated
  return (size * (L1.baseFeeScalar * 16n * L1.baseFee + L1.blobBaseFeeScalar * L1.blobBaseFee)) / 10n ** 12n
}

describe('the Jovian GasPriceOracle and L1Block on a devnet chain (values from executing the same bytecode, gpo-and-l1block.md)', () => {
  let chain: Chain
  const word = (value: bigint): Hex => pad(numberToHex(value))
  const request = (method: string, ...params: unknown[]) => chain.request({ method, params })
  async function read(abi: Abi, to: Address, functionName: string, args: readonly unknown[] = []): Promise<unknown> {
    const data = await chain.call({ to, data: encodeFunctionData({ abi, functionName, args }) })
    return decodeFunctionResult({ abi, functionName, data })
  }

  before(async () => {
    chain = await createChain({ clock: 'manual' })
    for (const account of opStackPredeploys()) {
      if (account.code.length > 0) await request('anvil_setCode', account.address, bytesToHex(account.code))
      for (const [slot, value] of account.storage) await request('anvil_setStorageAt', account.address, word(slot), word(value))
    }
    await request('anvil_setStorageAt', L1_BLOCK, word(1n), word(L1.baseFee))
    await request('anvil_setStorageAt', L1_BLOCK, word(3n), word((L1.baseFeeScalar << 96n) | (L1.blobBaseFeeScalar << 64n) | L1.sequenceNumber))
    await request('anvil_setStorageAt', L1_BLOCK, word(7n), word(L1.blobBaseFee))
    await request('anvil_setStorageAt', L1_BLOCK, word(8n), word((L1.da << 96n) | (L1.operatorScalar << 64n) | L1.operatorConstant))
  })

  it('GasPriceOracle: isEcotone, isFjord, isIsthmus and isJovian are all true; version 1.6.0; decimals 6', async () => {
    for (const flag of ['isEcotone', 'isFjord', 'isIsthmus', 'isJovian']) expect(await read(GPO_ABI, GAS_PRICE_ORACLE, flag)).to.equal(true)
    expect(await read(GPO_ABI, GAS_PRICE_ORACLE, 'version')).to.equal('1.6.0')
    expect(await read(GPO_ABI, GAS_PRICE_ORACLE, 'decimals')).to.equal(6n)
  })

  it("GasPriceOracle reads L1Block's slots 1, 3 and 7: l1BaseFee, blobBaseFee, baseFeeScalar, blobBaseFeeScalar", async () => {
    expect(await read(GPO_ABI, GAS_PRICE_ORACLE, 'l1BaseFee')).to.equal(1_055_991_687n)
    expect(await read(GPO_ABI, GAS_PRICE_ORACLE, 'blobBaseFee')).to.equal(1n)
    expect(await read(GPO_ABI, GAS_PRICE_ORACLE, 'baseFeeScalar')).to.equal(5227)
    expect(await read(GPO_ABI, GAS_PRICE_ORACLE, 'blobBaseFeeScalar')).to.equal(1_014_213)
  })

  it('getOperatorFee(21000) = 21000·7·100 + 11 = 14,700,011 (the Jovian formula; Isthmus would give 11)', async () => {
    expect(await read(GPO_ABI, GAS_PRICE_ORACLE, 'getOperatorFee', [21_000n])).to.equal(14_700_011n)
    expect(21_000n * L1.operatorScalar * 100n + L1.operatorConstant).to.equal(14_700_011n)
  })

  it('getL1FeeUpperBound(1176) = Fjord cost of 1244 + 1244/255 + 16 = 1264 bytes = 89,617,374,899', async () => {
    expect(await read(GPO_ABI, GAS_PRICE_ORACLE, 'getL1FeeUpperBound', [1176n])).to.equal(89_617_374_899n)
    expect(fjordCost(1264n)).to.equal(89_617_374_899n)
  })

  it('getL1Fee(the 1176-byte OP-mainnet transaction) = Fjord cost of FastLZ 385 + 68 = 29,704,551,452 (the contract adds 68 for a signature)', async () => {
    const raw = fixtureText('op-mainnet-124665056-tx1.hex').trim() as Hex
    expect(keccak256(raw)).to.equal('0x1059e8004daff32caa1f1b1ef97fe3a07a8cf40508f5b835b66d9420d87c4a4a')
    expect(hexToBytes(raw).length).to.equal(1176)
    expect(await read(GPO_ABI, GAS_PRICE_ORACLE, 'getL1Fee', [raw])).to.equal(29_704_551_452n)
    expect(fjordCost(385n + 68n)).to.equal(29_704_551_452n)
  })

  it('L1Block: DEPOSITOR_ACCOUNT() is 0xdead…0001, version 1.7.0, slot 8 unpacks to operator scalar 7, constant 11, da scalar 400', async () => {
    expect(await read(L1_BLOCK_ABI, L1_BLOCK, 'DEPOSITOR_ACCOUNT')).to.equal('0xDeaDDEaDDeAdDeAdDEAdDEaddeAddEAdDEAd0001')
    expect(await read(L1_BLOCK_ABI, L1_BLOCK, 'version')).to.equal('1.7.0')
    expect(await read(L1_BLOCK_ABI, L1_BLOCK, 'operatorFeeScalar')).to.equal(7)
    expect(await read(L1_BLOCK_ABI, L1_BLOCK, 'operatorFeeConstant')).to.equal(11n)
    expect(await read(L1_BLOCK_ABI, L1_BLOCK, 'daFootprintGasScalar')).to.equal(400)
  })

  it('L1Block: setL1BlockValuesJovian from anyone but the depositor reverts with NotDepositor() 0x3cc50b45; from the depositor it succeeds', async () => {
    const data = `0x3db6be2b${'00'.repeat(174)}` as Hex
    const error = await rejection(chain.call({ to: L1_BLOCK, data }), RPCError)
    expect(error.message).to.equal('execution reverted')
    expect(error.data).to.equal('0x3cc50b45')
    expect(await chain.call({ from: DEPOSITOR_ACCOUNT, to: L1_BLOCK, data })).to.equal('0x')
  })

  it('OperatorFeeVault (Isthmus 1.0.0) withdraws to the BaseFeeVault on L2 with no minimum; the other vaults hold no code', async () => {
    expect(await read(VAULT_ABI, OPERATOR_FEE_VAULT, 'recipient')).to.equal('0x4200000000000000000000000000000000000019')
    expect(await read(VAULT_ABI, OPERATOR_FEE_VAULT, 'minWithdrawalAmount')).to.equal(0n)
    expect(await read(VAULT_ABI, OPERATOR_FEE_VAULT, 'withdrawalNetwork')).to.equal(1)
    expect(await read(VAULT_ABI, OPERATOR_FEE_VAULT, 'version')).to.equal('1.0.0')
    for (const vault of [SEQUENCER_FEE_VAULT, BASE_FEE_VAULT, L1_FEE_VAULT]) expect(await chain.getCode(vault)).to.equal('0x')
  })
})
