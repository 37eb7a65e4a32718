/**
 * `eth_simulateV1` as geth's simulator runs it (internal/ethapi/simulate.go): blocks of calls
 * after a base block, on one throwaway state carried from call to call and block to block, each
 * block with its state and block overrides. A call runs as geth applies a message: nonce bumped,
 * gas bought and refunded, the tip paid to the coinbase. With `validation` nonces and fees are
 * checked as for transactions and the base fee follows EIP-1559; without, the base fee is 0.
 * The whole request runs on the call lane: one time box (geth's `--rpc.evmtimeout`) for all of it.
 */
import type { Common } from '@ethereumjs/common'
import { hexToBytes } from '@ethereumjs/util'
import { toHex } from '../bytes.ts'
import { assembleBlock } from '../blocks/assemble.ts'
import type { BlockRules } from '../blocks/block-rules.ts'
import type { SealedBlock } from '../blocks/block.ts'
import { InvalidParamsError, RPCErrorCode, SimulationError } from '../errors.ts'
import { toEVMBlock, type BlockContext } from '../execution/block-context.ts'
import { createUncappedCommon, type Hardfork } from '../execution/common.ts'
import { CallLane } from '../execution/call-lane.ts'
import type { ExecutionEnvironment } from '../execution/execution-environment.ts'
import { DEFAULT_CALL_GAS } from '../execution/run-call.ts'
import { startBlock } from '../execution/system-contracts.ts'
import { StateLayer } from '../state/state-layer.ts'
import { applyStateOverrides, overridePrecompiles, type BlockOverrides, type StateOverrides } from '../state/state-overrides.ts'
import type { Hash } from '../types.ts'
import type { BlockResolver, BlockSelector } from './block-resolver.ts'
import { runSimulatedCall, type BlockRun, type Session, type SimulatedCall, type SimulatedCallRequest } from './simulated-call.ts'

/** geth's limits: blocks after the base, calls per block, calls per request; gas across the request (its RPC gas cap). */
const MAX_BLOCKS = 256n
const MAX_CALLS_PER_BLOCK = 5000
const MAX_CALLS = 10000
const GAS_CAP = DEFAULT_CALL_GAS
/** Seconds between simulated blocks whose time is not given. */
const TIMESTAMP_INCREMENT = 12n
const ZERO_WORD = new Uint8Array(32)

/** One block to simulate. */
export interface SimulatedBlockRequest {
  readonly blockOverrides?: BlockOverrides
  /** Applied before the block's calls; they stay for the blocks after. */
  readonly stateOverrides?: StateOverrides
  readonly calls: readonly SimulatedCallRequest[]
}

/** `eth_simulateV1`'s payload, as the engine takes it. */
export interface SimulationRequest {
  readonly blocks: readonly SimulatedBlockRequest[]
  /** Check nonces, balances and fees as for transactions; the base fee follows EIP-1559 (else it is 0). */
  readonly validation: boolean
  /** Log ETH transfers as ERC-7528 Transfer events of 0xeeee…eeee among the calls' logs. */
  readonly traceTransfers: boolean
}

/** A simulated block: the block (its transactions the calls, unsigned) and the calls' outcomes. */
export interface SimulatedBlock {
  readonly block: SealedBlock
  readonly calls: readonly SimulatedCall[]
}

/** What simulation reads. */
export interface SimulationParts {
  readonly blocks: BlockResolver
  readonly environment: ExecutionEnvironment
  /** The chain's block rules: a simulated block's base fee follows them. */
  readonly rules: BlockRules
  /** Where simulations run: the engine's call lane (its own EVMs, time-boxed). */
  readonly lane: CallLane
  /** The chain's hardfork: which system calls a simulated block opens with. */
  readonly hardfork: Hardfork
}

/** A planned block: its number and time decided, its request (empty for the gaps geth fills). */
interface PlannedBlock {
  readonly number: bigint
  readonly time: bigint
  readonly request: SimulatedBlockRequest
}

const EMPTY_BLOCK: SimulatedBlockRequest = { calls: [] }

/** geth's request limits, checked before anything runs. */
function checkLimits(blocks: readonly SimulatedBlockRequest[]): void {
  if (blocks.length === 0) throw new InvalidParamsError('empty input')
  if (blocks.length > MAX_BLOCKS) throw new SimulationError(RPCErrorCode.clientLimitExceeded, 'too many blocks')
  let total = 0
  for (const { calls } of blocks) {
    if (calls.length > MAX_CALLS_PER_BLOCK) throw new SimulationError(RPCErrorCode.clientLimitExceeded, `too many calls in block: ${calls.length} > ${MAX_CALLS_PER_BLOCK}`)
    total += calls.length
    if (total > MAX_CALLS) throw new SimulationError(RPCErrorCode.clientLimitExceeded, `too many calls: ${total} > ${MAX_CALLS}`)
  }
}

