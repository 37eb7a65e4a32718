/** geth's texts for how an EVM run failed (core/vm/errors.go), by @ethereumjs/evm's error names. */
import type { EVMError } from '@ethereumjs/evm'

const GETH_TEXTS: Readonly<Record<string, string>> = {
  'out of gas': 'out of gas',
  'code store out of gas': 'contract creation code storage out of gas',
  'code size to deposit exceeds maximum code size': 'max code size exceeded',
  'stack underflow': 'stack underflow',
  // geth names the stack's length and the opcode's limit: 1024 and 1023 for every opcode that overflows it (a net push of one).
  'stack overflow': 'stack limit reached 1024 (1023)',
  'static state change': 'write protection',
  'create collision': 'contract address collision',
  'insufficient balance': 'insufficient balance for transfer',
  'invalid bytecode deployed': 'invalid code: must not begin with 0xef',
  'initcode exceeds max initcode size': 'max initcode size exceeded',
  'value out of range': 'return data out of bounds',
  revert: 'execution reverted',
}

/** The start of the library's text for a jump to a byte that is no JUMPDEST. */
const INVALID_JUMP = 'invalid JUMP'

/**
 * geth's text for `error`. An invalid opcode names the opcode, `op` when the caller knows it,
 * else INVALID (0xfe, what Solidity's `assert` compiled to before 0.8).
 */
export function evmErrorText(error: EVMError, op = 'INVALID'): string {
  if (error.error === 'invalid opcode') return `invalid opcode: ${op}`
  // The library says where a bad jump was ("invalid JUMP at <code hash>/<address>:<pc>"); geth does not.
  if (error.error.startsWith(INVALID_JUMP)) return 'invalid jump destination'
  return GETH_TEXTS[error.error] ?? error.error
}
