/** The three reads the peer section measures as plain functions: getBalance, getStorageAt and getCode of the workload's token and holder. */
import type { Chain } from 'preconf-devnet'
import type { Address } from '../../lib/types.ts'

/** The reads, by name. */
export const READS = ['getBalance', 'getStorageAt', 'getCode'] as const
/** One of {@link READS}. */
export type ReadName = (typeof READS)[number]

/** The three reads, as plain functions, at `tag`. */
export function reads(chain: Chain, { token, holder }: { token: Address; holder: Address }, tag: 'latest' | 'pending'): Record<ReadName, () => unknown> {
  return {
    getBalance: () => chain.getBalance(holder, tag),
    getStorageAt: () => chain.getStorageAt(token, '0x2', tag),
    getCode: () => chain.getCode(token, tag),
  }
}
