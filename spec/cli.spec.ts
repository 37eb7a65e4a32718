/**
 * The `preconf-devnet` command (lib/cli.ts, run as built: `node dist/cli.js`): the banner Anvil
 * and Hardhat users expect (dev accounts, private keys, chain id), one ready line with the URL,
 * the flags, the clock modes, the activity log, signals, a taken port and bad flags.
 */
import { expect } from 'chai'
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { Agent, createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { http, rpc } from './support/server-http.ts'
import { killAll, pollUntil, READY_LINE, ROOT, spawnCli, startCli, tryConnect } from './support/server-cli.ts'

/** Anvil's and Hardhat's dev accounts from `test test … junk` (m/44'/60'/0'/0/i). */
const DEV_ACCOUNTS = [
  ['0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'],
  ['0x70997970C51812dc3A010C7d01b50e0d17dc79C8', '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d'],
  ['0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC', '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a'],
  ['0x90F79bf6EB2c4f870365E785982E1f101E93b906', '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6'],
  ['0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65', '0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a'],
  ['0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc', '0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba'],
  ['0x976EA74026E726554dB657fA54763abd0C3a0aa9', '0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e'],
  ['0x14dC79964da2C08b23698B3D3cc7Ca32193d9955', '0x4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356'],
  ['0x23618e81E3f5cdF7f54C3d65f7FBc0aBf5B21E8f', '0xdbda1821b80551c9d65939329250298aa3472ba22feea921c0cf5d620ea67b97'],
  ['0xa0Ee7A142d267C1f36714E4a8F75612F20a79720', '0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6'],
] as const

const USAGE = 'Usage: preconf-devnet [options]'
/** Every flag the command documents. */
const FLAGS = [
  '--host', '--port', '--clock', '--chain-id', '--accounts', '--balance', '--mnemonic', '--preconf-interval', '--block-time',
  '--gas-limit', '--base-fee', '--hardfork', '--coinbase', '--timestamp', '--safe-lag', '--finalized-lag', '--silent', '--help', '-h', '--version',
]
/** A log line's clock prefix: HH:MM:SS.mmm. */
const TIME = String.raw`\d{2}:\d{2}:\d{2}\.\d{3}`

/** Measured times to the ready line, reported after the suite. */
const readyTimes: Record<string, number[]> = {}
function recordReady(what: string, ms: number): void {
  ;(readyTimes[what] ??= []).push(Math.round(ms))
}

function lines(text: string): string[] {
  return text.split('\n')
}

describe('preconf-devnet CLI', () => {
  before(function () {
    if (!existsSync(join(ROOT, 'dist/cli.js'))) {
      this.timeout(180_000)
      execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'ignore' })
    }
  })
  afterEach(killAll)
  after(() => {
    const summary = Object.entries(readyTimes).map(([what, times]) => `${what}: ${times.join(', ')} ms`)
    console.log(`      time to the ready line — ${summary.join('; ')}`)
  })

  describe('start-up', () => {
    it('--port 0 prints exactly one line with http://127.0.0.1:<port>, and that node answers eth_chainId', async () => {
      const cli = await startCli(['--port', '0'])
      recordReady('node dist/cli.js --port 0', cli.readyMs)
      expect(cli.readyMs).to.be.below(3000)
      expect(lines(cli.stdout()).filter((line) => line.includes('http://'))).to.deep.equal([
        `Listening on http://127.0.0.1:${cli.port} (WebSocket ws://127.0.0.1:${cli.port})`,
      ])
      expect(cli.url).to.equal(`http://127.0.0.1:${cli.port}`)
      expect(cli.port).to.be.within(1, 65535)
      expect(await rpc(cli.url, 'eth_chainId')).to.equal('0x7a69')
      expect(cli.stderr()).to.equal('')
    })

    it('prints the 10 dev accounts, their private keys and "Chain ID: 31337", as Anvil does', async () => {
      const cli = await startCli(['--port', '0', '--clock', 'manual'])
      const out = lines(cli.stdout())
      expect(out).to.include.members(DEV_ACCOUNTS.map(([address], i) => `(${i}) ${address} (10000 ETH)`))
      expect(out).to.include.members(DEV_ACCOUNTS.map(([, key], i) => `(${i}) ${key}`))
      expect(out.filter((line) => /^\(\d+\) /.test(line))).to.have.length(20)
      expect(out).to.include('Chain ID: 31337')
      // Accounts first, keys second, then the chain id, then the ready line.
      const at = (text: string): number => out.findIndex((line) => line.includes(text))
      expect(at(DEV_ACCOUNTS[9][0])).to.be.below(at(DEV_ACCOUNTS[0][1]))
      expect(at(DEV_ACCOUNTS[9][1])).to.be.below(at('Chain ID: 31337'))
      expect(at('Chain ID: 31337')).to.be.below(at('Listening on'))
      expect(await rpc(cli.url, 'eth_accounts')).to.deep.equal(DEV_ACCOUNTS.map(([address]) => address.toLowerCase()))
      expect(await rpc(cli.url, 'eth_getBalance', [DEV_ACCOUNTS[0][0], 'latest'])).to.equal('0x21e19e0c9bab2400000') // 10000 ETH
    })

    it('--chain-id 5 --accounts 3 --balance 42 change the chain id, the accounts and their balances', async () => {
      const cli = await startCli(['--port', '0', '--clock', 'manual', '--chain-id', '5', '--accounts', '3', '--balance', '42'])
      expect(await rpc(cli.url, 'eth_chainId')).to.equal('0x5')
      expect(await rpc(cli.url, 'net_version')).to.equal('5')
      expect(await rpc(cli.url, 'eth_accounts')).to.deep.equal(DEV_ACCOUNTS.slice(0, 3).map(([address]) => address.toLowerCase()))
      for (const [address] of DEV_ACCOUNTS.slice(0, 3)) {
        expect(await rpc(cli.url, 'eth_getBalance', [address, 'latest'])).to.equal('0x246ddf97976680000') // 42 × 10^18
      }
      expect(await rpc(cli.url, 'eth_getBalance', [DEV_ACCOUNTS[3][0], 'latest'])).to.equal('0x0')
      const out = lines(cli.stdout())
      expect(out).to.include.members(DEV_ACCOUNTS.slice(0, 3).map(([address], i) => `(${i}) ${address} (42 ETH)`))
      expect(out.filter((line) => /^\(\d+\) /.test(line))).to.have.length(6)
      expect(out).to.include('Chain ID: 5')
    })

    it('--help (and -h) prints every flag and exits 0; --version prints the client version', async () => {
      for (const flag of ['--help', '-h']) {
        const cli = spawnCli([flag])
        const exit = await cli.exited
        expect(exit.code, flag).to.equal(0)
        expect(cli.stdout().startsWith(USAGE), flag).to.equal(true)
        for (const documented of FLAGS) expect(cli.stdout(), `${flag} lists ${documented}`).to.match(new RegExp(`(^|[\\s,])${documented}([\\s,]|$)`, 'm'))
        expect(cli.stdout()).to.not.include('Listening on')
        expect(cli.stderr()).to.equal('')
      }
      const version = spawnCli(['--version'])
      expect((await version.exited).code).to.equal(0)
      expect(version.stdout()).to.equal('preconf-devnet/v0.1.0\n')
      // The package's own version.
      expect(version.stdout()).to.equal(`preconf-devnet/v${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n`)
    })

    it('npx preconf-devnet --port 0 (the package bin) reaches the ready line and serves', async () => {
      const cli = await startCli(['preconf-devnet', '--port', '0'], { command: 'npx', detached: true, timeoutMs: 15_000 })
      recordReady('npx preconf-devnet --port 0', cli.readyMs)
      expect(cli.stdout()).to.match(READY_LINE)
      expect(await rpc(cli.url, 'eth_chainId')).to.equal('0x7a69')
      cli.signal('SIGTERM')
      await cli.exited
      expect(await tryConnect(cli.port)).to.equal('ECONNREFUSED')
    })
  })

  describe('clock', () => {
    it('--clock manual: no block until preconf_advanceClock [2000], then eth_blockNumber is 0x1', async () => {
      const [standard, fast] = await Promise.all([
        startCli(['--port', '0', '--clock', 'manual']),
        // 20 ms blocks: a realtime clock would seal ~15 blocks while we watch for 300 ms.
        startCli(['--port', '0', '--clock', 'manual', '--block-time', '20', '--preconf-interval', '10']),
      ])
      expect(standard.stdout()).to.include('Clock: manual')
      const watchedUntil = performance.now() + 300
      while (performance.now() < watchedUntil) expect(await rpc(fast.url, 'eth_blockNumber')).to.equal('0x0')
      expect(await rpc(fast.url, 'preconf_advanceClock', [20])).to.not.equal(undefined)
      expect(await rpc(fast.url, 'eth_blockNumber')).to.equal('0x1')

      expect(await rpc(standard.url, 'eth_blockNumber')).to.equal('0x0')
      await rpc(standard.url, 'preconf_advanceClock', [1999])
      expect(await rpc(standard.url, 'eth_blockNumber')).to.equal('0x0')
      await rpc(standard.url, 'preconf_advanceClock', [1])
      expect(await rpc(standard.url, 'eth_blockNumber')).to.equal('0x1')
      const block = (await rpc(standard.url, 'eth_getBlockByNumber', ['0x1', false])) as { timestamp: string }
      expect(block.timestamp).to.equal(`0x${(1_735_689_600 + 2).toString(16)}`) // manual genesis + one block time
    })

    it('realtime by default: block 1 is sealed within ~2.5 s, and the log shows requests, preconf and sealed lines', async () => {
      const cli = await startCli(['--port', '0'])
      expect(cli.stdout()).to.include('Clock: realtime')
      const readyAt = performance.now()
      await pollUntil(async () => ((await rpc(cli.url, 'eth_blockNumber')) === '0x0' ? undefined : true), 3000, 50)
      expect(performance.now() - readyAt).to.be.below(2500)
      expect(await rpc(cli.url, 'eth_blockNumber')).to.equal('0x1')

      const sealed = await cli.waitFor(new RegExp(`^${TIME} sealed {4}block 1 {2}0 tx {2}gas 0 {2}(0x[0-9a-f]{8})…([0-9a-f]{4})$`, 'm'), 1000)
      const block = (await rpc(cli.url, 'eth_getBlockByNumber', ['0x1', false])) as { hash: string }
      expect(block.hash.startsWith(sealed[1]) && block.hash.endsWith(sealed[2])).to.equal(true)
      // The polls before the seal are counted and flushed before the sealed line.
      const requests = new RegExp(`^${TIME} requests {2}eth_blockNumber(×\\d+)?$`, 'm').exec(cli.stdout())
      expect(requests, cli.stdout()).to.not.equal(null)
      expect(requests!.index).to.be.below(sealed.index!)

      const hash = (await rpc(cli.url, 'eth_sendTransaction', [{ from: DEV_ACCOUNTS[0][0], to: DEV_ACCOUNTS[1][0], value: '0x1' }])) as string
      const preconf = await cli.waitFor(new RegExp(`^${TIME} preconf {3}block (\\d+)\\.(\\d+) {2}\\+1 tx {2}(0x[0-9a-f]{8})…([0-9a-f]{4})$`, 'm'), 1500)
      expect(preconf[1]).to.equal('2')
      expect(hash.startsWith(preconf[3]) && hash.endsWith(preconf[4])).to.equal(true)
    })

    it('--silent: no preconf, sealed or requests lines, while blocks and transactions go on', async () => {
      const cli = await startCli(['--port', '0', '--silent', '--block-time', '100', '--preconf-interval', '50'])
      const banner = cli.stdout()
      expect(banner.endsWith(`Listening on ${cli.url} (WebSocket ws://127.0.0.1:${cli.port})\n`)).to.equal(true)
      const hash = (await rpc(cli.url, 'eth_sendTransaction', [{ from: DEV_ACCOUNTS[0][0], to: DEV_ACCOUNTS[1][0], value: '0x1' }])) as string
      await pollUntil(async () => ((await rpc(cli.url, 'eth_getTransactionReceipt', [hash])) === null ? undefined : true), 2000)
      await pollUntil(async () => (Number(await rpc(cli.url, 'eth_blockNumber')) >= 4 ? true : undefined), 3000)
      expect(cli.stdout()).to.equal(banner)
      expect(cli.stdout()).to.not.match(/ (sealed|preconf|requests) /)
    })
  })

  describe('logging', () => {
    it('anvil_setLoggingEnabled [false] silences the log (Anvil), [true] brings it back; blocks go on either way', async () => {
      const cli = await startCli(['--port', '0', '--clock', 'manual'])
      expect(await rpc(cli.url, 'anvil_setLoggingEnabled', [false])).to.equal(null)
      const quiet = cli.stdout()
      await rpc(cli.url, 'preconf_advanceClock', [2000])
      expect(await rpc(cli.url, 'eth_blockNumber')).to.equal('0x1')
      expect(cli.stdout()).to.equal(quiet)

      expect(await rpc(cli.url, 'hardhat_setLoggingEnabled', [true])).to.equal(true)
      await rpc(cli.url, 'preconf_advanceClock', [2000])
      await cli.waitFor(new RegExp(`^${TIME} sealed {4}block 2 `, 'm'), 1000)
      expect(cli.stdout().slice(quiet.length)).to.not.match(/ block 1 /)
    })
  })

  describe('shutdown', () => {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      it(`${signal} exits with code 0 within 2 s and stops listening, even with a kept-alive connection open`, async () => {
        const cli = await startCli(['--port', '0'])
        const agent = new Agent({ keepAlive: true, maxSockets: 1 })
        try {
          const reply = await http(cli.url, { body: { jsonrpc: '2.0', id: 1, method: 'eth_chainId' }, agent })
          expect(reply.status).to.equal(200)
          const sentAt = performance.now()
          cli.signal(signal)
          const exit = await cli.exited
          expect(exit.at - sentAt).to.be.below(2000)
          expect({ code: exit.code, signal: exit.signal }).to.deep.equal({ code: 0, signal: null })
          expect(cli.stdout()).to.include(`${signal}: shutting down`)
          expect(await tryConnect(cli.port)).to.equal('ECONNREFUSED')
        } finally {
          agent.destroy()
        }
      })
    }

    it('a SIGTERM or SIGINT sent as soon as the ready line appears exits with code 0 (handlers are in place when ready)', async () => {
      // A supervisor may stop the node the instant it reports ready; the ready line must not come
      // before the signal handlers, or the default action kills it. Six at once to expose the window.
      const signals = ['SIGTERM', 'SIGINT', 'SIGTERM', 'SIGINT', 'SIGTERM', 'SIGINT'] as const
      const exits = await Promise.all(
        signals.map(async (signal) => {
          const cli = spawnCli(['--port', '0', '--silent', '--clock', 'manual'])
          await new Promise<void>((resolve, reject) => {
            cli.child.stdout!.on('data', () => {
              if (READY_LINE.test(cli.stdout())) {
                cli.signal(signal)
                resolve()
              }
            })
            cli.exited.then(() => reject(new Error(`exited before the ready line: ${cli.stderr()}`)))
          })
          const exit = await cli.exited
          return `${signal} → ${exit.code === null ? `killed by ${exit.signal}` : `code ${exit.code}`}`
        }),
      )
      expect(exits).to.deep.equal(signals.map((signal) => `${signal} → code 0`))
    })

    it('a second node on the same port exits 1 with "already in use" on stderr; the first keeps serving', async () => {
      const first = await startCli(['--port', '0', '--clock', 'manual'])
      const second = spawnCli(['--port', String(first.port), '--clock', 'manual'])
      const exit = await second.exited
      expect(exit.code).to.equal(1)
      expect(second.stderr()).to.equal(`error: port ${first.port} is already in use on 127.0.0.1 (try --port 0 for a free port)\n`)
      expect(second.stdout()).to.not.include('Listening on')
      expect(await rpc(first.url, 'eth_chainId')).to.equal('0x7a69')
    })
  })

  it('--host localhost shows the name as given in the ready line (http://localhost:PORT), and answers there; an address shows as bound', async () => {
    const named = await startCli(['--port', '0', '--host', 'localhost', '--clock', 'manual', '--silent'])
    expect(named.url).to.match(/^http:\/\/localhost:\d+$/)
    expect(await rpc(named.url, 'eth_chainId')).to.equal('0x7a69')
    const numbered = await startCli(['--port', '0', '--host', '127.0.0.1', '--clock', 'manual', '--silent'])
    expect(numbered.url).to.match(/^http:\/\/127\.0\.0\.1:\d+$/)
  })

  it('--fork-url of a port nobody listens on exits 1 with the upstream error once the retries are spent (a retry waiting its back-off keeps the process alive)', async () => {
    const vacant = createServer()
    await new Promise<void>((resolve) => vacant.listen(0, '127.0.0.1', resolve))
    const { port } = vacant.address() as AddressInfo
    await new Promise((resolve) => vacant.close(resolve))
    const cli = spawnCli(['--port', '0', '--fork-url', `http://127.0.0.1:${port}`, '--fork-retries', '2', '--fork-cache', 'off'])
    const exit = await cli.exited
    expect(exit.code).to.equal(1)
    expect(cli.stderr()).to.include(`upstream http://127.0.0.1:${port} failed on eth_chainId: connect ECONNREFUSED 127.0.0.1:${port} (after 3 attempts)`)
  })

  describe('bad command lines exit 2 with the reason and the usage', () => {
    const cases: Array<[string[], string]> = [
      [['--bogus'], "error: Unknown option '--bogus'"],
      [['--port', 'abc'], 'error: invalid option --port: expected an integer from 0 to 65535, got "abc"'],
      [['--port', '70000'], 'error: invalid option --port: expected an integer from 0 to 65535, got "70000"'],
      [['--clock', 'sometimes'], 'error: invalid option --clock: expected manual | realtime, got "sometimes"'],
      [['--chain-id', '0'], 'error: invalid option --chain-id: expected an integer from 1, got "0"'],
      [['--balance=-1'], 'error: invalid option --balance: expected a non-negative amount of ether, got "-1"'],
      [['--balance', 'lots'], 'error: invalid option --balance: expected a non-negative amount of ether, got "lots"'],
      // Bounded to the fields that hold them (audit Q, Q3): a header's uint64 gas limit, a uint256 base fee and balance.
      [['--gas-limit', '18446744073709551616'], 'error: invalid option --gas-limit: expected a non-negative integer below 2^64, got "18446744073709551616"'],
      [['--base-fee', (2n ** 256n).toString()], `error: invalid option --base-fee: expected a non-negative integer below 2^256, got "${2n ** 256n}"`],
      [['--balance', (2n ** 256n).toString()], `error: invalid option --balance: expected an amount of ether below 2^256 wei, got "${2n ** 256n}"`],
      [['8545'], "error: Unexpected argument '8545'"],
      [['--mining', 'off', '--instant'], 'error: --instant is --mining instant: it contradicts --mining off'], // audit Q, Q5
    ]
    // Each is a short-lived process; start them all at once and check each in its own test.
    const runs = new Map<string, { code: number | null; stdout: string; stderr: string }>()
    before(async () => {
      await Promise.all(
        cases.map(async ([args]) => {
          const cli = spawnCli(args)
          const exit = await cli.exited
          runs.set(args.join(' '), { code: exit.code, stdout: cli.stdout(), stderr: cli.stderr() })
        }),
      )
    })
    for (const [args, reason] of cases) {
      it(args.join(' '), () => {
        const run = runs.get(args.join(' '))!
        expect(run.code).to.equal(2)
        expect(run.stderr.startsWith(reason), run.stderr).to.equal(true)
        expect(run.stderr).to.include(`\n\n${USAGE}\n`)
        expect(run.stderr).to.include('--port <value>')
        expect(run.stdout).to.equal('')
      })
    }

    it('--preconf-interval above --block-time exits 2 with the reason', async () => {
      const cli = spawnCli(['--port', '0', '--preconf-interval', '3000', '--block-time', '2000'])
      const exit = await cli.exited
      expect(exit.code).to.equal(2)
      expect(cli.stderr()).to.match(/^error: invalid options: preconfIntervalMs \(3000\) must not exceed blockTimeMs \(2000\)/)
      expect(cli.stdout()).to.equal('')
    })
  })
})
