/**
 * Anvil as a peer over HTTP: the devDependency's binary when present (@foundry-rs/anvil-<platform>
 * 1.7.1), else installed into bench/.peers/anvil; started silent on a free loopback port with the
 * workload's settings, and killed afterwards.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { createServer } from 'node:net'
import { dirname, join } from 'node:path'
import { installPeer, PeerSkipped, type InstalledPeer } from './install.ts'
import { httpNode, type RpcNode } from './rpc-node.ts'

const VERSION = '1.7.1'
const START_TIMEOUT_MS = 15_000
/** Foundry's npm package suffix for each platform it publishes a binary for. */
const PLATFORMS: Record<string, string> = { 'linux-x64': 'linux-amd64', 'linux-arm64': 'linux-arm64', 'darwin-x64': 'darwin-amd64', 'darwin-arm64': 'darwin-arm64', 'win32-x64': 'win32-amd64' }

/** Where the Anvil binary is, and what installing it cost when it was not in node_modules. */
export interface AnvilBinary {
  readonly path: string
  readonly installed?: InstalledPeer
}

/** Finds Anvil 1.7.1 (the devDependency's binary, else bench/.peers/anvil's, installed now if need be). */
export async function findAnvil(): Promise<AnvilBinary> {
  const platform = PLATFORMS[`${process.platform}-${process.arch}`]
  if (platform === undefined) throw new PeerSkipped(`Foundry publishes no Anvil binary for ${process.platform}-${process.arch}`)
  const pkg = `@foundry-rs/anvil-${platform}`
  const binary = join('bin', process.platform === 'win32' ? 'anvil.exe' : 'anvil')
  try {
    const manifest = createRequire(import.meta.url).resolve(`${pkg}/package.json`)
    const path = join(dirname(manifest), binary)
    if (existsSync(path)) return { path }
  } catch {
    // Not a devDependency here: installed below.
  }
  const installed = await installPeer('anvil', { [pkg]: VERSION })
  return { path: join(installed.dir, 'node_modules', pkg, binary), installed }
}

/** Starts `anvil --silent` on a free loopback port with `args`; resolves once it answers. */
export async function startAnvil(binary: string, args: readonly string[]): Promise<RpcNode> {
  const port = await freePort()
  const child = spawn(binary, ['--host', '127.0.0.1', '--port', String(port), '--silent', ...args], { stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr!.on('data', (chunk: Buffer) => void (stderr += chunk.toString()))
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()))
  const close = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    await exited
  }
  const node = httpNode(`Anvil ${VERSION} over HTTP`, `http://127.0.0.1:${port}`, close, child.pid)
  const reason = await ready(node, child)
  if (reason !== undefined) {
    await close()
    throw new PeerSkipped(`${reason}${stderr.length > 0 ? `: ${stderr.trim().slice(-300)}` : ''}`)
  }
  return { ...node, name: `${await node.request('web3_clientVersion', [])} over HTTP` }
}

/** Polls until the node answers eth_chainId; the reason when it exits or stays silent. */
async function ready(node: RpcNode, child: ChildProcess): Promise<string | undefined> {
  let failure: string | undefined
  child.on('error', (error) => (failure = `anvil could not start: ${error.message}`))
  const deadline = performance.now() + START_TIMEOUT_MS
  while (performance.now() < deadline) {
    if (failure !== undefined) return failure
    if (child.exitCode !== null) return `anvil exited with code ${child.exitCode}`
    try {
      await node.request('eth_chainId', [])
      return undefined
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }
  return `anvil did not answer within ${START_TIMEOUT_MS} ms`
}

/** A loopback port nothing listens on (free when asked; Anvil --silent prints no address of its own). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}
