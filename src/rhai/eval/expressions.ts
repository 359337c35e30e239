// Expressions (src/eval/expr.rs): every expression kind dispatched to its compiler, and here
// literals, arrays and maps, string interpolation, operators, property and index reads, closures.
// An INT stays a JS number while it is a safe integer; operators try that fast path first.
import type { Expr } from '../ast.ts';
import { fnNotFound, variableNotFound } from '../errors.ts';
import { chargeFormatting, debugString, displayString } from '../format.ts';
import { binaryOp, compareOp, containsOp, negate, valuesDiffer, valuesEqual } from '../ops.ts';
import { checkArray, checkMap, checkNestedSizes, concatText, type Runtime } from '../runtime.ts';
import {
  FnPtr,
  isInt,
  MAX_INT,
  normInt,
  RhaiRange,
  typeName,
  type Cell,
  type RhaiMap,
  type RhaiValue,
} from '../values.ts';
import { readIndex, readProp } from './access.ts';
import { lvalue, varLValue } from './assignment.ts';
import { compileCall, compileMethodCall } from './call-sites.ts';
import { localSlot, owned, type Compiler } from './compiler.ts';
import { cellsOf, expectBool, makeCompiledFn, slotsOf, type Env, type Ev } from './frame.ts';
import { MISS, type IntFast } from './int-ops.ts';
import { compileDo, compileFor, compileWhile } from './loops.ts';
import { findModule } from './modules.ts';
import { compileIf, compileSwitch } from './statements.ts';

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const INT_MAX = normInt(MAX_INT);

