// The evaluator (src/eval/*.rs): a script's AST compiled once into a tree of JS closures, so
// running never re-inspects node kinds; integers stay JS numbers until they leave the safe range.
// Statements and expressions compile here; calls, property/index access and control-flow helpers
// live beside it in eval/.
import { mayMutate } from '../analysis.ts';
import type { Expr, Script, Stmt, SwitchCase, VarRef } from '../ast.ts';
import {
  assignmentToConstant, dotExprError, fnNotFound, isSystemError, mismatchError, RhaiError,
  runtimeErrorMessage, variableNotFound, type Pos,
} from '../errors.ts';
import { debugString, displayString } from '../format.ts';
import { assignOp, binaryOp, compareOp, containsOp, negate, valuesEqual } from '../ops.ts';
import { isNonPureCall, NATIVE_FUNCTIONS, type NativeFn } from '../packages/index.ts';
import { checkArray, checkMap, checkNestedSizes, concatText, tooManyOperations, type Runtime } from '../runtime.ts';
import { FnPtr, isInt, RhaiRange, typeName, type Cell, type RhaiMap, type RhaiValue } from '../values.ts';
import { cloneValue } from '../copy.ts';
import { readIndex, readProp, writeIndex } from './access.ts';
import { callFnPtr, callNative, invoke, nativeContext, runFrame } from './calls.ts';
import { asRhaiError, caughtValue, iterationValues, switchValueMatches } from './control.ts';
import {
  BREAK, cellsOf, CONTINUE, countOp, Env, expectBool, makeCompiledFn, NONE, RETURN, signature,
  slotsOf, unit, type Change, type CompiledFn, type Ev, type LValue,
} from './frame.ts';

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
/** A fast path's "no answer, take the general path". */
const MISS: unique symbol = Symbol('miss');
/** The frame slot of a plain (not captured) local variable, if `e` is one. */
function localSlot(e: Expr): number | undefined {
  return e.kind === 'var' && e.ref?.kind === 'local' && !e.ref.decl.captured ? e.ref.decl.slot : undefined;
}

export class Program {
  readonly fns = new Map<string, CompiledFn>();
  /** The most parameters any script function of each name takes (read on every callback call). */
  readonly maxArity = new Map<string, number>();
  readonly main: Ev;
  readonly mainSlots: number;

  constructor(script: Script) {
    for (const def of script.functions) {
      const fn = makeCompiledFn(def);
      this.fns.set(`${def.name}/${def.params.length}`, fn);
      this.maxArity.set(def.name, Math.max(fn.arity, this.maxArity.get(def.name) ?? 0));
    }
    for (const fn of this.fns.values()) fn.body = new Compiler(this, true).block(fn.def.body);
    this.main = new Compiler(this, false).block(script.body);
    this.mainSlots = script.slotCount;
  }

  /** Runs the top-level statements. */
  runMain(runtime: Runtime): RhaiValue {
    return this.enter(runtime, () => {
      const env = new Env(this.mainSlots, null, runtime);
      let v = this.main(env);
      if (runtime.signal === RETURN) v = runtime.signalValue;
      return v;
    });
  }

  callFunction(runtime: Runtime, name: string, args: RhaiValue[]): RhaiValue {
    return this.enter(runtime, () => {
      const fn = this.fns.get(`${name}/${args.length}`);
      if (!fn) throw fnNotFound(signature(name, args));
      return invoke(runtime, fn, args, null, false, undefined, false, fn.def.pos);
    });
  }

  /** Hands `runtime` this program and the native-call context for it, then runs `body`. */
  private enter<T>(runtime: Runtime, body: () => T): T {
    runtime.program = this;
    runtime.native = nativeContext(runtime);
    try {
      return body();
    } catch (e) {
      if (e instanceof RhaiError && e.kind === 'ErrorExit') return e.value as T; // `exit(value)`
      throw asRhaiError(e);
    } finally {
      runtime.signal = NONE;
      runtime.signalValue = undefined;
    }
  }
}

/** Expressions whose value may be shared with a variable or container, so storing it copies it. */
function mayBeBorrowed(e: Expr, program: Program): boolean {
  switch (e.kind) {
    case 'literal': case 'array': case 'map': case 'interpolation': case 'binary': case 'unary': case 'closure': return false;
    case 'call': return program.maxArity.has(e.name) || e.name === 'call';
    case 'method': return program.maxArity.has(e.name) || e.name === 'call' || !NATIVE_FUNCTIONS.has(e.name);
    default: return true;
  }
}

