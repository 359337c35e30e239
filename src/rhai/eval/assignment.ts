// Assignment: the places a value can be stored — a variable, `this`, a property, an index, to any
// depth (`a.b[i].c`) — as LValues, and `=`, `??=` and compound `op=` to them. Reading a variable
// goes through its place too.
import type { Expr, Stmt, VarRef } from '../ast.ts';
import { assignmentToConstant, dotExprError, RhaiError, type Pos } from '../errors.ts';
import { assignOp } from '../ops.ts';
import { checkMap, concatText } from '../runtime.ts';
import { typeName, type RhaiValue } from '../values.ts';
import { readIndex, readProp, writeIndex } from './access.ts';
import { localSlot, owned, type Compiler } from './compiler.ts';
import { cellsOf, slotsOf, type Change, type Env, type Ev, type LValue } from './frame.ts';
import { dynamicLValue, shadowable } from './scope.ts';

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

export function compileAssign(c: Compiler, s: Extract<Stmt, { kind: 'assign' }>): Ev {
  // Compound assignment copies what it keeps itself (assignOp), so only `=` needs an owned value.
  const value = s.op === '=' ? owned(c, s.value) : c.expr(s.value);
  const pos = s.pos;
  const target = s.target;
  // Fast path: a plain local variable.
  const slot = localSlot(c, target);
  if (slot !== undefined) {
    if (s.op === '=')
      return (env) => {
        slotsOf(env)[slot] = value(env);
        return undefined;
      };
    const op = s.op.slice(0, -1);
    if (op === '+' || op === '-') {
      const plus = op === '+';
      const vs = localSlot(c, s.value);
      const vc = s.value.kind === 'literal' && typeof s.value.value === 'number' ? s.value.value : undefined;
      const apply = (env: Env, slots: RhaiValue[], a: RhaiValue, b: RhaiValue): undefined => {
        if (typeof a === 'number' && typeof b === 'number') {
          const r = plus ? a + b : a - b;
          if (r <= MAX_SAFE && r >= -MAX_SAFE) {
            slots[slot] = r;
            return undefined;
          }
        } else if (plus && typeof a === 'string' && typeof b === 'string') {
          slots[slot] = concatText(env.rt, a, b, pos);
          return undefined;
        }
        slots[slot] = assignOp(env.rt, op, a, b, pos);
        return undefined;
      };
      if (vc !== undefined)
        return (env) => {
          const slots = slotsOf(env);
          return apply(env, slots, slots[slot], vc);
        };
      if (vs !== undefined)
        return (env) => {
          const slots = slotsOf(env);
          return apply(env, slots, slots[slot], slots[vs]);
        };
      return (env) => {
        const b = value(env);
        const slots = slotsOf(env);
        return apply(env, slots, slots[slot], b);
      };
    }
  }
  const lv = lvalue(c, target);
  if ((target.kind === 'property' || target.kind === 'index') && target.chain?.top) {
    // `x?[2] = 42`, `x?.a.b += 1`: nothing is assigned when the chain was cut; the cut ends here.
    const assign = compileAssignTo(s, lv, value);
    return (env) => {
      try {
        return assign(env);
      } finally {
        env.rt.skipChain = false;
      }
    };
  }
  return compileAssignTo(s, lv, value);
}

