/**
 * The options of the `preconf-devnet` command beyond the chain's (lib/options.ts) and its HTTP
 * side's (lib/server/http-options.ts): where it listens, and the state files it loads and writes.
 */
import { define, integer, text } from './option-definition.ts'

/** The options of the `preconf-devnet` command beyond the chain's. */
export const serverOptions = {
  host: define<string, string>({
    flag: 'host',
    description: 'interface to listen on (loopback only by default)',
    defaultText: '127.0.0.1',
    parse: text,
    default: () => '127.0.0.1',
  }),
  port: define<number, number>({
    flag: 'port',
    description: 'port for HTTP and WebSocket JSON-RPC; 0 picks a free port',
    defaultText: '8545',
    parse: integer(0, 65535),
    default: () => 8545,
  }),
  loadState: define<string, string | undefined>({
    flag: 'load-state',
    description: 'start from the state dump in this file (written by --dump-state, anvil_dumpState or chain.dumpState())',
    defaultText: 'none',
    parse: text,
    default: () => undefined,
  }),
  dumpState: define<string, string | undefined>({
    flag: 'dump-state',
    description: "write the chain's state to this file on exit (SIGINT, SIGTERM); a directory gets its `state.json`, as Anvil writes it, and a path whose directory is missing is refused at start",
    defaultText: 'none',
    parse: text,
    default: () => undefined,
  }),
  state: define<string, string | undefined>({
    flag: 'state',
    description: 'both: load this file if it exists, and write it on exit',
    defaultText: 'none',
    parse: text,
    default: () => undefined,
  }),
}
