/**
 * HTTP figures for `npm run bench`: a bare node:http JSON echo server as the floor, then the
 * node's reads, eth_call and sendRawTransaction, all under the same load generator (a child
 * process, keep-alive, 32 requests in flight unless told), plus the CLI's time to its ready line.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = fileURLToPath(new URL('.', import.meta.url))
const CONCURRENCY = 32

/** What a load run measured: requests per second, how many failed, and the first failure's text. */
export interface LoadResult {
  rate: number
  errors: number
  firstError?: string
}

/** Requests per second the load generator achieves against `url` with `bodies`, `concurrency` in flight. */
export async function loadTest(url: string, bodies: string[], durationMs = 3000, concurrency = CONCURRENCY): Promise<LoadResult> {
  const file = join(mkdtempSync(join(tmpdir(), 'preconf-bench-')), 'bodies.jsonl')
  writeFileSync(file, `${bodies.join('\n')}\n`)
  const child = spawn(process.execPath, ['--import', 'tsx', join(here, 'http-load.ts'), url, file, String(concurrency), String(durationMs)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  let output = ''
  child.stdout.on('data', (chunk) => (output += chunk))
  await new Promise((resolve) => child.on('exit', resolve))
  const { requests, seconds, errors, firstError } = JSON.parse(output) as { requests: number; seconds: number; errors: number; firstError?: string }
  return { rate: requests / seconds, errors, firstError }
}

/** A bare node:http server that parses JSON-RPC and answers a constant result: the floor. */
export async function echoServer(): Promise<{ url: string; close(): void }> {
  const server = createServer({ keepAlive: true }, (request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const { id } = JSON.parse(Buffer.concat(chunks).toString()) as { id: unknown }
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ jsonrpc: '2.0', id, result: '0x0' }))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() }
}

/** Milliseconds from spawning `node dist/cli.js --port 0 --silent ...args` to its ready line. */
export async function cliReadyTime(args: readonly string[] = []): Promise<number> {
  const start = performance.now()
  const child = spawn(process.execPath, [join(here, '..', 'dist', 'cli.js'), '--port', '0', '--silent', ...args], { stdio: ['ignore', 'pipe', 'inherit'] })
  await new Promise<void>((resolve) => {
    let output = ''
    child.stdout.on('data', (chunk) => {
      output += chunk
      if (output.includes('http://')) resolve()
    })
  })
  const elapsed = performance.now() - start
  child.kill('SIGTERM')
  await new Promise((resolve) => child.on('exit', resolve))
  return elapsed
}
