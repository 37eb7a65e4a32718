/**
 * What a client asks of the node itself: identity (`web3_clientVersion`, `hardhat_metadata`,
 * `anvil_nodeInfo`, the chain id and `anvil_setChainId`), network status, and fee suggestions.
 */
import { keccak256 } from '../crypto/keccak.ts'
import type { Engine } from '../engine/engine.ts'
import type { Hex } from '../types.ts'
import { feeHistory } from './fee-history.ts'
import { chainConfig } from './chain-config.ts'
import { BLOB_BASE_FEE } from '../execution/block-context.ts'
import { describeValue, invalidArgument, parseData, parseSmallQuantity, toData, toQuantity } from './hex.ts'
import { method, optional, required, type MethodDefinition } from './method-definition.ts'
import { parseBlockTag } from './params.ts'
import { VERSION } from '../version.ts'

/**
 * The client version (`web3_clientVersion`). It starts with `anvil` because Hardhat's network helpers (v1 and v3) and
 * Ignition accept only clients whose version starts with `hardhatnetwork`/`hardhat`, `zksync`
 * or `anvil`, and this node answers Anvil's and Hardhat's test methods; the rest says what it is.
 */
const CLIENT_VERSION = `anvil-compatible/${VERSION}`

function parsePercentiles(value: unknown, name: string): number[] {
  if (!Array.isArray(value)) throw invalidArgument(name, 'expected an array of percentiles')
  // Their range and order are the fee oracle's to judge, as in geth (-32000): here only their type.
  return value.map((entry, i) => {
    if (typeof entry !== 'number' || !Number.isFinite(entry)) throw invalidArgument(`${name}[${i}]`, `expected a number, got ${describeValue(entry)}`)
    return entry
  })
}

/** The fork's upstream chain id and block, as Hardhat's and Anvil's metadata give them; null for a fresh chain. */
function forkedNetwork(engine: Engine): Record<string, unknown> | null {
  const { upstream } = engine
  if (upstream === undefined) return null
  return { chainId: upstream.chainId, forkBlockNumber: Number(upstream.forkNumber), forkBlockHash: engine.blocks.byNumber(upstream.forkNumber)!.hash }
}

/**
 * A chain id, as `--chain-id` takes it: from 1 (Anvil takes 0, but its chain then cannot sign a
 * legacy transaction, and a dump of it does not load).
 */
function parseChainId(value: unknown, name: string): number {
  const chainId = parseSmallQuantity(value, name)
  if (chainId === 0) throw invalidArgument(name, 'a chain id must be at least 1')
  return chainId
}

function capitalized(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1)
}

/** Hardhat's and Anvil's `*_metadata`; `instanceId` is this run's (new at each start, reset and load). */
function metadata(engine: Engine, instanceId: Hex): Record<string, unknown> {
  const head = engine.blocks.head
  return {
    clientVersion: CLIENT_VERSION,
    clientSemver: VERSION.slice(VERSION.indexOf('/v') + 2),
    chainId: Number(engine.chainId),
    instanceId,
    latestBlockNumber: Number(head.header.number),
    latestBlockHash: head.hash,
    forkedNetwork: forkedNetwork(engine),
    snapshots: {},
  }
}

// Lowercase, as geth, Anvil and Hardhat answer (the library's `chain.accounts` keep EIP-55).
const accounts = method([], ({ engine }) => engine.accounts.map((account) => account.address.toLowerCase()))

/** The node's identity, status and fee methods, by name. */
export const nodeMethods: Readonly<Record<string, MethodDefinition>> = {
  web3_clientVersion: method([], () => CLIENT_VERSION),
  web3_sha3: method([required('0 (data)', parseData)], (_, data) => toData(keccak256(data))),
  net_version: method([], ({ engine }) => String(engine.chainId)),
  // Anvil's name for net_version.
  eth_networkId: method([], ({ engine }) => String(engine.chainId)),
  net_listening: method([], () => true),
  net_peerCount: method([], () => '0x0'),
  eth_chainId: method([], ({ engine }) => toQuantity(engine.chainId)),
  eth_config: method([], ({ engine }) => chainConfig(engine)),
  // Anvil takes a JSON number (u64); a hex quantity is taken too. Answers null, as Anvil does.
  anvil_setChainId: method([required('0 (chain id)', parseChainId)], async ({ engine }, chainId) => {
    await engine.controls.setChainId(BigInt(chainId))
    return null
  }),
  // Anvil 1.7.1 answers 1, a JSON number (api.rs protocol_version).
  eth_protocolVersion: method([], () => 1),
  eth_syncing: method([], () => false),
  eth_mining: method([], ({ engine }) => engine.mining.mode !== 'auto'),
  eth_hashrate: method([], () => '0x0'),
  eth_coinbase: method([], ({ engine }) => engine.blocks.pending.context.coinbase),
  eth_accounts: accounts,
  // EIP-1102's name, which Anvil also answers: the accounts, without asking anyone.
  eth_requestAccounts: accounts,
  hardhat_metadata: method([], ({ engine, lifecycle }) => metadata(engine, lifecycle.instanceId)),
  anvil_metadata: method([], ({ engine, lifecycle }) => metadata(engine, lifecycle.instanceId)),
  // Anvil's: the first block's timestamp in seconds, as a JSON number (Anvil's u64).
  anvil_getGenesisTime: method([], ({ engine }) => Number(engine.blocks.byNumber(engine.blocks.firstNumber)!.header.timestamp)),
  anvil_nodeInfo: method([], ({ engine }) => {
    const { head } = engine.blocks
    const { context } = engine.blocks.pending
    return {
      currentBlockNumber: toQuantity(head.header.number),
      currentBlockTimestamp: Number(head.header.timestamp),
      currentBlockHash: head.hash,
      // Capitalized, as Anvil names its hardforks ("Prague").
      hardFork: capitalized(engine.options.hardfork),
      transactionOrder: 'fees',
      environment: {
        baseFee: toQuantity(context.baseFeePerGas),
        chainId: Number(engine.chainId),
        gasLimit: toQuantity(context.gasLimit),
        gasPrice: toQuantity(engine.rules.blocks.suggestedGasPrice(head, context.baseFeePerGas)),
      },
      forkConfig:
        engine.upstream === undefined
          ? { forkUrl: null, forkBlockNumber: null, forkRetryBackoff: null }
          : { forkUrl: engine.upstream.url, forkBlockNumber: Number(engine.upstream.forkNumber), forkRetryBackoff: null },
    }
  }),

  eth_gasPrice: method([], ({ engine }) => toQuantity(engine.rules.blocks.suggestedGasPrice(engine.blocks.head, engine.blocks.pending.context.baseFeePerGas))),
  eth_maxPriorityFeePerGas: method([], ({ engine }) => toQuantity(engine.rules.blocks.suggestedTip(engine.blocks.head))),
  eth_blobBaseFee: method([], () => toQuantity(BLOB_BASE_FEE)),
  eth_feeHistory: method(
    [required('0 (block count)', parseSmallQuantity), required('1 (newest block)', parseBlockTag), optional('2 (reward percentiles)', parsePercentiles, () => [])],
    ({ engine, view }, count, newest, percentiles) => feeHistory(view.blocks, engine.rules.blocks, count, newest, percentiles),
  ),
}
