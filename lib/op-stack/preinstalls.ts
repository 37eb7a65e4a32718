/**
 * The OP-stack preinstalls: the non-protocol contracts every OP-stack genesis holds, as
 * contracts-bedrock's SetPreinstalls script places them (scripts/SetPreinstalls.s.sol): each
 * one's published runtime code (preinstall-code.ts) at its canonical address, with nonce 1 and no
 * storage; Permit2's code carries the chain's id and EIP-712 domain separator
 * (`Preinstalls.getPermit2Code`). So Multicall3 (viem's `multicall` on its `base` chain),
 * the CREATE2 deployers, Safe, Permit2 and the ERC-4337 entry points are there, as on Base.
 */
import { bigIntToBytes, hexToBytes, setLengthLeft, utf8ToBytes } from '@ethereumjs/util'
import { keccak256 } from '../crypto/keccak.ts'
import type { GenesisAccount } from '../state/account.ts'
import type { Address, Hex } from '../types.ts'
import * as code from './preinstall-code.ts'

/** Permit2's address: its code is templated by chain (see {@link permit2Code}). */
export const PERMIT2: Address = '0x000000000022d473030f116ddee9f6b43ac78ba3'

/** Every preinstall but Permit2, by address (Preinstalls.sol's order). */
const FIXED_CODE: ReadonlyArray<readonly [Address, Hex]> = [
  ['0xca11bde05977b3631167028862be2a173976ca11', code.MULTICALL3_RUNTIME],
  ['0x13b0d85ccb8bf860b6b79af3029fca081ae9bef2', code.CREATE2_DEPLOYER_RUNTIME],
  ['0x69f4d1788e39c87893c980c06edf4b7f686e2938', code.SAFE_V130_RUNTIME],
  ['0xfb1bffc9d739b8d520daf37df666da4c687191ea', code.SAFE_L2_V130_RUNTIME],
  ['0xa1dabef33b3b82c7814b6d82a79e50f4ac44102b', code.MULTI_SEND_CALL_ONLY_V130_RUNTIME],
  ['0x914d7fec6aac8cd542e72bca78b30650d45643d7', code.SAFE_SINGLETON_FACTORY_RUNTIME],
  ['0x4e59b44847b379578588920ca78fbf26c0b4956c', code.DETERMINISTIC_DEPLOYMENT_PROXY_RUNTIME],
  ['0x998739bfdaadde7c933b942a68053933098f9eda', code.MULTI_SEND_V130_RUNTIME],
  ['0x7fc98430eaedbb6070b35b39d798725049088348', code.SENDER_CREATOR_V060_RUNTIME],
  ['0x5ff137d4b0fdcd49dca30c7cf57e578a026d2789', code.ENTRY_POINT_V060_RUNTIME],
  ['0xefc2c1444ebcc4db75e7613d20c6a62ff67a167c', code.SENDER_CREATOR_V070_RUNTIME],
  ['0x0000000071727de22e5e9d8baf0edac6f37da032', code.ENTRY_POINT_V070_RUNTIME],
  ['0xba5ed099633d3b313e4d5f7bdc1305d3c28ba5ed', code.CREATE_X_RUNTIME],
  ['0x000f3df6d732807ef1319fb7b8bb8522d0beac02', code.BEACON_BLOCK_ROOTS_RUNTIME],
]

/** Where Permit2's template holds its cached chain id and domain separator (byte offsets of two 32-byte words). */
const PERMIT2_CHAIN_ID_AT = 6945
const PERMIT2_DOMAIN_SEPARATOR_AT = 6983

const word = (value: bigint | Uint8Array): Uint8Array => setLengthLeft(typeof value === 'bigint' ? bigIntToBytes(value) : value, 32)

/** Permit2's runtime code on chain `chainId`: the template with the chain id and keccak256(abi.encode(typeHash, keccak256("Permit2"), chainId, PERMIT2)) in place. */
function permit2Code(chainId: bigint): Uint8Array {
  const typeHash = keccak256(utf8ToBytes('EIP712Domain(string name,uint256 chainId,address verifyingContract)'))
  const encoded = new Uint8Array(128)
  encoded.set(typeHash, 0)
  encoded.set(keccak256(utf8ToBytes('Permit2')), 32)
  encoded.set(word(chainId), 64)
  encoded.set(word(hexToBytes(PERMIT2)), 96)
  const runtime = hexToBytes(code.PERMIT2_TEMPLATE_RUNTIME)
  runtime.set(word(chainId), PERMIT2_CHAIN_ID_AT)
  runtime.set(keccak256(encoded), PERMIT2_DOMAIN_SEPARATOR_AT)
  return runtime
}

/** The preinstalls of an OP-stack chain with id `chainId`: fresh accounts on every call. */
export function opStackPreinstalls(chainId: bigint): readonly GenesisAccount[] {
  const storage = new Map<bigint, bigint>()
  return [
    ...FIXED_CODE.map(([address, runtime]) => ({ address, code: hexToBytes(runtime), storage, nonce: 1n })),
    { address: PERMIT2, code: permit2Code(chainId), storage, nonce: 1n },
  ]
}
