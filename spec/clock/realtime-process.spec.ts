/**
 * The realtime clock keeps its process alive (lib/clock/clock.ts): a library script that awaits a
 * seal gets it and exits when it closes the chain, rather than Node ending it with code 13 (a
 * top-level await that never settles) because nothing held the event loop. Each script runs in a
 * process of its own, with tsx, from the repository root.
 */
import { expect } from 'chai'
import { spawn } from 'node:child_process'
import { ROOT } from '../support/server-cli.ts'

interface Run {
  readonly code: number | null
  readonly stdout: string
  /** Whether the spec killed it: still running 500 ms after printing `killAfter`, or after 20 s. */
  readonly killed: boolean
}

/** Runs `script` (ESM, imports from ./lib) under tsx, killing it 500 ms after its output shows `killAfter`. */
function runScript(script: string, killAfter?: string): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] })
    let stdout = ''
    let killed = false
    const kill = (): void => {
      killed = true
      child.kill('SIGKILL')
    }
    let timer = setTimeout(kill, 20_000)
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk
      if (killAfter !== undefined && stdout.includes(killAfter)) {
        clearTimeout(timer)
        timer = setTimeout(kill, 500)
      }
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, killed })
    })
  })
}

describe('realtime clock: the process lives until chain.close()', function () {
  this.timeout(30_000)

  it('a script awaiting the first seal (200 ms blocks) gets it and exits 0 once it closes the chain (was: exit 13, no output)', async () => {
    const run = await runScript(
      `import { createChain } from './lib/index.ts'
      const chain = await createChain({ clock: 'realtime', blockTimeMs: 200, preconfIntervalMs: 100 })
      const block = await new Promise((resolve) => chain.once('block', resolve))
      console.log('sealed', String(block.header.number))
      chain.close()`,
    )
    expect(run).to.deep.equal({ code: 0, stdout: 'sealed 1\n', killed: false })
  })

  it('a script that leaves the chain open keeps running (killed by the spec 500 ms after block 3)', async () => {
    const run = await runScript(
      `import { createChain } from './lib/index.ts'
      const chain = await createChain({ clock: 'realtime', blockTimeMs: 100, preconfIntervalMs: 50 })
      chain.on('block', (block) => { if (block.header.number === 3n) console.log('block 3') })`,
      'block 3',
    )
    expect(run).to.deep.equal({ code: null, stdout: 'block 3\n', killed: true })
  })
})
