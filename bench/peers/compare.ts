/**
 * Bench section `peers` (issue 12): the same workload against ours and against its peers, in
 * two rounds on fresh nodes (in-process, after one warm-up round), each phase interleaved (ours,
 * peer, ours, peer), medians of the two — in-process against Hardhat's EDR network, over HTTP
 * against Anvil (and Hardhat's own server, for information) with the bare node:http echo server
 * as the floor; over HTTP ours is the CLI and the echo server a script, each a process of its
 * own as Anvil is, not a server sharing this process with the in-process rounds. A peer that cannot be installed or started is skipped with a notice; our figures
 * are printed all the same.
 */
import type { Chain } from 'preconf-devnet'
import { cliServer, type LoadResult } from '../http.ts'
import { median } from '../measure.ts'
import { findAnvil, startAnvil } from './anvil.ts'
import { loadHardhat } from './hardhat.ts'
import { inProcessPhases, type InProcessFigures } from './in-process.ts'
import type { InstalledPeer } from './install.ts'
import { pendingOverLatest, plainReads, PROCESSES } from './ours-only.ts'
import { echoNode, httpPhases, readResults, type HttpFigures } from './over-http.ts'
import { READS } from './reads.ts'
import { notice, ours, printTable, versus, versusCost } from './report.ts'
import { runRounds, type Contender } from './rounds.ts'
import { httpNode, type RpcNode } from './rpc-node.ts'
import { ANVIL_ARGUMENTS, CLI_ARGUMENTS, createOurs, SETTINGS, type NodeSettings } from './settings.ts'
import { signWorkload } from './transactions.ts'

const ROUNDS = 2
/** In-process rounds run first and not recorded: ours is JavaScript, whose first deploys and seals run on a cold JIT (EDR's are native). */
const IN_PROCESS_WARM_UPS = 1

/** The in-process comparisons: figure, label, unit, the ratio ours / Hardhat must reach. */
const IN_PROCESS: ReadonlyArray<readonly [keyof InProcessFigures, string, string, number]> = [
  ['sendRawTransaction', 'in-process eth_sendRawTransaction, 2000 ETH transfers from 20 senders', 'tx/s', 3],
  ['getBalance', 'in-process eth_getBalance latest, 10k', 'reads/s', 5],
  ['getStorageAt', 'in-process eth_getStorageAt latest, 10k', 'reads/s', 5],
  ['getCode', 'in-process eth_getCode latest, 10k', 'reads/s', 5],
  ['call', 'in-process eth_call balanceOf, 5k', 'calls/s', 1.5],
  ['sealEth', 'in-process evm_mine sealing 2000 ETH transfers', 'tx/s', 3],
  ['sealErc20', 'in-process evm_mine sealing 2000 ERC-20 transfers', 'tx/s', 2],
]

/** The HTTP comparisons: figure, label, the ratio ours / Anvil must reach. */
const OVER_HTTP: ReadonlyArray<readonly [keyof HttpFigures, string, number]> = [
  ['sendRawTransaction', 'HTTP eth_sendRawTransaction, distinct ETH transfers', 1],
  ['getBalance', 'HTTP eth_getBalance latest', 1],
  ['getStorageAt', 'HTTP eth_getStorageAt latest', 1],
  ['getCode', 'HTTP eth_getCode latest', 1],
  ['call', 'HTTP eth_call balanceOf', 0.75],
]

/** Runs the peer workload and records every figure, ratio and target. */
export async function benchPeers(): Promise<void> {
  const reference = await createOurs()
  const workload = signWorkload(reference)
  const settings: NodeSettings = { ...SETTINGS, privateKeys: reference.accounts.map((account) => account.privateKey) }

  const hardhat = await prepare('Hardhat (EDR) in-process', loadHardhat)
  const anvil = await prepare('Anvil over HTTP', findAnvil)
  if (hardhat !== undefined) notice(`Hardhat: ${hardhat.description}${installCost(hardhat.installed)}`)
  if (anvil !== undefined) notice(`Anvil: ${anvil.path}${anvil.installed === undefined ? ' (the devDependency)' : installCost(anvil.installed)}`)

  let lastChain: Chain | undefined
  const oursInProcess: Contender<InProcessFigures> = { short: 'ours', required: true, make: async () => oursNode((lastChain = await createOurs())), runs: [] }
  const hardhatInProcess: Contender<InProcessFigures> = { short: 'Hardhat EDR', make: hardhat && (() => hardhat.inProcess(settings)), runs: [] }
  await runRounds(ROUNDS, [oursInProcess, hardhatInProcess], inProcessPhases(workload), IN_PROCESS_WARM_UPS)
  recordInProcess(oursInProcess.runs, hardhatInProcess.runs)
  const plain = await plainReads(lastChain!, workload)
  for (const read of READS) ours(`in-process chain.${read}(latest) as a plain function`, plain[read], 'reads/s', { atLeast: 1_000_000 })
  for (const count of [200, 2000]) {
    const ratios = await pendingOverLatest(workload, count)
    for (const read of READS) ours(`in-process chain.${read} pending / latest, ${count} txs pre-confirmed`, ratios[read], 'ratio', { atLeast: 0.9 }, `median of ${PROCESSES} fresh processes, each the median ratio of neighbouring runs of 1000 reads, alternating; same cost within 10%`)
  }

  const floorResults = await readResults(oursNode(await createOurs()), workload)
  const echo: Contender<HttpFigures> = { short: 'echo', required: true, make: () => echoNode(floorResults), phases: new Set(READS), runs: [] }
  const oursOverHttp: Contender<HttpFigures> = { short: 'ours', required: true, make: oursServer, runs: [] }
  const anvilOverHttp: Contender<HttpFigures> = { short: 'Anvil', make: anvil && (() => startAnvil(anvil.path, ANVIL_ARGUMENTS)), runs: [] }
  const hardhatOverHttp: Contender<HttpFigures> = { short: 'Hardhat HTTP', make: hardhat && (() => hardhat.overHttp(settings)), runs: [] }
  await runRounds(ROUNDS, [echo, oursOverHttp, anvilOverHttp, hardhatOverHttp], httpPhases(workload))
  recordOverHttp(echo.runs, oursOverHttp.runs, [anvilOverHttp, hardhatOverHttp])
  printTable()
}

