/**
 * The Hardhat 2 fixture project (fixtures/hardhat) for spec/tools/hardhat.spec.ts: its npm
 * dependencies installed on demand (`npm ci`, only when node_modules is missing or older than
 * the lockfile), throw-away copies of the project to run in, and Hardhat run as an async child
 * process (the devnet it talks to runs in the spec's own process).
 */
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The fixture project. */
export const HARDHAT_FIXTURE = fileURLToPath(new URL('../../fixtures/hardhat', import.meta.url))

/** Written into node_modules after a successful `npm ci`: the lockfile's hash it was installed from. */
const STAMP = join(HARDHAT_FIXTURE, 'node_modules', '.installed-lockfile-sha256')

/** What a finished child process left. */
export interface RunResult {
  /** Exit code (null when killed by a signal). */
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
  readonly ms: number
}

/** How the fixture's dependencies came to be there. */
export type InstallOutcome =
  | { readonly installed: 'already' }
  | { readonly installed: 'now'; readonly ms: number }
  | { readonly unavailable: string }

/** What an enclosing `npm test` / `npm exec` says about its own package and script, not settings. */
const NPM_SCRIPT_VARIABLE = /^npm_(package_|lifecycle_|command$|execpath$|node_execpath$|config_local_prefix$)/i

/**
 * The environment for npm and Hardhat: the spec's own (npm settings such as the registry kept),
 * without what an enclosing npm script says about the repository's package, and without colours.
 */
export function childEnvironment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(process.env)) if (!NPM_SCRIPT_VARIABLE.test(name)) env[name] = value
  return { ...env, NO_COLOR: '1', FORCE_COLOR: '0', ...extra }
}

/** Runs `command args` in `cwd`, asynchronously, collecting its output; never rejects for a non-zero exit. */
export function run(command: string, args: readonly string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<RunResult> {
  const started = performance.now()
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr, ms: performance.now() - started }))
  })
}

function lockfileHash(): string {
  return createHash('sha256').update(readFileSync(join(HARDHAT_FIXTURE, 'package-lock.json'))).digest('hex')
}

/**
 * Makes sure fixtures/hardhat/node_modules matches its lockfile: runs `npm ci --no-audit --no-fund`
 * (printing a line while it does) when node_modules is missing or was installed from another
 * lockfile. When npm fails (no registry, say), says why instead.
 */
export async function installHardhatFixture(): Promise<InstallOutcome> {
  const hash = lockfileHash()
  if (existsSync(STAMP) && readFileSync(STAMP, 'utf8').trim() === hash) return { installed: 'already' }
  console.log('      installing fixtures/hardhat dependencies (npm ci --no-audit --no-fund)…')
  let result: RunResult
  try {
    result = await run('npm', ['ci', '--no-audit', '--no-fund'], { cwd: HARDHAT_FIXTURE, env: childEnvironment() })
  } catch (error) {
    return { unavailable: `npm could not be started: ${(error as Error).message}` }
  }
  if (result.code !== 0) {
    const lines = `${result.stderr}\n${result.stdout}`.split('\n').filter((line) => /\berr(or)?\b/i.test(line))
    return { unavailable: `npm ci in fixtures/hardhat exited ${result.code}: ${lines.slice(0, 3).join(' | ') || result.stderr.trim().slice(-300)}` }
  }
  writeFileSync(STAMP, `${hash}\n`)
  return { installed: 'now', ms: result.ms }
}

/**
 * A throw-away copy of the fixture project (sources only: no node_modules, artifacts, cache or
 * Ignition deployments), with node_modules linked to the fixture's. Remove it with `rmSync(…, { recursive: true })`.
 */
export function copyHardhatFixture(): string {
  const dir = mkdtempSync(join(tmpdir(), 'preconf-hardhat-'))
  const skipped = ['node_modules', 'artifacts', 'cache', join('ignition', 'deployments')]
  cpSync(HARDHAT_FIXTURE, dir, {
    recursive: true,
    filter: (source) => {
      const path = relative(HARDHAT_FIXTURE, source)
      return !skipped.some((name) => path === name || path.startsWith(name + sep))
    },
  })
  symlinkSync(join(HARDHAT_FIXTURE, 'node_modules'), join(dir, 'node_modules'), 'dir')
  return dir
}

/** Runs the project's own Hardhat (`npx hardhat …`, without npx's lookup) in `dir`. */
export function hardhat(dir: string, args: readonly string[], env: Record<string, string>): Promise<RunResult> {
  return run(join(dir, 'node_modules', '.bin', 'hardhat'), args, { cwd: dir, env: childEnvironment(env) })
}

/** Removes a directory made by {@link copyHardhatFixture}. */
export function removeCopy(dir: string | undefined): void {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
}
