/**
 * The opcodes that turn 256-bit words into bytes and back — MLOAD, MSTORE, CALLDATALOAD,
 * KECCAK256, ADDRESS, CALLER, ORIGIN, LOG0–LOG4, SLOAD and SSTORE with their gas — as
 * @ethereumjs/evm 10.1.3 runs them (opcodes/functions.js, opcodes/gas.js), without its
 * conversions: util's `bytesToBigInt` and `bigIntToBytes` spell every word as a hex string
 * (~320 and ~750 ns a word; ~80 and ~60 ns here), MSTORE padded each word by spreading arrays,
 * and SLOAD and SSTORE converted slots and values to bytes and back several times over (the
 * state adapter holds words as bigints). Installed only without the Amsterdam and binary-tree
 * frame EIPs, whose access lists, witnesses and state gas these handlers do not record; the
 * storage ones from Berlin on (EIP-2200 with EIP-2929).
 */
import type { Common } from '@ethereumjs/common'
import { EVMError, type EVM } from '@ethereumjs/evm'
import type { Address as EVMAddress } from '@ethereumjs/util'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { wordBytes } from '../bytes.ts'
import { journalKey } from '../state/evm-address.ts'
import type { EVMStateAdapter } from '../state/evm-state-adapter.ts'
import { ADDRESS, CALLDATALOAD, CALLER, KECCAK256, LOG0, MLOAD, MSTORE, ORIGIN, SLOAD, SSTORE } from './opcode-bytes.ts'

type OpcodeMap = EVM['_opcodeMap']

/** What these handlers read of the library's run state. */
interface RunState {
  stack: { pop(): bigint; push(value: bigint): void; peek(count: number): bigint[]; popN(count: number): bigint[] }
  memory: { read(offset: number, size: number, avoidCopy: boolean): Uint8Array; write(offset: number, size: number, value: Uint8Array): void }
  stateManager: EVMStateAdapter
  opCode: number
  gasRefund: bigint
  env: { caller: EVMAddress; origin: EVMAddress; isStatic: boolean; contract: unknown }
  interpreter: {
    getGasLeft(): bigint
    log(data: Uint8Array, topicCount: number, topics: Uint8Array[]): void
    getAddress(): EVMAddress
    getCallData(): Uint8Array
    getCallDataSize(): bigint
    journal: object
  }
}

const scratch = new Uint8Array(32)
const scratchView = new DataView(scratch.buffer)

/** The word in the scratch buffer. */
function scratchWord(): bigint {
  const high = (scratchView.getBigUint64(0) << 64n) | scratchView.getBigUint64(8)
  const low = (scratchView.getBigUint64(16) << 64n) | scratchView.getBigUint64(24)
  return high === 0n ? low : (high << 128n) | low
}

/** 32 big-endian bytes as a word. */
function wordOf(bytes: Uint8Array): bigint {
  scratch.set(bytes)
  return scratchWord()
}

/** A 20-byte address as a word. */
function addressWord(address: EVMAddress): bigint {
  scratch.fill(0, 0, 12)
  scratch.set(address.bytes, 12)
  return scratchWord()
}

/** A word as 32 bytes of its own (a log keeps its topics). */
function ownWordBytes(value: bigint): Uint8Array {
  return wordBytes(value).slice()
}

/** LOG0–LOG4: a log of a stretch of memory under the topics popped after it. */
function log(runState: RunState): void {
  const [offset, length] = runState.stack.popN(2)
  const topicCount = runState.opCode - LOG0
  const topics = runState.stack.popN(topicCount).map(ownWordBytes)
  const data = length === 0n ? new Uint8Array(0) : runState.memory.read(Number(offset), Number(length), false)
  runState.interpreter.log(data, topicCount, topics)
}

/** MLOAD: the word at an offset of memory (memory grows as the library's does). */
function loadMemoryWord(runState: RunState): void {
  const offset = runState.stack.pop()
  runState.stack.push(wordOf(runState.memory.read(Number(offset), 32, true)))
}

/** MSTORE: memory copies the word. */
function storeMemoryWord(runState: RunState): void {
  const [offset, word] = runState.stack.popN(2)
  runState.memory.write(Number(offset), 32, wordBytes(word))
}

