/**
 * Property-based fuzzing of the node with fast-check (fixed seeds, bounded runs): every body a
 * client can send over HTTP — random bytes and strings, JSON nested up to 100 000 levels,
 * wrong-typed arguments for every parameter of every method, prototype-key method names,
 * params of the wrong shape, random envelopes and batches — gets an HTTP 200 JSON-RPC answer
 * as geth's rpc/handler.go gives it, never -32603 (an internal error means a crash path), and
 * leaves the chain exactly as it was. The in-process provider (`chain.request`) is fuzzed with
 * the same arbitraries plus JavaScript-only values, and eth_sendRawTransaction with random and
 * mutated envelopes (always geth's -32000 texts, never a trace of a rejected transaction).
 */
import { expect } from 'chai'
import fc from 'fast-check'
import { keccak256, parseEther, toHex, type Hex } from 'viem'
import { createChain, RPCError, type Chain } from '../../lib/index.ts'
import { methods } from '../../lib/rpc/methods.ts'
import { startServer, type DevnetServer } from '../../lib/server/server.ts'
import {
  ALICE,
  BOB,
  couldAdmit,
  expectedInvalidPrefix,
  invalidParam,
  jsonWrong,
  jsWrong,
  maybeValid,
  METHOD_PARAMS,
  nestedText,
  nestedValue,
  nestings,
  PROTOTYPE_KEYS,
  isStateChanging,
  READ_ONLY_METHODS,
  type ParamSpec,
} from '../support/fuzz-arbitraries.ts'
import { expectReplyTo, expectResponseObject, parseBody, post, rpc, stateSnapshot, type ResponseObject } from '../support/fuzz-http.ts'
import { EIP1559_FIELDS, fieldValues, isRejectionText, mutate, mutations, randomRawBytes, signFields, unsignedFields } from '../support/fuzz-raw.ts'
import { GWEI, signer } from '../support/wallet.ts'

const CHAIN_ID_HEX = '0x7a69' // 31337
/** Every method the node answers (the oracle for -32601). */
const KNOWN_METHODS: ReadonlySet<string> = new Set(Object.keys(methods))
const NOT_AN_ARRAY = 'invalid params: expected an array of positional parameters'

/** Runs per property: enough to cover every method and kind, small enough for a fast file. */
const RUNS = 300

function settings(seed: number, numRuns = RUNS): fc.Parameters<unknown> {
  return { seed, numRuns, endOnFailure: true }
}

/** One JSON-RPC request body. */
function requestBody(method: string, params: unknown, id: unknown = 1): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method, params })
}

/** A request whose argument `index` is the JSON text `argument` (e.g. a nesting built as text). */
function requestBodyWithArgument(method: string, specs: readonly ParamSpec[], index: number, argument: string): string {
  const params = specs.map((spec, j) => (j === index ? argument : JSON.stringify(spec.valid)))
  if (specs.length === 0) params.push(argument)
  return `{"jsonrpc":"2.0","id":7,"method":${JSON.stringify(method)},"params":[${params.join(',')}]}`
}

/**
 * The described methods whose arity matches lib/rpc/methods.ts (a method added or changed since
 * is still fuzzed by the shape and envelope properties, which need no description).
 */
const DESCRIBED = Object.entries(METHOD_PARAMS).filter(([method, specs]) => Object.hasOwn(methods, method) && methods[method].parameters.length === specs.length)
/** (method, argument index) for every parameter of every described method. */
const PARAMETER_CASES = DESCRIBED.flatMap(([method, specs]) => specs.map((_, index) => ({ method, specs, index })))
/** Every described method, with the argument to fuzz (no-parameter methods: one extra argument). */
const ARGUMENT_CASES = DESCRIBED.flatMap(([method, specs]) =>
  specs.length === 0 ? [{ method, specs, index: 0 }] : specs.map((_, index) => ({ method, specs, index })),
)

/** A wrong-typed argument for one parameter of one method, the others valid. */
function wrongArguments(pool: fc.Arbitrary<unknown>) {
  return fc.constantFrom(...PARAMETER_CASES).chain(({ method, specs, index }) =>
    invalidParam(specs[index], pool).map((bad) => ({ method, index, spec: specs[index], params: specs.map((spec, j) => (j === index ? bad : spec.valid)) })),
  )
}

