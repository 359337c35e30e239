// The INT fast path of the binary operators (`numeric` in expressions.ts tries it first), and the
// conditions `if` and `while` test without a closure call (`n < 2`). Each operator has its own fast
// function: one function switching on the operator made the 1,000,000-iteration loop 2-3x slower
// once V8 had seen it with several operators (docs/performance-rhai.md).
import { compareOp, valuesDiffer, valuesEqual } from '../ops.ts';
import type { Runtime } from '../runtime.ts';
import type { Expr } from '../ast.ts';
import type { RhaiValue } from '../values.ts';
import { localSlot, type Compiler } from './compiler.ts';
import { slotsOf, type Env } from './frame.ts';

/** A fast path's "no answer, take the general path". */
export const MISS: unique symbol = Symbol('miss');

/** An operator's INT fast path: the exact result, or MISS when it needs the general path. */
export type IntFast = (a: number, b: number) => RhaiValue | typeof MISS;

/**
 * A condition comparing a local variable with an INT literal (`n < 2`, `i < 1000000`), which `if`
 * and `while` test through `testLocal` instead of calling the condition's closure: `testLocal` is
 * one function called directly, which V8 inlines, where a closure called through a variable that
 * holds many different closures is a real call each time.
 */
export interface LocalTest {
  slot: number;
  literal: number;
  fast: IntFast;
  slow: (a: RhaiValue, b: RhaiValue, rt: Runtime) => RhaiValue;
}

const COMPARISONS: Partial<Record<string, IntFast>> = {
  '==': (a, b) => a === b,
  '!=': (a, b) => a !== b,
  '<': (a, b) => a < b,
  '<=': (a, b) => a <= b,
  '>': (a, b) => a > b,
  '>=': (a, b) => a >= b,
};

export function localTest(c: Compiler, e: Expr): LocalTest | null {
  if (e.kind !== 'binary') return null;
  const fast = COMPARISONS[e.op];
  const slot = localSlot(c, e.left);
  if (fast === undefined || slot === undefined) return null;
  if (e.right.kind !== 'literal' || typeof e.right.value !== 'number') return null;
  const pos = e.pos;
  const name = e.op;
  const slow =
    name === '=='
      ? (a: RhaiValue, b: RhaiValue, rt: Runtime) => valuesEqual(a, b, rt, pos)
      : name === '!='
        ? (a: RhaiValue, b: RhaiValue, rt: Runtime) => valuesDiffer(a, b, rt, pos)
        : (a: RhaiValue, b: RhaiValue, rt: Runtime) => compareOp(name, a, b, pos, rt);
  return { slot, literal: e.right.value, fast, slow };
}

/** The value of a LocalTest's condition (a bool, unless a custom type's comparison gives another value). */
export function testLocal(t: LocalTest, env: Env): RhaiValue {
  const a = slotsOf(env)[t.slot];
  if (typeof a === 'number') {
    const r = t.fast(a, t.literal);
    if (r !== MISS) return r;
  }
  return t.slow(a, t.literal, env.rt);
}
