// The native-function interface shared by every package (src/packages/*.rs).
import { RhaiError } from '../errors.ts';
import { KEYWORDS, RESERVED } from '../lexer.ts';
import { cloneValue } from '../copy.ts';
import type { Runtime } from '../runtime.ts';
import { FnPtr, RhaiChar, RhaiRange, type RhaiValue } from '../values.ts';

export const NO_MATCH: unique symbol = Symbol('no matching signature');
export type NativeResult = RhaiValue | typeof NO_MATCH;

/** What a native function may ask of the engine. */
export interface NativeContext {
  /** The run this call belongs to (its limits and counters). */
  readonly runtime: Runtime;
  /** Calls a Fn pointer (closure, script function or native) with these arguments. */
  call(fp: FnPtr, args: RhaiValue[]): RhaiValue;
  /** Calls a Fn pointer with `this` bound to `thisValue`: its result and what `this` holds afterwards. */
  callBound(fp: FnPtr, thisValue: RhaiValue, args: RhaiValue[]): { result: RhaiValue; thisAfter: RhaiValue };
  /** Number of parameters the pointer's target takes after its curried arguments, if known. */
  arityOf(fp: FnPtr): number | undefined;
  hasScriptFn(name: string, arity: number): boolean;
  print(text: string): void;
  debug(text: string): void;
}

/**
 * One native function name with all its overloads. `args[0]` is the method target, passed by
 * reference: a function that changes a string or number in place stores the new value in `args[0]`.
 */
export type NativeFn = (args: RhaiValue[], ctx: NativeContext) => NativeResult;

export type Library = Record<string, NativeFn>;

export const isIntArg = (v: RhaiValue): v is number | bigint => typeof v === 'number' || typeof v === 'bigint';

/** An INT argument as a JS number (clamped, for positions and counts). */
export function intArg(v: number | bigint): number {
  if (typeof v === 'number') return v;
  return v > 0n ? Number.MAX_SAFE_INTEGER : -Number.MAX_SAFE_INTEGER;
}

/** A position counting from the end when negative, clamped to [0, len]. */
export function startPos(start: number, len: number): number {
  if (start < 0) return Math.max(0, len + start);
  return Math.min(start, len);
}

/**
 * A range argument as Rhai's range overloads read it (`extract`, `sub_string`, `drain`, ...):
 * the start clamped to 0, an end before the start meaning an empty span (`a..=b` one longer).
 */
export function rangeSpan(r: RhaiRange): { start: number; count: number } {
  // Positions beyond the safe range only ever clamp to a container's length, so numbers do.
  const start = Math.max(Number(r.start), 0);
  const end = Math.max(Number(r.end), start);
  return { start, count: end - start + (r.inclusive ? 1 : 0) };
}

/**
 * The `(start[, len])` or range arguments of sub_string/crop/chars/extract/drain/retain/splice over
 * a sequence of `length` items: a start clipped to it (negative counts from the end) and a count.
 */
export function spanArgs(length: number, rest: RhaiValue[]): { start: number; count: number } {
  const [from, count] = rest;
  if (from instanceof RhaiRange) {
    const span = rangeSpan(from);
    return { start: Math.min(span.start, length), count: span.count };
  }
  const start = startPos(intArg(from as number | bigint), length);
  return { start, count: count === undefined ? length - start : Math.max(0, intArg(count as number | bigint)) };
}

export function textArg(v: RhaiValue): string | undefined {
  if (typeof v === 'string') return v;
  if (v instanceof RhaiChar) return v.c;
  return undefined;
}

/** Functions the language itself provides (Rhai's `is_keyword_function`); no Fn pointer may name one. */
const KEYWORD_FUNCTIONS = new Set([
  'print',
  'debug',
  'type_of',
  'eval',
  'Fn',
  'call',
  'curry',
  'is_def_var',
  'is_def_fn',
  'is_shared',
]);

/**
 * Why `name` cannot name a Fn pointer (FnPtr::try_from), if it cannot: a keyword, reserved word or
 * keyword function is `reserved`; anything that is not a name (a letter, then letters, digits, `_`)
 * is `invalid`.
 */
export function fnNameProblem(name: string): 'reserved' | 'invalid' | undefined {
  if (KEYWORDS.has(name) || RESERVED.has(name) || KEYWORD_FUNCTIONS.has(name)) return 'reserved';
  return /^[A-Za-z][A-Za-z0-9_]*$/.test(name) ? undefined : 'invalid';
}

/** A callback argument: a Fn pointer, or a function name given as a string. */
export function fnArg(v: RhaiValue): FnPtr | undefined {
  if (v instanceof FnPtr) return v;
  if (typeof v === 'string') return new FnPtr(v);
  return undefined;
}

export function runtimeError(kind: string, detail: string): RhaiError {
  return new RhaiError(kind, detail);
}

/** Calls `fp` with `args`, adding `extra` arguments when the callback takes more parameters. */
export function callWithOptional(ctx: NativeContext, fp: FnPtr, args: RhaiValue[], extra: RhaiValue[]): RhaiValue {
  const arity = ctx.arityOf(fp);
  if (arity !== undefined && arity > args.length) return ctx.call(fp, args.concat(extra.slice(0, arity - args.length)));
  return ctx.call(fp, args);
}

/**
 * Calls a callback on one item of an array or map as Rhai's `FnPtr::call_raw_with_extra_args`
 * does: a closure that takes only `args` gets the item as `this` (changes to `this` stick in the
 * container); otherwise a copy of the item is inserted at `itemAt` among `args`, followed by
 * `index` when the closure takes one more parameter.
 */
export function callOnItem(
  ctx: NativeContext,
  fp: FnPtr,
  container: RhaiValue[] | Map<string, RhaiValue>,
  key: number | string,
  args: RhaiValue[],
  itemAt: number,
  index?: number,
): RhaiValue {
  const item = Array.isArray(container) ? container[key as number] : container.get(key as string);
  const arity = ctx.arityOf(fp);
  if (arity === args.length) {
    const { result, thisAfter } = ctx.callBound(fp, item, args);
    if (Array.isArray(container)) container[key as number] = thisAfter;
    else container.set(key as string, thisAfter);
    return result;
  }
  const copy = cloneValue(ctx.runtime, item);
  const full = args.length === 0 ? [copy] : [...args.slice(0, itemAt), copy, ...args.slice(itemAt)];
  if (index !== undefined && arity !== undefined && arity > full.length) full.push(index);
  return ctx.call(fp, full);
}

/** A predicate callback's answer as Rhai reads it (`as_bool().unwrap_or(false)`): only `true` is true. */
export function isTrue(v: RhaiValue): boolean {
  return v === true;
}