/** Ours in-process: `chain.request`, as an EIP-1193 client calls it. */
function oursNode(chain: Chain): RpcNode {
  return { name: 'ours in-process', request: (method, params) => chain.request({ method, params: params as unknown[] }), close: async () => {}, cpuSeconds: () => undefined }
}

/** Ours over HTTP: the CLI with the settings, a process of its own on a free loopback port (as Anvil runs). */
async function oursServer(): Promise<RpcNode> {
  const cli = await cliServer(CLI_ARGUMENTS)
  return httpNode('ours over HTTP (node dist/cli.js)', cli.url, () => cli.close(), cli.pid)
}

/** Installs or finds a peer; on failure, prints why it is skipped and returns nothing. */
async function prepare<T>(name: string, load: () => Promise<T>): Promise<T | undefined> {
  try {
    return await load()
  } catch (error) {
    notice(`${name} skipped: ${(error as Error).message}`)
    return undefined
  }
}

function recordInProcess(oursRuns: InProcessFigures[], hardhatRuns: InProcessFigures[]): void {
  const of = (runs: InProcessFigures[], key: keyof InProcessFigures) => median(runs.map((run) => run[key]))
  const deployNote = hardhatRuns.length > 0 ? `Hardhat EDR ${of(hardhatRuns, 'deployMs').toFixed(2)} ms; ` : ''
  ours('in-process ERC-20 deploy, one tx sent and sealed (evm_mine)', of(oursRuns, 'deployMs'), 'ms', { atMost: 3 }, `${deployNote}median of 5 deploys a round`)
  for (const [key, label, unit, atLeast] of IN_PROCESS) {
    if (hardhatRuns.length > 0) versus(label, unit, of(oursRuns, key), 'Hardhat EDR', of(hardhatRuns, key), atLeast)
    else ours(label, of(oursRuns, key), unit)
  }
}

function recordOverHttp(echoRuns: HttpFigures[], oursRuns: HttpFigures[], peers: Array<Contender<HttpFigures>>): void {
  const rateOf = (runs: HttpFigures[], key: keyof HttpFigures) => median(runs.map((run) => run[key].rate))
  for (const [key, label, atLeast] of OVER_HTTP) {
    const value = rateOf(oursRuns, key)
    if (READS.includes(key as (typeof READS)[number])) {
      const floor = rateOf(echoRuns, key)
      ours(`${label}, ours / bare node:http JSON echo`, value / floor, 'ratio', { atLeast: 0.9 }, `ours ${Math.round(value)} req/s, echo ${Math.round(floor)} req/s (measured beside it)${failed(oursRuns, key)}`)
    }
    for (const peer of peers) {
      if (peer.runs.length === 0) continue
      const target = peer.short === 'Anvil' ? atLeast : undefined
      versus(label, 'req/s', value, peer.short, rateOf(peer.runs, key), target, failed(oursRuns, key, 'ours') + failed(peer.runs, key, peer.short))
    }
    if (peers.every((peer) => peer.runs.length === 0)) ours(label, value, 'req/s', undefined, failed(oursRuns, key))
  }
  recordServerCost(echoRuns, oursRuns, peers)
}

/**
 * The server's own CPU time per request of each read and call (its process's, from /proc), ours
 * against the echo floor and each peer in a process of its own. On a machine whose cores the
 * load generator shares, the rates tie where the client is the bound; this says which server
 * costs less.
 */
function recordServerCost(echoRuns: HttpFigures[], oursRuns: HttpFigures[], peers: Array<Contender<HttpFigures>>): void {
  const costOf = (runs: HttpFigures[], key: keyof HttpFigures): number | undefined => {
    // The echo floor runs the reads only.
    const costs = runs.map((run) => (run[key] as LoadResult | undefined)?.serverMicros)
    return costs.length === 0 || costs.includes(undefined) ? undefined : median(costs as number[])
  }
  for (const key of [...READS, 'call'] as const) {
    const value = costOf(oursRuns, key)
    if (value === undefined) continue
    const label = `HTTP server CPU per ${key} request`
    for (const [name, runs] of [['echo', echoRuns], ...peers.map((peer) => [peer.short, peer.runs] as const)] as const) {
      const other = costOf(runs, key)
      if (other !== undefined) versusCost(label, 'µs', value, name, other)
    }
  }
}

/** A note naming failed requests of `runs` for `key`, or nothing. */
function failed(runs: HttpFigures[], key: keyof HttpFigures, who = ''): string {
  const errors = runs.reduce((sum, run) => sum + run[key].errors, 0)
  const first = runs.find((run) => run[key].firstError !== undefined)?.[key].firstError
  return errors === 0 ? '' : ` (${who} ${errors} errors; first: ${first?.slice(0, 160)})`
}

function installCost(installed: InstalledPeer): string {
  const size = `${Math.round(installed.megabytes)} MB in ${installed.dir}`
  return installed.seconds === 0 ? ` (installed earlier: ${size})` : ` (installed now in ${installed.seconds.toFixed(1)} s: ${size})`
}