function compileAssignTo(s: Extract<Stmt, { kind: 'assign' }>, lv: LValue, value: Ev): Ev {
  const pos = s.pos;
  if (s.op === '=')
    return (env) => {
      lv.set(env, value(env));
      return undefined;
    };
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

/** The place `e` names. Any other expression is a temporary: writing to it changes nothing. */
export function lvalue(c: Compiler, e: Expr): LValue {
  const pos = e.pos;
  switch (e.kind) {
    case 'var':
      return varLValue(c, e.name, e.ref, pos);
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
        update: (env, change, arg) => {
          thisLv.set(env, change(thisLv.get(env), arg, env));
        },
      };
      return thisLv;
    }
    case 'property': {
      const parent = lvalue(c, e.target);
      const name = e.name;
      const cut = chainCut(e);
      const setOn = (env: Env, obj: RhaiValue, v: RhaiValue): void => {
        if (!(obj instanceof Map)) {
          throw dotExprError(
            name,
            `Cannot set property '${name}' - a setter is not registered for type '${typeName(obj)}'`,
            pos,
          );
        }
        if (parent.isConst(env)) throw assignmentToConstant('', pos);
        obj.set(name, v);
        checkMap(env.rt, obj, pos);
      };
      return {
        get: (env) => {
          const obj = parent.get(env);
          return cut(env, obj) ? undefined : readProp(env.rt, obj, name, false, pos);
        },
        set: (env, v) => {
          const obj = parent.get(env);
          if (!cut(env, obj)) setOn(env, obj, v);
        },
        update: (env, change, arg) => {
          const obj = parent.get(env);
          if (!cut(env, obj)) setOn(env, obj, change(readProp(env.rt, obj, name, false, pos), arg, env));
        },
        isConst: parent.isConst,
      };
    }
    case 'index': {
      const parent = lvalue(c, e.target);
      const index = c.expr(e.index);
      const cut = chainCut(e);
      return {
        get: (env) => {
          const obj = parent.get(env);
          return cut(env, obj) ? undefined : readIndex(env.rt, obj, index(env), false, pos);
        },
        set: (env, v) => {
          const obj = parent.get(env);
          if (cut(env, obj)) return;
          if (parent.isConst(env)) throw assignmentToConstant('', pos);
          writeIndex(env, parent, obj, index(env), v, pos);
        },
        update: (env, change, arg) => {
          const obj = parent.get(env);
          if (cut(env, obj)) return;
          const i = index(env);
          const v = change(readIndex(env.rt, obj, i, false, pos), arg, env);
          if (parent.isConst(env)) throw assignmentToConstant('', pos);
          writeIndex(env, parent, obj, i, v, pos);
        },
        isConst: parent.isConst,
      };
    }
    default: {
      const get = c.expr(e);
      return { get, set: () => {}, update: () => {}, isConst: () => false };
    }
  }
}

/**
 * Whether a property or index place is cut off by `?.` / `?[` (see ChainFlags): after an earlier
 * safe link found (), or when this safe link's own target is () (then the rest is cut too).
 */
function chainCut(e: Extract<Expr, { kind: 'property' | 'index' }>): (env: Env, obj: RhaiValue) => boolean {
  const guarded = e.chain?.guarded ?? false;
  const safe = e.safe;
  return (env, obj) => {
    if (guarded && env.rt.skipChain) return true;
    if (obj === undefined && safe) {
      env.rt.skipChain = true;
      return true;
    }
    return false;
  };
}

/** A variable's place: a frame slot, a captured cell, or a closure's capture (`ref` from the resolver). */
export function varLValue(c: Compiler, name: string, ref: VarRef | null, pos: Pos): LValue {
  if (!ref) return dynamicLValue(name, pos); // declared by `eval`, or the caller's (`eval`, `f!()`)
  const lv = declaredLValue(ref);
  return c.dynAware ? shadowable(name, lv, pos) : lv;
}

function declaredLValue(ref: VarRef): LValue {
  const withUpdate = (lv: Omit<LValue, 'update'>): LValue => ({
    ...lv,
    update: (env, change, arg) => lv.set(env, change(lv.get(env), arg, env)),
  });
  if (ref.kind === 'capture') {
    const k = ref.index;
    return withUpdate({
      get: (env) => env.caps![k]!.value,
      set: (env, v) => {
        env.caps![k]!.value = v;
      },
      isConst: () => false,
      cell: (env) => env.caps![k]!,
    });
  }
  const slot = ref.decl.slot;
  const isConst = ref.decl.isConst;
  if (ref.decl.captured) {
    return withUpdate({
      get: (env) => cellsOf(env)[slot]!.value,
      set: (env, v) => {
        cellsOf(env)[slot]!.value = v;
      },
      isConst: () => isConst,
      cell: (env) => cellsOf(env)[slot]!,
    });
  }
  return withUpdate({
    get: (env) => slotsOf(env)[slot],
    set: (env, v) => {
      slotsOf(env)[slot] = v;
    },
    isConst: () => isConst,
  });
}
