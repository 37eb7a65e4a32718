/**
 * The CLI's state flags (lib/cli.ts, run as built: `node dist/cli.js`), as Anvil's: `--state
 * FILE` loads the file when it exists and writes it on SIGINT/SIGTERM, `--dump-state FILE`
 * only writes it, `--load-state FILE` only reads it. A restart from the file answers the same
 * reads at the same block number; a file that cannot be loaded stops the node before it is
 * ready (exit 1, the file named); `--state` beside the other two is a usage error (exit 2).
 */
import { expect } from 'chai'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createChain } from '../../lib/index.ts'
import type { Hex } from '../../lib/types.ts'
import { killAll, READY_LINE, spawnCli, startCli, type ReadyCli } from '../support/server-cli.ts'
import { rpc } from '../support/server-http.ts'

const DEV_0 = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'
const FUNDED = '0x00000000000000000000000000000000000000f1'
const RECIPIENT = '0x00000000000000000000000000000000000000aa'
const MANUAL = ['--port', '0', '--clock', 'manual', '--silent']

/** Stops `cli` with `signal` and returns its exit code and stdout. */
async function stop(cli: ReadyCli, signal: NodeJS.Signals): Promise<{ code: number | null; stdout: string }> {
  cli.signal(signal)
  const { code } = await cli.exited
  return { code, stdout: cli.stdout() }
}

/** What the specs compare across a restart. */
async function readsOf(url: string, transaction: Hex) {
  return {
    blockNumber: await rpc(url, 'eth_blockNumber'),
    latest: await rpc(url, 'eth_getBlockByNumber', ['latest', true]),
    funded: await rpc(url, 'eth_getBalance', [FUNDED, 'latest']),
    recipient: await rpc(url, 'eth_getBalance', [RECIPIENT, 'latest']),
    nonce: await rpc(url, 'eth_getTransactionCount', [DEV_0, 'latest']),
    receipt: await rpc(url, 'eth_getTransactionReceipt', [transaction]),
  }
}

const dumpFile = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as { format: string; version: number; blocks: unknown[] }

