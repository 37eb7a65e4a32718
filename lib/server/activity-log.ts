/**
 * The node's compact log: a line per pre-confirmation that included transactions, a line per
 * sealed block, and the requests served since the last line, counted by method.
 */
import type { Chain, Preconfirmation, SealedBlock } from '../index.ts'

/** Counts requests and writes the activity of a chain to an output. */
export interface ActivityLog {
  /** Counts one request. */
  request(method: string): void
  /** Writes the request counts now, if any. */
  flush(): void
  /** Stops listening to the chain. */
  stop(): void
}

function clockTime(ms: number): string {
  return new Date(ms).toISOString().slice(11, 23)
}

function shortHash(hash: string): string {
  return `${hash.slice(0, 10)}…${hash.slice(-4)}`
}

/** Logs `chain`'s activity through `output` (one line per call), while the chain's logging is enabled. */
export function createActivityLog(chain: Chain, output: (line: string) => void): ActivityLog {
  const write = (line: string): void => {
    if (chain.loggingEnabled) output(line)
  }
  const counts = new Map<string, number>()
  const flush = (): void => {
    if (counts.size === 0) return
    const summary = [...counts].map(([method, count]) => (count === 1 ? method : `${method}×${count}`)).join(' ')
    counts.clear()
    write(`${clockTime(chain.clock.now())} requests  ${summary}`)
  }
  const onPreconfirmation = (preconfirmation: Preconfirmation): void => {
    for (const { transaction, reason } of preconfirmation.dropped) write(`${clockTime(chain.clock.now())} dropped   ${shortHash(transaction.hash)}  ${reason}`)
    if (preconfirmation.transactions.length === 0) return
    flush()
    const hashes = preconfirmation.transactions.map(({ transaction }) => shortHash(transaction.hash)).join(' ')
    write(`${clockTime(chain.clock.now())} preconf   block ${preconfirmation.blockNumber}.${preconfirmation.index}  +${preconfirmation.transactions.length} tx  ${hashes}`)
  }
  const onBlock = (block: SealedBlock): void => {
    flush()
    const { header } = block
    write(`${clockTime(chain.clock.now())} sealed    block ${header.number}  ${block.transactions.length} tx  gas ${header.gasUsed}  ${shortHash(block.hash)}`)
  }
  chain.on('preconfirmation', onPreconfirmation)
  chain.on('block', onBlock)
  return {
    request: (method) => counts.set(method, (counts.get(method) ?? 0) + 1),
    flush,
    stop() {
      chain.off('preconfirmation', onPreconfirmation)
      chain.off('block', onBlock)
    },
  }
}