/** CALLDATALOAD: 32 bytes of call data from an offset, zeros past its end. */
function loadCallDataWord(runState: RunState): void {
  const offset = runState.stack.pop()
  const { interpreter, stack } = runState
  if (offset > interpreter.getCallDataSize()) {
    stack.push(0n)
    return
  }
  const start = Number(offset)
  scratch.fill(0)
  scratch.set(interpreter.getCallData().subarray(start, start + 32))
  stack.push(scratchWord())
}

/** KECCAK256: the hash of a stretch of memory, as a word. */
function hashMemory(runState: RunState, common: Common): void {
  const [offset, length] = runState.stack.popN(2)
  const data = length === 0n ? new Uint8Array(0) : runState.memory.read(Number(offset), Number(length), true)
  runState.stack.push(wordOf((common.customCrypto.keccak256 ?? keccak_256)(data)))
}

/** SLOAD: the word at a slot of the running account's storage, at once when the state holds it. */
function loadStorageWord(runState: RunState): Promise<void> | undefined {
  const slot = runState.stack.pop()
  const value = runState.stateManager.storageWord(runState.interpreter.getAddress(), slot)
  if (typeof value === 'bigint') {
    runState.stack.push(value)
    return undefined
  }
  return value.then((word) => runState.stack.push(word))
}

/**
 * The journal's EIP-2929 sets (@ethereumjs/evm 10.1.3 journal.ts), keyed by unprefixed hex as it
 * keys them: what is warm in this transaction (undone with the frame that warmed it, through
 * the last diff), what is warm throughout (the access list), and the access list being recorded.
 */
interface WarmJournal {
  journal: Map<string, Set<string>>
  alwaysWarmJournal: Map<string, Set<string>>
  journalDiff: Array<[number, [Set<string>, Map<string, Set<string>>, Set<string>]]>
  accessList?: Map<string, Set<string>>
  addWarmedAddress(address: Uint8Array): void
}

/** Whether the slot at `slotKey` of the account at `addressKey` is warm in the transaction. */
function isWarmSlot(journal: WarmJournal, addressKey: string, slotKey: string): boolean {
  return journal.journal.get(addressKey)?.has(slotKey) === true || journal.alwaysWarmJournal.get(addressKey)?.has(slotKey) === true
}

/** Warms a slot, as the library's `addWarmedStorage`: undone with the frame that warmed it. */
function warmSlot(journal: WarmJournal, address: EVMAddress, addressKey: string, slotKey: string): void {
  let slots = journal.journal.get(addressKey)
  if (slots === undefined) {
    journal.addWarmedAddress(address.bytes)
    slots = journal.journal.get(addressKey)!
  }
  slots.add(slotKey)
  const warmedInFrame = journal.journalDiff[journal.journalDiff.length - 1][1][1]
  let frameSlots = warmedInFrame.get(addressKey)
  if (frameSlots === undefined) warmedInFrame.set(addressKey, (frameSlots = new Set()))
  frameSlots.add(slotKey)
  journal.accessList?.get(addressKey)!.add(slotKey)
}

/** A slot as the journal keys it. */
function slotKeyOf(slot: bigint): string {
  return slot.toString(16).padStart(64, '0')
}

/**
 * SLOAD's gas under EIP-2929: cold and warmed on first access in the transaction, warm after —
 * the library's `isWarmedStorage` and `addWarmedStorage` with the keys spelled once.
 */
function storageLoadGas(runState: RunState, gas: bigint, common: Common): bigint {
  const address = runState.interpreter.getAddress()
  const addressKey = journalKey(address)
  const slotKey = slotKeyOf(runState.stack.peek(1)[0])
  const journal = runState.interpreter.journal as unknown as WarmJournal
  if (isWarmSlot(journal, addressKey, slotKey)) return gas + common.param('warmstoragereadGas')
  warmSlot(journal, address, addressKey, slotKey)
  return gas + common.param('coldsloadGas')
}

/**
 * SSTORE's gas and refunds: EIP-2200 net metering with EIP-2929's warm and cold costs (and
 * EIP-3529's refunds, through the parameters), as the library's `updateSstoreGasEIP2200`,
 * `adjustSstoreGasEIP2929` and `accessStorageEIP2929` give them; the slot's current and
 * original words read as bigints.
 */
function storageStoreGas(runState: RunState, gas: bigint, common: Common): bigint | Promise<bigint> {
  if (runState.env.isStatic) throw new EVMError(EVMError.errorMessages.STATIC_STATE_CHANGE)
  const [slot, value] = runState.stack.peek(2)
  const address = runState.interpreter.getAddress()
  const current = runState.stateManager.storageWord(address, slot)
  const original = runState.stateManager.originalStorageWord(address, slot)
  if (typeof current === 'bigint' && typeof original === 'bigint') return netStoreGas(runState, gas, common, address, slot, value, current, original)
  return Promise.all([current, original]).then(([now, before]) => netStoreGas(runState, gas, common, address, slot, value, now, before))
}

