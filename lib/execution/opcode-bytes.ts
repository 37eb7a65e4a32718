/**
 * The opcode bytes the devnet's own EVM code names: the handlers it installs (word-opcodes,
 * halt-opcodes, code-analysis, memory-gas, evm-pacing), its step loop and interpreter
 * (interpreter-loop, interpreter-factory), what the tracer hooks single out (evm-hooks) and the
 * opcodes the access list tracer reads (access-list-tracer). The EVM's table has the rest.
 */

export const STOP = 0x00
export const EXP = 0x0a
export const KECCAK256 = 0x20
export const ADDRESS = 0x30
export const ORIGIN = 0x32
export const BALANCE = 0x31
export const CALLER = 0x33
export const CALLDATALOAD = 0x35
export const CALLDATACOPY = 0x37
export const CODECOPY = 0x39
export const EXTCODESIZE = 0x3b
export const EXTCODECOPY = 0x3c
export const RETURNDATACOPY = 0x3e
export const EXTCODEHASH = 0x3f
/** geth still calls 0x44 DIFFICULTY in its traces. */
export const PREVRANDAO = 0x44
export const MLOAD = 0x51
export const MSTORE = 0x52
export const MSTORE8 = 0x53
export const SLOAD = 0x54
export const SSTORE = 0x55
export const JUMP = 0x56
export const JUMPI = 0x57
export const JUMPDEST = 0x5b
export const MCOPY = 0x5e
export const PUSH1 = 0x60
export const PUSH32 = 0x7f
export const LOG0 = 0xa0
export const LOG4 = 0xa4
export const CREATE = 0xf0
export const CALL = 0xf1
export const CALLCODE = 0xf2
export const RETURN = 0xf3
export const DELEGATECALL = 0xf4
export const CREATE2 = 0xf5
export const STATICCALL = 0xfa
export const REVERT = 0xfd
export const INVALID = 0xfe
export const SELFDESTRUCT = 0xff