export function compileExpr(c: Compiler, e: Expr): Ev {
  const pos = e.pos;
  switch (e.kind) {
    case 'literal': {
      const v = e.value;
      return () => v;
    }
    case 'var': {
      // A name no declaration resolves that names a script function is a Fn pointer to it
      // (eval/expr.rs search_namespace); a variable of that name, even one `eval` added, wins.
      if (!e.ref && c.maxArity.has(e.name)) {
        const fp = new FnPtr(e.name);
        return () => fp;
      }
      return varLValue(c, e.name, e.ref, pos).get;
    }
    case 'this':
      return lvalue(c, e).get;
    case 'modvar': {
      const { path, name } = e;
      return (env) => {
        const m = findModule(env.rt, path, pos);
        if (!m.vars.has(name)) throw variableNotFound(`${path.join('::')}::${name}`, pos);
        return m.vars.get(name);
      };
    }
    case 'global': {
      const name = e.name;
      return (env) => {
        if (!env.rt.globals.has(name)) throw variableNotFound(`global::${name}`, pos);
        return env.rt.globals.get(name);
      };
    }
    case 'array': {
      const items = e.items.map((x) => owned(c, x));
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
      const entries = e.entries.map(([k, v]) => [k, owned(c, v)] as const);
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
    case 'interpolation':
      return compileInterpolation(c, e);
    case 'unary':
      return compileUnary(c, e);
    case 'binary':
      return compileBinary(c, e);
    case 'property':
    case 'index':
    case 'method': {
      const link = compileLink(c, e);
      if (!e.chain?.top) return link;
      return (env) => {
        // the end of a chain holding `?.` / `?[`: whatever was skipped is ()
        const v = link(env);
        env.rt.skipChain = false;
        return v;
      };
    }
    case 'call':
      return compileCall(c, e);
    case 'closure':
      return compileClosure(c, e);
    case 'block':
      return c.block(e.body);
    case 'if':
      return compileIf(c, e);
    case 'switch':
      return compileSwitch(c, e);
    case 'while':
      return compileWhile(c, e);
    case 'do':
      return compileDo(c, e);
    case 'for':
      return compileFor(c, e);
  }
}

/**
 * A property read, an index read or a method call. A safe link (`?.`, `?[`) on () gives () and
 * marks the run's chain as cut; a link after one (`guarded`) gives () when the chain was cut.
 */
function compileLink(c: Compiler, e: Extract<Expr, { kind: 'property' | 'index' | 'method' }>): Ev {
  if (e.kind === 'method') return compileMethodCall(c, e);
  const pos = e.pos;
  const safe = e.safe;
  const guarded = e.chain?.guarded ?? false;
  if (e.kind === 'property') {
    const name = e.name;
    // `e.name` on a local variable holding a map (a hook's usual read): no closure to read the variable.
    const slot = localSlot(c, e.target);
    if (slot !== undefined && !safe) {
      return (env) => {
        const obj = slotsOf(env)[slot];
        return obj instanceof Map ? obj.get(name) : readProp(env.rt, obj, name, false, pos);
      };
    }
    const target = c.expr(e.target);
    return (env) => {
      const obj = target(env);
      if (guarded && env.rt.skipChain) return undefined;
      if (obj === undefined && safe) {
        env.rt.skipChain = true;
        return undefined;
      }
      return readProp(env.rt, obj, name, safe, pos);
    };
  }
  const target = c.expr(e.target);
  const index = c.expr(e.index);
  return (env) => {
    const obj = target(env);
    if (guarded && env.rt.skipChain) return undefined;
    if (obj === undefined && safe) {
      env.rt.skipChain = true;
      return undefined;
    }
    return readIndex(env.rt, obj, index(env), safe, pos);
  };
}

function isLiteralContainer(e: Expr): boolean {
  if (e.kind === 'literal') return true;
  if (e.kind === 'array') return e.items.every(isLiteralContainer);
  if (e.kind === 'map') return e.entries.every(([, v]) => isLiteralContainer(v));
  return false;
}

/** `` `text ${expr} text` ``: each part as its display string, joined under the string size limit. */
function compileInterpolation(c: Compiler, e: Extract<Expr, { kind: 'interpolation' }>): Ev {
  // Literal text stays a string (no closure to call for it); an expression part may give any value.
  const parts = e.parts.map((p): string | Ev => {
    if (typeof p === 'string') return p;
    const f = c.expr(p);
    // Rhai's optimizer folds a literal array or map with its Debug form (chars keep quotes).
    if ((p.kind === 'array' || p.kind === 'map') && isLiteralContainer(p)) return (env) => debugString(f(env));
    return f;
  });
  const pos = e.pos;
  return (env) => {
    let s = '';
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i]!;
      let text: string;
      if (typeof p === 'string') text = p;
      else {
        const v = p(env);
        if (typeof v === 'string') text = v;
        else {
          chargeFormatting(env.rt, v);
          text = displayString(v);
        }
      }
      s = concatText(env.rt, s, text, pos);
    }
    return s;
  };
}

function compileUnary(c: Compiler, e: Extract<Expr, { kind: 'unary' }>): Ev {
  const f = c.expr(e.operand);
  const pos = e.pos;
  switch (e.op) {
    case '-':
      return (env) => negate(f(env), pos);
    case '+':
      return (env) => {
        const v = f(env);
        if (isInt(v) || (v instanceof Object && typeName(v) === 'f64')) return v;
        throw fnNotFound(`+ (${typeName(v)})`, pos);
      };
    default:
      return (env) => {
        const v = f(env);
        if (typeof v === 'boolean') return !v;
        throw fnNotFound(`! (${typeName(v)})`, pos);
      };
  }
}

