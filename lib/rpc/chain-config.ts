/**
 * EIP-7910's `eth_config`: the rules the chain runs under, as geth answers it
 * (internal/ethapi/api.go `Config`). Every fork of the chain is active from its first block, so
 * `current` is the only configuration: activation time 0, and `next` and `last` null (as Anvil).
 */
import { crc32 } from 'node:zlib'
import { hexToBytes } from '@ethereumjs/util'
import type { Engine } from '../engine/engine.ts'
import type { Hardfork } from '../execution/common.ts'
import { HISTORY_STORAGE } from '../execution/system-contracts.ts'
import type { Address } from '../types.ts'
import { toQuantity } from './hex.ts'

/** Geth's names of the precompiles (core/vm/contracts.go `Name()`), by address. */
const PRECOMPILE_NAMES: ReadonlyMap<bigint, string> = new Map([
  [0x01n, 'ECREC'],
  [0x02n, 'SHA256'],
  [0x03n, 'RIPEMD160'],
  [0x04n, 'ID'],
  [0x05n, 'MODEXP'],
  [0x06n, 'BN254_ADD'],
  [0x07n, 'BN254_MUL'],
  [0x08n, 'BN254_PAIRING'],
  [0x09n, 'BLAKE2F'],
  [0x0an, 'KZG_POINT_EVALUATION'],
  [0x0bn, 'BLS12_G1ADD'],
  [0x0cn, 'BLS12_G1MSM'],
  [0x0dn, 'BLS12_G2ADD'],
  [0x0en, 'BLS12_G2MSM'],
  [0x0fn, 'BLS12_PAIRING_CHECK'],
  [0x10n, 'BLS12_MAP_FP_TO_G1'],
  [0x11n, 'BLS12_MAP_FP2_TO_G2'],
  [0x100n, 'P256VERIFY'],
])

/** EIP-4844's blob parameters, and EIP-7691's from Prague (geth's params.BlobConfig; Osaka keeps Prague's). */
function blobSchedule(hardfork: Hardfork): Record<string, number> {
  return hardfork === 'cancun' ? { target: 3, max: 6, baseFeeUpdateFraction: 3338477 } : { target: 6, max: 9, baseFeeUpdateFraction: 5007716 }
}

/** The system contracts by the hardfork that brings them (geth's params.ChainConfig `ActiveSystemContracts`). */
function systemContracts(hardfork: Hardfork): Record<string, Address> {
  const active: Record<string, Address> = { BEACON_ROOTS_ADDRESS: '0x000f3df6d732807ef1319fb7b8bb8522d0beac02' }
  if (hardfork === 'cancun') return active
  return {
    ...active,
    CONSOLIDATION_REQUEST_PREDEPLOY_ADDRESS: '0x0000bbddc7ce488642fb579f8b00f3a590007251',
    DEPOSIT_CONTRACT_ADDRESS: '0x00000000219ab540356cbb839cbe05303d7705fa',
    HISTORY_STORAGE_ADDRESS: HISTORY_STORAGE,
    WITHDRAWAL_REQUEST_PREDEPLOY_ADDRESS: '0x00000961ef480eb55e80d19ad83579a64c007002',
  }
}

/**
 * EIP-2124's fork hash: the CRC32 of the genesis hash, with no fork after genesis to fold in.
 * A forked chain does not hold its upstream's genesis: zero, as Anvil answers for every chain.
 */
function forkId(engine: Engine): `0x${string}` {
  if (engine.upstream !== undefined) return '0x00000000'
  const genesis = engine.blocks.byNumber(engine.blocks.firstNumber)!
  return `0x${crc32(hexToBytes(genesis.hash)).toString(16).padStart(8, '0')}`
}

/** The chain's `eth_config` answer. */
export function chainConfig(engine: Engine): Record<string, unknown> {
  const { hardfork } = engine.options
  // By name, as geth's JSON of a Go map lists them.
  const named = engine.precompiles.map((address) => [PRECOMPILE_NAMES.get(BigInt(address)) ?? address, address] as const)
  const precompiles = Object.fromEntries(named.sort(([a], [b]) => (a < b ? -1 : 1)))
  return {
    current: {
      activationTime: 0,
      blobSchedule: blobSchedule(hardfork),
      chainId: toQuantity(engine.chainId),
      forkId: forkId(engine),
      precompiles,
      systemContracts: systemContracts(hardfork),
    },
    next: null,
    last: null,
  }
}
