/**
 * Foundry 1.7.1 (npm @foundry-rs/cast and forge) against the devnet on 127.0.0.1, offline: forge
 * compiles with npm's solcjs behind fixtures/foundry/solc-shim.cjs. cast and forge read a receipt
 * and then the sender's nonce at `latest`, so they are pointed at the standard endpoint
 * (`/sealed`), where a receipt exists once its block seals. Where the binaries cannot run on this
 * machine, the specs say so and are skipped (never passed).
 */
import { execFile, spawnSync } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { expect } from 'chai'
import { getContractAddress, parseEther } from 'viem'
import { createChain, startServer, type Chain, type DevnetServer } from '../../lib/index.ts'
import type { Address } from '../../lib/types.ts'

const run = promisify(execFile)
const BIN = resolve('node_modules/.bin')
const PROJECT = resolve('fixtures/foundry')
const DEPLOYER_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'
const DEPLOYER = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' as Address
const BOB = `0x${'b0'.repeat(20)}` as Address

/** Why the Foundry binaries cannot run here, or undefined when they can. */
function unavailable(): string | undefined {
  for (const tool of ['cast', 'forge']) {
    const probe = spawnSync(join(BIN, tool), ['--version'], { encoding: 'utf8' })
    if (probe.status !== 0) return `${tool} does not run on this machine (${probe.error?.message ?? probe.stderr.trim().split('\n')[0]})`
  }
  return undefined
}

