/** Time helpers for tests: step the chain to its next pre-confirmation or seal, or to a timestamp. */
import { InvalidInputError, type Chain, type Preconfirmation, type SealedBlock } from '../index.ts'

/** The time helpers of a harness. */
export interface TimeHelpers {
  /**
   * Advances the clock to the next pre-confirmation tick and returns what it pre-confirmed: on an
   * OP-stack chain, where a block's first tick runs its deposits (index 0) and its first user
   * pre-confirmation (index 1) at one instant, the latter. A block's last tick, due with its
   * seal, returns before the seal: the seal fires with the next step of the clock.
   */
  nextPreconfirmation(): Promise<Preconfirmation>
  /** Advances the clock through the next seal (and the ticks before it) and returns the sealed block. */
  nextSeal(): Promise<SealedBlock>
  /** Advances the clock by `ms`, firing every tick and seal that falls due. */
  advance(ms: number): Promise<void>
  /**
   * Seals a block stamped `timestamp` (seconds) now, as Hardhat's `time.increaseTo` mines one;
   * a pending block that has pre-confirmed transactions (besides an OP-stack chain's opening
   * L1-attributes deposit, made again for the new time) seals first, with its own timestamp (a
   * `timestamp` not after it is refused before anything seals).
   */
  increaseTo(timestamp: bigint | number): Promise<void>
  /** The newest sealed block's timestamp (seconds), as Hardhat's `time.latest`. */
  latest(): Promise<bigint>
}

/** The sender of an OP-stack chain's L1-attributes deposits (OP specs: the depositor account). */
const L1_ATTRIBUTES_DEPOSITOR = '0xdeaddeaddeaddeaddeaddeaddeaddeaddead0001'

/**
 * Steps `chain`'s clock event by event until `event` fires; returns its last payload (an
 * OP-stack block's opening tick pre-confirms twice). A seal due at the same instant as the tick
 * stepped to waits (`clock.step`), so a block's last pre-confirmation is seen unsealed.
 */
async function until<E extends 'preconfirmation' | 'block'>(chain: Chain, event: E): Promise<E extends 'block' ? SealedBlock : Preconfirmation> {
  let payload: unknown
  const listener = (value: unknown): void => {
    payload = value
  }
  chain.on(event, listener as never)
  try {
    while (payload === undefined) {
      if (!(await chain.clock.step())) throw new Error(`no ${event === 'block' ? 'seal' : 'tick'} is scheduled (mining: ${chain.mining})`)
    }
  } finally {
    chain.off(event, listener as never)
  }
  return payload as E extends 'block' ? SealedBlock : Preconfirmation
}

/** Time helpers bound to `chain`. */
export function createTimeHelpers(chain: Chain): TimeHelpers {
  return {
    nextPreconfirmation: () => until(chain, 'preconfirmation'),
    nextSeal: () => until(chain, 'block'),
    advance: (ms) => chain.clock.advance(ms),
    async increaseTo(timestamp) {
      const target = BigInt(timestamp)
      if (chain.pending.transactions.some(({ transaction }) => transaction.sender !== L1_ATTRIBUTES_DEPOSITOR)) {
        // Refused before anything seals: the pre-confirmed block, sealed first, keeps its own timestamp.
        const sealedFirst = chain.pending.context.timestamp
        if (target <= sealedFirst) throw new InvalidInputError(`Timestamp ${target} is lower than or equal to previous block's timestamp ${sealedFirst} (the pre-confirmed block, which seals first)`)
        await chain.mine()
      }
      await chain.setNextBlockTimestamp(target)
      await chain.mine()
    },
    latest: async () => chain.blockByNumber(Number(chain.blockNumber()))!.header.timestamp,
  }
}
