/**
 * The cost of the OP stack: FastLZ and the Fjord formula per transaction, an empty block (its
 * L1-attributes deposit), and admission and a tick of 3000 transfers on a Base-preset chain against a plain one (same
 * chain id and transactions, runs alternated, medians compared in one run).
 */
import { hexToBytes } from '@ethereumjs/util'
import { createChain } from 'preconf-devnet'
import { flzCompressLength } from '../lib/op-stack/fastlz.ts'
import { fjordL1CostOfFlzLength, type L1FeeParameters } from '../lib/op-stack/l1-fee.ts'
import { median, record, timed } from './measure.ts'
import { syntheticAddress, transfers } from './signing.ts'

/** L1Block's values under the Base preset's defaults. */
const PARAMETERS: L1FeeParameters = {
  l1BaseFee: 1_000_000_000n,
  l1BlobBaseFee: 1n,
  baseFeeScalar: 5227n,
  blobBaseFeeScalar: 1_014_213n,
  operatorFeeScalar: 0n,
  operatorFeeConstant: 0n,
  daFootprintGasScalar: 400n,
}

/** Microseconds per L1 fee of `raw` (FastLZ length, then the Fjord formula). */
function l1FeeMicroseconds(raw: Uint8Array): number {
  const rounds = 20_000
  for (let i = 0; i < 2000; i++) fjordL1CostOfFlzLength(BigInt(flzCompressLength(raw)), PARAMETERS)
  const start = performance.now()
  for (let i = 0; i < rounds; i++) fjordL1CostOfFlzLength(BigInt(flzCompressLength(raw)), PARAMETERS)
  return ((performance.now() - start) * 1000) / rounds
}

/** Transfers per second admitted (3000 of them), and the time of a tick executing them, on a chain with `preset` (or a plain one). */
async function admissionAndTick(preset: 'base' | undefined): Promise<{ admission: number; tick: number }> {
  const chain = await createChain({ accounts: 20, chainId: 31337, ...(preset === undefined ? {} : { preset, blockGasLimit: 30_000_000n }) })
  // A chain that has made a block already, as one on the clock has (the first run of L1Block's
  // code is a one-off), in a block already open: a Base block's L1-attributes deposit, its
  // per-block cost, is measured apart; here each transaction's L1 fee is.
  await chain.mine()
  await chain.tick()
  const raws = transfers(chain, 3000, () => 0n, syntheticAddress)
  const elapsed = await timed(async () => {
    for (const raw of raws) await chain.sendRawTransaction(raw)
  })
  const tick = await timed(() => chain.tick())
  return { admission: (raws.length / elapsed) * 1000, tick }
}

/** Milliseconds to make an empty block (open it, seal it) on a chain with `preset`, median of 50 after 10. */
async function emptyBlockMilliseconds(preset: 'base' | undefined): Promise<number> {
  const chain = await createChain(preset === undefined ? {} : { preset })
  for (let i = 0; i < 10; i++) await chain.mine()
  const times: number[] = []
  for (let i = 0; i < 50; i++) times.push(await timed(() => chain.mine()))
  return median(times)
}

/** The OP-stack section of the benchmark. */
export async function benchOpStack(): Promise<void> {
  const transfer = transfers(await createChain({ accounts: 1, chainId: 8453 }), 1, () => 0n, syntheticAddress)[0]
  record('L1 fee of a transfer (FastLZ + Fjord)', l1FeeMicroseconds(transfer), 'µs', undefined, `${transfer.length}-byte envelope`)
  const large = hexToBytes(`0x02${'ab'.repeat(200)}${'00'.repeat(875)}${'cd'.repeat(100)}`)
  record('L1 fee of a 1176-byte transaction', l1FeeMicroseconds(large), 'µs', undefined, 'the size of base/base\'s receipt vector')

  record('empty block on a Base-preset chain (L1-attributes deposit, seal)', await emptyBlockMilliseconds('base'), 'ms', undefined, `plain chain: ${(await emptyBlockMilliseconds(undefined)).toFixed(2)} ms; median of 50`)

  const plain = { admission: [] as number[], tick: [] as number[] }
  const base = { admission: [] as number[], tick: [] as number[] }
  for (let run = 0; run < 5; run++) {
    for (const [preset, into] of [[undefined, plain], ['base', base]] as const) {
      ;(globalThis as { gc?: () => void }).gc?.()
      const { admission, tick } = await admissionAndTick(preset)
      into.admission.push(admission)
      into.tick.push(tick)
    }
  }
  record('sendRawTransaction admission, Base preset / plain', median(base.admission) / median(plain.admission), 'ratio', { atLeast: 0.95 }, `${Math.round(median(base.admission))} vs ${Math.round(median(plain.admission))} tx/s; 3000 transfers, median of 5 alternating runs`)
  record('tick of 3000 ETH transfers, Base preset / plain', median(base.tick) / median(plain.tick), 'ratio', { atMost: 1.05 }, `${median(base.tick).toFixed(1)} vs ${median(plain.tick).toFixed(1)} ms; median of 5 alternating runs`)
}
