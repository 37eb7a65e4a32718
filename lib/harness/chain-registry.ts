/**
 * The chains whose harness installed chai matchers, so the transaction matchers find a
 * transaction on whichever chain knows it (a test may run several): held weakly, so a test's
 * chain can go, each with the transactions its taken-back pre-confirmations held.
 */
import type { Chain, TransactionLocation } from '../index.ts'

const harnessed: Array<WeakRef<Chain>> = []
/** Per chain: the hashes of transactions taken back with a pre-confirmation and not sent again since. */
const withdrawnHashes = new WeakMap<Chain, Set<string>>()

/** Registers `chain` (once), remembering the transactions its withdrawn pre-confirmations held until they are sent again. */
export function registerChain(chain: Chain): void {
  if (withdrawnHashes.has(chain)) return
  const withdrawn = new Set<string>()
  withdrawnHashes.set(chain, withdrawn)
  chain.on('withdrawn', ({ preconfirmations }) => {
    for (const { transactions } of preconfirmations) for (const { transaction } of transactions) withdrawn.add(transaction.hash.toLowerCase())
  })
  // Sent again (after a snapshot's revert, say), it is a new transaction, not a dropped one.
  chain.on('transaction', (transaction) => withdrawn.delete(transaction.hash.toLowerCase()))
  harnessed.push(new WeakRef(chain))
}

/** The registered chains still alive, newest first. */
function liveChains(): Chain[] {
  const live: Chain[] = []
  for (let i = harnessed.length - 1; i >= 0; i--) {
    const chain = harnessed[i].deref()
    if (chain === undefined) harnessed.splice(i, 1)
    else live.push(chain)
  }
  return live
}

/** The chain that knows transaction `hash` (the newest first), and where it is there. */
export function locateTransaction(hash: string): { chain: Chain; location: TransactionLocation } | undefined {
  for (const chain of liveChains()) {
    const location = chain.findTransaction(hash)
    if (location !== undefined) return { chain, location }
  }
  return undefined
}

/** Whether a pre-confirmation holding `hash` was taken back: on `chain`, the one that knows the transaction, or on any when none does (it was discarded). */
export function wasWithdrawn(hash: string, chain: Chain | undefined): boolean {
  return (chain === undefined ? liveChains() : [chain]).some((candidate) => withdrawnHashes.get(candidate)?.has(hash) === true)
}