/** geth's sanitizeChain: numbers and times default to +1 and +12 s, must increase; gaps become empty blocks. */
function planBlocks(blocks: readonly SimulatedBlockRequest[], base: SealedBlock): PlannedBlock[] {
  const planned: PlannedBlock[] = []
  let number = base.header.number
  let time = base.header.timestamp
  for (const request of blocks) {
    const target = request.blockOverrides?.number ?? number + 1n
    if (target <= number) throw new SimulationError(RPCErrorCode.simulateBlockNumberInvalid, `block numbers must be in order: ${target} <= ${number}`)
    if (target - base.header.number > MAX_BLOCKS) throw new SimulationError(RPCErrorCode.clientLimitExceeded, 'too many blocks')
    for (number++; number < target; number++) planned.push({ number, time: (time += TIMESTAMP_INCREMENT), request: EMPTY_BLOCK })
    const given = request.blockOverrides?.time
    if (given !== undefined && given <= time) throw new SimulationError(RPCErrorCode.simulateBlockTimestampInvalid, `block timestamps must be in order: ${given} <= ${time}`)
    time = given ?? time + TIMESTAMP_INCREMENT
    planned.push({ number, time, request })
  }
  return planned
}

/** Simulates blocks of calls. */
export class Simulation {
  private common: Common | undefined

  constructor(readonly parts: SimulationParts) {}

  /**
   * Simulates `request` on the state of `selector` (resolved by `blocks`: the endpoint's view);
   * nothing of the chain changes. Throws geth's errors (-380xx) for calls that could not be
   * included; failed calls are reported in their results.
   */
  simulate(request: SimulationRequest, selector: BlockSelector, blocks: BlockResolver = this.parts.blocks): Promise<SimulatedBlock[]> {
    checkLimits(request.blocks)
    return this.parts.lane.run('call', async (run) => {
      const resolved = blocks.resolve(selector)
      // The pre-confirmed block has no hash yet: its JSON shows 32 zero bytes, so do its children.
      const base = resolved.kind === 'sealed' ? resolved.block : { ...resolved.block.preview(), hash: toHex(ZERO_WORD) as Hash }
      const planned = planBlocks(request.blocks, base)
      const { environment } = run
      const session: Session = { world: new StateLayer(run.base(resolved.state)), options: request, environment, common: this.uncappedCommon(), hashes: new Map(), budget: GAS_CAP }
      const { evm } = environment
      const chain = evm.blockchain
      // BLOCKHASH sees the simulated blocks before the current one, as in geth.
      evm.blockchain = {
        getBlock: async (number) => {
          const hash = session.hashes.get(number)
          return hash === undefined ? chain.getBlock(number) : { hash: () => hash }
        },
        putBlock: async () => {},
        shallowCopy: () => evm.blockchain,
      }
      try {
        const results: SimulatedBlock[] = []
        let parent = base
        for (const block of planned) {
          const result = await runBlock(block, parent, session, this.parts)
          session.hashes.set(Number(block.number), hexToBytes(result.block.hash))
          results.push(result)
          parent = result.block
        }
        return results
      } finally {
        evm.blockchain = chain
      }
    })
  }

  /**
   * A Common that builds the listed transactions whatever their gas (Osaka's EIP-7825 cap does
   * not apply to simulation). Made once: the chain's transaction Common is shared, never changed.
   */
  private uncappedCommon(): Common {
    this.common ??= createUncappedCommon(this.parts.environment.transactionCommon)
    return this.common
  }
}

/** Runs one planned block on the session's state. */
async function runBlock(planned: PlannedBlock, parent: SealedBlock, session: Session, { rules, hardfork }: SimulationParts): Promise<SimulatedBlock> {
  const { blockOverrides: overrides = {}, stateOverrides, calls } = planned.request
  const { header } = parent
  const context: BlockContext = {
    number: planned.number,
    timestamp: planned.time,
    gasLimit: overrides.gasLimit ?? header.gasLimit,
    coinbase: overrides.feeRecipient ?? header.coinbase,
    prevRandao: overrides.prevRandao ?? ZERO_WORD,
    baseFeePerGas: overrides.baseFeePerGas ?? (session.options.validation ? rules.nextBaseFee(header) : 0n),
  }
  const evmBlock = toEVMBlock(context)
  const blobBaseFee = overrides.blobBaseFee
  const run: BlockRun = {
    context,
    evmBlock: blobBaseFee === undefined ? evmBlock : { header: { ...evmBlock.header, getBlobGasPrice: () => blobBaseFee } },
    transactions: [],
    calls: [],
    gasUsed: 0n,
    logCount: 0,
    tracedLogCount: 0,
  }
  let restore = () => {}
  if (stateOverrides !== undefined) {
    await applyStateOverrides(session.world, stateOverrides)
    restore = overridePrecompiles(session.environment, stateOverrides)
  }
  // After the state overrides, before the calls, as geth's simulator runs core.PreExecution.
  startBlock(session.world, hardfork, planned.number, parent.hash)
  try {
    for (const call of calls) await runSimulatedCall(call, run, session)
  } finally {
    restore()
  }
  const block = assembleBlock({
    parentHash: parent.hash,
    context,
    transactions: run.transactions,
    gasUsed: run.gasUsed,
    stateRoot: ZERO_WORD,
    extraData: new Uint8Array(0),
    requestsHash: header.requestsHash,
  })
  return { block, calls: run.calls }
}

