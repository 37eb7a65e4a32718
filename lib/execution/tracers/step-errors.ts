/** Which EVM errors geth reports on the step of the opcode that raised them (its gas and stack checks run first). */
import type { EVMError } from '@ethereumjs/evm'

const STEP_ERRORS = new Set(['out of gas', 'stack underflow', 'stack overflow'])

/** Whether geth reports `error` on the step of the opcode that raised it. */
export function isStepError(error: EVMError): boolean {
  return STEP_ERRORS.has(error.error)
}
