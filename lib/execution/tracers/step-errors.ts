/** Which EVM errors geth reports on the step of the opcode that raised them (its gas and stack checks run first). */
import type { EVMError } from '@ethereumjs/evm'

const STEP_ERRORS = new Set(['out of gas', 'stack underflow', 'stack overflow', 'gas uint64 overflow'])

/** geth's prefix for a failed gas charge (`out of gas: max initcode size exceeded: …`, `out of gas: gas uint64 overflow`). */
const GAS_CHARGE_FAILED = 'out of gas:'

/** Whether geth reports `error` on the step of the opcode that raised it. */
export function isStepError(error: EVMError): boolean {
  return STEP_ERRORS.has(error.error) || error.error.startsWith(GAS_CHARGE_FAILED)
}
