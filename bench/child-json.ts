/** Running a bench script in a node process of its own and reading the JSON it prints. */
import { spawn } from 'node:child_process'

/** Runs `node …args` to its end and returns its stdout parsed as JSON (its stderr passes through); rejects on a failed exit. */
export async function jsonFromChild<T>(args: readonly string[]): Promise<T> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] })
  let output = ''
  child.stdout.on('data', (chunk) => (output += chunk))
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve))
  if (code !== 0) throw new Error(`node ${args.join(' ')} exited with ${code}: ${output.slice(0, 200)}`)
  return JSON.parse(output) as T
}
