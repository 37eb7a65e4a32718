/**
 * ethers v6 over the in-process chain: the chain is the EIP-1193 object behind a
 * BrowserProvider, and dev-account keys sign locally in `Wallet`s.
 */
import { BrowserProvider, Wallet } from 'ethers'
import { createChain, type Chain, type ChainOptions } from '../../lib/index.ts'

/**
 * A manual-clock chain, a BrowserProvider over it and wallets for dev accounts 0 and 1.
 * Polling every 10 ms (ethers polls for blocks to resolve `wait()`); the 250 ms request cache
 * is off, since virtual time moves between two identical reads. Call `provider.destroy()` after.
 */
export async function ethersSetup(options: ChainOptions = {}) {
  const chain: Chain = await createChain({ clock: 'manual', ...options })
  const provider = new BrowserProvider(chain, undefined, { pollingInterval: 10, cacheTimeout: -1 })
  const wallet = (index: number) => new Wallet(chain.accounts[index].privateKey, provider)
  return { chain, provider, alice: wallet(0), bob: wallet(1), wallet }
}

/** A short real pause, so ethers' timer-driven pollers get to run. */
export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

/**
 * Advances the virtual clock `stepMs` at a time, pausing briefly in real time between steps so
 * ethers can poll, until `promise` settles (at most `maxSteps` steps). Returns its result.
 */
export async function advanceUntil<T>(chain: Chain, promise: Promise<T>, stepMs = 200, maxSteps = 40): Promise<T> {
  let settled = false
  promise.then(
    () => (settled = true),
    () => (settled = true),
  )
  for (let step = 0; step < maxSteps && !settled; step++) {
    await pause(5)
    await chain.clock.advance(stepMs)
  }
  return promise
}
