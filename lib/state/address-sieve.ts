/**
 * A quick "certainly not here" for the addresses a large layer holds (the pre-confirmed block's):
 * 65,536 bits indexed by an address's first four hex digits. A read of an address the layer
 * never wrote then skips the layer's maps (a miss in a map of thousands of entries costs more
 * than the rest of a `pending` read); a set bit only means "look in the maps".
 */
import type { Address } from '../types.ts'

/** The bits of addresses written to one layer; bits are never cleared (a stale bit costs one map miss). */
export class AddressSieve {
  private readonly bits = new Uint32Array(2048)

  /** Marks `address` as possibly held. */
  add(address: Address): void {
    const key = sieveKey(address)
    this.bits[key >>> 5] |= 1 << (key & 31)
  }

  /** False when `address` was certainly never added. */
  mayHold(address: Address): boolean {
    const key = sieveKey(address)
    return (this.bits[key >>> 5] & (1 << (key & 31))) !== 0
  }
}

/** The value of the hex digits at 2–5 of `0x…` (either case). */
function sieveKey(address: string): number {
  return (digit(address.charCodeAt(2)) << 12) | (digit(address.charCodeAt(3)) << 8) | (digit(address.charCodeAt(4)) << 4) | digit(address.charCodeAt(5))
}

/** A hex digit's value from its char code: '0'–'9' are 0x30–0x39, 'a'–'f' 0x61–0x66, 'A'–'F' 0x41–0x46. */
function digit(code: number): number {
  return (code & 15) + 9 * (code >>> 6)
}
