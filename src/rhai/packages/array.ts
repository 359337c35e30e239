// Array functions (src/packages/array_basic.rs). Changing functions work in place on args[0].
import { compareOp, valuesEqual } from '../ops.ts';
import { checkArray, checkArrayLength } from '../runtime.ts';
import { innermost, isSystemError, NO_POS, RhaiError } from '../errors.ts';
import { compareStrings, FnPtr, RhaiFloat, typeName, type RhaiValue } from '../values.ts';
import { cloneValue } from '../copy.ts';
import { chargeItems } from '../cost.ts';
import {
  callOnItem,
  callWithOptional,
  fnArg,
  fnNameProblem,
  intArg,
  isIntArg,
  isTrue,
  NO_MATCH,
  runtimeError,
  spanArgs,
  startPos,
  type Library,
  type NativeContext,
  type NativeResult,
} from './types.ts';

const arr =
  (f: (a: RhaiValue[], rest: RhaiValue[], ctx: NativeContext) => NativeResult) =>
  (args: RhaiValue[], ctx: NativeContext): NativeResult =>
    Array.isArray(args[0]) ? f(args[0], args.slice(1), ctx) : NO_MATCH;

const isNumericType = (t: string): boolean => t === 'i64' || t === 'f64';

// No closures are created per comparison: under tsx every closure creation is costly (keepNames).
function defaultCompare(x: RhaiValue, y: RhaiValue): number {
  if (typeof x === 'number' && typeof y === 'number') return x - y;
  // sort_with_builtin: FLOATs by partial_cmp (exact; NaN counts as equal), not the epsilon operators.
  if (x instanceof RhaiFloat && y instanceof RhaiFloat) return x.v < y.v ? -1 : x.v > y.v ? 1 : 0;
  if (typeof x === 'string' && typeof y === 'string') return compareStrings(x, y);
  const tx = typeName(x);
  const ty = typeName(y);
  if (tx !== ty && !(isNumericType(tx) && isNumericType(ty))) return tx < ty ? -1 : 1;
  if (compareOp('<', x, y, NO_POS)) return -1;
  if (compareOp('>', x, y, NO_POS)) return 1;
  return 0;
}

const SORTABLE = new Set(['i64', 'f64', 'string', 'char', 'bool', '()']);

/** `sort()` without a comparator: only arrays of one comparable built-in type (array_basic.rs). */
function sortHomogeneous(a: RhaiValue[], descending: boolean): void {
  if (a.length <= 1) return;
  const t = typeName(a[0]);
  for (const x of a) {
    if (typeName(x) !== t || !SORTABLE.has(t)) {
      throw runtimeError(
        'ErrorFunctionNotFound',
        'sort() needs an array of items of one comparable type, or a comparer function',
      );
    }
  }
  a.sort(descending ? (x, y) => defaultCompare(y, x) : defaultCompare);
}

/**
 * The comparer's answer as Rhai's `sort(fn)` reads it (array_basic.rs): only an INT orders items;
 * any other result, or an error raised by the comparer, counts as "equal". Limit errors still stop.
 */
function compareWith(ctx: NativeContext, fp: FnPtr, x: RhaiValue, y: RhaiValue): number {
  let v: RhaiValue;
  try {
    v = ctx.call(fp, [cloneValue(ctx.runtime, x), cloneValue(ctx.runtime, y)]);
  } catch (e) {
    if (e instanceof RhaiError && !isSystemError(e)) return 0;
    throw e;
  }
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return v < 0n ? -1 : 1;
  if (typeof v === 'boolean') return v ? -1 : 1; // array_basic.rs sort_by: true sorts x first
  return 0;
}

/** dedup's comparer as array_basic.rs reads it: an error or a non-bool means "different". */
function dedupAnswer(ctx: NativeContext, fp: FnPtr, kept: RhaiValue, next: RhaiValue): boolean {
  try {
    return isTrue(ctx.call(fp, [cloneValue(ctx.runtime, kept), cloneValue(ctx.runtime, next)]));
  } catch (e) {
    if (e instanceof RhaiError && !isSystemError(e)) return false;
    throw e;
  }
}

/** Sorts `a` by the comparer in `rest`, or without one (descending for `sort_desc`); returns `a`. */
function sortInPlace(a: RhaiValue[], rest: RhaiValue[], ctx: NativeContext, descending: boolean): RhaiValue[] {
  const fp = rest.length ? fnArg(rest[0]) : undefined;
  // About n log n comparisons, each charged as an item visit (a comparer's calls count as calls too).
  chargeItems(ctx.runtime, a.length * Math.max(1, Math.ceil(Math.log2(a.length + 1))));
  if (fp) a.sort((x, y) => compareWith(ctx, fp, x, y));
  else sortHomogeneous(a, descending);
  return a;
}

