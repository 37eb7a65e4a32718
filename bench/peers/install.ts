/**
 * The benchmark's peers installed on demand: each into a folder of its own under bench/.peers/
 * (`npm install --prefix`, outside the package's dependencies), once — a later run finds the
 * pinned versions there and installs nothing — within a time limit, and with its cost (seconds,
 * megabytes on disk) or the reason it could not be installed.
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { childEnvironment } from '../../spec/support/hardhat-project.ts'

/** Where the peers are installed (git-ignored). */
export const PEERS_DIR = fileURLToPath(new URL('../.peers/', import.meta.url))

const INSTALL_TIMEOUT_MS = 240_000

/** A peer's folder and what installing it cost (`seconds` is 0 when it was there already). */
export interface InstalledPeer {
  readonly dir: string
  readonly seconds: number
  readonly megabytes: number
}

/** Why a peer is left out of the run. */
export class PeerSkipped extends Error {}

/**
 * Makes sure bench/.peers/`name` holds `dependencies` (exact versions): installs them with npm
 * (`--ignore-scripts`: no native builds; the peers need none) unless every one is there at its
 * version. Throws {@link PeerSkipped} with npm's reason when it fails or runs out of time.
 */
export async function installPeer(name: string, dependencies: Readonly<Record<string, string>>): Promise<InstalledPeer> {
  const dir = join(PEERS_DIR, name)
  const present = Object.entries(dependencies).every(([pkg, version]) => installedVersion(dir, pkg) === version)
  if (present) return { dir, seconds: 0, megabytes: megabytesIn(dir) }
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: `preconf-devnet-bench-${name}`, private: true, dependencies }, null, 2)}\n`)
  const wanted = Object.entries(dependencies).map(([pkg, version]) => `${pkg}@${version}`).join(' ')
  process.stderr.write(`peers: installing ${wanted} into ${dir} (npm, at most ${INSTALL_TIMEOUT_MS / 1000} s)…\n`)
  const start = performance.now()
  const { code, output } = await npmInstall(dir)
  if (code !== 0) throw new PeerSkipped(`npm install ${wanted} ${code === null ? `timed out after ${INSTALL_TIMEOUT_MS / 1000} s` : `exited ${code}`}: ${errorLines(output)}`)
  return { dir, seconds: (performance.now() - start) / 1000, megabytes: megabytesIn(dir) }
}

/** The version of `pkg` installed under `dir`, if any. */
export function installedVersion(dir: string, pkg: string): string | undefined {
  const manifest = join(dir, 'node_modules', pkg, 'package.json')
  return existsSync(manifest) ? (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version : undefined
}

function npmInstall(dir: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const npm = spawn('npm', ['install', '--prefix', dir, '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'], {
      cwd: dir,
      env: childEnvironment(),
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    const collect = (chunk: Buffer): void => void (output += chunk.toString())
    npm.stdout.on('data', collect)
    npm.stderr.on('data', collect)
    const timer = setTimeout(() => npm.kill('SIGKILL'), INSTALL_TIMEOUT_MS)
    npm.on('error', (error) => {
      clearTimeout(timer)
      resolve({ code: -1, output: error.message })
    })
    npm.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, output })
    })
  })
}

function errorLines(output: string): string {
  const lines = output.split('\n').filter((line) => /\berr/i.test(line))
  return (lines.length > 0 ? lines.slice(0, 3).join(' | ') : output.trim().slice(-300)) || 'no output'
}

/** Megabytes of the files under `dir` (symbolic links not followed). */
function megabytesIn(dir: string): number {
  let bytes = 0
  const walk = (path: string): void => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      const child = join(path, entry.name)
      if (entry.isDirectory()) walk(child)
      else if (entry.isFile()) bytes += statSync(child).size
    }
  }
  if (existsSync(dir)) walk(dir)
  return bytes / 1_000_000
}
