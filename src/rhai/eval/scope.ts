// Variables found by name at run time (Rhai's `Scope` searched from its end): what `eval` adds to a
// frame, and the caller's variables an `eval`'d script or a `foo!()` call sees. Everything else is
// resolved to a frame slot before the script runs (resolver.ts); these paths are taken only by code
// that calls `eval`, by `eval`'d code and by functions called with `!`.
import { assignmentToConstant, variableNotFound, type Pos } from '../errors.ts';
import type { Cell, RhaiValue } from '../values.ts';
import type { DynVar, Env, LValue } from './frame.ts';

/** The newest variable of that name `eval` added to a frame. */
export function findDyn(dyn: DynVar[] | null, name: string): DynVar | undefined {
  if (dyn === null) return undefined;
  for (let i = dyn.length - 1; i >= 0; i--) if (dyn[i]!.name === name) return dyn[i];
  return undefined;
}

/**
 * Where a name the frame's own code does not declare lives: a variable `eval` added to this frame,
 * else, through each `eval` or `!` call that led here, one the caller added or had in scope.
 */
export function findVariable(env: Env, name: string): DynVar | { env: Env; lv: LValue } | undefined {
  const own = findDyn(env.dyn, name);
  if (own) return own;
  for (let p = env.parent; p !== null; p = p.env.parent) {
    const added = findDyn(p.env.dyn, name);
    if (added) return added;
    const lv = p.vars.get(name);
    if (lv) return { env: p.env, lv };
  }
  return undefined;
}

const withUpdate = (lv: Omit<LValue, 'update'>): LValue => ({
  ...lv,
  update: (env, change, arg) => lv.set(env, change(lv.get(env), arg, env)),
});

/** A name resolved to no declaration: found by name at run time, else ErrorVariableNotFound. */
export function dynamicLValue(name: string, pos: Pos): LValue {
  const find = (env: Env): DynVar | { env: Env; lv: LValue } => {
    const found = findVariable(env, name);
    if (!found) throw variableNotFound(name, pos);
    return found;
  };
  return withUpdate({
    get: (env) => {
      const v = find(env);
      return 'cell' in v ? v.cell.value : v.lv.get(v.env);
    },
    set: (env, value) => {
      const v = find(env);
      if ('cell' in v) {
        if (v.isConst) throw assignmentToConstant(name, pos);
        v.cell.value = value;
      } else v.lv.set(v.env, value);
    },
    isConst: (env) => {
      const v = find(env);
      return 'cell' in v ? v.isConst : v.lv.isConst(v.env);
    },
  });
}

/** A declared variable in code that calls `eval`: a variable `eval` added later of the same name shadows it. */
export function shadowable(name: string, lv: LValue, pos: Pos): LValue {
  return withUpdate({
    get: (env) => {
      const d = findDyn(env.dyn, name);
      return d ? d.cell.value : lv.get(env);
    },
    set: (env, value) => {
      const d = findDyn(env.dyn, name);
      if (!d) {
        lv.set(env, value);
        return;
      }
      if (d.isConst) throw assignmentToConstant(name, pos);
      d.cell.value = value;
    },
    isConst: (env) => {
      const d = findDyn(env.dyn, name);
      return d ? d.isConst : lv.isConst(env);
    },
    cell: lv.cell,
  });
}

/**
 * After `let name` in code that calls `eval`: when an `eval` already added a variable of that name
 * to the frame, the new one must shadow it, so it is also listed, after it, as the frame slot.
 */
export function shadowEvalVariable(env: Env, name: string, slot: number, captured: boolean, isConst: boolean): void {
  if (!findDyn(env.dyn, name)) return;
  const slots = env.slots as unknown[];
  const cell: Cell = captured
    ? (slots[slot] as Cell)
    : {
        get value(): RhaiValue {
          return slots[slot] as RhaiValue;
        },
        set value(v: RhaiValue) {
          slots[slot] = v;
        },
      };
  env.dyn!.push({ name, cell, isConst });
}