/**
 * Removes in place the items the predicate picks (`drain`) or does not pick (`retain`) and returns
 * the removed ones, calling the predicate once per item in order, as Rhai does.
 */
function removeWhere(a: RhaiValue[], ctx: NativeContext, fp: FnPtr, removeMatches: boolean): RhaiValue[] {
  chargeItems(ctx.runtime, a.length);
  const removed: RhaiValue[] = [];
  const kept: RhaiValue[] = [];
  for (let i = 0; i < a.length; i++) {
    const matches = isTrue(callOnItem(ctx, fp, a, i, [], 0, i));
    (matches === removeMatches ? removed : kept).push(a[i]);
  }
  a.length = 0;
  a.push(...kept);
  return removed;
}

export const arrayLib: Library = {
  push: arr((a, rest, ctx) => {
    if (rest.length !== 1) return NO_MATCH;
    a.push(cloneValue(ctx.runtime, rest[0]));
    checkArray(ctx.runtime, a);
    return undefined;
  }),
  append: arr((a, [b], ctx) => {
    const items = b as RhaiValue[];
    checkArrayLength(ctx.runtime, a.length + items.length);
    chargeItems(ctx.runtime, items.length);
    for (const x of items) a.push(cloneValue(ctx.runtime, x));
    return undefined;
  }),
  insert: arr((a, [i, x], ctx) => {
    if (!isIntArg(i)) return NO_MATCH;
    chargeItems(ctx.runtime, a.length); // the items after it move
    a.splice(startPos(intArg(i), a.length), 0, cloneValue(ctx.runtime, x));
    checkArray(ctx.runtime, a);
    return undefined;
  }),
  pop: arr((a, rest) => (rest.length ? NO_MATCH : a.pop())),
  shift: arr((a, rest, ctx) => {
    if (rest.length) return NO_MATCH;
    chargeItems(ctx.runtime, a.length);
    return a.shift();
  }),
  remove: arr((a, [i], ctx) => {
    if (!isIntArg(i)) return NO_MATCH;
    chargeItems(ctx.runtime, a.length);
    let n = intArg(i);
    if (n < 0) n += a.length;
    if (n < 0 || n >= a.length) return undefined;
    return a.splice(n, 1)[0];
  }),
  reverse: arr((a, rest, ctx) => {
    if (rest.length) return NO_MATCH;
    chargeItems(ctx.runtime, a.length);
    a.reverse();
    return undefined;
  }),
  len: arr((a, rest) => (rest.length ? NO_MATCH : a.length)),
  is_empty: arr((a, rest) => (rest.length ? NO_MATCH : a.length === 0)),
  clear: arr((a, rest) => {
    if (rest.length) return NO_MATCH;
    a.length = 0;
    return undefined;
  }),
  pad: arr((a, [n, x], ctx) => {
    if (!isIntArg(n)) return NO_MATCH;
    const target = intArg(n);
    checkArrayLength(ctx.runtime, target);
    chargeItems(ctx.runtime, target - a.length);
    while (a.length < target) a.push(cloneValue(ctx.runtime, x));
    return undefined;
  }),
  truncate: arr((a, [n]) => {
    if (!isIntArg(n)) return NO_MATCH;
    a.length = Math.min(a.length, Math.max(0, intArg(n)));
    return undefined;
  }),
  chop: arr((a, [n], ctx) => {
    if (!isIntArg(n)) return NO_MATCH;
    chargeItems(ctx.runtime, a.length);
    const keep = Math.max(0, intArg(n));
    if (a.length > keep) a.splice(0, a.length - keep);
    return undefined;
  }),
  split: arr((a, [i], ctx) => {
    if (!isIntArg(i)) return NO_MATCH;
    chargeItems(ctx.runtime, a.length);
    const at = startPos(intArg(i), a.length);
    return a.splice(at);
  }),
  extract: arr((a, rest, ctx) => {
    const { start, count } = spanArgs(a.length, rest);
    return cloneValue(ctx.runtime, a.slice(start, start + count));
  }),
  get: arr((a, [i], ctx) => {
    if (!isIntArg(i)) return NO_MATCH;
    let n = intArg(i);
    if (n < 0) n += a.length;
    return n >= 0 && n < a.length ? cloneValue(ctx.runtime, a[n]) : undefined;
  }),
  set: arr((a, [i, x], ctx) => {
    if (!isIntArg(i)) return NO_MATCH;
    let n = intArg(i);
    if (n < 0) n += a.length;
    if (n >= 0 && n < a.length) a[n] = cloneValue(ctx.runtime, x);
    return undefined;
  }),
  contains: arr((a, [x], ctx) => {
    chargeItems(ctx.runtime, a.length);
    for (const y of a) if (valuesEqual(y, x, ctx.runtime)) return true;
    return false;
  }),
  index_of: arr((a, [x, from], ctx) => {
    const start = from === undefined ? 0 : startPos(intArg(from as number | bigint), a.length);
    if (x instanceof FnPtr) return findIndex(a, ctx, x, start);
    if (typeof x === 'string') {
      // Rhai 1.x's deprecated `index_of(array, "fn_name")`: a string is first tried as the name of a
      // predicate; only when no function of that name takes the item is it searched for as a value.
      const found = findByName(a, ctx, x, start);
      if (found !== undefined) return found;
    }
    chargeItems(ctx.runtime, a.length - start);
    for (let i = start; i < a.length; i++) if (valuesEqual(a[i], x, ctx.runtime)) return i;
    return -1;
  }),
  filter: arr((a, [f], ctx) => {
    const fp = fnArg(f);
    if (!fp) return NO_MATCH;
    chargeItems(ctx.runtime, a.length);
    const out: RhaiValue[] = [];
    for (let i = 0; i < a.length; i++) {
      if (isTrue(callOnItem(ctx, fp, a, i, [], 0, i))) out.push(cloneValue(ctx.runtime, a[i]));
    }
    return out;
  }),
  map: arr((a, [f], ctx) => {
    const fp = fnArg(f);
    if (!fp) return NO_MATCH;
    chargeItems(ctx.runtime, a.length);
    const out = new Array<RhaiValue>(a.length);
    for (let i = 0; i < a.length; i++) out[i] = callOnItem(ctx, fp, a, i, [], 0, i);
    return out;
  }),
  // Rhai binds `this` to each element (changes stick) and passes the index if the callback takes it.
  for_each: arr((a, [f], ctx) => {
    chargeItems(ctx.runtime, a.length);
    const fp = f as FnPtr;
    const arity = ctx.arityOf(fp);
    for (let i = 0; i < a.length; i++) a[i] = ctx.callBound(fp, a[i], arity === 0 ? [] : [i]).thisAfter;
    return undefined;
  }),
  reduce: arr((a, rest, ctx) => reduce(a, rest, ctx, false)),
  reduce_rev: arr((a, rest, ctx) => reduce(a, rest, ctx, true)),
  some: arr((a, [f], ctx) => {
    const fp = fnArg(f);
    if (!fp) return NO_MATCH;
    chargeItems(ctx.runtime, a.length);
    for (let i = 0; i < a.length; i++) if (isTrue(callOnItem(ctx, fp, a, i, [], 0, i))) return true;
    return false;
  }),
  all: arr((a, [f], ctx) => {
    const fp = fnArg(f);
    if (!fp) return NO_MATCH;
    chargeItems(ctx.runtime, a.length);
    for (let i = 0; i < a.length; i++) if (!isTrue(callOnItem(ctx, fp, a, i, [], 0, i))) return false;
    return true;
  }),
  find: arr((a, [f, from], ctx) => {
    const start = from === undefined ? 0 : startPos(intArg(from as number | bigint), a.length);
    const i = findIndex(a, ctx, f as FnPtr, start);
    return i < 0 ? undefined : cloneValue(ctx.runtime, a[i]);
  }),
  find_map: arr((a, [f, from], ctx) => {
    chargeItems(ctx.runtime, a.length);
    const fp = f as FnPtr;
    for (let i = from === undefined ? 0 : startPos(intArg(from as number | bigint), a.length); i < a.length; i++) {
      const r = callOnItem(ctx, fp, a, i, [], 0, i);
      if (r !== undefined) return r;
    }
    return undefined;
  }),
  retain: arr((a, rest, ctx) => {
    const fp = fnArg(rest[0]);
    if (fp) return removeWhere(a, ctx, fp, false);
    chargeItems(ctx.runtime, a.length);
    const { start, count } = spanArgs(a.length, rest);
    const kept = a.slice(start, start + count);
    const removed = [...a.slice(0, start), ...a.slice(start + count)];
    a.length = 0;
    a.push(...kept);
    return removed;
  }),
  drain: arr((a, rest, ctx) => {
    const fp = fnArg(rest[0]);
    if (fp) return removeWhere(a, ctx, fp, true);
    chargeItems(ctx.runtime, a.length);
    const { start, count } = spanArgs(a.length, rest);
    return a.splice(start, count);
  }),
  splice: arr((a, rest, ctx) => {
    const items = rest[rest.length - 1] as RhaiValue[];
    const { start, count } = spanArgs(a.length, rest.slice(0, -1));
    checkArrayLength(ctx.runtime, a.length - Math.min(count, a.length - start) + items.length);
    chargeItems(ctx.runtime, a.length + items.length);
    a.splice(start, count, ...(cloneValue(ctx.runtime, items) as RhaiValue[]));
    return undefined;
  }),
  dedup: arr((a, rest, ctx) => {
    const fp = rest.length ? fnArg(rest[0]) : undefined;
    if (rest.length && !fp) return NO_MATCH;
    const out: RhaiValue[] = [];
    chargeItems(ctx.runtime, a.length);
    for (const x of a) {
      const last = out[out.length - 1];
      const same = out.length > 0 && (fp ? dedupAnswer(ctx, fp, last, x) : valuesEqual(last, x, ctx.runtime));
      if (!same) out.push(x);
    }
    a.length = 0;
    a.push(...out);
    return undefined;
  }),
  none: arr((a, [f], ctx) => {
    chargeItems(ctx.runtime, a.length);
    const fp = fnArg(f)!;
    for (let i = 0; i < a.length; i++) if (isTrue(callOnItem(ctx, fp, a, i, [], 0, i))) return false;
    return true;
  }),
  sort: arr((a, rest, ctx) => {
    sortInPlace(a, rest, ctx, false);
    return undefined;
  }),
  sort_by: arr((a, rest, ctx) => {
    sortInPlace(a, rest, ctx, false);
    return undefined;
  }),
  sort_desc: arr((a, rest, ctx) => {
    sortInPlace(a, rest, ctx, true);
    return undefined;
  }),
  // The `order` family (Rhai 1.24) returns a sorted copy and leaves the array as it was.
  order: arr((a, rest, ctx) => sortInPlace(cloneValue(ctx.runtime, a) as RhaiValue[], rest, ctx, false)),
  order_by: arr((a, rest, ctx) => sortInPlace(cloneValue(ctx.runtime, a) as RhaiValue[], rest, ctx, false)),
  order_desc: arr((a, rest, ctx) => sortInPlace(cloneValue(ctx.runtime, a) as RhaiValue[], rest, ctx, true)),
  zip: arr((a, [b, f], ctx) => {
    chargeItems(ctx.runtime, a.length);
    const fp = fnArg(f);
    if (!Array.isArray(b) || !fp) return NO_MATCH;
    const n = Math.min(a.length, b.length);
    const out: RhaiValue[] = [];
    for (let i = 0; i < n; i++)
      out.push(callWithOptional(ctx, fp, [cloneValue(ctx.runtime, a[i]), cloneValue(ctx.runtime, b[i])], [i]));
    return out;
  }),
};