/** SSTORE's gas once the slot's words are at hand (refunds go to the run state, as the library's). */
function netStoreGas(runState: RunState, gas: bigint, common: Common, address: EVMAddress, slot: bigint, value: bigint, current: bigint, original: bigint): bigint {
  if (runState.interpreter.getGasLeft() <= common.param('sstoreSentryEIP2200Gas')) throw new EVMError(EVMError.errorMessages.OUT_OF_GAS)
  const journal = runState.interpreter.journal as unknown as WarmJournal
  const addressKey = journalKey(address)
  const slotKey = slotKeyOf(slot)
  const warm = isWarmSlot(journal, addressKey, slotKey)
  const warmRead = common.param('warmstoragereadGas')
  const clearRefund = common.param('sstoreClearRefundEIP2200Gas')
  let cost: bigint
  if (current === value) {
    cost = warm ? warmRead : common.param('sstoreNoopEIP2200Gas')
  } else if (original === current) {
    if (original === 0n) {
      cost = common.param('sstoreInitEIP2200Gas')
    } else {
      if (value === 0n) runState.gasRefund += clearRefund
      cost = common.param('sstoreCleanEIP2200Gas')
    }
  } else {
    if (original !== 0n) {
      if (current === 0n) {
        runState.gasRefund -= clearRefund
        if (runState.gasRefund < 0n) {
          runState.gasRefund = 0n
          throw new EVMError(EVMError.errorMessages.REFUND_EXHAUSTED)
        }
      } else if (value === 0n) {
        runState.gasRefund += clearRefund
      }
    }
    if (original === value) {
      if (original === 0n) runState.gasRefund += warm ? common.param('sstoreInitEIP2200Gas') - warmRead : common.param('sstoreInitRefundEIP2200Gas')
      else runState.gasRefund += warm ? common.param('sstoreResetGas') - common.param('coldsloadGas') - warmRead : common.param('sstoreCleanRefundEIP2200Gas')
    }
    cost = common.param('sstoreDirtyEIP2200Gas')
  }
  if (warm) return gas + cost
  warmSlot(journal, address, addressKey, slotKey)
  return gas + cost + common.param('coldsloadGas')
}

/** SSTORE: the word written to the running account's storage; the frame's view of its account is read again, as the library does. */
async function storeStorageWord(runState: RunState): Promise<void> {
  const [slot, value] = runState.stack.popN(2)
  const address = runState.interpreter.getAddress()
  runState.stateManager.putStorageWord(address, slot, value)
  const account = await runState.stateManager.getAccount(address)
  if (account === undefined) throw new Error('could not read account while persisting memory')
  runState.env.contract = account
}

type Handler = OpcodeMap[number]['opHandler']
type GasHandler = NonNullable<OpcodeMap[number]['gasHandler']>

/** Replaces the word opcodes' handlers in `opcodes` (one EVM's own table, under `common`'s rules); the storage ones from Berlin on. */
export function installWordOpcodes(opcodes: OpcodeMap, common: Common): void {
  const handle = (opcode: number, handler: (runState: RunState, common: Common) => unknown): void => {
    opcodes[opcode].opHandler = handler as unknown as Handler
  }
  handle(MLOAD, loadMemoryWord)
  handle(MSTORE, storeMemoryWord)
  handle(CALLDATALOAD, loadCallDataWord)
  handle(KECCAK256, hashMemory)
  handle(ADDRESS, (runState) => runState.stack.push(addressWord(runState.interpreter.getAddress())))
  handle(ORIGIN, (runState) => runState.stack.push(addressWord(runState.env.origin)))
  handle(CALLER, (runState) => runState.stack.push(addressWord(runState.env.caller)))
  for (let topics = 0; topics <= 4; topics++) handle(LOG0 + topics, log)
  if (!common.isActivatedEIP(2929)) return
  handle(SLOAD, loadStorageWord)
  handle(SSTORE, storeStorageWord)
  opcodes[SLOAD].gasHandler = storageLoadGas as unknown as GasHandler
  opcodes[SSTORE].gasHandler = storageStoreGas as unknown as GasHandler
}