/** The -32602 a definitely wrong argument must get. */
function expectInvalidArgument(error: { code?: unknown; message?: unknown } | undefined, prefix: string, label: string): void {
  expect(error?.code, `${label}: -32602 expected, got ${String(error?.code)} ${String(error?.message).slice(0, 200)}`).to.equal(-32602)
  expect(String(error?.message).startsWith(prefix), `${label}: message "${String(error?.message).slice(0, 200)}" starts with "${prefix}"`).to.equal(true)
}

function label(method: string, params: unknown): string {
  let text: string
  try {
    text = JSON.stringify(params, (_, value) => (typeof value === 'bigint' ? `${value}n` : value)) ?? String(params)
  } catch {
    text = '<unprintable params>'
  }
  return `${method} ${text.length > 200 ? `${text.slice(0, 200)}…` : text}`
}

describe('fuzz: HTTP JSON-RPC (geth envelope rules; no -32603, no state change on bad input)', function () {
  this.timeout(60_000)
  let chain: Chain
  let server: DevnetServer
  let url: string
  let before_: Record<string, unknown>
  const events = { transaction: 0, preconfirmation: 0, block: 0 }
  let preconfirmedHash: Hex
  let heldHashes: Hex[]
  let devAddresses: string[]

  before(async () => {
    chain = await createChain({ clock: 'manual' })
    server = await startServer(chain, { port: 0 })
    url = server.url
    devAddresses = chain.accounts.map((account) => account.address)
    // Some history: a sealed transfer, a pre-confirmed one, and two held in the mempool
    // (one behind a nonce gap, one whose fee cap is below the base fee).
    const alice = signer(chain, 0)
    await chain.sendRawTransaction(await alice.sign({ to: BOB, value: parseEther('1'), nonce: 0 }))
    await chain.tick()
    await chain.mine()
    preconfirmedHash = await chain.sendRawTransaction(await alice.sign({ to: BOB, value: parseEther('2'), nonce: 1 }))
    await chain.tick()
    heldHashes = [
      await chain.sendRawTransaction(await signer(chain, 2).sign({ to: BOB, value: 1n, nonce: 3 })),
      await chain.sendRawTransaction(await signer(chain, 3).sign({ to: BOB, value: 1n, nonce: 0, maxFeePerGas: 1n, maxPriorityFeePerGas: 1n })),
    ]
    before_ = await stateSnapshot(url, [...devAddresses, `0x${'0'.repeat(40)}`, chain.options.coinbase])
    chain.on('transaction', () => events.transaction++)
    chain.on('preconfirmation', () => events.preconfirmation++)
    chain.on('block', () => events.block++)
  })

  after(async () => {
    await server?.close()
  })

  afterEach(async () => {
    // The server stays up after every property.
    expect(await rpc(url, 'eth_chainId')).to.equal(CHAIN_ID_HEX)
  })

  it('the parameter table of this spec describes every method of lib/rpc/methods.ts with its arity', () => {
    const undescribed = [...KNOWN_METHODS].filter((method) => !DESCRIBED.some(([name]) => name === method))
    expect(undescribed, 'methods fuzzed only by the shape and envelope properties').to.deep.equal([])
  })

  it('random bytes as the body: HTTP 200 and -32700 parse error (id null) unless they happen to be JSON', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.uint8Array({ maxLength: 400 }), fc.uint8Array({ minLength: 1, maxLength: 20 }).map((b) => Uint8Array.of(0x7b, ...b))), async (bytes) => {
        const { request, notJson } = parseBody(bytes)
        expectReplyTo(request, notJson, await post(url, bytes), KNOWN_METHODS, `bytes ${Buffer.from(bytes).toString('hex').slice(0, 100)}`)
      }),
      settings(0x5eed01),
    )
  })

  it('random strings (unicode, JSON-like, very long) as the body: a JSON-RPC answer to each', async () => {
    const jsonish = fc.string({ unit: fc.constantFrom(...'{}[]":,0123456789.eE+-truefalsnul \\'.split('')), maxLength: 60 })
    const strings = fc.oneof(fc.string({ maxLength: 200 }), fc.string({ unit: 'grapheme', maxLength: 100 }), fc.string({ unit: 'binary', maxLength: 100 }), jsonish, fc.integer({ min: 1, max: 1_000_000 }).map((n) => 'x'.repeat(n)))
    await fc.assert(
      fc.asyncProperty(strings, async (text) => {
        const { request, notJson } = parseBody(text)
        expectReplyTo(request, notJson, await post(url, text), KNOWN_METHODS, `string ${JSON.stringify(text.slice(0, 100))}`)
      }),
      settings(0x5eed02),
    )
  })

  it('random JSON values as the body: single requests and batches get one answer per member owed one, in order (geth)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.jsonValue({ maxDepth: 4 }), fc.array(fc.jsonValue({ maxDepth: 3 }), { maxLength: 20 })), async (value) => {
        const body = JSON.stringify(value)
        const { request, notJson } = parseBody(body)
        expectReplyTo(request, notJson, await post(url, body), KNOWN_METHODS, body.slice(0, 200))
      }),
      settings(0x5eed03),
    )
  })

  it('a body nested 1..100 000 levels deep: [[…]] → per-member -32600, {"a":{…}} → -32600 method must be a string (geth)', async () => {
    await fc.assert(
      fc.asyncProperty(nestings(['a']), async (nesting) => {
        const reply = await post(url, nestedText(nesting), `${nesting.shape} nested ${nesting.depth} levels`)
        const { depth, shape } = nesting
        if (shape === 'array' && depth === 1) {
          expect(reply.json).to.deep.equal({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'invalid request: empty batch' } })
        } else if (shape === 'array') {
          expect(reply.json, `array nested ${depth}`).to.deep.equal([{ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'invalid request: expected a JSON-RPC request object' } }])
        } else {
          expect(reply.json, `object nested ${depth}`).to.deep.equal({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'invalid request: jsonrpc must be "2.0"' } })
        }
      }),
      settings(0x5eed04, 120),
    )
  })

  it('nesting 1..100 000 levels deep as the id, jsonrpc, method or params of a request: the exact geth error', async () => {
    const slots = fc.constantFrom('id', 'jsonrpc', 'method', 'params')
    await fc.assert(
      fc.asyncProperty(slots, nestings(['a', 'id', 'method', '0', '__proto__']), async (slot, nesting) => {
        const nested = nestedText(nesting)
        const body =
          slot === 'id'
            ? `{"jsonrpc":"2.0","id":${nested},"method":"eth_chainId"}`
            : slot === 'jsonrpc'
              ? `{"jsonrpc":${nested},"id":5,"method":"eth_chainId"}`
              : slot === 'method'
                ? `{"jsonrpc":"2.0","id":5,"method":${nested}}`
                : `{"jsonrpc":"2.0","id":5,"method":"eth_chainId","params":${nested}}`
        const what = `${slot} = ${nesting.shape} nested ${nesting.depth} levels (key ${nesting.key})`
        const reply = await post(url, body, what)
        const error = (code: number, message: string, id: unknown = 5) => ({ jsonrpc: '2.0', id, error: { code, message } })
        if (slot === 'id') expect(reply.json, what).to.deep.equal(error(-32600, 'invalid request: id must be a string, a number or null', null))
        else if (slot === 'jsonrpc') expect(reply.json, what).to.deep.equal(error(-32600, 'invalid request: jsonrpc must be "2.0"'))
        else if (slot === 'method') expect(reply.json, what).to.deep.equal(error(-32600, 'invalid request: method must be a string'))
        else if (nesting.shape === 'object') expect(reply.json, what).to.deep.equal(error(-32602, NOT_AN_ARRAY))
        else if (nesting.depth === 1) expect(reply.json, what).to.deep.equal({ jsonrpc: '2.0', id: 5, result: CHAIN_ID_HEX })
        else expect(reply.json, what).to.deep.equal(error(-32602, 'too many arguments, want at most 0'))
      }),
      settings(0x5eed05, 150),
    )
  })

  it("method names that are Object.prototype keys, near misses or random text → -32601 'the method X does not exist/is not available' (geth)", async () => {
    const names = fc
      .oneof(
        fc.constantFrom(...PROTOTYPE_KEYS),
        fc.constantFrom('eth_chainid', 'ETH_CHAINID', ' eth_chainId', 'eth_chainId ', 'eth_chainId\u0000', 'eth_', '', 'methods', 'handler', 'parameters', 'eth_subscribe', 'rpc_modules'),
        fc.string({ maxLength: 40 }),
        fc.string({ unit: 'grapheme', maxLength: 20 }),
        fc.integer({ min: 1_000, max: 100_000 }).map((n) => 'm'.repeat(n)),
      )
      .filter((name) => !KNOWN_METHODS.has(name))
    await fc.assert(
      fc.asyncProperty(names, fc.oneof(fc.constant([]), fc.array(jsonWrong, { maxLength: 3 })), async (method, params) => {
        const reply = await post(url, requestBody(method, params, 'fuzz'), `method ${JSON.stringify(method.slice(0, 60))}`)
        expect(reply.json).to.deep.equal({ jsonrpc: '2.0', id: 'fuzz', error: { code: -32601, message: `the method ${method} does not exist/is not available` } })
      }),
      settings(0x5eed06),
    )
  })

  it('wrong-typed arguments (numbers, booleans, objects, arrays, null, 1e308, -1, NaN-ish strings, >256-bit and odd-length hex, short/long/unprefixed addresses, unicode, long strings) for every parameter of every method → -32602 naming the argument (geth)', async () => {
    await fc.assert(
      fc.asyncProperty(wrongArguments(jsonWrong), async ({ method, index, spec, params }) => {
        const body = requestBody(method, params)
        const sent = (JSON.parse(body) as { params: unknown[] }).params
        const prefix = expectedInvalidPrefix(spec, index, sent[index])
        const what = label(method, sent)
        const reply = await post(url, body, what)
        expectResponseObject(reply.json, what)
        expect(reply.json.id).to.equal(1)
        expectInvalidArgument(reply.json.error, prefix!, what)
      }),
      settings(0x5eed07, 600),
    )
  })

  it('nesting 1..100 000 levels deep as any argument of any method: never -32603; -32602 naming the argument when it cannot be valid', async () => {
    const keys = ['a', 'blockNumber', 'blockHash', 'from', 'to', 'address', 'topics', 'accessList', '0', '__proto__', 'constructor']
    const cases = fc.tuple(fc.constantFrom(...ARGUMENT_CASES), nestings(keys)).filter(([{ method, specs, index }, nesting]) => {
      if (!isStateChanging(method) || specs.length === 0) return true
      const value = nestedValue(nesting)
      return method === 'eth_sendTransaction' ? !couldAdmit(value, [ALICE]) : !maybeValid(specs[index].kind, value)
    })
    await fc.assert(
      fc.asyncProperty(cases, async ([{ method, specs, index }, nesting]) => {
        const what = `${method} argument ${index} = ${nesting.shape} nested ${nesting.depth} levels (key ${JSON.stringify(nesting.key)})`
        const reply = await post(url, requestBodyWithArgument(method, specs, index, nestedText(nesting)), what)
        expectResponseObject(reply.json, what)
        if (specs.length === 0) {
          expect(reply.json.error, what).to.deep.equal({ code: -32602, message: 'too many arguments, want at most 0' })
          return
        }
        const prefix = expectedInvalidPrefix(specs[index], index, nestedValue(nesting))
        if (prefix !== undefined) expectInvalidArgument(reply.json.error, prefix, what)
      }),
      settings(0x5eed08, 250),
    )
  })

  it("params that are not an array (object, string, number, boolean) → -32602, and too many params → 'too many arguments, want at most N', for every method (geth)", async () => {
    const allMethods = [...KNOWN_METHODS]
    const notArrays = jsonWrong.filter((value) => value !== null && !Array.isArray(value))
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...allMethods), fc.boolean(), notArrays, fc.array(jsonWrong, { minLength: 1, maxLength: 3 }), async (method, asObject, notArray, extra) => {
        const want = methods[method].parameters.length
        if (asObject) {
          const reply = await post(url, requestBody(method, notArray), label(method, notArray))
          expect(reply.json, label(method, notArray)).to.deep.equal({ jsonrpc: '2.0', id: 1, error: { code: -32602, message: NOT_AN_ARRAY } })
        } else {
          const params = [...Array.from({ length: want }, () => null), ...extra]
          const reply = await post(url, requestBody(method, params), label(method, params))
          expect(reply.json, label(method, params)).to.deep.equal({ jsonrpc: '2.0', id: 1, error: { code: -32602, message: `too many arguments, want at most ${want}` } })
        }
      }),
      settings(0x5eed09),
    )
  })

  it('random envelopes and batches (ids, jsonrpc, methods and params of any type; >1000 members): each answered as geth does, never -32603', async () => {
    const envelope = fc.record(
      {
        jsonrpc: fc.oneof(fc.constant('2.0'), fc.constantFrom('1.0', '2', 2, 2.0, null, '', ' 2.0', true)),
        id: fc.oneof(fc.integer(), fc.string({ maxLength: 20 }), fc.constant(null), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.array(fc.integer(), { maxLength: 2 }), fc.object({ maxDepth: 1 })),
        method: fc.oneof(fc.constantFrom(...READ_ONLY_METHODS), fc.constantFrom(...PROTOTYPE_KEYS), fc.string({ maxLength: 20 }), fc.integer(), fc.constant(null), fc.array(fc.string(), { maxLength: 2 })),
        params: fc.oneof(jsonWrong, fc.array(jsonWrong, { maxLength: 4 })),
      },
      { requiredKeys: [] },
    )
    const bodies = fc.oneof(
      { weight: 3, arbitrary: envelope },
      { weight: 3, arbitrary: fc.array(fc.oneof(envelope, jsonWrong), { maxLength: 25 }) },
      { weight: 1, arbitrary: fc.integer({ min: 1001, max: 1200 }).map((n) => Array.from({ length: n }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'eth_chainId' }))) },
    )
    await fc.assert(
      fc.asyncProperty(bodies, async (value) => {
        const body = JSON.stringify(value)
        const { request, notJson } = parseBody(body)
        expectReplyTo(request, notJson, await post(url, body), KNOWN_METHODS, body.slice(0, 300))
      }),
      settings(0x5eed0a),
    )
  })

  it('eth_sendTransaction from a dev account with a nonce ≥ 2^64-1, gas ≥ 2^64, or fees and value whose cost overflows: rejected with -32602/-32000 (geth: hexutil.Uint64 / ErrFeeCapVeryHigh / insufficient funds), never -32603', async () => {
    const hex = (n: bigint) => toHex(n)
    const huge = (min: bigint) => fc.bigInt({ min, max: 2n ** 256n - 1n })
    const fields = fc.oneof(
      huge(2n ** 64n - 1n).map((n) => ({ nonce: hex(n), gas: '0x5208' })),
      huge(2n ** 64n).map((n) => ({ gas: hex(n) })),
      huge(2n ** 64n).map((n) => ({ gas: '0x5208', maxFeePerGas: hex(n) })),
      huge(2n ** 64n).map((n) => ({ gas: '0x5208', gasPrice: hex(n) })),
      huge(2n ** 64n).map((n) => ({ gas: '0x5208', maxPriorityFeePerGas: hex(n) })),
      huge(2n ** 80n).map((n) => ({ gas: '0x5208', value: hex(n) })),
    )
    await fc.assert(
      fc.asyncProperty(fields, async (extra) => {
        const transaction = { from: ALICE, to: BOB, ...extra }
        const what = label('eth_sendTransaction', [transaction])
        const reply = await post(url, requestBody('eth_sendTransaction', [transaction]), what)
        expectResponseObject(reply.json, what)
        expect(reply.json.error, `${what}: must be rejected`).to.not.equal(undefined)
        expect([-32602, -32000], `${what}: ${reply.json.error?.code} ${reply.json.error?.message.slice(0, 200)}`).to.include(reply.json.error?.code)
      }),
      settings(0x5eed0b, 200),
    )
  })

  it('after all of it: the server answers and nothing changed (balances, nonces and code at latest and pending, block number, latest and pending blocks, gas price, automine); no transaction admitted, no tick, no seal', async () => {
    expect(await rpc(url, 'eth_chainId')).to.equal(CHAIN_ID_HEX)
    const after_ = await stateSnapshot(url, [...devAddresses, `0x${'0'.repeat(40)}`, chain.options.coinbase])
    expect(after_).to.deep.equal(before_)
    expect(events).to.deep.equal({ transaction: 0, preconfirmation: 0, block: 0 })
  })

  it('a tick and a seal afterwards include only what was there before: no junk was admitted', async () => {
    const tick = (await rpc(url, 'preconf_tick')) as { transactions: Hex[] }
    expect(tick.transactions, 'the held transactions stay held; nothing new').to.deep.equal([])
    expect(await rpc(url, 'evm_mine')).to.equal('0x0')
    const block = (await rpc(url, 'eth_getBlockByNumber', ['latest', false])) as { number: Hex; transactions: Hex[] }
    expect(block.number).to.equal('0x2')
    expect(block.transactions).to.deep.equal([preconfirmedHash])
    for (const hash of heldHashes) {
      const held = (await rpc(url, 'eth_getTransactionByHash', [hash])) as { blockHash: unknown } | null
      expect(held?.blockHash, `${hash} still waits in the mempool`).to.equal(null)
    }
    expect(((await rpc(url, 'eth_getBlockByNumber', ['pending', false])) as { transactions: Hex[] }).transactions).to.deep.equal([])
  })
})