describe('preconf-devnet CLI state flags (--state, --dump-state, --load-state, as Anvil)', () => {
  let directory: string
  before(() => {
    directory = mkdtempSync(join(tmpdir(), 'preconf-devnet-state-'))
  })
  afterEach(killAll)
  after(() => rmSync(directory, { recursive: true, force: true }))

  it('--state: starts fresh without the file, writes it on SIGTERM, and a restart from it answers the same reads at the same block number', async () => {
    const file = join(directory, 'state.json')
    const first = await startCli([...MANUAL, '--state', file])
    expect(await rpc(first.url, 'eth_blockNumber')).to.equal('0x0')
    await rpc(first.url, 'anvil_setBalance', [FUNDED, '0x1234'])
    const transaction = (await rpc(first.url, 'eth_sendTransaction', [{ from: DEV_0, to: RECIPIENT, value: '0x5' }])) as Hex
    await rpc(first.url, 'evm_mine')
    const before = await readsOf(first.url, transaction)
    expect([before.blockNumber, before.funded, before.recipient, before.nonce]).to.deep.equal(['0x1', '0x1234', '0x5', '0x1'])

    const stopped = await stop(first, 'SIGTERM')
    expect(stopped.code).to.equal(0)
    expect(stopped.stdout).to.include(`state written to ${file}`)
    const written = dumpFile(file)
    expect([written.format, written.version, written.blocks.length]).to.deep.equal(['preconf-devnet/state', 1, 2])

    const second = await startCli([...MANUAL, '--state', file])
    expect(await readsOf(second.url, transaction)).to.deep.equal(before)
    await rpc(second.url, 'evm_mine')
    expect((await stop(second, 'SIGINT')).code).to.equal(0)
    expect(dumpFile(file).blocks.length, 'written again on SIGINT').to.equal(3)
  })

  it('--dump-state writes on SIGINT without reading; --load-state reads without writing', async () => {
    const file = join(directory, 'dumped.json')
    writeFileSync(file, 'not read: --dump-state only writes')
    const dumper = await startCli([...MANUAL, '--dump-state', file])
    expect(await rpc(dumper.url, 'eth_blockNumber')).to.equal('0x0')
    for (let i = 0; i < 2; i++) await rpc(dumper.url, 'evm_mine')
    expect((await stop(dumper, 'SIGINT')).code).to.equal(0)
    const text = readFileSync(file, 'utf8')
    expect(JSON.parse(text).blocks).to.have.length(3)

    // The loader's own genesis option is not what it serves: the banner gives the loaded genesis and says it loaded (audit T, T3).
    const loader = await startCli([...MANUAL, '--timestamp', '1800000000', '--load-state', file])
    expect(await rpc(loader.url, 'eth_blockNumber')).to.equal('0x2')
    const genesis = (await rpc(loader.url, 'eth_getBlockByNumber', ['0x0', false])) as { timestamp: Hex }
    expect(loader.stdout()).to.include(`genesis timestamp ${BigInt(genesis.timestamp)}`).and.to.include(`State: loaded from ${file}, block 2`)
    expect(BigInt(genesis.timestamp)).to.not.equal(1_800_000_000n)
    await rpc(loader.url, 'evm_mine')
    const stopped = await stop(loader, 'SIGTERM')
    expect([stopped.code, stopped.stdout.includes('state written'), readFileSync(file, 'utf8') === text]).to.deep.equal([0, false, true])
  })

  it("--load-state takes a file of anvil_dumpState's answer, bare hex or JSON-quoted (`cast rpc anvil_dumpState > file`)", async () => {
    const chain = await createChain({ clock: 'manual' })
    await chain.mine()
    const hex = (await chain.request({ method: 'anvil_dumpState' })) as Hex
    for (const [name, text] of [['bare.hex', `${hex}\n`], ['quoted.json', `${JSON.stringify(hex)}\n`]]) {
      const file = join(directory, name)
      writeFileSync(file, text)
      const loader = await startCli([...MANUAL, '--load-state', file])
      expect(await rpc(loader.url, 'eth_blockNumber'), name).to.equal('0x1')
      await stop(loader, 'SIGTERM')
    }
  })

  it('--load-state of a corrupt or missing file exits with code 1 and a message naming the file, before any ready line', async () => {
    const text = await (await createChain()).dumpState('json')
    const [truncated, newer, missing] = ['truncated.json', 'newer.json', 'missing.json'].map((name) => join(directory, name))
    writeFileSync(truncated, text.slice(0, text.length / 2))
    writeFileSync(newer, JSON.stringify({ ...JSON.parse(text), version: 2 }))
    const cases = [[truncated, /invalid state dump: not JSON/], [newer, /invalid state dump: format version 2 is newer/], [missing, /ENOENT/]] as const
    for (const [file, reason] of cases) {
      const cli = spawnCli([...MANUAL, '--load-state', file])
      const { code } = await cli.exited
      expect(code, file).to.equal(1)
      expect(cli.stderr()).to.match(/^error: /).and.to.match(reason).and.to.include(file)
      expect(cli.stdout()).to.not.match(READY_LINE)
      expect(cli.stderr(), 'not a usage error').to.not.include('Usage:')
    }
    expect(existsSync(missing), 'nothing written').to.equal(false)
  })

  it('--dump-state of a directory writes its state.json, as Anvil does; of a path whose directory is missing, it is a usage error before the ready line', async () => {
    const folder = mkdtempSync(join(directory, 'folder-'))
    const dumper = await startCli([...MANUAL, '--dump-state', folder])
    await rpc(dumper.url, 'evm_mine')
    expect((await stop(dumper, 'SIGTERM')).code).to.equal(0)
    expect(dumpFile(join(folder, 'state.json')).blocks).to.have.length(2)

    const nowhere = join(directory, 'no-such-folder', 'state.json')
    const cli = spawnCli([...MANUAL, '--dump-state', nowhere])
    expect((await cli.exited).code).to.equal(2)
    expect(cli.stderr()).to.include(`--dump-state ${nowhere}: its directory does not exist`)
    expect(cli.stdout()).to.not.match(READY_LINE)
  })

  it('--state beside --dump-state or --load-state is a usage error (exit 2)', async () => {
    const file = join(directory, 'usage.json')
    for (const other of ['--dump-state', '--load-state']) {
      const cli = spawnCli([...MANUAL, '--state', file, other, join(directory, 'other.json')])
      expect((await cli.exited).code, other).to.equal(2)
      expect(cli.stderr()).to.match(/^error: .*--state/).and.to.include('Usage:')
      expect(cli.stdout()).to.not.match(READY_LINE)
    }
    expect(existsSync(file)).to.equal(false)
  })
})