function compileBinary(c: Compiler, e: Extract<Expr, { kind: 'binary' }>): Ev {
  const L = c.expr(e.left);
  const R = c.expr(e.right);
  const pos = e.pos;
  const op = e.op;
  switch (op) {
    case '&&':
      return (env) => expectBool(L(env), e.left.pos) && expectBool(R(env), e.right.pos);
    case '||':
      return (env) => expectBool(L(env), e.left.pos) || expectBool(R(env), e.right.pos);
    case '??':
      return (env) => {
        const a = L(env);
        return a === undefined ? R(env) : a;
      };
    case 'in':
      return (env) => {
        const a = L(env);
        return containsOp(R(env), a, pos, env.rt);
      };
    case '!in':
      return (env) => {
        const a = L(env);
        return !containsOp(R(env), a, pos, env.rt);
      };
    case '..':
    case '..=': {
      const inclusive = op === '..=';
      return (env) => {
        const a = L(env);
        const b = R(env);
        // builtin.rs: `n..()` runs to i64::MAX, `()..n` starts at 0 (`x[..]`, `5..`, `..=n`).
        if (isInt(a) && isInt(b)) return new RhaiRange(a, b, inclusive);
        if (isInt(a) && b === undefined) return new RhaiRange(a, INT_MAX, inclusive);
        if (a === undefined && isInt(b)) return new RhaiRange(0, b, inclusive);
        throw fnNotFound(`${op} (${typeName(a)}, ${typeName(b)})`, pos);
      };
    }
    case '==':
      return numeric(
        c,
        e,
        L,
        R,
        (a, b) => a === b,
        (a, b, rt) => valuesEqual(a, b, rt, pos),
      );
    case '!=':
      return numeric(
        c,
        e,
        L,
        R,
        (a, b) => a !== b,
        (a, b, rt) => valuesDiffer(a, b, rt, pos),
      );
    case '<':
      return numeric(
        c,
        e,
        L,
        R,
        (a, b) => a < b,
        (a, b, rt) => compareOp(op, a, b, pos, rt),
      );
    case '<=':
      return numeric(
        c,
        e,
        L,
        R,
        (a, b) => a <= b,
        (a, b, rt) => compareOp(op, a, b, pos, rt),
      );
    case '>':
      return numeric(
        c,
        e,
        L,
        R,
        (a, b) => a > b,
        (a, b, rt) => compareOp(op, a, b, pos, rt),
      );
    case '>=':
      return numeric(
        c,
        e,
        L,
        R,
        (a, b) => a >= b,
        (a, b, rt) => compareOp(op, a, b, pos, rt),
      );
    case '+': {
      // `text + "\n"`: a literal string on the right joins a string without the numeric checks.
      if (e.right.kind === 'literal' && typeof e.right.value === 'string') {
        const text = e.right.value;
        return (env) => {
          const a = L(env);
          return typeof a === 'string' ? concatText(env.rt, a, text, pos) : binaryOp(env.rt, op, a, text, pos);
        };
      }
      return additive(c, e, L, R, false, (a, b, rt) => {
        if (typeof a !== 'string' || typeof b !== 'string') return binaryOp(rt, op, a, b, pos);
        return concatText(rt, a, b, pos);
      });
    }
    case '-':
      return additive(c, e, L, R, true, (a, b, rt) => binaryOp(rt, op, a, b, pos));
    case '*':
      return numeric(
        c,
        e,
        L,
        R,
        (a, b) => {
          const r = a * b;
          return r <= MAX_SAFE && r >= -MAX_SAFE ? (r === 0 ? 0 : r) : MISS;
        },
        (a, b, rt) => binaryOp(rt, op, a, b, pos),
      );
    case '%':
      return numeric(
        c,
        e,
        L,
        R,
        (a, b) => (b === 0 ? MISS : a % b === 0 ? 0 : a % b),
        (a, b, rt) => binaryOp(rt, op, a, b, pos),
      );
    default:
      return (env) => {
        const a = L(env);
        return binaryOp(env.rt, op, a, R(env), pos);
      };
  }
}

/**
 * `a + b` and `a - b`, the commonest operators: as `numeric`, but the INT arithmetic is written in
 * the closures rather than called through `fast` (the closures `numeric` makes are shared by all
 * its operators, so that call is a real, megamorphic call; here the only choice is a branch).
 */
