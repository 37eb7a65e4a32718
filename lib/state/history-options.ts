/**
 * How much sealed state history a chain keeps, defined once like every option
 * (`createChain({ pruneHistory: 64 })`, the CLI's `--prune-history 64`). Anvil's
 * `--prune-history [N]`: the state of the head and of the N blocks before it stays readable;
 * reads at older blocks answer Anvil's -32602 `BlockOutOfRangeError: block height is H but
 * requested was B`. Blocks, transactions, receipts and logs are all kept, as in Anvil. 0 keeps
 * the head's state alone (Anvil's bare `--prune-history`, and its `--prune-history 0`).
 */
import { define, integer } from '../option-definition.ts'

/** The state history's options. */
export const historyOptions = {
  pruneHistory: define<number | string, number | undefined>({
    flag: 'prune-history',
    description:
      "keep the state of the head and the N blocks before it only; reads at older blocks fail with Anvil's BlockOutOfRangeError (-32602); blocks, transactions and receipts are all kept; 0: the head's state alone (Anvil's bare --prune-history)",
    defaultText: "none (every block's state is kept)",
    parse: integer(0),
    default: () => undefined,
  }),
}
