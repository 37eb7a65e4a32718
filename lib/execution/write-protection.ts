/**
 * The writes geth's gas functions refuse (core/vm gas_table.go, operations_acl.go, 1.17): in a
 * static frame, SSTORE, SELFDESTRUCT, and (memory-gas.ts, behind geth's memory size check)
 * CREATE, CREATE2 and a CALL that moves value; SSTORE with no more than the 2,300 gas of
 * EIP-2200's reentrancy sentry. The interpreter wraps a gas function's error in ErrOutOfGas, so
 * the step fails at its fixed cost with `out of gas: write protection` or `out of gas: not enough
 * gas for reentrancy sentry`, where the library's gas handlers trap `static state change`
 * (`write protection`) or plain `out of gas`. LOG and TSTORE refuse in their instructions, as the
 * library does: plain `write protection`. A stack too short fails first, as geth checks it first.
 */
import type { Common } from '@ethereumjs/common'
import { EVMError, type EVM } from '@ethereumjs/evm'
import { SELFDESTRUCT, SSTORE } from './opcode-bytes.ts'

type OpcodeMap = EVM['_opcodeMap']
type GasHandler = NonNullable<OpcodeMap[number]['gasHandler']>

/** What these checks read of the library's run state. */
interface RunState {
  stack: { readonly length: number }
  interpreter: { isStatic(): boolean; getGasLeft(): bigint }
}

/** EIP-2200's sentry: SSTORE needs more gas than this left. */
const SSTORE_SENTRY_GAS = 2300n

/** geth's error for a write its gas function refuses in a static frame. */
export function writeProtection(): EVMError {
  return new EVMError('out of gas: write protection' as EVMError['error'])
}

/** `handler` behind `check`, which throws geth's error where its gas function refuses, after the stack's check for the opcode's `operands`. */
function checked(handler: GasHandler, operands: number, check: (runState: RunState) => void): GasHandler {
  return ((runState: RunState, gas: bigint, common: Common) => {
    if (runState.stack.length < operands) throw new EVMError(EVMError.errorMessages.STACK_UNDERFLOW)
    check(runState)
    return (handler as unknown as (runState: RunState, gas: bigint, common: Common) => unknown)(runState, gas, common)
  }) as unknown as GasHandler
}

/** Puts geth's refusals in front of the gas handlers of SSTORE and SELFDESTRUCT in `opcodes` (one EVM's own table). */
export function installWriteProtection(opcodes: OpcodeMap): void {
  const guard = (opcode: number, operands: number, check: (runState: RunState) => void) => {
    const entry = opcodes[opcode]
    if (entry?.gasHandler !== undefined) entry.gasHandler = checked(entry.gasHandler, operands, check)
  }
  guard(SSTORE, 2, (runState) => {
    if (runState.interpreter.isStatic()) throw writeProtection()
    if (runState.interpreter.getGasLeft() <= SSTORE_SENTRY_GAS) throw new EVMError('out of gas: not enough gas for reentrancy sentry' as EVMError['error'])
  })
  guard(SELFDESTRUCT, 1, (runState) => {
    if (runState.interpreter.isStatic()) throw writeProtection()
  })
}
