/**
 * Types shared across the public surface. Inside the engine values are `bigint` and
 * `Uint8Array`; hex strings appear only as map keys (addresses, hashes) and at the edges.
 */

/** A 0x-prefixed hex string. */
export type Hex = `0x${string}`

/** A 20-byte address as 0x-prefixed hex; the engine's canonical form is lowercase. */
export type Address = `0x${string}`

/** The zero address: the default `from` of calls. */
export const ZERO_ADDRESS: Address = '0x0000000000000000000000000000000000000000'

/** A 32-byte hash as 0x-prefixed lowercase hex. */
export type Hash = `0x${string}`

/** The named block tags. `pending` is the pre-confirmed block. */
export type BlockTagName = 'latest' | 'pending' | 'safe' | 'finalized' | 'earliest'

/**
 * A block to read at: a tag, a number (bigint, number or hex quantity), or an EIP-1898 object.
 * `pending` reads the pre-confirmed overlay, `latest` the newest sealed block.
 */
export type BlockTag =
  | BlockTagName
  | bigint
  | number
  | Hex
  | { blockNumber: Hex | bigint }
  | { blockHash: Hash; requireCanonical?: boolean }
