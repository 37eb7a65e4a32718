/**
 * The option of runs at the RPC edge, defined once like every option (`createChain({
 * callTimeoutMs })`, the CLI's `--call-timeout`): how long an `eth_call`, `eth_estimateGas`,
 * `eth_createAccessList`, `debug_trace*` or `eth_simulateV1` may run before it is stopped with
 * geth's error. geth's `--rpc.evmtimeout` (a Go duration, 5s by default) is the model; this one
 * is in milliseconds, and 0 lifts the limit. Transactions the chain executes (ticks, seals) are
 * never time-boxed: a block's contents must not depend on wall time.
 */
import { define, integer } from '../option-definition.ts'

/** geth's `--rpc.evmtimeout` default, in milliseconds. */
const DEFAULT_CALL_TIMEOUT_MS = 5000

/** The options of runs at the RPC edge. */
export const callOptions = {
  callTimeoutMs: define<number, number>({
    flag: 'call-timeout',
    description: 'milliseconds an eth_call, eth_estimateGas, debug_trace* or eth_simulateV1 may run before it fails with geth\'s "execution aborted (timeout = 5s)" (geth --rpc.evmtimeout); 0: no limit',
    defaultText: String(DEFAULT_CALL_TIMEOUT_MS),
    parse: integer(0),
    default: () => DEFAULT_CALL_TIMEOUT_MS,
  }),
}
