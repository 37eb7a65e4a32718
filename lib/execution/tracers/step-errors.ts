/** Which EVM errors geth reports on the step of the opcode that raised them (its gas and stack checks run first). */
import type { EVMError } from '@ethereumjs/evm'

const STEP_ERRORS = new Set(['out of gas', 'stack underflow', 'stack overflow', 'gas uint64 overflow'])

/** geth's prefix for a failed gas charge (`out of gas: max initcode size exceeded: …`, `out of gas: gas uint64 overflow`). */
const GAS_CHARGE_FAILED = 'out of gas:'

/** Whether geth reports `error` on the step of the opcode that raised it. */
export function isStepError(error: EVMError): boolean {
  return STEP_ERRORS.has(error.error) || error.error.startsWith(GAS_CHARGE_FAILED)
}

/**
 * Whether `error` refused the opcode's gas charge before its dynamic cost was known (the
 * interpreter's memorySize, or a gas function's own error): geth's step then counts only the
 * opcode's fixed cost, not the gas a call would have handed its callee.
 */
export function isRefusedCharge(error: EVMError): boolean {
  return (error.error as string) === 'gas uint64 overflow' || error.error.startsWith(GAS_CHARGE_FAILED)
}