function isLiteralContainer(e: Expr): boolean {
  if (e.kind === 'literal') return true;
  if (e.kind === 'array') return e.items.every(isLiteralContainer);
  if (e.kind === 'map') return e.entries.every(([, v]) => isLiteralContainer(v));
  return false;
}

class Compiler {
  constructor(private readonly program: Program, private readonly inFunction: boolean) {}

  /**
   * A statement list. Each statement counts as one operation; the whole block is counted on entry
   * (one limit check instead of one per statement). Short blocks are unrolled. A one-statement
   * block is the statement itself: every loop iteration and call is counted anyway, so a runaway
   * script still hits the limit.
   */
  block(stmts: Stmt[]): Ev {
    const fns = stmts.map((s) => this.stmt(s));
    const n = fns.length;
    if (n === 0) return unit;
    const pos = stmts[0]!.pos;
    const [a, b, c] = fns as [Ev, Ev, Ev];
    switch (n) {
      case 1: return a;
      case 2: return (env) => {
        if ((env.rt.ops += 2) > env.rt.opLimit) tooManyOperations(pos);
        const v = a(env);
        if (env.rt.signal !== NONE) return v;
        return b(env);
      };
      case 3: return (env) => {
        if ((env.rt.ops += 3) > env.rt.opLimit) tooManyOperations(pos);
        let v = a(env);
        if (env.rt.signal !== NONE) return v;
        v = b(env);
        if (env.rt.signal !== NONE) return v;
        return c(env);
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

  /** Compiles `e`, copying the value when it may be shared (for storing it somewhere). */
  private owned(e: Expr): Ev {
    const f = this.expr(e);
    if (!mayBeBorrowed(e, this.program)) return f;
    return (env) => {
      const v = f(env);
      return typeof v === 'object' ? cloneValue(env.rt, v) : v;
    };
  }

  // ---------------------------------------------------------------- statements

  private stmt(s: Stmt): Ev {
    switch (s.kind) {
      case 'expr': return this.expr(s.expr);
      case 'let': return this.letStmt(s);
      case 'assign': return this.assign(s);
      case 'break': return this.signal(BREAK, s.value);
      case 'continue': return (env) => { env.rt.signal = CONTINUE; return undefined; };
      case 'return': return this.signal(RETURN, s.value);
      case 'throw': return this.throwStmt(s);
      case 'try': return this.tryStmt(s);
    }
  }

  /** `break` or `return`, with the value they carry out. */
  private signal(signal: typeof BREAK | typeof RETURN, valueExpr: Expr | null): Ev {
    const value = valueExpr ? this.owned(valueExpr) : null;
    return (env) => {
      env.rt.signalValue = value ? value(env) : undefined;
      env.rt.signal = signal;
      return undefined;
    };
  }

  private letStmt(s: Extract<Stmt, { kind: 'let' }>): Ev {
    const init = s.init ? this.owned(s.init) : unit;
    const slot = s.decl.slot;
    const name = s.decl.name;
    const registerGlobal = s.decl.isConst && !this.inFunction;
    if (s.decl.captured) {
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

  private assign(s: Extract<Stmt, { kind: 'assign' }>): Ev {
    // Compound assignment copies what it keeps itself (assignOp), so only `=` needs an owned value.
    const value = s.op === '=' ? this.owned(s.value) : this.expr(s.value);
    const pos = s.pos;
    const target = s.target;
    // Fast path: a plain local variable.
    const slot = localSlot(target);
    if (slot !== undefined) {
      if (s.op === '=') return (env) => { slotsOf(env)[slot] = value(env); return undefined; };
      const op = s.op.slice(0, -1);
      if (op === '+' || op === '-') {
        const plus = op === '+';
        const vs = localSlot(s.value);
        const vc = s.value.kind === 'literal' && typeof s.value.value === 'number' ? s.value.value : undefined;
        const apply = (env: Env, slots: RhaiValue[], a: RhaiValue, b: RhaiValue): undefined => {
          if (typeof a === 'number' && typeof b === 'number') {
            const r = plus ? a + b : a - b;
            if (r <= MAX_SAFE && r >= -MAX_SAFE) { slots[slot] = r; return undefined; }
          } else if (plus && typeof a === 'string' && typeof b === 'string') {
            slots[slot] = concatText(env.rt, a, b, pos);
            return undefined;
          }
          slots[slot] = assignOp(env.rt, op, a, b, pos);
          return undefined;
        };
        if (vc !== undefined) return (env) => { const slots = slotsOf(env); return apply(env, slots, slots[slot], vc); };
        if (vs !== undefined) return (env) => { const slots = slotsOf(env); return apply(env, slots, slots[slot], slots[vs]); };
        return (env) => {
          const b = value(env);
          const slots = slotsOf(env);
          return apply(env, slots, slots[slot], b);
        };
      }
    }
    const lv = this.lvalue(target);
    if (s.op === '=') return (env) => { lv.set(env, value(env)); return undefined; };
    if (s.op === '??=') {
      // The right side is evaluated only when the target is ().
      const fill: Change<Ev> = (old, ev, env) => (old === undefined ? ev(env) : old);
      return (env) => {
        lv.update(env, fill, value);
        return undefined;
      };
    }
    const op = s.op.slice(0, -1);
    const combine: Change<RhaiValue> = (a, b, env) => assignOp(env.rt, op, a, b, pos);
    return (env) => {
      lv.update(env, combine, value(env));
      return undefined;
    };
  }

  private throwStmt(s: Extract<Stmt, { kind: 'throw' }>): Ev {
    const pos = s.pos;
    if (s.rethrow) {
      const slot = s.rethrow.slot;
      return (env) => { throw slotsOf(env)[slot] as unknown as RhaiError; };
    }
    const value = s.value ? this.owned(s.value) : unit;
    return (env) => {
      const v = value(env);
      const err = new RhaiError('ErrorRuntime', runtimeErrorMessage(displayString(v)), pos);
      err.value = v;
      throw err;
    };
  }

  private tryStmt(s: Extract<Stmt, { kind: 'try' }>): Ev {
    const body = this.block(s.body);
    const handler = this.block(s.handler);
    const hidden = s.hidden.slot;
    const errVar = s.errVar;
    return (env) => {
      try {
        body(env);
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

  // ---------------------------------------------------------------- lvalues

  private lvalue(e: Expr): LValue {
    const pos = e.pos;
    switch (e.kind) {
      case 'var': return this.varLValue(e.name, e.ref, pos);
      case 'this': {
        const thisLv: LValue = {
          get: (env) => {
            if (!env.hasThis) throw new RhaiError('ErrorUnboundThis', "'this' not bound", pos);
            return env.thisVal;
          },
          set: (env, v) => {
            if (!env.hasThis) throw new RhaiError('ErrorUnboundThis', "'this' not bound", pos);
            if (env.thisConst) throw assignmentToConstant('this', pos);
            env.thisVal = v;
          },
          isConst: (env) => env.thisConst,
          update: (env, change, arg) => { thisLv.set(env, change(thisLv.get(env), arg, env)); },
        };
        return thisLv;
      }
      case 'property': {
        const parent = this.lvalue(e.target);
        const name = e.name;
        const safe = e.safe;
        const setOn = (env: Env, obj: RhaiValue, v: RhaiValue): void => {
          if (!(obj instanceof Map)) {
            throw dotExprError(name, `Cannot set property '${name}' - a setter is not registered for type '${typeName(obj)}'`, pos);
          }
          if (parent.isConst(env)) throw assignmentToConstant('', pos);
          obj.set(name, v);
          checkMap(env.rt, obj, pos);
        };
        return {
          get: (env) => readProp(env.rt, parent.get(env), name, safe, pos),
          set: (env, v) => setOn(env, parent.get(env), v),
          update: (env, change, arg) => {
            const obj = parent.get(env);
            setOn(env, obj, change(readProp(env.rt, obj, name, safe, pos), arg, env));
          },
          isConst: parent.isConst,
        };
      }
      case 'index': {
        const parent = this.lvalue(e.target);
        const index = this.expr(e.index);
        const safe = e.safe;
        return {
          get: (env) => readIndex(env.rt, parent.get(env), index(env), safe, pos),
          set: (env, v) => {
            const obj = parent.get(env);
            if (parent.isConst(env)) throw assignmentToConstant('', pos);
            writeIndex(env, parent, obj, index(env), v, pos);
          },
          update: (env, change, arg) => {
            const obj = parent.get(env);
            const i = index(env);
            const v = change(readIndex(env.rt, obj, i, safe, pos), arg, env);
            if (parent.isConst(env)) throw assignmentToConstant('', pos);
            writeIndex(env, parent, obj, i, v, pos);
          },
          isConst: parent.isConst,
        };
      }
      default: {
        const get = this.expr(e);
        return { get, set: () => {}, update: () => {}, isConst: () => false };
      }
    }
  }

  private varLValue(name: string, ref: VarRef | null, pos: Pos): LValue {
    const notFound = (): never => { throw variableNotFound(name, pos); };
    const withUpdate = (lv: Omit<LValue, 'update'>): LValue => ({
      ...lv,
      update: (env, change, arg) => lv.set(env, change(lv.get(env), arg, env)),
    });
    if (!ref) return withUpdate({ get: notFound, set: notFound, isConst: () => false });
    if (ref.kind === 'capture') {
      const k = ref.index;
      return withUpdate({ get: (env) => env.caps![k]!.value, set: (env, v) => { env.caps![k]!.value = v; }, isConst: () => false });
    }
    const slot = ref.decl.slot;
    const isConst = ref.decl.isConst;
    if (ref.decl.captured) {
      return withUpdate({ get: (env) => cellsOf(env)[slot]!.value, set: (env, v) => { cellsOf(env)[slot]!.value = v; }, isConst: () => isConst });
    }
    return withUpdate({ get: (env) => slotsOf(env)[slot], set: (env, v) => { slotsOf(env)[slot] = v; }, isConst: () => isConst });
  }

  // ---------------------------------------------------------------- expressions

  expr(e: Expr): Ev {
    const pos = e.pos;
    switch (e.kind) {
      case 'literal': { const v = e.value; return () => v; }
      case 'var': return this.varLValue(e.name, e.ref, pos).get;
      case 'this': return this.lvalue(e).get;
      case 'global': {
        const name = e.name;
        return (env) => {
          if (!env.rt.globals.has(name)) throw variableNotFound(`global::${name}`, pos);
          return env.rt.globals.get(name);
        };
      }
      case 'array': {
        const items = e.items.map((x) => this.owned(x));
        return (env) => {
          const out = new Array<RhaiValue>(items.length);
          let nested = false;
          for (let i = 0; i < items.length; i++) {
            const item = items[i]!(env);
            out[i] = item;
            if (typeof item === 'object') nested = true;
          }
          if (nested) checkNestedSizes(env.rt, out, pos);
          else checkArray(env.rt, out, pos);
          return out;
        };
      }
      case 'map': {
        const entries = e.entries.map(([k, v]) => [k, this.owned(v)] as const);
        return (env) => {
          const out: RhaiMap = new Map();
          let nested = false;
          for (const [k, v] of entries) {
            const item = v(env);
            out.set(k, item);
            if (typeof item === 'object') nested = true;
          }
          if (nested) checkNestedSizes(env.rt, out, pos);
          else checkMap(env.rt, out, pos);
          return out;
        };
      }
      case 'interpolation': return this.interp(e);
      case 'unary': return this.unary(e);
      case 'binary': return this.binary(e);
      case 'property': {
        const target = this.expr(e.target);
        const name = e.name;
        const safe = e.safe;
        return (env) => readProp(env.rt, target(env), name, safe, pos);
      }
      case 'index': {
        const target = this.expr(e.target);
        const index = this.expr(e.index);
        const safe = e.safe;
        return (env) => {
          const obj = target(env);
          if (obj === undefined && safe) return undefined;
          return readIndex(env.rt, obj, index(env), safe, pos);
        };
      }
      case 'call': return this.call(e);
      case 'method': return this.method(e);
      case 'closure': return this.closure(e);
      case 'block': return this.block(e.body);
      case 'if': return this.ifExpr(e);
      case 'switch': return this.switchExpr(e);
      case 'while': return this.whileExpr(e);
      case 'do': return this.doExpr(e);
      case 'for': return this.forExpr(e);
    }
  }

  private interp(e: Extract<Expr, { kind: 'interpolation' }>): Ev {
    const parts = e.parts.map((p): Ev => {
      if (typeof p === 'string') return () => p;
      const f = this.expr(p);
      // Rhai's optimizer folds a literal array or map with its Debug form (chars keep quotes).
      if ((p.kind === 'array' || p.kind === 'map') && isLiteralContainer(p)) return (env) => debugString(f(env));
      return (env) => {
        const v = f(env);
        return typeof v === 'string' ? v : displayString(v);
      };
    });
    const pos = e.pos;
    return (env) => {
      let s = '';
      for (let i = 0; i < parts.length; i++) s = concatText(env.rt, s, parts[i]!(env) as string, pos);
      return s;
    };
  }

  private unary(e: Extract<Expr, { kind: 'unary' }>): Ev {
    const f = this.expr(e.operand);
    const pos = e.pos;
    switch (e.op) {
      case '-': return (env) => negate(f(env), pos);
      case '+': return (env) => {
        const v = f(env);
        if (isInt(v) || v instanceof Object && typeName(v) === 'f64') return v;
        throw fnNotFound(`+ (${typeName(v)})`, pos);
      };
      default: return (env) => {
        const v = f(env);
        if (typeof v === 'boolean') return !v;
        throw fnNotFound(`! (${typeName(v)})`, pos);
      };
    }
  }

  private binary(e: Extract<Expr, { kind: 'binary' }>): Ev {
    const L = this.expr(e.left);
    const R = this.expr(e.right);
    const pos = e.pos;
    const op = e.op;
    switch (op) {
      case '&&': return (env) => expectBool(L(env), e.left.pos) && expectBool(R(env), e.right.pos);
      case '||': return (env) => expectBool(L(env), e.left.pos) || expectBool(R(env), e.right.pos);
      case '??': return (env) => { const a = L(env); return a === undefined ? R(env) : a; };
      case 'in': return (env) => { const a = L(env); return containsOp(R(env), a, pos); };
      case '!in': return (env) => { const a = L(env); return !containsOp(R(env), a, pos); };
      case '..': case '..=': {
        const inclusive = op === '..=';
        return (env) => {
          const a = L(env);
          const b = R(env);
          if (typeof a !== 'number' || typeof b !== 'number') throw fnNotFound(`${op} (${typeName(a)}, ${typeName(b)})`, pos);
          return new RhaiRange(a, b, inclusive);
        };
      }
      case '==': return this.numeric(e, L, R, (a, b) => a === b, (a, b) => valuesEqual(a, b));
      case '!=': return this.numeric(e, L, R, (a, b) => a !== b, (a, b) => !valuesEqual(a, b));
      case '<': return this.numeric(e, L, R, (a, b) => a < b, (a, b) => compareOp(op, a, b, pos));
      case '<=': return this.numeric(e, L, R, (a, b) => a <= b, (a, b) => compareOp(op, a, b, pos));
      case '>': return this.numeric(e, L, R, (a, b) => a > b, (a, b) => compareOp(op, a, b, pos));
      case '>=': return this.numeric(e, L, R, (a, b) => a >= b, (a, b) => compareOp(op, a, b, pos));
      case '+': return this.numeric(e, L, R, (a, b) => {
        const r = a + b;
        return r <= MAX_SAFE && r >= -MAX_SAFE ? r : MISS;
      }, (a, b, rt) => {
        if (typeof a !== 'string' || typeof b !== 'string') return binaryOp(rt, op, a, b, pos);
        return concatText(rt, a, b, pos);
      });
      case '-': return this.numeric(e, L, R, (a, b) => {
        const r = a - b;
        return r <= MAX_SAFE && r >= -MAX_SAFE ? r : MISS;
      }, (a, b, rt) => binaryOp(rt, op, a, b, pos));
      case '*': return this.numeric(e, L, R, (a, b) => {
        const r = a * b;
        return r <= MAX_SAFE && r >= -MAX_SAFE ? (r === 0 ? 0 : r) : MISS;
      }, (a, b, rt) => binaryOp(rt, op, a, b, pos));
      case '%': return this.numeric(e, L, R, (a, b) => (b === 0 ? MISS : a % b === 0 ? 0 : a % b), (a, b, rt) => binaryOp(rt, op, a, b, pos));
      default: return (env) => {
        const a = L(env);
        return binaryOp(env.rt, op, a, R(env), pos);
      };
    }
  }

  /**
   * A binary operator with a fast path for two INTs held as JS numbers. `fast` returns MISS when
   * the exact result needs the general path (overflow, BigInt). Local variables and literal
   * operands are read inline rather than through another closure.
   */
  private numeric(
    e: Extract<Expr, { kind: 'binary' }>, L: Ev, R: Ev,
    fast: (a: number, b: number) => RhaiValue | typeof MISS,
    slow: (a: RhaiValue, b: RhaiValue, rt: Runtime) => RhaiValue,
  ): Ev {
    const ls = localSlot(e.left);
    const rs = localSlot(e.right);
    const rc = e.right.kind === 'literal' && typeof e.right.value === 'number' ? e.right.value : undefined;
    if (ls !== undefined && rc !== undefined) {
      return (env) => {
        const a = slotsOf(env)[ls];
        if (typeof a === 'number') { const r = fast(a, rc); if (r !== MISS) return r; }
        return slow(a, rc, env.rt);
      };
    }
    if (ls !== undefined && rs !== undefined) {
      return (env) => {
        const slots = slotsOf(env);
        const a = slots[ls];
        const b = slots[rs];
        if (typeof a === 'number' && typeof b === 'number') { const r = fast(a, b); if (r !== MISS) return r; }
        return slow(a, b, env.rt);
      };
    }
    if (rc !== undefined) {
      return (env) => {
        const a = L(env);
        if (typeof a === 'number') { const r = fast(a, rc); if (r !== MISS) return r; }
        return slow(a, rc, env.rt);
      };
    }
    return (env) => {
      const a = L(env);
      const b = R(env);
      if (typeof a === 'number' && typeof b === 'number') { const r = fast(a, b); if (r !== MISS) return r; }
      return slow(a, b, env.rt);
    };
  }

  private args(args: Expr[]): Ev[] {
    return args.map((a) => this.owned(a));
  }

  private call(e: Extract<Expr, { kind: 'call' }>): Ev {
    const pos = e.pos;
    const name = e.name;
    if (name === 'is_def_var' && e.args.length === 1) {
      const arg = this.expr(e.args[0]!);
      const visible = new Set(e.visibleVars);
      return (env) => {
        const v = arg(env);
        if (typeof v !== 'string') throw fnNotFound(`is_def_var (${typeName(v)})`, pos);
        return visible.has(v);
      };
    }
    const sfn = this.program.fns.get(`${name}/${e.args.length}`);
    if (sfn) return this.scriptCall(sfn, this.args(e.args), pos);
    const native = NATIVE_FUNCTIONS.get(name);
    if (!native) {
      const args = this.args(e.args);
      return (env) => { throw fnNotFound(signature(name, args.map((a) => a(env))), pos); };
    }
    // A native function receives a plain variable (or `this`) as its first argument by reference,
    // as in Rhai (fn_call.rs: "func(x, ...) -> x.func(...)"), so `push(a, 1)` changes `a`. A
    // constant is passed as a copy instead, so it silently stays unchanged.
    const first = e.args[0];
    const firstLv = first && (first.kind === 'var' || first.kind === 'this') ? this.lvalue(first) : null;
    const rest = e.args.map((a, i) => (i === 0 && firstLv ? firstLv.get : this.owned(a)));
    return (env) => {
      const args = new Array<RhaiValue>(rest.length);
      for (let i = 0; i < rest.length; i++) args[i] = rest[i]!(env);
      if (env.rt.signal !== NONE) return undefined;
      const byRef = firstLv !== null && !firstLv.isConst(env);
      if (firstLv && !byRef) args[0] = cloneValue(env.rt, args[0]);
      const before = args[0];
      const r = callNative(env.rt, native, name, args, pos);
      if (byRef && args[0] !== before) firstLv.set(env, args[0]);
      return r;
    };
  }

  private scriptCall(fn: CompiledFn, args: Ev[], pos: Pos): Ev {
    switch (args.length) {
      case 0: return (env) => invoke(env.rt, fn, [], null, false, undefined, false, pos);
      case 2: {
        const a0 = args[0]!;
        const a1 = args[1]!;
        return (env) => {
          const x = a0(env);
          const y = a1(env);
          if (env.rt.signal !== NONE) return undefined;
          return invoke(env.rt, fn, [x, y], null, false, undefined, false, pos);
        };
      }
      case 1: {
        const a0 = args[0]!;
        const p0 = fn.paramSlots[0]!;
        const boxed = fn.paramCaptured[0]!;
        return (env) => {
          const frame = new Env(fn.slotCount, null, env.rt);
          const v = a0(env);
          if (env.rt.signal !== NONE) return undefined; // a `return`/`break` inside the argument
          frame.slots[p0] = boxed ? { value: v } : v;
          return runFrame(fn, frame, pos);
        };
      }
      default: return (env) => {
        const argv = new Array<RhaiValue>(args.length);
        for (let i = 0; i < args.length; i++) argv[i] = args[i]!(env);
        if (env.rt.signal !== NONE) return undefined;
        return invoke(env.rt, fn, argv, null, false, undefined, false, pos);
      };
    }
  }

  /** `obj.name(...)` on a native function: `full` holds the target then the arguments. */
  private nativeMethod(env: Env, native: NativeFn, name: string, full: RhaiValue[], target: LValue, pos: Pos): RhaiValue {
    const obj = full[0];
    if (isNonPureCall(name, obj) && target.isConst(env)) {
      throw new RhaiError('ErrorNonPureMethodCallOnConstant', `Non-pure method '${name}' cannot be called on constant`, pos);
    }
    const r = callNative(env.rt, native, name, full, pos);
    if (full[0] !== obj) target.set(env, full[0]);
    return r;
  }

  private method(e: Extract<Expr, { kind: 'method' }>): Ev {
    const pos = e.pos;
    const name = e.name;
    const target = e.target.kind === 'var' || e.target.kind === 'this' || e.target.kind === 'property' || e.target.kind === 'index'
      ? this.lvalue(e.target)
      : { get: this.owned(e.target), set: () => {}, update: () => {}, isConst: () => false }; // a temporary
    const args = this.args(e.args);
    const argc = args.length;
    const sfn = this.program.fns.get(`${name}/${argc}`);
    const native = NATIVE_FUNCTIONS.get(name);
    const safe = e.safe;
    return (env) => {
      const obj = target.get(env);
      if (obj === undefined && safe) return undefined;
      // The target and the arguments in one array, as a native function takes them.
      const full = new Array<RhaiValue>(argc + 1);
      full[0] = obj;
      for (let i = 0; i < argc; i++) full[i + 1] = args[i]!(env);
      if (env.rt.signal !== NONE) return undefined;
      if (native && !sfn && !(obj instanceof Map) && name !== 'call') return this.nativeMethod(env, native, name, full, target, pos);
      const argv = full.slice(1);
      // `x.call(fp, ...)`: call the pointer with `this` bound to x.
      if (name === 'call' && !(obj instanceof FnPtr) && argv[0] instanceof FnPtr) {
        const ref = { value: obj, isConst: target.isConst(env) };
        env.rt.lastThis = obj; // stays so when the pointer names a native function
        const r = callFnPtr(env.rt, argv[0], argv.slice(1), pos, ref);
        if (env.rt.lastThis !== obj) target.set(env, env.rt.lastThis);
        return r;
      }
      // `obj.prop(...)` where the map property holds a Fn pointer: call it with `this` = obj.
      if (obj instanceof Map) {
        const f = obj.get(name);
        if (f instanceof FnPtr) return callFnPtr(env.rt, f, argv, pos, { value: obj, isConst: target.isConst(env) });
      }
      if (sfn) {
        const r = invoke(env.rt, sfn, argv, null, true, obj, target.isConst(env), pos);
        if (env.rt.lastThis !== obj) target.set(env, env.rt.lastThis);
        return r;
      }
      if (!native) throw fnNotFound(signature(name, full), pos);
      return this.nativeMethod(env, native, name, full, target, pos);
    };
  }

  private closure(e: Extract<Expr, { kind: 'closure' }>): Ev {
    const missing = e.fn.missingCapture;
    if (missing) return () => { throw variableNotFound(missing.name, missing.pos); };
    const fn = makeCompiledFn(e.fn);
    fn.body = new Compiler(this.program, true).block(e.fn.body);
    const getters = e.fn.captures.map((ref): ((env: Env) => Cell) => {
      if (ref.kind === 'capture') { const k = ref.index; return (env) => env.caps![k]!; }
      const slot = ref.decl.slot;
      return (env) => cellsOf(env)[slot]!;
    });
    const name = fn.name;
    return (env) => {
      const captures = new Array<Cell>(getters.length);
      for (let i = 0; i < getters.length; i++) captures[i] = getters[i]!(env);
      return new FnPtr(name, [], { fn, captures });
    };
  }

  private ifExpr(e: Extract<Expr, { kind: 'if' }>): Ev {
    const cond = this.expr(e.cond);
    const then = this.block(e.then);
    const els = e.else ? this.block(e.else) : unit;
    const pos = e.cond.pos;
    return (env) => {
      const c = cond(env);
      if (c === true) return then(env);
      if (c === false) return els(env);
      throw mismatchError('bool', typeName(c), pos);
    };
  }

  private switchExpr(e: Extract<Expr, { kind: 'switch' }>): Ev {
    const subject = this.expr(e.subject);
    const compileCase = (c: SwitchCase) => ({
      values: c.values, range: c.range, guard: c.guard ? this.expr(c.guard) : null, body: this.expr(c.body), guardPos: c.guard?.pos,
    });
    const valueCases = e.cases.filter((c) => !c.range).map(compileCase);
    const rangeCases = e.cases.filter((c) => c.range).map(compileCase);
    const dflt = e.defaultCase ? this.expr(e.defaultCase) : unit;
    return (env) => {
      const v = subject(env);
      const t = typeName(v);
      for (const c of valueCases) {
        if (!switchValueMatches(c.values, t, v)) continue;
        if (!c.guard || expectBool(c.guard(env), c.guardPos!)) return c.body(env);
      }
      if (isInt(v)) {
        const n = Number(v);
        for (const c of rangeCases) {
          const r = c.range!;
          if (n < r.start || (r.inclusive ? n > r.end : n >= r.end)) continue;
          if (!c.guard || expectBool(c.guard(env), c.guardPos!)) return c.body(env);
        }
      }
      return dflt(env);
    };
  }

  /** Runs one loop body; returns true when the loop must stop (break or return). */
  private static loopExit(rt: Runtime): boolean {
    if (rt.signal === CONTINUE) { rt.signal = NONE; return false; }
    return true;
  }

  private static breakValue(rt: Runtime): RhaiValue {
    if (rt.signal === BREAK) {
      const v = rt.signalValue;
      rt.signal = NONE;
      rt.signalValue = undefined;
      return v;
    }
    return undefined; // RETURN keeps propagating
  }

  private whileExpr(e: Extract<Expr, { kind: 'while' }>): Ev {
    const cond = e.cond ? this.expr(e.cond) : null;
    const condPos = e.cond?.pos ?? e.pos;
    const body = this.block(e.body);
    const pos = e.pos;
    return (env) => {
      for (;;) {
        if (cond && !expectBool(cond(env), condPos)) return undefined;
        countOp(env.rt, pos);
        body(env);
        if (env.rt.signal !== NONE && Compiler.loopExit(env.rt)) return Compiler.breakValue(env.rt);
      }
    };
  }

  private doExpr(e: Extract<Expr, { kind: 'do' }>): Ev {
    const cond = this.expr(e.cond);
    const body = this.block(e.body);
    const until = e.until;
    const pos = e.pos;
    const condPos = e.cond.pos;
    return (env) => {
      for (;;) {
        countOp(env.rt, pos);
        body(env);
        if (env.rt.signal !== NONE && Compiler.loopExit(env.rt)) return Compiler.breakValue(env.rt);
        if (expectBool(cond(env), condPos) === until) return undefined;
      }
    };
  }

  private forExpr(e: Extract<Expr, { kind: 'for' }>): Ev {
    const iter = this.expr(e.iter);
    const fresh = !mayBeBorrowed(e.iter, this.program);
    const body = this.block(e.body);
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
        if (itemCell) itemCell.value = v; else slots[itemSlot] = v;
        if (counter) { if (counterCell) counterCell.value = i; else slots[counter.slot] = i; }
      };
      if (values instanceof RhaiRange) {
        const step = values.step;
        const end = values.inclusive ? values.end + 1 : values.end;
        for (let x = values.start, i = 0; step > 0 ? x < end : x > end; x += step, i++) {
          setItem(x, i);
          countOp(env.rt, pos);
          body(env);
          if (env.rt.signal !== NONE && Compiler.loopExit(env.rt)) return Compiler.breakValue(env.rt);
        }
        return undefined;
      }
      for (let i = 0; i < values.length; i++) {
        const v = values[i];
        setItem(copyItems && typeof v === 'object' ? cloneValue(env.rt, v) : v, i);
        countOp(env.rt, pos);
        body(env);
        if (env.rt.signal !== NONE && Compiler.loopExit(env.rt)) return Compiler.breakValue(env.rt);
      }
      return undefined;
    };
  }
}