function additive(
  c: Compiler,
  e: Extract<Expr, { kind: 'binary' }>,
  L: Ev,
  R: Ev,
  minus: boolean,
  slow: (a: RhaiValue, b: RhaiValue, rt: Runtime) => RhaiValue,
): Ev {
  const ls = localSlot(c, e.left);
  const rs = localSlot(c, e.right);
  const rc = e.right.kind === 'literal' && typeof e.right.value === 'number' ? e.right.value : undefined;
  if (ls !== undefined && rc !== undefined) {
    return (env) => {
      const a = slotsOf(env)[ls];
      if (typeof a === 'number') {
        const r = minus ? a - rc : a + rc;
        if (r <= MAX_SAFE && r >= -MAX_SAFE) return r;
      }
      return slow(a, rc, env.rt);
    };
  }
  if (ls !== undefined && rs !== undefined) {
    return (env) => {
      const slots = slotsOf(env);
      const a = slots[ls];
      const b = slots[rs];
      if (typeof a === 'number' && typeof b === 'number') {
        const r = minus ? a - b : a + b;
        if (r <= MAX_SAFE && r >= -MAX_SAFE) return r;
      }
      return slow(a, b, env.rt);
    };
  }
  return (env) => {
    const a = L(env);
    const b = R(env);
    if (typeof a === 'number' && typeof b === 'number') {
      const r = minus ? a - b : a + b;
      if (r <= MAX_SAFE && r >= -MAX_SAFE) return r;
    }
    return slow(a, b, env.rt);
  };
}

/**
 * A binary operator with a fast path for two INTs held as JS numbers. `fast` returns MISS when
 * the exact result needs the general path (overflow, BigInt). Local variables and literal
 * operands are read inline rather than through another closure.
 */
function numeric(
  c: Compiler,
  e: Extract<Expr, { kind: 'binary' }>,
  L: Ev,
  R: Ev,
  fast: IntFast,
  slow: (a: RhaiValue, b: RhaiValue, rt: Runtime) => RhaiValue,
): Ev {
  const ls = localSlot(c, e.left);
  const rs = localSlot(c, e.right);
  const rc = e.right.kind === 'literal' && typeof e.right.value === 'number' ? e.right.value : undefined;
  if (ls !== undefined && rc !== undefined) {
    return (env) => {
      const a = slotsOf(env)[ls];
      if (typeof a === 'number') {
        const r = fast(a, rc);
        if (r !== MISS) return r;
      }
      return slow(a, rc, env.rt);
    };
  }
  if (ls !== undefined && rs !== undefined) {
    return (env) => {
      const slots = slotsOf(env);
      const a = slots[ls];
      const b = slots[rs];
      if (typeof a === 'number' && typeof b === 'number') {
        const r = fast(a, b);
        if (r !== MISS) return r;
      }
      return slow(a, b, env.rt);
    };
  }
  if (rc !== undefined) {
    return (env) => {
      const a = L(env);
      if (typeof a === 'number') {
        const r = fast(a, rc);
        if (r !== MISS) return r;
      }
      return slow(a, rc, env.rt);
    };
  }
  return (env) => {
    const a = L(env);
    const b = R(env);
    if (typeof a === 'number' && typeof b === 'number') {
      const r = fast(a, b);
      if (r !== MISS) return r;
    }
    return slow(a, b, env.rt);
  };
}

/** `|x| body`: a Fn pointer holding the compiled body and the cells it captured. */
function compileClosure(c: Compiler, e: Extract<Expr, { kind: 'closure' }>): Ev {
  const missing = e.fn.missingCapture;
  if (missing)
    return () => {
      throw variableNotFound(missing.name, missing.pos);
    };
  const fn = makeCompiledFn(e.fn);
  fn.body = c.functionBody(e.fn.body, e.fn.usesEval === true);
  const getters = e.fn.captures.map((ref): ((env: Env) => Cell) => {
    if (ref.kind === 'capture') {
      const k = ref.index;
      return (env) => env.caps![k]!;
    }
    const slot = ref.decl.slot;
    return (env) => cellsOf(env)[slot]!;
  });
  const name = fn.name;
  return (env) => {
    const captures = new Array<Cell>(getters.length);
    for (let i = 0; i < getters.length; i++) {
      const cell = getters[i]!(env);
      cell.shared = true;
      captures[i] = cell;
    }
    return new FnPtr(name, [], { fn, captures });
  };
}
