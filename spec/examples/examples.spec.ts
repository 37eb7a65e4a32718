import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { expect } from 'chai'
import { optionsTable } from '../../lib/cli-usage.ts'
import { smokeCheck } from './ci-smoke.ts'
import { main as deployScript } from './deploy-script.ts'

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')

describe("README: its examples are this folder's tested code", () => {
  const faultExamples = ['dropped-preconfirmation', 'stall', 'stale-pending-context', 'pending-nonce', 'late-and-short-blocks', 'pending-code-and-storage', 'tick-jitter']
  for (const file of ['token.spec.ts', 'ci-smoke.ts', 'deploy-script.ts', ...faultExamples.map((name) => `faults/${name}.spec.ts`)]) {
    it(`README quotes spec/examples/${file} verbatim`, () => {
      const source = readFileSync(new URL(file, import.meta.url), 'utf8')
      expect(readme.includes(`\`\`\`ts\n${source}\`\`\``), `README.md must contain spec/examples/${file} in a ts block`).to.equal(true)
    })
  }

  it("README's options table is the one generated from the option definitions", () => {
    expect(readme.includes(optionsTable()), `README.md must contain:\n${optionsTable()}`).to.equal(true)
  })

  it('the Hardhat-style script deploys and reads a token', async () => {
    const result = await deployScript()
    expect(result.symbol).to.equal('TKN')
    expect(result.block).to.equal(1)
  })

  it('the CI smoke check passes against `npx preconf-devnet`, the command the README shows', async function () {
    this.timeout(30_000)
    // Its own process group, so the node npx starts is stopped along with npx.
    const node = spawn('npx', ['preconf-devnet', '--port', '0', '--silent'], { cwd: new URL('../..', import.meta.url), stdio: ['ignore', 'pipe', 'inherit'], detached: true })
    const exited = new Promise((resolve) => node.on('exit', resolve))
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let output = ''
        node.stdout!.on('data', (chunk) => {
          output += chunk
          const ready = /Listening on (http:\/\/\S+)/.exec(output)
          if (ready !== null) resolve(ready[1])
        })
        node.on('exit', (code) => reject(new Error(`preconf-devnet exited with ${code}`)))
      })
      const { preconfirmedMs, sealedMs } = await smokeCheck(url)
      expect(preconfirmedMs).to.be.below(sealedMs)
    } finally {
      // The group is gone already if npx failed to start the node: keep that failure, not ESRCH.
      if (node.exitCode === null) process.kill(-node.pid!, 'SIGTERM')
      await exited
    }
  })
})
