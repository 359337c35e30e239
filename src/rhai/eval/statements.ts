// Statements (src/eval/stmt.rs): statement lists and blocks, `let`/`const`, `if`, `switch`,
// `try`/`catch`, `return` and `throw`. Loops are in loops.ts, assignment in assignment.ts.
import type { Expr, Stmt, SwitchCase } from '../ast.ts';
import { isSystemError, mismatchError, RhaiError, runtimeErrorMessage } from '../errors.ts';
import { displayString } from '../format.ts';
import { tooManyOperations } from '../cost.ts';
import { isInt, RhaiFloat, typeName, type RhaiValue } from '../values.ts';
import { compileAssign, varLValue } from './assignment.ts';
import { moduleNotFound } from './modules.ts';
import { owned, type Compiler } from './compiler.ts';
import { caughtValue, switchValueMatches } from './control.ts';
import { cellsOf, countOp, expectBool, leaveWith, NONE, RETURN, slotsOf, unit, type Ev } from './frame.ts';
import { localTest, testLocal } from './int-ops.ts';
import { compileBreak, compileContinue } from './loops.ts';
import { shadowEvalVariable } from './scope.ts';

/**
 * A statement list. Each statement counts as one operation; the whole block is counted on entry
 * (one limit check instead of one per statement). Short blocks are unrolled. A one-statement
 * block is the statement itself: every loop iteration and call is counted anyway, so a runaway
 * script still hits the limit.
 */
export function compileBlock(c: Compiler, stmts: Stmt[]): Ev {
  const fns = stmts.map((s) => compileStmt(c, s));
  const n = fns.length;
  const [first] = stmts;
  if (n === 0 || !first) return unit;
  const pos = first.pos;
  const [a, b, d] = fns as [Ev, Ev, Ev];
  switch (n) {
    case 1:
      return a;
    case 2:
      return (env) => {
        if ((env.rt.ops += 2) > env.rt.opLimit) tooManyOperations(pos);
        const v = a(env);
        if (env.rt.signal !== NONE) return v;
        return b(env);
      };
    case 3:
      return (env) => {
        if ((env.rt.ops += 3) > env.rt.opLimit) tooManyOperations(pos);
        let v = a(env);
        if (env.rt.signal !== NONE) return v;
        v = b(env);
        if (env.rt.signal !== NONE) return v;
        return d(env);
      };
  }
  return (env) => {
    if ((env.rt.ops += n) > env.rt.opLimit) tooManyOperations(pos);
    let v: RhaiValue;
    for (let i = 0; i < n; i++) {
      v = fns[i]!(env);
      if (env.rt.signal !== NONE) return v;
    }
    return v;
  };
}

function compileStmt(c: Compiler, s: Stmt): Ev {
  switch (s.kind) {
    case 'expr':
      return c.expr(s.expr);
    case 'let':
      return compileLet(c, s);
    case 'assign':
      return compileAssign(c, s);
    case 'break':
      return compileBreak(c, s);
    case 'continue':
      return compileContinue();
    case 'return':
      return leaveWith(RETURN, s.value ? owned(c, s.value) : null);
    case 'throw':
      return compileThrow(c, s);
    case 'try':
      return compileTry(c, s);
    case 'import':
      return compileImport(c, s);
    case 'export':
      return compileExport(c, s);
  }
}

/** `import path as m;`: the module, loaded through the program's resolver, is visible as `m::`. */
function compileImport(c: Compiler, s: Extract<Stmt, { kind: 'import' }>): Ev {
  const path = c.expr(s.path);
  const pathPos = s.path.pos;
  const alias = s.alias ?? '';
  const program = c.program;
  return (env) => {
    const request = path(env);
    if (typeof request !== 'string') throw mismatchError('string', typeName(request), pathPos);
    countOp(env.rt, s.pos);
    if (!program.modules) throw moduleNotFound(request, pathPos, 'this script cannot import modules');
    const module = program.modules.load(env.rt, request, program.id, pathPos);
    env.rt.imports.push({ alias, module });
    return undefined;
  };
}

/** `export x as y;`: in a module's top level, `y` becomes a module variable holding x's final value. */
function compileExport(c: Compiler, s: Extract<Stmt, { kind: 'export' }>): Ev {
  const variable = varLValue(c, s.name, s.ref, s.pos);
  const alias = s.alias;
  return (env) => {
    variable.get(env); // the variable must exist (ErrorVariableNotFound otherwise)
    if (env.exports !== null) env.exports.push({ alias, read: () => variable.get(env) });
    return undefined;
  };
}

