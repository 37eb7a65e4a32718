/**
 * The limits of the transaction pool, defined once like every option (`createChain({ txpool:
 * { globalSlots, … } })`, the CLI's `--txpool-*` flags), with geth's defaults
 * (core/txpool/legacypool/legacypool.go, `DefaultConfig`: AccountSlots 16, GlobalSlots
 * 4096 + 1024, AccountQueue 64, GlobalQueue 1024, Lifetime 3 h). A slot is 32 KiB of a
 * transaction's encoding (geth's `numSlots`): a plain transfer takes one.
 */
import { define, integer } from '../option-definition.ts'

/** The pool's limits, every default applied. */
export interface TxPoolLimits {
  readonly accountSlots: number
  readonly globalSlots: number
  readonly accountQueue: number
  readonly globalQueue: number
  readonly lifetimeMs: number
}

/** The transaction pool's options. */
export const txpoolOptions = {
  accountSlots: define<number, number>({
    flag: 'txpool-account-slots',
    description: "executable transactions an account keeps when the pool trims executable ones beyond --txpool-global-slots (geth's --txpool.accountslots)",
    defaultText: '16',
    parse: integer(1),
    default: () => 16,
  }),
  globalSlots: define<number, number>({
    flag: 'txpool-global-slots',
    description: "executable transactions of all accounts; with --txpool-global-queue, the pool's capacity in slots of 32 KiB, beyond which the cheapest are evicted (geth's --txpool.globalslots)",
    defaultText: '5120',
    parse: integer(1),
    default: () => 5120,
  }),
  accountQueue: define<number, number>({
    flag: 'txpool-account-queue',
    description: "gapped (queued) transactions an account may hold: beyond, its highest nonces are dropped (geth's --txpool.accountqueue)",
    defaultText: '64',
    parse: integer(1),
    default: () => 64,
  }),
  globalQueue: define<number, number>({
    flag: 'txpool-global-queue',
    description: "gapped transactions of all accounts: beyond, the accounts idle longest lose their highest nonces (geth's --txpool.globalqueue)",
    defaultText: '1024',
    parse: integer(1),
    default: () => 1024,
  }),
  lifetimeMs: define<number, number>({
    flag: 'txpool-lifetime',
    description: "milliseconds of the chain's clock an account's gapped transactions stay while it sends nothing executable; then they are dropped (geth's --txpool.lifetime)",
    defaultText: '10800000 (3 h)',
    parse: integer(1),
    default: () => 10_800_000,
  }),
}
