/**
 * HTTP figures for `npm run bench`: a bare node:http JSON echo server as the floor, then the
 * node's reads, eth_call and sendRawTransaction, all under the same load generator (a child
 * process, keep-alive, 32 requests in flight unless told), plus the CLI's time to its ready line.
 * The echo server runs in a process of its own, as the peers section runs our CLI and Anvil.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { jsonFromChild } from './child-json.ts'

const here = fileURLToPath(new URL('.', import.meta.url))
const CONCURRENCY = 32

/** What a load run measured: requests per second, how many failed, and the first failure's text. */
export interface LoadResult {
  rate: number
  /** Requests answered. */
  requests: number
  errors: number
  firstError?: string
  /** The server process's CPU time per request answered, in µs, where it could be read. */
  serverMicros?: number
}

/** Requests per second the load generator achieves against `url` with `bodies`, `concurrency` in flight. */
export async function loadTest(url: string, bodies: string[], durationMs = 3000, concurrency = CONCURRENCY): Promise<LoadResult> {
  const file = join(mkdtempSync(join(tmpdir(), 'preconf-bench-')), 'bodies.jsonl')
  writeFileSync(file, `${bodies.join('\n')}\n`)
  const args = ['--import', 'tsx', join(here, 'http-load.ts'), url, file, String(concurrency), String(durationMs)]
  const { requests, seconds, errors, firstError } = await jsonFromChild<{ requests: number; seconds: number; errors: number; firstError?: string }>(args)
  return { rate: requests / seconds, requests, errors, firstError }
}

/** A server in a child process of its own, as a user runs it: its URL, its process id, and how to stop it. */
export interface ServerProcess {
  readonly url: string
  readonly pid: number | undefined
  close(): Promise<void>
}

/** Spawns `node …args` and resolves once it prints an http:// URL on stdout (the CLI's ready line, the echo server's URL). */
function spawnServer(args: readonly string[]): Promise<ServerProcess> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] })
  const exited = new Promise((resolve) => child.on('exit', resolve))
  const close = async (): Promise<void> => {
    child.kill('SIGTERM')
    await exited
  }
  return new Promise((resolve, reject) => {
    let output = ''
    child.stdout.on('data', (chunk) => {
      output += chunk
      const url = /http:\/\/[\d.]+:\d+/.exec(output)?.[0]
      if (url !== undefined) resolve({ url, pid: child.pid, close })
    })
    void exited.then(() => reject(new Error(`node ${args.join(' ')} exited before serving: ${output}`)))
  })
}

/** A bare node:http server that parses JSON-RPC and answers `results[method]`, else `0x0` (bench/echo-server.ts): the floor. */
export function echoServer(results: Readonly<Record<string, unknown>> = {}): Promise<ServerProcess> {
  return spawnServer(['--import', 'tsx', join(here, 'echo-server.ts'), JSON.stringify(results)])
}

/** `node dist/cli.js --port 0 --silent …args`, once it has printed its ready line. */
export function cliServer(args: readonly string[] = []): Promise<ServerProcess> {
  return spawnServer([join(here, '..', 'dist', 'cli.js'), '--port', '0', '--silent', ...args])
}

/** Milliseconds from spawning `node dist/cli.js --port 0 --silent ...args` to its ready line. */
export async function cliReadyTime(args: readonly string[] = []): Promise<number> {
  const start = performance.now()
  const cli = await cliServer(args)
  const elapsed = performance.now() - start
  await cli.close()
  return elapsed
}
