/**
 * geth's simulation log tracer with `traceTransfers`: ETH moved into a frame (not by DELEGATECALL
 * or CALLCODE) or by SELFDESTRUCT is logged as an ERC-7528 Transfer from 0xeeee…eeee, in
 * execution order among the EVM's own logs; a failed frame's entries go.
 */
import type { EVMResult, InterpreterStep, Message } from '@ethereumjs/evm'
import { bigIntToBytes, createAddressFromBigInt, generateAddress, generateAddress2, hexToBytes, setLengthLeft, Address as EVMAddress } from '@ethereumjs/util'
import type { Log } from '../../blocks/receipt.ts'
import type { DevnetEVM } from '../devnet-evm.ts'

/** ERC-7528's address for ETH, and the ERC-20 Transfer(address,address,uint256) topic: geth's transfer logs. */
const TRANSFER_ADDRESS = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'
const TRANSFER_TOPIC = hexToBytes('0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef')

function transferLog(from: EVMAddress, to: EVMAddress, value: bigint): Log {
  const topics = [TRANSFER_TOPIC, setLengthLeft(from.bytes, 32), setLengthLeft(to.bytes, 32)]
  return { address: TRANSFER_ADDRESS, topics, data: setLengthLeft(bigIntToBytes(value), 32) }
}

/** Records the transfers of one call while attached to the EVM (detach it after the call). */
export class TransferTracer {
  private readonly frames: (Log | null)[][] = []
  private entries: (Log | null)[] = []

  constructor(private readonly evm: DevnetEVM) {
    evm.events.on('beforeMessage', this.enter)
    evm.events.on('step', this.step)
    evm.events.on('afterMessage', this.exit)
  }

  /** Stops listening to the EVM. */
  detach(): void {
    this.evm.events.off('beforeMessage', this.enter)
    this.evm.events.off('step', this.step)
    this.evm.events.off('afterMessage', this.exit)
  }

  /** The call's logs: `evmLogs` in their marked places, the transfers among them. */
  logs(evmLogs: readonly Log[]): Log[] {
    let next = 0
    return this.entries.map((entry) => entry ?? evmLogs[next++])
  }

  private readonly enter = (message: Message, resolve?: () => void): void => {
    const frame: (Log | null)[] = []
    this.frames.push(frame)
    const callCode = message.to !== undefined && !message.codeAddress.equals(message.to)
    if (message.value === 0n || message.delegatecall || callCode) return resolve?.()
    void this.recipient(message)
      .then((to) => frame.push(transferLog(message.caller, to, message.value)))
      .catch(() => {}) // the EVM fails the same read right after
      .finally(resolve)
  }

  /** Where a frame's value goes: its address, or the address a creation deploys to. */
  private async recipient(message: Message): Promise<EVMAddress> {
    if (message.to !== undefined) return message.to
    if (message.salt !== undefined) return new EVMAddress(generateAddress2(message.caller.bytes, message.salt, message.data))
    // The creator's nonce is already bumped when its creation frame starts.
    const nonce = ((await this.evm.stateManager.getAccount(message.caller))?.nonce ?? 1n) - 1n
    return new EVMAddress(generateAddress(message.caller.bytes, bigIntToBytes(nonce)))
  }

  private readonly step = (step: InterpreterStep, resolve?: () => void): void => {
    const frame = this.frames[this.frames.length - 1]
    if (step.opcode.name.startsWith('LOG')) frame.push(null)
    if (step.opcode.name !== 'SELFDESTRUCT') return resolve?.()
    const beneficiary = createAddressFromBigInt(step.stack[step.stack.length - 1])
    void step.stateManager
      .getAccount(step.address)
      .then((account) => {
        if (account !== undefined && account.balance > 0n) frame.push(transferLog(step.address, beneficiary, account.balance))
      })
      .catch(() => {}) // the EVM fails the same read right after
      .finally(resolve)
  }

  private readonly exit = (result: EVMResult): void => {
    const frame = this.frames.pop()!
    if (result.execResult.exceptionError !== undefined) return
    if (this.frames.length > 0) this.frames[this.frames.length - 1].push(...frame)
    else this.entries = frame
  }
}
