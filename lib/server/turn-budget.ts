/**
 * Ticks first, under any load: how much request handling one turn of the event loop may do.
 * However many sockets become readable together, their requests are handled at once only while
 * the turn has budget ({@link TURN_BUDGET_MS}); the others wait, in arrival order (every other
 * request before transaction submissions), and are resumed one macrotask each in the turns
 * after, again within a budget per turn. So a turn stays short, and the realtime clock's timers —
 * pre-confirmation ticks and seals, which go before every queued mutation (clock/serializer.ts) —
 * fire on time between turns: an overloaded node slows its admissions down rather than its clock
 * or its answers. What a request awaits (a mutation in the serializer, a paced call) is not held
 * here: only the work up to there counts.
 */

/** Request handling one turn of the event loop may do before the rest waits for a later turn (ms). */
export const TURN_BUDGET_MS = 4

/** What a request is, for the order in which waiting ones resume: a transaction submission, or anything else. */
export type RequestKind = 'submission' | 'other'

/** When the current turn's budget started (the first request that asked in it), undefined until one asks. */
let turnStart: number | undefined

/** Requests waiting for their turn, oldest first: every other request before the submissions (back-pressure on admission, not on answers). */
const waiting: Record<RequestKind, (() => void)[]> = { other: [], submission: [] }

function endTurn(): void {
  turnStart = undefined
}

/** Whether this turn still has budget; the first call of a turn starts its clock, which runs until the loop's next check phase. */
function withinBudget(): boolean {
  const now = performance.now()
  if (turnStart === undefined) {
    turnStart = now
    setImmediate(endTurn)
  }
  return now - turnStart < TURN_BUDGET_MS
}

/**
 * One macrotask per waiting request: resumes the oldest if the turn has budget (Node runs the
 * microtasks it queues before the next macrotask, so its work is counted), else tries again in
 * the next turn.
 */
function resumeOldest(): void {
  if (withinBudget()) (waiting.other.shift() ?? waiting.submission.shift())!()
  else setImmediate(resumeOldest)
}

/**
 * Undefined if the caller may handle its request (of `kind`) now; else a promise resolved when
 * its turn comes: after the requests of its kind already waiting, and a submission after every
 * other request waiting.
 */
export function turn(kind: RequestKind): Promise<void> | undefined {
  const ahead = kind === 'other' ? waiting.other.length : waiting.other.length + waiting.submission.length
  if (ahead === 0 && withinBudget()) return undefined
  return new Promise((resolve) => {
    waiting[kind].push(resolve)
    setImmediate(resumeOldest)
  })
}