describe('tools: Foundry (cast, forge) against the sealed endpoint', function () {
  this.timeout(180_000)
  let chain: Chain
  let server: DevnetServer
  let home: string
  let project: string
  let env: NodeJS.ProcessEnv

  before(async function () {
    const why = unavailable()
    if (why !== undefined) {
      console.log(`      SKIPPED (visible): ${why}`)
      this.skip()
    }
    // Short blocks keep ten sequential sends quick; each still waits for its seal.
    chain = await createChain({ clock: 'realtime', blockTimeMs: 400, preconfIntervalMs: 100, revertCode: 3 })
    server = await startServer(chain, { port: 0 })
    home = mkdtempSync(join(tmpdir(), 'preconf-foundry-home-'))
    // cast decodes revert selectors from this cache; seeding it keeps cast offline.
    mkdirSync(join(home, '.foundry', 'cache'), { recursive: true })
    writeFileSync(join(home, '.foundry', 'cache', 'signatures'), JSON.stringify({ functions: {}, errors: { '0x08c379a0': 'Error(string)', '0x4e487b71': 'Panic(uint256)' }, events: {} }))
    project = mkdtempSync(join(tmpdir(), 'preconf-foundry-project-'))
    cpSync(PROJECT, project, { recursive: true })
    env = { ...process.env, HOME: home, FOUNDRY_SOLC: join(PROJECT, 'solc-shim.cjs'), FOUNDRY_OFFLINE: 'true', NO_COLOR: '1', FOUNDRY_DISABLE_NIGHTLY_WARNING: '1' }
    // `forge build` also adds the project's errors and functions to cast's signature cache.
    await run(join(BIN, 'forge'), ['build'], { env, cwd: project })
  })

  after(async () => {
    await server?.close()
    for (const dir of [home, project]) if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
  })

  const cast = (...args: string[]) => run(join(BIN, 'cast'), args, { env, cwd: project })
  const forge = (...args: string[]) => run(join(BIN, 'forge'), args, { env, cwd: project })

  it('ten `cast send` in a row all land, each with the next nonce (Anvil: 10 of 10)', async () => {
    for (let i = 0; i < 10; i++) {
      const { stdout } = await cast('send', '--rpc-url', server.sealedUrl, '--private-key', DEPLOYER_KEY, BOB, '--value', '0.01ether')
      expect(stdout, `send ${i}`).to.match(/status\s+1 \(success\)/)
    }
    expect(await chain.getBalance(BOB)).to.equal(10n * parseEther('0.01'))
    expect(await chain.getTransactionCount(DEPLOYER)).to.equal(10)
  })

  it('`cast tx --from --nonce` finds a sealed transaction by its sender and nonce (eth_getTransactionBySenderAndNonce, as on Anvil)', async () => {
    const { stdout } = await cast('tx', '--rpc-url', server.sealedUrl, '--from', DEPLOYER, '--nonce', '3', '--json')
    const transaction = JSON.parse(stdout) as { nonce: string; from: string; to: string }
    expect(transaction).to.include({ nonce: '0x3', from: DEPLOYER.toLowerCase(), to: BOB.toLowerCase() })
  })

  it('`forge script --broadcast` twice in a row deploys and increments twice', async () => {
    const nonce = await chain.getTransactionCount(DEPLOYER, 'pending')
    for (let i = 0; i < 2; i++) {
      await forge('script', 'script/Counter.s.sol', '--rpc-url', server.sealedUrl, '--broadcast', '--private-key', DEPLOYER_KEY)
    }
    for (const deployedAt of [nonce, nonce + 2]) {
      const counter = getContractAddress({ from: DEPLOYER, nonce: BigInt(deployedAt) })
      expect(await chain.getCode(counter), `Counter at nonce ${deployedAt}`).to.not.equal('0x')
      expect(BigInt(await chain.getStorageAt(counter, 0n))).to.equal(1n)
    }
  })

  it('`forge test --fork-url` reads, changes (in its fork) and reverts against a deployed Counter', async () => {
    const nonce = await chain.getTransactionCount(DEPLOYER, 'pending')
    await forge('script', 'script/Counter.s.sol', '--rpc-url', server.sealedUrl, '--broadcast', '--private-key', DEPLOYER_KEY)
    const counter = getContractAddress({ from: DEPLOYER, nonce: BigInt(nonce) })
    const { stdout } = await run(join(BIN, 'forge'), ['test', '--fork-url', server.sealedUrl], { env: { ...env, COUNTER: counter }, cwd: project })
    expect(stdout).to.match(/3 passed; 0 failed/)
  })

  it('`cast send --access-list` asks eth_createAccessList; `--auth` (EIP-7702) delegates the sender to a contract', async () => {
    const nonce = await chain.getTransactionCount(DEPLOYER, 'pending')
    await forge('script', 'script/Counter.s.sol', '--rpc-url', server.sealedUrl, '--broadcast', '--private-key', DEPLOYER_KEY)
    const counter = getContractAddress({ from: DEPLOYER, nonce: BigInt(nonce) })
    const { stdout: listed } = await cast('send', '--rpc-url', server.sealedUrl, '--private-key', DEPLOYER_KEY, counter, 'increment()', '--access-list')
    expect(listed).to.match(/status\s+1 \(success\)/)
    expect(BigInt(await chain.getStorageAt(counter, 0n))).to.equal(2n)
    const { stdout: delegated } = await cast('send', '--rpc-url', server.sealedUrl, '--private-key', DEPLOYER_KEY, DEPLOYER, 'increment()', '--auth', counter)
    expect(delegated).to.match(/status\s+1 \(success\)/)
    expect(await chain.getCode(DEPLOYER)).to.equal(`0xef0100${counter.slice(2).toLowerCase()}`)
  })

  it('with --revert-code 3, `cast send` decodes a custom-error revert (it decodes only code 3)', async () => {
    const nonce = await chain.getTransactionCount(DEPLOYER, 'pending')
    await forge('script', 'script/Counter.s.sol', '--rpc-url', server.sealedUrl, '--broadcast', '--private-key', DEPLOYER_KEY)
    const counter = getContractAddress({ from: DEPLOYER, nonce: BigInt(nonce) })
    // cast 1.7.1 reports the failed estimate on stderr and still exits 0.
    const { stderr } = await cast('send', '--rpc-url', server.sealedUrl, '--private-key', DEPLOYER_KEY, counter, 'failCustom()')
    expect(stderr).to.match(/Failed to estimate gas: server returned an error response: error code 3: execution reverted/)
    expect(stderr).to.match(/TooBig\(7, 5\)/)
  })
})
