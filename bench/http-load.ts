/**
 * The benchmark's HTTP load generator, run as a child process so client and server use
 * separate cores: keep-alive connections, `concurrency` requests in flight, for `durationMs`.
 * Bodies come from a file of JSON lines (each used once, in order, then cycled).
 * Prints `{ "requests": n, "seconds": s, "errors": e, "firstError": text? }` on stdout.
 */
import { readFileSync } from 'node:fs'
import { Agent, request } from 'node:http'

const [url, bodiesFile, concurrencyText, durationText] = process.argv.slice(2)
const bodies = readFileSync(bodiesFile, 'utf8').split('\n').filter((line) => line.length > 0).map((line) => Buffer.from(line))
const concurrency = Number(concurrencyText)
const durationMs = Number(durationText)
const agent = new Agent({ keepAlive: true, maxSockets: concurrency })
const target = new URL(url)

let next = 0
let completed = 0
let errors = 0
let firstError: string | undefined

function fail(text: string): void {
  errors++
  firstError ??= text
}

function post(body: Buffer): Promise<void> {
  return new Promise((resolve) => {
    const call = request(
      { host: target.hostname, port: target.port, path: '/', method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': body.length } },
      (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString()
          if (response.statusCode !== 200 || text.includes('"error"')) fail(`${response.statusCode} ${text}`)
          resolve()
        })
      },
    )
    call.on('error', (error) => {
      fail(error.message)
      resolve()
    })
    call.end(body)
  })
}

const start = performance.now()
const deadline = start + durationMs
async function loop(): Promise<void> {
  while (performance.now() < deadline) {
    await post(bodies[next++ % bodies.length])
    completed++
  }
}
await Promise.all(Array.from({ length: concurrency }, loop))
process.stdout.write(JSON.stringify({ requests: completed, seconds: (performance.now() - start) / 1000, errors, firstError }))
agent.destroy()
