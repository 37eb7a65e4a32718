/**
 * The polled-filter methods (geth's and Anvil's shapes): `eth_newFilter`, `eth_newBlockFilter`,
 * `eth_newPendingTransactionFilter`, `eth_getFilterChanges`, `eth_getFilterLogs`,
 * `eth_uninstallFilter`. What each filter reports is described in `filters.ts`.
 */
import { describeValue, invalidArgument } from './hex.ts'
import { parseLogQuery } from './log-filter.ts'
import { method, optional, required, type MethodDefinition } from './method-definition.ts'
import { parseBoolean } from './params.ts'

/** A filter id: any string (an id the chain never gave is `filter not found`, as in geth and Anvil). */
function parseFilterId(value: unknown, name: string): string {
  if (typeof value !== 'string') throw invalidArgument(name, `expected a filter id string, got ${describeValue(value)}`)
  return value
}

const filterId = required('0 (filter id)', parseFilterId)

/** The polled-filter methods, by name. */
export const filterMethods: Readonly<Record<string, MethodDefinition>> = {
  eth_newFilter: method([required('0 (filter)', parseLogQuery)], ({ filters }, query) => filters.newLogFilter(query)),
  eth_newBlockFilter: method([], ({ filters }) => filters.newBlockFilter()),
  // geth's optional `fullTx` (Anvil takes no parameter).
  eth_newPendingTransactionFilter: method([optional('0 (fullTx)', parseBoolean, () => false)], ({ filters }, full) =>
    filters.newPendingTransactionFilter(full),
  ),
  eth_getFilterChanges: method([filterId], ({ filters }, id) => filters.changes(id)),
  eth_getFilterLogs: method([filterId], ({ filters, view }, id) => filters.logs(id, view.blocks)),
  eth_uninstallFilter: method([filterId], ({ filters }, id) => filters.uninstall(id)),
}