/** api/deprecated.rs index_of_by_fn_name: undefined when `name` is no function taking the item. */
function findByName(a: RhaiValue[], ctx: NativeContext, name: string, start: number): number | undefined {
  if (fnNameProblem(name)) return undefined; // FnPtr::new refuses it
  try {
    return findIndex(a, ctx, new FnPtr(name), start);
  } catch (e) {
    const cause = e instanceof RhaiError ? innermost(e) : undefined;
    if (cause?.kind === 'ErrorFunctionNotFound' && cause.detail.startsWith(`Function not found: ${name}`))
      return undefined;
    throw e;
  }
}

function findIndex(a: RhaiValue[], ctx: NativeContext, fp: FnPtr, start: number): number {
  chargeItems(ctx.runtime, a.length - start);
  for (let i = start; i < a.length; i++) if (isTrue(callOnItem(ctx, fp, a, i, [], 0, i))) return i;
  return -1;
}

function reduce(a: RhaiValue[], rest: RhaiValue[], ctx: NativeContext, reverse: boolean): NativeResult {
  chargeItems(ctx.runtime, a.length);
  const fp = fnArg(rest[0]);
  if (!fp || rest.length > 2) return NO_MATCH;
  let acc: RhaiValue = rest.length === 2 ? rest[1] : undefined;
  for (let k = 0; k < a.length; k++) {
    const i = reverse ? a.length - 1 - k : k;
    acc = callOnItem(ctx, fp, a, i, [acc], 1, i);
  }
  return acc;
}
