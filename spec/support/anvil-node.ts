/**
 * Anvil (Foundry 1.7.1, the devDependency) as a reference node for specs: started on a free
 * loopback port, spoken to over JSON-RPC, killed with its process group. When it cannot start,
 * the reason is returned so the spec can say so and skip.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const ANVIL = fileURLToPath(new URL('../../node_modules/.bin/anvil', import.meta.url))
const START_TIMEOUT_MS = 15_000

/** A running Anvil. */
export interface AnvilNode {
  readonly url: string
  /** Sends one JSON-RPC request; rejects with the node's error object as JSON. */
  request<T = unknown>(method: string, params?: unknown[]): Promise<T>
  /**
   * Waits until a transaction is mined: its receipt and its block both visible. Anvil automines
   * on a task of its own after it answers `eth_send*`, so a receipt asked for at once may still be
   * null; and Anvil 1.7.1 stores the receipt a moment before it drops the transaction from its
   * pool, so `eth_getTransactionByHash` may still answer the pending form (null `blockHash`, no
   * `blockTimestamp`) after the receipt appears (~1 in 300 here). Rejects after 2 s.
   */
  mined(hash: string): Promise<void>
  /** Kills Anvil (its whole process group: the npm launcher and the binary). */
  stop(): void
}

/** Starts `anvil --host 127.0.0.1 --port 0 …args`; resolves to the node, or to why it could not start. */
export function startAnvil(args: readonly string[]): Promise<AnvilNode | { readonly unavailable: string }> {
  let child: ChildProcess
  try {
    child = spawn(ANVIL, ['--host', '127.0.0.1', '--port', '0', ...args], { detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
  } catch (error) {
    return Promise.resolve({ unavailable: (error as Error).message })
  }
  const stop = (): void => {
    if (child.exitCode === null && child.pid !== undefined) {
      try {
        process.kill(-child.pid, 'SIGKILL')
      } catch {
        // Already gone.
      }
    }
  }
  return new Promise((resolve) => {
    let output = ''
    let listening = false
    const timer = setTimeout(() => {
      stop()
      resolve({ unavailable: `anvil did not report a listening address within ${START_TIMEOUT_MS} ms: ${output.slice(-300)}` })
    }, START_TIMEOUT_MS)
    // Anvil logs every request: its output is drained for as long as it runs, and read until it listens.
    const collect = (chunk: Buffer): void => {
      if (listening) return
      output += chunk.toString()
      const address = /Listening on (\d+\.\d+\.\d+\.\d+:\d+)/.exec(output)
      if (address === null) return
      listening = true
      clearTimeout(timer)
      resolve(anvilAt(`http://${address[1]}`, stop))
    }
    child.stdout!.on('data', collect)
    child.stderr!.on('data', collect)
    child.on('error', (error) => {
      clearTimeout(timer)
      resolve({ unavailable: error.message })
    })
    child.on('exit', (code) => {
      clearTimeout(timer)
      resolve({ unavailable: `anvil exited with code ${code}: ${output.slice(-300)}` })
    })
  })
}

/**
 * Anvil for a suite's `before` hook (`context` is the hook's `this`): started with `args`, or,
 * where it cannot start, a visible notice and the suite's comparisons skipped.
 */
export async function anvilOrSkip(context: Mocha.Context, args: readonly string[]): Promise<AnvilNode> {
  const started = await startAnvil(args)
  if ('unavailable' in started) {
    console.log(`\n      NOTICE: Anvil could not start, so the Anvil comparisons are SKIPPED: ${started.unavailable}\n`)
    context.skip()
  }
  return started as AnvilNode
}

const MINED_POLL_MS = 20
const MINED_TIMEOUT_MS = 2_000

function anvilAt(url: string, stop: () => void): AnvilNode {
  let id = 0
  const request = async <T>(method: string, params: unknown[] = []): Promise<T> => {
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }) })
    const body = (await response.json()) as { result?: T; error?: unknown }
    if (body.error !== undefined) throw new Error(`anvil ${method}: ${JSON.stringify(body.error)}`)
    return body.result as T
  }
  const isMined = async (hash: string): Promise<boolean> =>
    (await request('eth_getTransactionReceipt', [hash])) !== null &&
    (await request<{ blockHash: string | null } | null>('eth_getTransactionByHash', [hash]))?.blockHash != null
  const mined = async (hash: string): Promise<void> => {
    for (let waited = 0; !(await isMined(hash)); waited += MINED_POLL_MS) {
      if (waited >= MINED_TIMEOUT_MS) throw new Error(`anvil did not mine ${hash} within ${MINED_TIMEOUT_MS} ms`)
      await new Promise((resolve) => setTimeout(resolve, MINED_POLL_MS))
    }
  }
  return { url, stop, request, mined }
}

/**
 * An answer (through `comparable`, if given), or the error's code and message, alike from the
 * devnet and from Anvil, whose errors come as the node's JSON inside the message.
 */
export async function answerOrError(call: () => Promise<unknown>, comparable: (answer: unknown) => unknown = (answer) => answer): Promise<unknown> {
  try {
    return comparable(await call())
  } catch (error) {
    const { code, message } = error as { code?: number; message: string }
    const wrapped = /^anvil \S+: (\{.*\})$/.exec(message)
    return wrapped === null ? { code, message } : JSON.parse(wrapped[1]!)
  }
}