/** `let` and `const`; a `const` at the top level (not in a block) is also a `global::` constant. */
function compileLet(c: Compiler, s: Extract<Stmt, { kind: 'let' }>): Ev {
  const init = s.init ? owned(c, s.init) : unit;
  const slot = s.decl.slot;
  const name = s.decl.name;
  const registerGlobal = s.global === true && c.allowGlobals;
  if (c.dynAware) {
    // `eval` may have added a variable of this name: the new one shadows it
    const store = compileStore(init, slot, s.decl.captured, registerGlobal ? name : null);
    const { captured, isConst } = s.decl;
    return (env) => {
      store(env);
      shadowEvalVariable(env, name, slot, captured, isConst);
      return undefined;
    };
  }
  return compileStore(init, slot, s.decl.captured, registerGlobal ? name : null);
}

/** Stores a new variable's value in its slot (a fresh cell when a closure captures it). */
function compileStore(init: Ev, slot: number, captured: boolean, globalName: string | null): Ev {
  const name = globalName ?? '';
  const registerGlobal = globalName !== null;
  if (captured) {
    return (env) => {
      const v = init(env);
      cellsOf(env)[slot] = { value: v };
      if (registerGlobal) env.rt.globals.set(name, v);
      return undefined;
    };
  }
  if (registerGlobal) {
    return (env) => {
      const v = init(env);
      slotsOf(env)[slot] = v;
      env.rt.globals.set(name, v);
      return undefined;
    };
  }
  return (env) => {
    slotsOf(env)[slot] = init(env);
    return undefined;
  };
}

function compileThrow(c: Compiler, s: Extract<Stmt, { kind: 'throw' }>): Ev {
  const pos = s.pos;
  if (s.rethrow) {
    const slot = s.rethrow.slot;
    return (env) => {
      throw slotsOf(env)[slot] as unknown as RhaiError;
    };
  }
  const value = s.value ? owned(c, s.value) : unit;
  return (env) => {
    const v = value(env);
    const err = new RhaiError('ErrorRuntime', runtimeErrorMessage(displayString(v)), pos);
    err.value = v;
    throw err;
  };
}

function compileTry(c: Compiler, s: Extract<Stmt, { kind: 'try' }>): Ev {
  const body = c.block(s.body);
  const handler = c.block(s.handler);
  const hidden = s.hidden.slot;
  const errVar = s.errVar;
  // Stmt::TryCatch: the body's value when it succeeds; () after the catch block.
  return (env) => {
    try {
      return body(env);
    } catch (e) {
      if (!(e instanceof RhaiError) || isSystemError(e)) throw e;
      const slots = slotsOf(env) as unknown[];
      slots[hidden] = e;
      if (errVar) {
        const v = caughtValue(e);
        slots[errVar.slot] = errVar.captured ? { value: v } : v;
      }
      handler(env);
    }
    return undefined;
  };
}

export function compileIf(c: Compiler, e: Extract<Expr, { kind: 'if' }>): Ev {
  const then = c.block(e.then);
  const els = e.else ? c.block(e.else) : unit;
  const pos = e.cond.pos;
  const test = localTest(c, e.cond);
  if (test) {
    return (env) => {
      const v = testLocal(test, env);
      if (v === true) return then(env);
      if (v === false) return els(env);
      throw mismatchError('bool', typeName(v), pos);
    };
  }
  const cond = c.expr(e.cond);
  return (env) => {
    const v = cond(env);
    if (v === true) return then(env);
    if (v === false) return els(env);
    throw mismatchError('bool', typeName(v), pos);
  };
}

/**
 * `switch` as Rhai's Stmt::Switch runs it: first the cases whose values equal the subject (by type
 * and value, in order), then the ranges holding an INT or FLOAT subject (in order), each only when
 * its guard holds; else the default case.
 */
export function compileSwitch(c: Compiler, e: Extract<Expr, { kind: 'switch' }>): Ev {
  const subject = c.expr(e.subject);
  const cases = e.cases.map((sc: SwitchCase) => ({
    values: sc.values,
    guard: sc.guard ? c.expr(sc.guard) : null,
    body: c.expr(sc.body),
    guardPos: sc.guard?.pos,
  }));
  const ranges = e.cases.flatMap((sc, i) => sc.ranges.map((range) => ({ range, use: cases[i]! })));
  const dflt = e.defaultCase ? c.expr(e.defaultCase) : unit;
  return (env) => {
    const v = subject(env);
    const t = typeName(v);
    for (const sc of cases) {
      if (!switchValueMatches(sc.values, t, v)) continue;
      if (!sc.guard || expectBool(sc.guard(env), sc.guardPos!)) return sc.body(env);
    }
    const n = isInt(v) ? v : v instanceof RhaiFloat ? v.v : undefined;
    if (n !== undefined) {
      for (const { range: r, use } of ranges) {
        if (n < r.start || (r.inclusive ? n > r.end : n >= r.end)) continue;
        if (!use.guard || expectBool(use.guard(env), use.guardPos!)) return use.body(env);
      }
    }
    return dflt(env);
  };
}
