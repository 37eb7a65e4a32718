/**
 * The state controls over RPC (Anvil's and Hardhat's): balances, nonces, code, storage,
 * ERC-20 balances and allowances, and impersonation. They edit `latest` and `pending` at once
 * and seal no block. Hardhat's names answer `true`, Anvil's `null` (`anvil_setStorageAt`: `true`), as each does.
 */
import { parseAddress, parseData, parseWord } from './hex.ts'
import { anvilAndHardhat, method, required, type MethodDefinition } from './method-definition.ts'
import { parseBoolean, parseQuantityLike } from './params.ts'

const address = required('0 (address)', parseAddress)

/** A nonce is a uint64: a larger one is held at 2^64 - 1, as Anvil 1.7.1 holds it. */
const MAX_NONCE = 2n ** 64n - 1n

const setNonce = (answer: null | true): MethodDefinition =>
  method([address, required('1 (nonce)', parseQuantityLike)], async ({ engine }, account, nonce) => {
    await engine.controls.setNonce(account, nonce > MAX_NONCE ? MAX_NONCE : nonce)
    return answer
  })

const setBalance = (answer: null | true): MethodDefinition =>
  method([address, required('1 (balance)', parseQuantityLike)], async ({ engine }, account, balance) => {
    await engine.controls.setBalance(account, balance)
    return answer
  })

const addBalance = (answer: null | true): MethodDefinition =>
  method([address, required('1 (amount)', parseQuantityLike)], async ({ engine }, account, amount) => {
    await engine.controls.addBalance(account, amount)
    return answer
  })

const dealERC20 = (answer: null | true): MethodDefinition =>
  method([address, required('1 (token)', parseAddress), required('2 (amount)', parseQuantityLike)], async ({ engine }, owner, token, amount) => {
    await engine.tokens.deal(owner, token, amount)
    return answer
  })

/** Every state control, by RPC name. */
export const stateControlMethods: Readonly<Record<string, MethodDefinition>> = {
  ...anvilAndHardhat('setBalance', setBalance),
  ...anvilAndHardhat('addBalance', addBalance),
  // Anvil's aliases (Tenderly's names), answering as Anvil's own names do.
  tenderly_setBalance: setBalance(null),
  tenderly_addBalance: addBalance(null),
  ...anvilAndHardhat('setNonce', setNonce),
  // Anvil's alias of anvil_setNonce (Ganache's name).
  evm_setAccountNonce: setNonce(null),
  ...anvilAndHardhat('setCode', (answer) =>
    method([address, required('1 (code)', parseData)], async ({ engine }, account, code) => {
      await engine.controls.setCode(account, code)
      return answer
    }),
  ),
  // Both names answer true: Anvil's anvil_setStorageAt returns a bool, unlike its other setters.
  // The value is a whole word (a shorter one is refused, as Anvil and Hardhat refuse it); the slot a quantity or a word.
  ...anvilAndHardhat('setStorageAt', () =>
    method([address, required('1 (slot)', parseQuantityLike), required('2 (value)', parseWord)], async ({ engine }, account, slot, value) => {
      await engine.controls.setStorageAt(account, slot, value)
      return true
    }),
  ),
  ...anvilAndHardhat('dealERC20', dealERC20),
  // Anvil's alias of anvil_dealERC20.
  anvil_setERC20Balance: dealERC20(null),
  anvil_setERC20Allowance: method(
    [address, required('1 (spender)', parseAddress), required('2 (token)', parseAddress), required('3 (amount)', parseQuantityLike)],
    async ({ engine }, owner, spender, token, amount) => {
      await engine.tokens.setAllowance(owner, spender, token, amount)
      return null
    },
  ),
  ...anvilAndHardhat('impersonateAccount', (answer) =>
    method([address], ({ engine }, account) => {
      engine.controls.impersonate(account)
      return answer
    }),
  ),
  ...anvilAndHardhat('stopImpersonatingAccount', (answer) =>
    method([address], ({ engine }, account) => {
      engine.controls.stopImpersonating(account)
      return answer
    }),
  ),
  ...anvilAndHardhat('autoImpersonateAccount', (answer) =>
    method([required('0 (enabled)', parseBoolean)], ({ engine }, enabled) => {
      engine.controls.autoImpersonate(enabled)
      return answer
    }),
  ),
}
