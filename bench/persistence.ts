/** State dumps (issue 9): dump and load of 100,000 accounts, and the dump's size. */
import { createChain } from 'preconf-devnet'
import { record, timed } from './measure.ts'

/** The persistence figures. */
export async function benchPersistence(): Promise<void> {
  const genesis = JSON.parse(await (await createChain()).dumpState('json')) as Record<string, Record<string, unknown>>
  const accounts = { ...genesis.accounts } as Record<string, unknown[]>
  for (let i = 0; i < 100_000; i++) {
    accounts[`0x${(i + 1).toString(16).padStart(40, '0')}`] = [[0, '0x1', `0x${(10n ** 18n + BigInt(i)).toString(16)}`, '0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470']]
  }
  const chain = await createChain({ state: { ...genesis, accounts } })
  const collect = (globalThis as { gc?: () => void }).gc ?? (() => {})
  let hex = ''
  collect()
  const dump = await timed(async () => (hex = await chain.dumpState()))
  let text = ''
  await timed(async () => (text = await chain.dumpState('json')))
  record('dumpState of 100,000 accounts (hex of gzipped JSON)', dump, 'ms', { atMost: 2000 }, `${(hex.length / 2 / 1e6).toFixed(2)} MB gzipped; the JSON file ${(text.length / 1e6).toFixed(1)} MB`)
  collect()
  const load = await timed(() => createChain({ state: hex }))
  record('createChain({ state }) of 100,000 accounts', load, 'ms', { atMost: 2000 }, 'read whole and checked; the tries are built at the first seal')
  const loaded = await createChain({ state: hex })
  record('first seal after loading 100,000 accounts', await timed(() => loaded.mine()), 'ms', undefined, 'builds the state trie of every account in one pass')
}
