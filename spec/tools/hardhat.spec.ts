/**
 * Hardhat 2.29.1 with its network helpers (1.1.2), hardhat-ethers and Ignition (0.15.16), unchanged,
 * against the devnet over HTTP on 127.0.0.1 (fixtures/hardhat). The judge is Hardhat itself: the
 * fixture's helper tests assert what Hardhat Network (EDR) does, and the first spec runs them on
 * `--network hardhat` to show they pass there before the devnet is held to them.
 *
 * The devnet runs in this process on the realtime clock, since Hardhat, hardhat-ethers' receipt
 * polling and the helpers all live on wall time. It automines (`mining: 'auto'`), as Hardhat
 * Network does by default: each transaction is sealed in its own block at once, so tests can count
 * blocks and timestamps exactly, and `hardhat_getAutomine` answers true, which makes Ignition wait
 * for one confirmation instead of five (with polling each second). Interval mining would run most
 * helpers too, but blocks would seal on their own every 2 s between a test's steps.
 *
 * The fixture's dependencies (~350 MB) are installed on demand (`npm ci`); where that fails, the
 * spec says so and is skipped, never passed.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect } from 'chai'
import { createChain, startServer, type Address, type Chain, type DevnetServer } from '../../lib/index.ts'
import { copyHardhatFixture, hardhat, installHardhatFixture, removeCopy } from '../support/hardhat-project.ts'

/** The devnet's first dev account (mnemonic "test test … junk"), which Hardhat's remote signer 0 is. */
const DEPLOYER = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'

/** Every helper the fixture's tests must cover (each named in at least one test title). */
const HELPERS = [
  'loadFixture', 'time.latest', 'time.increase', 'time.increaseTo', 'time.setNextBlockTimestamp', 'mine(n)',
  'mine(n, {interval})', 'mineUpTo', 'setBalance', 'setCode', 'setNonce', 'setStorageAt', 'getStorageAt',
  'impersonateAccount', 'stopImpersonatingAccount', 'takeSnapshot', 'restore', 'dropTransaction', 'setCoinbase',
  'setNextBlockBaseFeePerGas', 'setPrevRandao', 'setBlockGasLimit',
]

/** The part of mocha's JSON report the spec reads. */
interface MochaReport {
  readonly stats: { readonly tests: number; readonly passes: number; readonly failures: number; readonly pending: number }
  readonly passes: ReadonlyArray<{ readonly title: string }>
  readonly failures: ReadonlyArray<{ readonly title: string; readonly err: { readonly message?: string } }>
}

describe('tools: Hardhat 2 network helpers and Ignition, unchanged, over HTTP (Hardhat/EDR is the judge)', function () {
  this.timeout(60_000)
  let chain: Chain
  let server: DevnetServer
  let project: string | undefined

  before(async function () {
    this.timeout(300_000)
    const outcome = await installHardhatFixture()
    if ('unavailable' in outcome) {
      console.log(`      SKIPPED (visible): the Hardhat fixture's dependencies could not be installed: ${outcome.unavailable}`)
      this.skip()
    }
    if (outcome.installed === 'now') console.log(`      fixtures/hardhat installed in ${(outcome.ms / 1000).toFixed(1)} s`)
    chain = await createChain({ clock: 'realtime', mining: 'auto' })
    server = await startServer(chain, { port: 0 })
    project = copyHardhatFixture()
  })

  after(async () => {
    await server?.close()
    removeCopy(project)
  })

  /** Runs the fixture's helper tests on `network`; says which failed, and how. */
  async function helperTests(network: string, env: Record<string, string> = {}) {
    const report = join(project!, `mocha-${network}.json`)
    const result = await hardhat(project!, ['test', '--network', network], { ...env, MOCHA_JSON_OUTPUT: report })
    let parsed: MochaReport
    try {
      parsed = JSON.parse(readFileSync(report, 'utf8')) as MochaReport
    } catch {
      expect.fail(`hardhat test --network ${network} left no mocha report (exit ${result.code}): ${result.stderr.trim().slice(-800)}`)
    }
    const { stats, passes, failures } = parsed
    console.log(`      hardhat test --network ${network}: ${stats.passes} of ${stats.tests} passed in ${(result.ms / 1000).toFixed(1)} s`)
    const titles = [...passes, ...failures].map(({ title }) => title)
    const failed = failures.map(({ title, err }) => `${title}: ${(err.message ?? '').replace(/\s+/g, ' ').slice(0, 400)}`)
    return { stats, failed, uncovered: HELPERS.filter((helper) => !titles.some((title) => title.includes(helper))), code: result.code }
  }

  it('the fixture\'s helper tests pass on Hardhat Network itself (`--network hardhat`, EDR: the reference)', async () => {
    const { stats, failed, uncovered, code } = await helperTests('hardhat')
    expect(uncovered, 'helpers no test names').to.deep.equal([])
    expect(failed, 'failed helper tests').to.deep.equal([])
    expect(stats.pending).to.equal(0)
    expect(code).to.equal(0)
  })

  it('`hardhat test --network devnet`: every network-helper test passes, as on Hardhat Network', async () => {
    const { stats, failed, uncovered, code } = await helperTests('devnet', { DEVNET_URL: server.url })
    expect(uncovered, 'helpers no test names').to.deep.equal([])
    expect(failed, 'failed helper tests').to.deep.equal([])
    expect(stats.pending).to.equal(0)
    expect(stats.passes).to.equal(stats.tests)
    expect(code).to.equal(0)
  })

  it('`hardhat ignition deploy` deploys and calls on the devnet; a second run has nothing new to deploy', async () => {
    const deploy = () => hardhat(project!, ['ignition', 'deploy', 'ignition/modules/Probe.js', '--network', 'devnet'], { DEVNET_URL: server.url })
    const first = await deploy()
    expect(first.code, first.stderr).to.equal(0)
    expect(first.stdout).to.include('[ ProbeModule ] successfully deployed')
    const addresses = JSON.parse(readFileSync(join(project!, 'ignition', 'deployments', 'chain-31337', 'deployed_addresses.json'), 'utf8')) as Record<string, Address>
    const probe = addresses['ProbeModule#Probe']!
    const artifact = JSON.parse(readFileSync(join(project!, 'ignition', 'deployments', 'chain-31337', 'artifacts', 'ProbeModule#Probe.json'), 'utf8')) as { deployedBytecode: string }
    // The runtime code is the artifact's with the immutable (deployedAt) filled in: same length.
    expect((await chain.getCode(probe)).length).to.equal(artifact.deployedBytecode.length)
    // Probe(7), then the module's setValue(42): value in slot 0, the owner (the deployer) in slot 1.
    expect(BigInt(await chain.getStorageAt(probe, 0n))).to.equal(42n)
    expect(BigInt(await chain.getStorageAt(probe, 1n))).to.equal(BigInt(DEPLOYER))
    // value() = 0x3fa4f245
    expect(BigInt(await chain.call({ to: probe, data: '0x3fa4f245' }))).to.equal(42n)

    const nonce = await chain.getTransactionCount(DEPLOYER)
    const second = await deploy()
    expect(second.code, second.stderr).to.equal(0)
    expect(second.stdout).to.include('Nothing new to deploy')
    expect(await chain.getTransactionCount(DEPLOYER)).to.equal(nonce)
  })
})
