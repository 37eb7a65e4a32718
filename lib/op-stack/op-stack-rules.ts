/**
 * The rules of an OP-stack chain with every fork through Jovian active: its block rules (base
 * fee, extraData), its fee rules (vaults, L1 data fee, operator fee), flashblock index 0 for
 * system transactions only, the predeploys (L1Block already holding the genesis L1 attributes)
 * and the preinstalls in its genesis, its deposit queue, and RIP-7212's P256VERIFY precompile (Fjord).
 */
import { SYSTEM_FIRST_POLICY } from '../builder/policy.ts'
import type { ChainRules } from '../engine/chain-rules.ts'
import type { ResolvedOpStackOptions } from '../options.ts'
import type { UndoLog } from '../snapshots/undo-log.ts'
import { DepositQueue } from './deposit-queue.ts'
import { GENESIS_L1_NUMBER, l1BlockStorage } from './l1-attributes.ts'
import { opStackBlockRules } from './op-block-rules.ts'
import { OP_STACK_FEE_RULES } from './op-fee-rules.ts'
import { p256Verify, P256_VERIFY } from './p256-verify.ts'
import { L1_BLOCK, opStackPredeploys } from './predeploys.ts'
import { opStackPreinstalls } from './preinstalls.ts'

/** The rules of an OP-stack chain with `options`. */
export function opStackRules(options: ResolvedOpStackOptions, undoLog: UndoLog): ChainRules {
  return {
    blocks: opStackBlockRules(options),
    fees: OP_STACK_FEE_RULES,
    policy: SYSTEM_FIRST_POLICY,
    genesisAccounts(genesisTimestamp, chainId) {
      // The genesis's L1 origin: L1 block 1 at the genesis time, sequence number 0.
      const l1Block = l1BlockStorage({ origin: { number: GENESIS_L1_NUMBER, timestamp: genesisTimestamp }, sequenceNumber: 0n, options })
      const predeploys = opStackPredeploys().map((account) => (account.address === L1_BLOCK ? { ...account, storage: l1Block } : account))
      return [...predeploys, ...opStackPreinstalls(chainId)]
    },
    deposits: new DepositQueue(options, undoLog),
    precompiles: [{ address: P256_VERIFY, function: p256Verify }],
  }
}
