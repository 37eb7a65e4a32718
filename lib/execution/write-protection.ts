/**
 * The writes geth's gas functions refuse (core/vm gas_table.go, operations_acl.go, 1.17): SSTORE,
 * CREATE, CREATE2, SELFDESTRUCT and a CALL that moves value, in a static frame, and SSTORE with
 * no more than the 2,300 gas of EIP-2200's reentrancy sentry. The interpreter wraps a gas
 * function's error in ErrOutOfGas, so the step fails at its fixed cost with `out of gas: write
 * protection` or `out of gas: not enough gas for reentrancy sentry`, where the library's gas
 * handlers trap `static state change` (`write protection`) or plain `out of gas`. LOG and TSTORE
 * refuse in their instructions, as the library does: plain `write protection`.
 */
import type { Common } from '@ethereumjs/common'
import { EVMError, type EVM } from '@ethereumjs/evm'
import { CALL, CREATE, CREATE2, SELFDESTRUCT, SSTORE } from './opcode-bytes.ts'

type OpcodeMap = EVM['_opcodeMap']
type GasHandler = NonNullable<OpcodeMap[number]['gasHandler']>

/** What these checks read of the library's run state. */
interface RunState {
  stack: { peek(count?: number): bigint[] }
  interpreter: { isStatic(): boolean; getGasLeft(): bigint }
}

/** EIP-2200's sentry: SSTORE needs more gas than this left. */
const SSTORE_SENTRY_GAS = 2300n

const writeProtection = () => new EVMError('out of gas: write protection' as EVMError['error'])

/** `handler` behind `check`, which throws geth's error where its gas function refuses. */
function checked(handler: GasHandler, check: (runState: RunState) => void): GasHandler {
  return ((runState: RunState, gas: bigint, common: Common) => {
    check(runState)
    return (handler as unknown as (runState: RunState, gas: bigint, common: Common) => unknown)(runState, gas, common)
  }) as unknown as GasHandler
}

/** Puts geth's refusals in front of the gas handlers of SSTORE, CREATE, CREATE2, SELFDESTRUCT and CALL in `opcodes` (one EVM's own table); installed last, as geth checks them first. */
export function installWriteProtection(opcodes: OpcodeMap): void {
  const guard = (opcode: number, check: (runState: RunState) => void) => {
    const entry = opcodes[opcode]
    if (entry?.gasHandler !== undefined) entry.gasHandler = checked(entry.gasHandler, check)
  }
  guard(SSTORE, (runState) => {
    if (runState.interpreter.isStatic()) throw writeProtection()
    if (runState.interpreter.getGasLeft() <= SSTORE_SENTRY_GAS) throw new EVMError('out of gas: not enough gas for reentrancy sentry' as EVMError['error'])
  })
  for (const opcode of [CREATE, CREATE2, SELFDESTRUCT]) {
    guard(opcode, (runState) => {
      if (runState.interpreter.isStatic()) throw writeProtection()
    })
  }
  guard(CALL, (runState) => {
    if (runState.interpreter.isStatic() && runState.stack.peek(3)[2] !== 0n) throw writeProtection()
  })
}
