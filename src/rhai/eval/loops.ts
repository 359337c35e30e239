// Loops: `while`, `loop`, `do`, `for`, and the `break`/`continue` that leave them. Each iteration
// counts as one operation. `break`, `continue` and `return` set a signal on the run (frame.ts);
// a loop checks it after each pass of its body.
import { mayMutate } from '../analysis.ts';
import type { Expr, Stmt } from '../ast.ts';
import { cloneValue } from '../copy.ts';
import { tooManyOperations } from '../cost.ts';
import type { Runtime } from '../runtime.ts';
import { makeChar, normInt, RhaiRange, type Cell, type RhaiValue } from '../values.ts';
import { mayBeBorrowed, owned, type Compiler } from './compiler.ts';
import { iterationValues } from './control.ts';
import { localTest, testLocal } from './int-ops.ts';
import { BREAK, CONTINUE, countOp, expectBool, leaveWith, NONE, type Ev } from './frame.ts';

export function compileBreak(c: Compiler, s: Extract<Stmt, { kind: 'break' }>): Ev {
  return leaveWith(BREAK, s.value ? owned(c, s.value) : null);
}

export function compileContinue(): Ev {
  return (env) => {
    env.rt.signal = CONTINUE;
    return undefined;
  };
}

/** After a body left with a signal: true when the loop must stop (break or return). */
function loopExit(rt: Runtime): boolean {
  if (rt.signal === CONTINUE) {
    rt.signal = NONE;
    return false;
  }
  return true;
}

/** The loop's value: what `break` carried (consuming the signal), or () while a `return` goes on. */
function breakValue(rt: Runtime): RhaiValue {
  if (rt.signal === BREAK) {
    const v = rt.signalValue;
    rt.signal = NONE;
    rt.signalValue = undefined;
    return v;
  }
  return undefined; // RETURN keeps propagating
}

/** `while cond { }`, and `loop { }` (no condition). */
export function compileWhile(c: Compiler, e: Extract<Expr, { kind: 'while' }>): Ev {
  const condPos = e.cond?.pos ?? e.pos;
  const body = c.block(e.body);
  const pos = e.pos;
  const test = e.cond ? localTest(c, e.cond) : null;
  const [firstStmt, secondStmt] = e.body;
  if (
    test &&
    firstStmt &&
    secondStmt &&
    e.body.length === 2 &&
    !c.dynAware &&
    e.body.every((s) => s.kind !== 'import')
  ) {
    // A two-statement body (`sum += i; i += 1;`) runs its statements from the loop itself, with the
    // block's own operation count and limit check (at its first statement), one closure call fewer.
    const first = c.block([firstStmt]);
    const second = c.block([secondStmt]);
    const bodyPos = firstStmt.pos;
    return (env) => {
      const rt = env.rt;
      for (;;) {
        if (!expectBool(testLocal(test, env), condPos)) return undefined;
        if (++rt.ops > rt.opLimit) tooManyOperations(pos);
        if ((rt.ops += 2) > rt.opLimit) tooManyOperations(bodyPos);
        first(env);
        if (rt.signal === NONE) second(env);
        if (rt.signal !== NONE && loopExit(rt)) return breakValue(rt);
      }
    };
  }
  if (test) {
    return (env) => {
      for (;;) {
        if (!expectBool(testLocal(test, env), condPos)) return undefined;
        countOp(env.rt, pos);
        body(env);
        if (env.rt.signal !== NONE && loopExit(env.rt)) return breakValue(env.rt);
      }
    };
  }
  const cond = e.cond ? c.expr(e.cond) : null;
  return (env) => {
    for (;;) {
      if (cond && !expectBool(cond(env), condPos)) return undefined;
      countOp(env.rt, pos);
      body(env);
      if (env.rt.signal !== NONE && loopExit(env.rt)) return breakValue(env.rt);
    }
  };
}

/** `do { } while cond` and `do { } until cond`. */
export function compileDo(c: Compiler, e: Extract<Expr, { kind: 'do' }>): Ev {
  const cond = c.expr(e.cond);
  const body = c.block(e.body);
  const until = e.until;
  const pos = e.pos;
  const condPos = e.cond.pos;
  return (env) => {
    for (;;) {
      countOp(env.rt, pos);
      body(env);
      if (env.rt.signal !== NONE && loopExit(env.rt)) return breakValue(env.rt);
      if (expectBool(cond(env), condPos) === until) return undefined;
    }
  };
}

/** `for x in iter { }` and `for (x, i) in iter { }` over a range, an array or a string's chars. */
export function compileFor(c: Compiler, e: Extract<Expr, { kind: 'for' }>): Ev {
  const iter = c.expr(e.iter);
  const fresh = !mayBeBorrowed(c, e.iter);
  const body = c.block(e.body);
  const pos = e.pos;
  const itemSlot = e.item.slot;
  const itemCaptured = e.item.captured;
  // Items are copies in Rhai; when the body never changes the item, sharing it is invisible.
  const copyItems = mayMutate(e.body, e.item);
  const counter = e.counter;
  return (env) => {
    const values = iterationValues(iter(env), fresh, e.iter.pos);
    const slots = env.slots as unknown[];
    // A captured loop variable is one shared cell for the whole loop (as in Rhai).
    const itemCell: Cell | null = itemCaptured ? { value: undefined } : null;
    if (itemCell) slots[itemSlot] = itemCell;
    const counterCell: Cell | null = counter?.captured ? { value: undefined } : null;
    if (counter && counterCell) slots[counter.slot] = counterCell;
    const setItem = (v: RhaiValue, i: number): void => {
      if (itemCell) itemCell.value = v;
      else slots[itemSlot] = v;
      if (counter) {
        if (counterCell) counterCell.value = i;
        else slots[counter.slot] = i;
      }
    };
    if (values instanceof RhaiRange) {
      const step = values.step;
      const { start, end: last } = values;
      if (typeof start === 'number' && typeof last === 'number') {
        const end = values.inclusive ? last + 1 : last;
        for (let x = start, i = 0; step > 0 ? x < end : x > end; x += step, i++) {
          setItem(x, i);
          countOp(env.rt, pos);
          body(env);
          if (env.rt.signal !== NONE && loopExit(env.rt)) return breakValue(env.rt);
        }
        return undefined;
      }
      // An end beyond the safe range (`for x in 5..`): exact i64 steps.
      const end = BigInt(last) + (values.inclusive ? 1n : 0n);
      const by = BigInt(step);
      for (let x = BigInt(start), i = 0; by > 0n ? x < end : x > end; x += by, i++) {
        setItem(normInt(x), i);
        countOp(env.rt, pos);
        body(env);
        if (env.rt.signal !== NONE && loopExit(env.rt)) return breakValue(env.rt);
      }
      return undefined;
    }
    if (typeof values === 'string') {
      // a string's chars, one at a time: nothing is split up front
      for (let u = 0, i = 0; u < values.length; i++) {
        const high = values.charCodeAt(u);
        const width = high >= 0xd800 && high <= 0xdbff && u + 1 < values.length ? 2 : 1;
        setItem(makeChar(values.slice(u, u + width)), i);
        u += width;
        countOp(env.rt, pos);
        body(env);
        if (env.rt.signal !== NONE && loopExit(env.rt)) return breakValue(env.rt);
      }
      return undefined;
    }
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      setItem(copyItems && typeof v === 'object' ? cloneValue(env.rt, v) : v, i);
      countOp(env.rt, pos);
      body(env);
      if (env.rt.signal !== NONE && loopExit(env.rt)) return breakValue(env.rt);
    }
    return undefined;
  };
}
