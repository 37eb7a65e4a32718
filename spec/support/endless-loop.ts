/**
 * Code that runs until its gas is spent, slowly enough per unit of gas that a call of it with the
 * RPC gas cap (50M) outlasts any time box the specs set: each turn STATICCALLs the identity
 * precompile (about 145 gas and a call frame; 50M gas take ~5 s here). `JUMPDEST PUSH1 0 JUMP`
 * alone (12 gas a turn) spends 50M gas in ~0.3 s since the step loop awaits only asynchronous
 * opcodes, which is shorter than some of those boxes.
 *
 * JUMPDEST, PUSH1 0 (retSize), PUSH1 0 (retOffset), PUSH1 0 (argsSize), PUSH1 0 (argsOffset),
 * PUSH1 4 (identity), GAS, STATICCALL, POP, PUSH1 0, JUMP.
 */
export const ENDLESS_LOOP = '0x5b600060006000600060045afa50600056'