describe('fuzz: in-process chain.request (EIP-1193): every rejection is an RPCError, never -32603', function () {
  this.timeout(60_000)
  let chain: Chain
  let before_: unknown
  const events = { transaction: 0, preconfirmation: 0, block: 0 }

  async function snapshot(): Promise<unknown> {
    const accounts = []
    for (const { address } of chain.accounts) {
      accounts.push([
        await chain.getBalance(address, 'latest'),
        await chain.getBalance(address, 'pending'),
        await chain.getTransactionCount(address, 'latest'),
        await chain.getTransactionCount(address, 'pending'),
      ])
    }
    return { accounts, blockNumber: chain.blockNumber(), now: chain.clock.now(), mining: chain.mining, pending: await chain.request({ method: 'eth_getBlockByNumber', params: ['pending', true] }) }
  }

  /** The error `request` rejects with, or `{ resolved }` if it did not reject. */
  async function outcome(args: unknown): Promise<{ error?: unknown; resolved?: unknown }> {
    try {
      return { resolved: await chain.request(args as { method: string; params?: unknown }) }
    } catch (error) {
      return { error }
    }
  }

  function expectRPCError(error: unknown, what: string): asserts error is RPCError {
    expect(error instanceof RPCError, `${what}: an RPCError, got ${String(error)}`).to.equal(true)
    const { code, message } = error as RPCError
    expect(code, `${what}: -32603 is an internal error (a crash path): ${message.slice(0, 300)}`).to.not.equal(-32603)
    expect([-32600, -32601, -32602, -32000], `${what}: code ${code} (${message.slice(0, 200)})`).to.include(code)
  }

  before(async () => {
    chain = await createChain({ clock: 'manual' })
    const alice = signer(chain, 0)
    await chain.sendRawTransaction(await alice.sign({ to: BOB, value: GWEI, nonce: 0 }))
    await chain.tick()
    await chain.mine()
    await chain.sendRawTransaction(await alice.sign({ to: BOB, value: GWEI, nonce: 1 }))
    await chain.tick()
    before_ = await snapshot()
    chain.on('transaction', () => events.transaction++)
    chain.on('preconfirmation', () => events.preconfirmation++)
    chain.on('block', () => events.block++)
  })

  it('wrong-typed arguments, JavaScript-only values too (NaN, Infinity, undefined, bigints, symbols, functions, Dates, Maps), for every parameter of every method → RPCError -32602 naming the argument', async () => {
    await fc.assert(
      fc.asyncProperty(wrongArguments(jsWrong), async ({ method, index, spec, params }) => {
        const what = label(method, params)
        const { error } = await outcome({ method, params })
        expectRPCError(error, what)
        expectInvalidArgument(error, expectedInvalidPrefix(spec, index, params[index])!, what)
      }),
      settings(0x5eed11, 600),
    )
  })

  it('nesting 1..100 000 levels deep as any argument of any method → RPCError, never -32603', async () => {
    const keys = ['a', 'blockNumber', 'blockHash', 'from', 'address', 'topics', '0', '__proto__']
    const cases = fc.tuple(fc.constantFrom(...ARGUMENT_CASES), nestings(keys)).filter(([{ method, specs, index }, nesting]) => {
      if (!isStateChanging(method) || specs.length === 0) return true
      const value = nestedValue(nesting)
      return method === 'eth_sendTransaction' ? !couldAdmit(value, [ALICE]) : !maybeValid(specs[index].kind, value)
    })
    await fc.assert(
      fc.asyncProperty(cases, async ([{ method, specs, index }, nesting]) => {
        const value = nestedValue(nesting)
        const params = specs.length === 0 ? [value] : specs.map((spec, j) => (j === index ? value : spec.valid))
        const what = `${method} argument ${index} = ${nesting.shape} nested ${nesting.depth} levels (key ${JSON.stringify(nesting.key)})`
        const { error } = await outcome({ method, params })
        // A value that may be valid: an answer, or a refusal about its content (geth's -32602 "empty
        // input", -32000 "transaction not found", …) — anything but -32603.
        if (specs.length > 0 && expectedInvalidPrefix(specs[index], index, value) === undefined) {
          if (error === undefined) return
          expectRPCError(error, what)
          expect(error.code, what).to.be.oneOf([-32000, -32602])
          return
        }
        expectRPCError(error, what)
        if (specs.length === 0) expect(error.message).to.equal('too many arguments, want at most 0')
        else expectInvalidArgument(error, expectedInvalidPrefix(specs[index], index, value) ?? 'invalid argument', what)
      }),
      settings(0x5eed12, 200),
    )
  })

  it("request arguments that are not { method: string } → -32600, unknown or prototype-key methods → -32601 (geth's text)", async () => {
    const notRequests = jsWrong.filter((value) => typeof value !== 'object' || value === null || typeof (value as { method?: unknown }).method !== 'string')
    const badMethod = fc.oneof(fc.constantFrom(...PROTOTYPE_KEYS), fc.string({ maxLength: 30 }), fc.string({ unit: 'grapheme', maxLength: 10 })).filter((name) => !KNOWN_METHODS.has(name))
    await fc.assert(
      fc.asyncProperty(fc.oneof(notRequests.map((args) => ({ args, method: undefined })), badMethod.map((method) => ({ args: { method, params: [] }, method }))), async ({ args, method }) => {
        const what = label('request', args)
        const { error } = await outcome(args)
        expectRPCError(error, what)
        if (method === undefined) expect({ code: error.code, message: error.message }, what).to.deep.equal({ code: -32600, message: 'invalid request: expected { method: string, params?: unknown[] }' })
        else expect({ code: error.code, message: error.message }, what).to.deep.equal({ code: -32601, message: `the method ${method} does not exist/is not available` })
      }),
      settings(0x5eed13),
    )
  })

  it('params not an array, or too many of them, for every method → RPCError -32602', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...KNOWN_METHODS), jsWrong.filter((value) => value !== null && value !== undefined && !Array.isArray(value)), fc.array(jsWrong, { minLength: 1, maxLength: 3 }), async (method, notArray, extra) => {
        const want = methods[method].parameters.length
        const shape = await outcome({ method, params: notArray })
        expectRPCError(shape.error, label(method, notArray))
        expect(shape.error.message).to.equal(NOT_AN_ARRAY)
        const params = [...Array.from({ length: want }, () => undefined), ...extra]
        const many = await outcome({ method, params })
        expectRPCError(many.error, label(method, params))
        expect(many.error.message).to.equal(`too many arguments, want at most ${want}`)
      }),
      settings(0x5eed14),
    )
  })

  it('random read requests with arguments of any type: a result or an RPCError with a known code, never -32603', async () => {
    const params = fc.oneof(fc.array(jsWrong, { maxLength: 4 }), jsWrong)
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...READ_ONLY_METHODS), params, async (method, args) => {
        const { error } = await outcome({ method, params: args })
        if (error !== undefined) expectRPCError(error, label(method, args))
      }),
      settings(0x5eed15, 500),
    )
  })

  it('nothing changed: balances and nonces at latest and pending, block number, clock, mining mode, pending block; no transaction, tick or seal', async () => {
    expect(await snapshot()).to.deep.equal(before_)
    expect(events).to.deep.equal({ transaction: 0, preconfirmation: 0, block: 0 })
  })
})

