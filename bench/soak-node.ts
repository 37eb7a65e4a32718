/**
 * The node under soak: `node dist/cli.js --port 0 --silent ...` spawned with an IPC channel and a
 * tiny preload (a `data:` URL, so nothing else is loaded into it) that answers memory requests
 * after a full GC; its RSS (VmRSS of /proc/<pid>/status) and CPU time (/proc/<pid>/stat) read
 * from outside.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url))
const READY = /Listening on (http:\/\/\S+) \(WebSocket (ws:\/\/\S+)\)/
/**
 * Runs inside the node (a `data:` module: nothing else is loaded): the IPC channel must not keep
 * it alive; `soak:reset` restarts its event-loop delay histogram, `soak:memory` answers the heap
 * after two full GCs and the histogram since the reset.
 */
const PRELOAD = `data:text/javascript,${encodeURIComponent(`
import { monitorEventLoopDelay } from 'node:perf_hooks'
const delay = monitorEventLoopDelay({ resolution: 10 })
delay.enable()
process.channel?.unref()
process.on('message', (message) => {
  if (message === 'soak:reset') return delay.reset()
  if (message !== 'soak:memory') return
  const loop = { p50: delay.percentile(50) / 1e6, p99: delay.percentile(99) / 1e6, max: delay.max / 1e6 }
  globalThis.gc?.()
  globalThis.gc?.()
  const { heapUsed, external, arrayBuffers } = process.memoryUsage()
  process.send({ soakMemory: { heapUsed, external, arrayBuffers, loop } })
})`)}`
/** Linux's USER_HZ: the unit of utime and stime in /proc/<pid>/stat. */
const CLOCK_TICKS_PER_SECOND = 100

/** The node's memory at one moment, in bytes (heap figures after a full GC). */
export interface MemorySample {
  rss: number
  heapUsed: number
  external: number
  arrayBuffers: number
  /** The node's event-loop delay since the last {@link SoakNode.resetLoopDelay}, ms. */
  loop: { p50: number; p99: number; max: number }
}

/** A running node under soak. */
export interface SoakNode {
  readonly url: string
  readonly wsUrl: string
  readonly pid: number
  /** The node's own flags, as run (`node <nodeFlags> dist/cli.js <cliArgs>`). */
  readonly nodeFlags: string[]
  readonly cliArgs: string[]
  /** VmRSS now (no GC). */
  rss(): number
  /** RSS and, after a full GC in the node, its heap. */
  memory(): Promise<MemorySample>
  /** Restarts the node's event-loop delay histogram. */
  resetLoopDelay(): void
  /** What the node wrote to stderr (warnings: a failing tick is reported there), up to 20 kB. */
  stderr(): string
  /** CPU milliseconds (user + system) the node has used so far. */
  cpuMs(): number
  /** SIGTERM, then SIGKILL after 8 s; resolves with the exit code or signal. */
  stop(): Promise<string>
}

/** Starts the CLI with `cliArgs` (node itself with `extraNodeFlags`, e.g. `--cpu-prof`) and waits for its ready line. */
export async function startNode(cliArgs: string[], extraNodeFlags: string[] = []): Promise<SoakNode> {
  const nodeFlags = ['--expose-gc', ...extraNodeFlags]
  const child = spawn(process.execPath, [...nodeFlags, '--import', PRELOAD, CLI, ...cliArgs], { stdio: ['ignore', 'pipe', 'pipe', 'ipc'] })
  const exited = new Promise<string>((resolve) => child.once('exit', (code, signal) => resolve(String(code ?? signal))))
  const errors = { text: '' }
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    if (errors.text.length < 20_000) errors.text += chunk
  })
  const [, url, wsUrl] = await readyLine(child, exited, errors)
  const pid = child.pid!
  return {
    url,
    wsUrl,
    pid,
    nodeFlags: [...nodeFlags, '--import', '<memory probe>'],
    cliArgs,
    rss: () => statusField(pid, 'VmRSS'),
    memory: () => memory(child, pid),
    resetLoopDelay: () => void child.send('soak:reset'),
    cpuMs: () => cpuMs(pid),
    stderr: () => errors.text,
    async stop() {
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), 8000)
      const how = await exited
      clearTimeout(timer)
      return how
    },
  }
}

function readyLine(child: ChildProcess, exited: Promise<string>, errors: { text: string }): Promise<RegExpExecArray> {
  let out = ''
  let ready = false
  return new Promise((resolve, reject) => {
    // Keep reading stdout after the ready line: a full pipe would block the node.
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      if (ready) return
      out += chunk
      const match = READY.exec(out)
      if (match === null) return
      ready = true
      resolve(match)
    })
    void exited.then((how) => reject(new Error(`the CLI exited (${how}) before its ready line:\n${out}\n${errors.text}`)))
  })
}

/** A `kB` field of /proc/<pid>/status, in bytes. */
function statusField(pid: number, field: string): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return match === null ? NaN : Number(match[1]) * 1024
}

function cpuMs(pid: number): number {
  // Fields after the command name (which may hold spaces, so split after its closing parenthesis).
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND
}

function memory(child: ChildProcess, pid: number): Promise<MemorySample> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the node did not answer the memory probe within 10 s')), 10_000)
    const onMessage = (message: unknown): void => {
      const sample = (message as { soakMemory?: Omit<MemorySample, 'rss'> }).soakMemory
      if (sample === undefined) return
      clearTimeout(timer)
      child.off('message', onMessage)
      resolve({ rss: statusField(pid, 'VmRSS'), ...sample })
    }
    child.on('message', onMessage)
    child.send('soak:memory')
  })
}
