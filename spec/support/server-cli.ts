/**
 * Helpers for the CLI spec: spawn `node dist/cli.js` (or `npx preconf-devnet`), collect its
 * output, wait for lines, time the ready line, and make sure no child outlives the spec.
 */
import { connect } from 'node:net'
import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'

/** The repository root. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url))

/** The ready line: `Listening on http://HOST:PORT (WebSocket ws://HOST:PORT)`. */
export const READY_LINE = /^Listening on (http:\/\/([^\s:]+):(\d+)) \(WebSocket (ws:\/\/\S+)\)$/m

export interface Exit {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
  /** performance.now() when the process had exited and closed its output. */
  readonly at: number
}

/** A spawned CLI. */
export interface CliProcess {
  readonly child: ChildProcess
  /** performance.now() at spawn. */
  readonly startedAt: number
  stdout(): string
  stderr(): string
  /**
   * Resolves once the process has exited and its output is closed: under `npx` the server is a
   * grandchild holding the same pipes, so this waits for it too (npm's own exit can come first).
   */
  readonly exited: Promise<Exit>
  /** Whether it has exited yet. */
  hasExited(): boolean
  /** Waits until stdout matches `pattern` (rejects after `timeoutMs` or on exit). */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>
  /** Sends a signal (to the whole process group when spawned detached). */
  signal(name: NodeJS.Signals): void
}

/** A CLI that printed its ready line. */
export interface ReadyCli extends CliProcess {
  readonly url: string
  readonly port: number
  /** Milliseconds from spawn to the ready line. */
  readonly readyMs: number
}

const live = new Set<CliProcess>()

/** Spawns `command args` in the repository root. `detached` puts it in its own process group. */
export function spawnCli(args: string[], options: { command?: string; detached?: boolean } = {}): CliProcess {
  const command = options.command ?? process.execPath
  const fullArgs = options.command === undefined ? ['dist/cli.js', ...args] : args
  const startedAt = performance.now()
  const child = spawn(command, fullArgs, { cwd: ROOT, detached: options.detached ?? false, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  let err = ''
  let exit: Exit | undefined
  const watchers = new Set<() => void>()
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk
    for (const watcher of watchers) watcher()
  })
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    err += chunk
  })
  const exited = new Promise<Exit>((resolve) => {
    child.once('close', (code, signal) => {
      exit = { code, signal, at: performance.now() }
      live.delete(cli)
      for (const watcher of watchers) watcher()
      resolve(exit)
    })
  })
  const cli: CliProcess = {
    child,
    startedAt,
    stdout: () => out,
    stderr: () => err,
    exited,
    hasExited: () => exit !== undefined,
    waitFor(pattern, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          const match = pattern.exec(out)
          if (match !== null) finish(() => resolve(match))
          else if (exit !== undefined) finish(() => reject(new Error(`exited (${exit!.code ?? exit!.signal}) before ${pattern}; stdout:\n${out}\nstderr:\n${err}`)))
        }
        const timer = setTimeout(() => finish(() => reject(new Error(`no ${pattern} within ${timeoutMs} ms; stdout:\n${out}\nstderr:\n${err}`))), timeoutMs)
        const finish = (settle: () => void): void => {
          clearTimeout(timer)
          watchers.delete(check)
          settle()
        }
        watchers.add(check)
        check()
      })
    },
    signal(name) {
      if (exit !== undefined || child.pid === undefined) return
      if (options.detached === true) process.kill(-child.pid, name)
      else child.kill(name)
    },
  }
  live.add(cli)
  return cli
}

/** Spawns the CLI and waits for its ready line. */
export async function startCli(args: string[], options: { command?: string; detached?: boolean; timeoutMs?: number } = {}): Promise<ReadyCli> {
  const cli = spawnCli(args, options)
  const match = await cli.waitFor(READY_LINE, options.timeoutMs ?? 5000)
  const readyMs = performance.now() - cli.startedAt
  return Object.assign(cli, { url: match[1], port: Number(match[3]), readyMs })
}

/** Kills (SIGKILL) every CLI a spec started that is still running. */
export async function killAll(): Promise<void> {
  const running = [...live]
  for (const cli of running) cli.signal('SIGKILL')
  await Promise.all(running.map((cli) => cli.exited))
}

/** Polls `probe` every `intervalMs` until it returns a value other than undefined (rejects after `timeoutMs`). */
export async function pollUntil<T>(probe: () => Promise<T | undefined>, timeoutMs: number, intervalMs = 25): Promise<T> {
  const deadline = performance.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    if (performance.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, intervalMs))
  }
}

/** Resolves with the connect error's code (or 'connected'). */
export function tryConnect(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port })
    socket.once('connect', () => {
      socket.destroy()
      resolve('connected')
    })
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? String(error)))
  })
}