describe('fuzz: eth_sendRawTransaction with random and mutated envelopes (geth -32000 texts, no trace of a rejection)', function () {
  this.timeout(60_000)
  let chain: Chain
  let server: DevnetServer
  let url: string
  let template: Hex
  let sender: string
  const admitted = new Set<Hex>()
  let transactionEvents = 0

  before(async () => {
    chain = await createChain({ clock: 'manual' })
    server = await startServer(chain, { port: 0 })
    url = server.url
    const from = signer(chain, 5)
    sender = from.address
    template = await from.sign({ to: chain.accounts[6].address, value: GWEI, nonce: 0 })
    chain.on('transaction', () => transactionEvents++)
  })

  after(async () => {
    await server?.close()
  })

  /** Sends `raw`; returns the reply after checking it is a geth rejection or the hash, and that a rejection left no trace. */
  async function sendAndCheck(raw: Hex, what: string): Promise<ResponseObject> {
    const hash = keccak256(raw)
    const eventsBefore = transactionEvents
    const reply = await post(url, requestBody('eth_sendRawTransaction', [raw]), what)
    expectResponseObject(reply.json, what)
    const response = reply.json
    if (response.error === undefined) {
      expect(response.result, `${what}: the result is the transaction hash`).to.equal(hash)
      expect(transactionEvents, `${what}: admission announced`).to.equal(eventsBefore + 1)
      admitted.add(hash)
      return response
    }
    expect(response.error.code, `${what}: ${response.error.message.slice(0, 200)}`).to.equal(-32000)
    expect(isRejectionText(response.error.message), `${what}: a geth rejection text, got "${response.error.message.slice(0, 200)}"`).to.equal(true)
    expect(transactionEvents, `${what}: nothing announced`).to.equal(eventsBefore)
    if (!admitted.has(hash)) {
      expect(await rpc(url, 'eth_getTransactionByHash', [hash]), `${what}: no trace`).to.equal(null)
      expect(await rpc(url, 'service_transactionStatus', [hash]), `${what}: unknown`).to.deep.equal({ status: 'Unknown' })
    }
    return response
  }

  it('random bytes, RLP lists behind every type byte, oversized payloads → -32000 with a geth rejection text', async () => {
    await fc.assert(
      fc.asyncProperty(randomRawBytes, async (bytes) => {
        await sendAndCheck(toHex(bytes), `raw ${Buffer.from(bytes).toString('hex').slice(0, 120)}`)
      }),
      settings(0x5eed21),
    )
    expect(admitted.size, 'random bytes are never a funded signed transaction').to.equal(0)
  })

  it('a valid signed transaction with bytes set, flipped, inserted, deleted, truncated or appended → -32000, or admission only of the untouched envelope', async () => {
    const original = Buffer.from(template.slice(2), 'hex')
    await fc.assert(
      fc.asyncProperty(mutations, async (edits) => {
        const bytes = mutate(original, edits)
        const raw = toHex(bytes)
        const reply = await sendAndCheck(raw, `mutated ${JSON.stringify(edits)} → ${raw.slice(0, 120)}`)
        if (reply.error === undefined) expect(raw, 'only the original envelope can be admitted').to.equal(template)
      }),
      settings(0x5eed22, 400),
    )
    // The sender's pending nonce moved only if the untouched original was among the mutants.
    expect(await rpc(url, 'eth_getTransactionCount', [sender, 'pending'])).to.equal(admitted.has(keccak256(template)) ? '0x1' : '0x0')
    expect(await rpc(url, 'eth_blockNumber')).to.equal('0x0')
  })

  it('fields replaced by arbitrary bytes, numbers, lists (and the type byte changed), re-signed by the sender → -32000 or a valid admitted transaction that a tick and a seal then include', async () => {
    const fields = unsignedFields(template)
    const privateKey = chain.accounts[5].privateKey
    const cases = fc.record({ index: fc.integer({ min: 0, max: EIP1559_FIELDS.length - 1 }), value: fieldValues, type: fc.constantFrom(2, 2, 2, 1, 4, 0x05) })
    await fc.assert(
      fc.asyncProperty(cases, async ({ index, value, type }) => {
        const changed = fields.map((field, i) => (i === index ? value : field))
        const raw = await signFields(type, changed, privateKey)
        const what = `type ${type}, ${EIP1559_FIELDS[index]} = ${value instanceof Uint8Array ? toHex(value) : JSON.stringify(value)}`
        const reply = await sendAndCheck(raw, what)
        if (reply.error === undefined) {
          const found = (await rpc(url, 'eth_getTransactionByHash', [reply.result])) as { from: string; hash: string } | null
          expect(found?.hash, `${what}: admitted transaction found by hash`).to.equal(reply.result)
          expect(found?.from.toLowerCase(), `${what}: signed by the sender`).to.equal(sender.toLowerCase())
        }
      }),
      settings(0x5eed23, 300),
    )
    // Whatever was admitted executes and seals without an internal error.
    await rpc(url, 'preconf_tick')
    expect(await rpc(url, 'evm_mine')).to.equal('0x0')
    const block = (await rpc(url, 'eth_getBlockByNumber', ['latest', true])) as { hash: Hex; transactions: { hash: Hex; from: string }[] }
    for (const transaction of block.transactions) {
      expect(admitted.has(transaction.hash), `${transaction.hash} was admitted`).to.equal(true)
      expect(transaction.from.toLowerCase()).to.equal(sender.toLowerCase())
      const receipt = (await rpc(url, 'eth_getTransactionReceipt', [transaction.hash])) as { blockHash: Hex; status: Hex }
      expect(receipt.blockHash).to.equal(block.hash)
      expect(['0x0', '0x1']).to.include(receipt.status)
    }
    expect(await rpc(url, 'eth_chainId')).to.equal(CHAIN_ID_HEX)
  })
})
