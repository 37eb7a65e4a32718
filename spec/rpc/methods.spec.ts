import { readFileSync } from 'node:fs'
import { expect } from 'chai'
import { methods, subscriptionMethods } from '../../lib/rpc/methods.ts'

/** The method names the README's "JSON-RPC methods" section lists (each in backticks). */
function readmeMethods(): Set<string> {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')
  const start = readme.indexOf('## JSON-RPC methods')
  const end = readme.indexOf('\n## ', start + 1)
  expect(start, 'README.md has a "JSON-RPC methods" section').to.be.greaterThan(-1)
  const section = readme.slice(start, end)
  // A method cell: `name` or `name [params]`, the name prefixed by its namespace.
  const names = [...section.matchAll(/`((?:eth|net|web3|debug|trace|txpool|personal|evm|anvil|hardhat|tenderly|preconf|service|base|ots|erigon)_\w+)(?: [^`]*)?`/g)].map((match) => match[1])
  return new Set(names)
}

describe('methods: the method table', () => {
  const served = new Set([...Object.keys(methods), ...Object.keys(subscriptionMethods)])
  const listed = readmeMethods()

  it('the README lists every method the devnet serves', () => {
    const missing = [...served].filter((name) => !listed.has(name))
    expect(missing, 'served but not in README.md').to.deep.equal([])
  })

  it('the README lists no method the devnet does not serve', () => {
    const unknown = [...listed].filter((name) => !served.has(name))
    expect(unknown, 'in README.md but not served').to.deep.equal([])
  })
})
