/**
 * The ethereumjs Common instances of a chain: the chain id, the hardfork and our crypto
 * (Keccak, native sender recovery). Two tweaks keep hot paths lean: EIP activation is a map
 * lookup (ethereumjs scans an array, thousands of times per call), and the transactions'
 * Common is shared rather than copied, with its parameters loaded once, for every decoded
 * transaction (ethereumjs copies Common and re-parses its parameter JSON per transaction,
 * about half of decoding time).
 */
import { type Common, Mainnet, createCustomCommon } from '@ethereumjs/common'
import { paramsTx } from '@ethereumjs/tx'
import { keccak256 } from '../crypto/keccak.ts'
import { ecrecover, ecsign } from '../crypto/secp256k1.ts'

/** The hardforks the devnet runs (@ethereumjs/evm 10 supports these and more). */
export type Hardfork = 'cancun' | 'prague' | 'osaka'

/** Memoizes `isActivatedEIP` (the hardfork never changes on a chain). */
function withFastEIPLookup(common: Common): Common {
  const lookup = common.isActivatedEIP.bind(common)
  const active = new Map<number, boolean>()
  common.isActivatedEIP = (eip: number) => {
    let activated = active.get(eip)
    if (activated === undefined) {
      activated = lookup(eip)
      active.set(eip, activated)
    }
    return activated
  }
  return common
}

function baseCommon(chainId: number, hardfork: Hardfork, params?: typeof paramsTx, eips: number[] = []): Common {
  return createCustomCommon({ chainId }, Mainnet, {
    hardfork,
    eips,
    params,
    customCrypto: ecrecover === undefined ? { keccak256 } : { keccak256, ecrecover, ecsign },
  })
}

/** The Common the EVM runs with. */
export function createExecutionCommon(chainId: number, hardfork: Hardfork): Common {
  return withFastEIPLookup(baseCommon(chainId, hardfork))
}

/**
 * The Common transactions are decoded with: never copied, parameters loaded once. `gasCap`
 * turns on EIP-7825's cap of a transaction's gas before Osaka (a Base chain's rule).
 */
export function createTransactionCommon(chainId: number, hardfork: Hardfork, gasCap = false): Common {
  const common = withFastEIPLookup(baseCommon(chainId, hardfork, paramsTx, gasCap ? [7825] : []))
  common.copy = () => common
  common.updateParams = () => common
  return common
}

/**
 * A Common that builds transactions whatever their gas: the chain's transaction Common, or under
 * Osaka a Prague one. EIP-7825's cap on a transaction's gas is the pool's rule, which geth does
 * not apply to what is only built — `eth_simulateV1`'s listed transactions, `eth_signTransaction`,
 * `eth_fillTransaction`. It answers the chain id the chain's Common answers, whenever asked.
 */
export function createUncappedCommon(transactionCommon: Common): Common {
  if (!transactionCommon.isActivatedEIP(7825)) return transactionCommon
  const uncapped = createTransactionCommon(Number(transactionCommon.chainId()), 'prague')
  uncapped.chainId = () => transactionCommon.chainId()
  return uncapped
}
