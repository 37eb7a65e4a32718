/**
 * Go's time.ParseDuration, which geth applies to a trace config's `timeout`: the forms it takes
 * and the texts of its errors (go/src/time/format.go), which geth returns as they are.
 */
import { expect } from 'chai'
import { RPCError } from '../../lib/errors.ts'
import { parseGoDuration } from '../../lib/rpc/go-duration.ts'

function failure(text: string): [number, string] {
  try {
    parseGoDuration(text)
  } catch (error) {
    expect(error).to.be.instanceOf(RPCError)
    return [(error as RPCError).code, (error as RPCError).message]
  }
  throw new Error(`${text} parsed`)
}

describe('parseGoDuration (Go time.ParseDuration)', () => {
  it('takes every unit, fractions, sequences and a sign', () => {
    const cases: Array<[string, number]> = [
      ['0', 0], ['5s', 5000], ['300ms', 300], ['1.5s', 1500], ['.5s', 500], ['1.s', 1000], ['2h45m', 9_900_000],
      ['1m30s', 90_000], ['1500us', 1.5], ['1500µs', 1.5], ['1500μs', 1.5], ['2000000ns', 2], ['-1s', -1000], ['+10s', 10_000], ['0s', 0],
    ]
    for (const [text, ms] of cases) expect(parseGoDuration(text), text).to.equal(ms)
  })

  it("refuses what Go refuses, with Go's texts (geth: -32000)", () => {
    expect(failure('')).to.deep.equal([-32000, 'time: invalid duration ""'])
    expect(failure('abc')).to.deep.equal([-32000, 'time: invalid duration "abc"'])
    expect(failure('-')).to.deep.equal([-32000, 'time: invalid duration "-"'])
    expect(failure('.s')).to.deep.equal([-32000, 'time: invalid duration ".s"'])
    expect(failure('5')).to.deep.equal([-32000, 'time: missing unit in duration "5"'])
    expect(failure('1s5')).to.deep.equal([-32000, 'time: missing unit in duration "1s5"'])
    expect(failure('5x')).to.deep.equal([-32000, 'time: unknown unit "x" in duration "5x"'])
    expect(failure('10 s')).to.deep.equal([-32000, 'time: unknown unit " s" in duration "10 s"'])
    expect(failure('3000000h')).to.deep.equal([-32000, 'time: invalid duration "3000000h"'])
  })
})
