/**
 * A Hardhat-style script: the chain as a library, ethers on its EIP-1193 provider. With
 * `mining: 'auto'` every transaction is sealed at once, as under Hardhat's automine.
 */
import { BrowserProvider, ContractFactory, Wallet } from 'ethers'
import { createChain } from 'preconf-devnet'
import { Token } from '../../fixtures/artifacts/Token.ts'

export async function main(): Promise<{ address: string; symbol: string; block: number }> {
  const chain = await createChain({ mining: 'auto' })
  const provider = new BrowserProvider(chain)
  const deployer = new Wallet(chain.accounts[0].privateKey, provider)

  const token = await new ContractFactory(Token.abi, Token.bytecode, deployer).deploy('Token', 'TKN', 1_000_000n)
  const receipt = await token.deploymentTransaction()!.wait()
  const address = await token.getAddress()
  const symbol = (await token.getFunction('symbol')()) as string
  console.log(`Token ${symbol} deployed at ${address} in block ${receipt!.blockNumber}`)
  return { address, symbol, block: receipt!.blockNumber }
}

if (import.meta.url === `file://${process.argv[1]}`) main().catch((error) => {
  console.error(error)
  process.exitCode = 1
})
